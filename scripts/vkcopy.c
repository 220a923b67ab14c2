// vkcopy: the rate of copies between imported host memory (VK_EXT_external_memory_host,
// as goamp's pinned Synchronize uses) and device-local memory, measured without Go, on
// each kind of queue: the compute queue goamp uses, a transfer-only queue (the copy
// engines), and two transfer queues each copying half; and by a compute shader on the
// compute queue that reads one buffer and writes the other (the SMs' own loads and stores
// over the bus, in place of a copy engine), with several grid sizes.
//
//   cc -O2 -Iinternal/vk/third_party/vulkan-headers -o vkcopy scripts/vkcopy.c -l:libvulkan.so.1
//   ./vkcopy [MiB] [reps] [device] [huge]
//
// VKCOPY_ALLOC=1 copies from and to host-visible memory the driver allocates instead.
// VKCOPY_TYPE=k imports into the k-th memory type the import allows (each is printed).
// With huge set to 1 the host memory is 2 MiB-aligned and advised MADV_HUGEPAGE before
// its pages are touched (transparent huge pages, where the kernel allows them).
// It prints GB/s (10^9 bytes a second, wall time from submit to fence) per direction and
// queue, median of reps.
#define _DEFAULT_SOURCE
#define _ISOC11_SOURCE
#include <string.h>
#include <sys/mman.h>
#include "vkprobe.h"

static int cmpd(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static VkDevice dev;
static VkPhysicalDevice phys;

static uint32_t memType(uint32_t bits, VkMemoryPropertyFlags want) {
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(phys, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
		if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
	}
	fprintf(stderr, "no memory type for bits %x flags %x\n", bits, want);
	exit(1);
}

// buffer makes a buffer of size bytes: imported from host when host is set, else
// host-visible memory the driver allocates when driverHost is set, else device-local.
static VkBuffer buffer(VkDeviceSize size, void *host, int driverHost) {
	VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
		.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = host ? &ext : NULL, .size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, .sharingMode = VK_SHARING_MODE_CONCURRENT};
	uint32_t fams[8];
	uint32_t nf = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nf, NULL);
	if (nf > 8) nf = 8;
	for (uint32_t i = 0; i < nf; i++) fams[i] = i;
	bci.queueFamilyIndexCount = nf;
	bci.pQueueFamilyIndices = fams;
	VkBuffer b;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &b));
	VkMemoryRequirements req;
	vkGetBufferMemoryRequirements(dev, b, &req);
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size};
	VkImportMemoryHostPointerInfoEXT imp = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
		.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, .pHostPointer = host};
	if (host) {
		PFN_vkGetMemoryHostPointerPropertiesEXT get = (PFN_vkGetMemoryHostPointerPropertiesEXT)vkGetDeviceProcAddr(dev, "vkGetMemoryHostPointerPropertiesEXT");
		VkMemoryHostPointerPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
		CHECK(get(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host, &hp));
		mai.pNext = &imp;
		mai.allocationSize = size;
		mai.memoryTypeIndex = memType(req.memoryTypeBits & hp.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
		// VKCOPY_TYPE=k takes the k-th memory type the import allows instead (0: the first).
		VkPhysicalDeviceMemoryProperties mp;
		vkGetPhysicalDeviceMemoryProperties(phys, &mp);
		const char *want = getenv("VKCOPY_TYPE");
		for (uint32_t i = 0, k = 0; i < mp.memoryTypeCount; i++) {
			if (!(req.memoryTypeBits & hp.memoryTypeBits & (1u << i))) continue;
			printf("import memory type %u: flags %x, heap %u\n", i, mp.memoryTypes[i].propertyFlags, mp.memoryTypes[i].heapIndex);
			if (want && (uint32_t)atoi(want) == k) mai.memoryTypeIndex = i;
			k++;
		}
		printf("import memory type used: %u\n", mai.memoryTypeIndex);
	} else if (driverHost) {
		mai.memoryTypeIndex = memType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
		printf("host memory allocated by the driver: type %u\n", mai.memoryTypeIndex);
	} else {
		mai.memoryTypeIndex = memType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	}
	VkDeviceMemory m;
	CHECK(vkAllocateMemory(dev, &mai, NULL, &m));
	CHECK(vkBindBufferMemory(dev, b, m, 0));
	return b;
}

// copy times one copy of size bytes from src to dst, split evenly over the n queues.
static double copy(VkQueue *q, VkCommandBuffer *cb, int n, VkBuffer src, VkBuffer dst, VkDeviceSize size, VkFence *f) {
	VkDeviceSize part = size / n;
	for (int i = 0; i < n; i++) {
		VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
		CHECK(vkBeginCommandBuffer(cb[i], &bi));
		VkBufferCopy r = {.srcOffset = part * i, .dstOffset = part * i, .size = i == n - 1 ? size - part * i : part};
		vkCmdCopyBuffer(cb[i], src, dst, 1, &r);
		CHECK(vkEndCommandBuffer(cb[i]));
	}
	uint64_t t0 = now();
	for (int i = 0; i < n; i++) {
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb[i]};
		CHECK(vkQueueSubmit(q[i], 1, &si, f[i]));
	}
	CHECK(vkWaitForFences(dev, n, f, VK_TRUE, UINT64_MAX));
	uint64_t t1 = now();
	CHECK(vkResetFences(dev, n, f));
	return (double)size / (double)(t1 - t0);
}

// copySPIRV is glslc -O --target-env=vulkan1.1 -mfmt=c of:
//   #version 450
//   layout(local_size_x = 256) in;
//   layout(std430, binding = 0) readonly buffer S { uvec4 s[]; };
//   layout(std430, binding = 1) writeonly buffer D { uvec4 d[]; };
//   layout(push_constant) uniform P { uint n; } p;
//   void main() {
//   	uint stride = gl_NumWorkGroups.x * 256u;
//   	for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride) d[i] = s[i];
//   }
static const uint32_t copySPIRV[] = {0x07230203,0x00010300,0x000d000b,0x0000003b,
0x00000000,0x00020011,0x00000001,0x0006000b,
0x00000001,0x4c534c47,0x6474732e,0x3035342e,
0x00000000,0x0003000e,0x00000000,0x00000001,
0x0007000f,0x00000005,0x00000004,0x6e69616d,
0x00000000,0x0000000b,0x00000013,0x00060010,
0x00000004,0x00000011,0x00000100,0x00000001,
0x00000001,0x00040047,0x0000000b,0x0000000b,
0x00000018,0x00040047,0x00000013,0x0000000b,
0x0000001c,0x00050048,0x0000001c,0x00000000,
0x00000023,0x00000000,0x00030047,0x0000001c,
0x00000002,0x00040047,0x00000027,0x00000006,
0x00000010,0x00040048,0x00000028,0x00000000,
0x00000019,0x00050048,0x00000028,0x00000000,
0x00000023,0x00000000,0x00030047,0x00000028,
0x00000002,0x00040047,0x0000002a,0x00000022,
0x00000000,0x00040047,0x0000002a,0x00000021,
0x00000001,0x00040047,0x0000002c,0x00000006,
0x00000010,0x00040048,0x0000002d,0x00000000,
0x00000018,0x00050048,0x0000002d,0x00000000,
0x00000023,0x00000000,0x00030047,0x0000002d,
0x00000002,0x00040047,0x0000002f,0x00000022,
0x00000000,0x00040047,0x0000002f,0x00000021,
0x00000000,0x00040047,0x00000039,0x0000000b,
0x00000019,0x00020013,0x00000002,0x00030021,
0x00000003,0x00000002,0x00040015,0x00000006,
0x00000020,0x00000000,0x00040017,0x00000009,
0x00000006,0x00000003,0x00040020,0x0000000a,
0x00000001,0x00000009,0x0004003b,0x0000000a,
0x0000000b,0x00000001,0x0004002b,0x00000006,
0x0000000c,0x00000000,0x00040020,0x0000000d,
0x00000001,0x00000006,0x0004002b,0x00000006,
0x00000010,0x00000100,0x0004003b,0x0000000a,
0x00000013,0x00000001,0x0003001e,0x0000001c,
0x00000006,0x00040020,0x0000001d,0x00000009,
0x0000001c,0x0004003b,0x0000001d,0x0000001e,
0x00000009,0x00040015,0x0000001f,0x00000020,
0x00000001,0x0004002b,0x0000001f,0x00000020,
0x00000000,0x00040020,0x00000021,0x00000009,
0x00000006,0x00020014,0x00000024,0x00040017,
0x00000026,0x00000006,0x00000004,0x0003001d,
0x00000027,0x00000026,0x0003001e,0x00000028,
0x00000027,0x00040020,0x00000029,0x0000000c,
0x00000028,0x0004003b,0x00000029,0x0000002a,
0x0000000c,0x0003001d,0x0000002c,0x00000026,
0x0003001e,0x0000002d,0x0000002c,0x00040020,
0x0000002e,0x0000000c,0x0000002d,0x0004003b,
0x0000002e,0x0000002f,0x0000000c,0x00040020,
0x00000031,0x0000000c,0x00000026,0x0004002b,
0x00000006,0x00000038,0x00000001,0x0006002c,
0x00000009,0x00000039,0x00000010,0x00000038,
0x00000038,0x00050036,0x00000002,0x00000004,
0x00000000,0x00000003,0x000200f8,0x00000005,
0x00050041,0x0000000d,0x0000000e,0x0000000b,
0x0000000c,0x0004003d,0x00000006,0x0000000f,
0x0000000e,0x00050084,0x00000006,0x00000011,
0x0000000f,0x00000010,0x00050041,0x0000000d,
0x00000014,0x00000013,0x0000000c,0x0004003d,
0x00000006,0x00000015,0x00000014,0x000200f9,
0x00000016,0x000200f8,0x00000016,0x000700f5,
0x00000006,0x0000003a,0x00000015,0x00000005,
0x00000037,0x00000017,0x00050041,0x00000021,
0x00000022,0x0000001e,0x00000020,0x0004003d,
0x00000006,0x00000023,0x00000022,0x000500b0,
0x00000024,0x00000025,0x0000003a,0x00000023,
0x000400f6,0x00000018,0x00000017,0x00000000,
0x000400fa,0x00000025,0x00000017,0x00000018,
0x000200f8,0x00000017,0x00060041,0x00000031,
0x00000032,0x0000002f,0x00000020,0x0000003a,
0x0004003d,0x00000026,0x00000033,0x00000032,
0x00060041,0x00000031,0x00000034,0x0000002a,
0x00000020,0x0000003a,0x0003003e,0x00000034,
0x00000033,0x00050080,0x00000006,0x00000037,
0x0000003a,0x00000011,0x000200f9,0x00000016,
0x000200f8,0x00000018,0x000100fd,0x00010038};

// shaderCopy is a compute pipeline of copySPIRV and its two descriptor sets: set 0 reads a
// and writes b, set 1 the other way.
typedef struct {
	VkPipeline pipe;
	VkPipelineLayout layout;
	VkDescriptorSet set[2];
} shaderCopy;

static shaderCopy makeShaderCopy(VkBuffer a, VkBuffer b) {
	shaderCopy sc;
	VkShaderModuleCreateInfo smi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = sizeof copySPIRV, .pCode = copySPIRV};
	VkShaderModule mod;
	CHECK(vkCreateShaderModule(dev, &smi, NULL, &mod));
	VkDescriptorSetLayout dl;
	storageLayout(dev, 2, 0, 4, &dl, &sc.layout);
	VkComputePipelineCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .layout = sc.layout,
		.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = mod, .pName = "main"}};
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &sc.pipe));
	VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 4};
	VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2, .poolSizeCount = 1, .pPoolSizes = &ps};
	VkDescriptorPool pool;
	CHECK(vkCreateDescriptorPool(dev, &dpi, NULL, &pool));
	VkDescriptorSetLayout dls[2] = {dl, dl};
	VkDescriptorSetAllocateInfo dai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = pool, .descriptorSetCount = 2, .pSetLayouts = dls};
	CHECK(vkAllocateDescriptorSets(dev, &dai, sc.set));
	for (int i = 0; i < 2; i++) {
		VkDescriptorBufferInfo bi[2] = {{.buffer = i ? b : a, .range = VK_WHOLE_SIZE}, {.buffer = i ? a : b, .range = VK_WHOLE_SIZE}};
		VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sc.set[i], .descriptorCount = 2,
			.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = bi};
		vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
	}
	return sc;
}

// runShaderCopy times one shader copy of size bytes in direction dir (set dir) with groups
// workgroups.
static double runShaderCopy(VkQueue q, VkCommandBuffer cb, VkFence f, shaderCopy *sc, int dir, VkDeviceSize size, uint32_t groups) {
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	CHECK(vkBeginCommandBuffer(cb, &bi));
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, sc->pipe);
	vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, sc->layout, 0, 1, &sc->set[dir], 0, NULL);
	uint32_t n = (uint32_t)(size / 16);
	vkCmdPushConstants(cb, sc->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &n);
	vkCmdDispatch(cb, groups, 1, 1);
	CHECK(vkEndCommandBuffer(cb));
	uint64_t t0 = now();
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
	CHECK(vkQueueSubmit(q, 1, &si, f));
	CHECK(vkWaitForFences(dev, 1, &f, VK_TRUE, UINT64_MAX));
	uint64_t t1 = now();
	CHECK(vkResetFences(dev, 1, &f));
	return (double)size / (double)(t1 - t0);
}

// queueCmd gets queue index of family fam, a command buffer of its own pool and a fence.
static void queueCmd(uint32_t fam, uint32_t index, VkQueue *q, VkCommandBuffer *cb, VkFence *f) {
	vkGetDeviceQueue(dev, fam, index, q);
	VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = fam};
	VkCommandPool pool;
	CHECK(vkCreateCommandPool(dev, &pci, NULL, &pool));
	VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
		.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
	CHECK(vkAllocateCommandBuffers(dev, &cai, cb));
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	CHECK(vkCreateFence(dev, &fci, NULL, f));
}

// report prints the median, least and most of the nr rates g (GB/s) of what in direction
// dir (0 up, 1 down).
static void report(const char *what, int dir, double *g, int nr) {
	qsort(g, (size_t)nr, sizeof(double), cmpd);
	printf("%s, %s: median %.1f GB/s (min %.1f, max %.1f)\n", what, dir ? "down" : "up", g[nr / 2], g[0], g[nr - 1]);
}

int main(int argc, char **argv) {
	VkDeviceSize mib = argc > 1 ? (VkDeviceSize)atoll(argv[1]) : 256;
	int reps = argc > 2 ? atoi(argv[2]) : 10;
	uint32_t devIndex = argc > 3 ? (uint32_t)atoi(argv[3]) : 0;
	int huge = argc > 4 && atoi(argv[4]) != 0;
	VkDeviceSize size = mib << 20;
	phys = physicalDevice(devIndex);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(phys, &props);
	uint32_t nf = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nf, NULL);
	VkQueueFamilyProperties fp[16];
	if (nf > 16) nf = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(phys, &nf, fp);
	int compute = -1, transfer = -1;
	for (uint32_t i = 0; i < nf; i++) {
		VkQueueFlags fl = fp[i].queueFlags;
		if (compute < 0 && (fl & VK_QUEUE_COMPUTE_BIT)) compute = (int)i;
		if (transfer < 0 && (fl & VK_QUEUE_TRANSFER_BIT) && !(fl & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT))) transfer = (int)i;
		printf("family %u: flags %x, %u queues\n", i, fl, fp[i].queueCount);
	}
	uint32_t tq = transfer >= 0 ? (fp[transfer].queueCount < 2 ? fp[transfer].queueCount : 2) : 0;
	float prio[2] = {1, 1};
	VkDeviceQueueCreateInfo qci[2] = {
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = (uint32_t)compute, .queueCount = 1, .pQueuePriorities = prio},
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = (uint32_t)transfer, .queueCount = tq, .pQueuePriorities = prio},
	};
	const char *exts[] = {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = tq ? 2 : 1, .pQueueCreateInfos = qci,
		.enabledExtensionCount = 1, .ppEnabledExtensionNames = exts};
	CHECK(vkCreateDevice(phys, &dci, NULL, &dev));
	VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &hp};
	vkGetPhysicalDeviceProperties2(phys, &p2);
	size_t align = (size_t)hp.minImportedHostPointerAlignment;
	if (huge && align < (2u << 20)) align = 2u << 20;
	void *host = aligned_alloc(align, (size_t)size);
	if (huge && madvise(host, (size_t)size, MADV_HUGEPAGE) != 0) perror("madvise");
	memset(host, 1, (size_t)size); // the pages exist, as a Go slice's do
	// VKCOPY_ALLOC=1: the host side is host-visible memory the driver allocates (pinned by
	// the driver, as a staging buffer is), not an import.
	int driverHost = getenv("VKCOPY_ALLOC") != NULL;
	VkBuffer hb = buffer(size, driverHost ? NULL : host, driverHost), db = buffer(size, NULL, 0);
	printf("%s, %llu MiB, %d reps, host alignment %zu, huge pages %d\n", props.deviceName, (unsigned long long)mib, reps, align, huge);

	struct { const char *name; uint32_t fam; int n; } runs[] = {{"compute queue", (uint32_t)compute, 1},
		{"transfer queue", (uint32_t)transfer, 1}, {"2 transfer queues", (uint32_t)transfer, 2}};
	for (int r = 0; r < 3; r++) {
		if ((r > 0 && !tq) || runs[r].n > (int)(r ? tq : 1)) continue;
		VkQueue q[2];
		VkCommandBuffer cb[2];
		VkFence f[2];
		for (int i = 0; i < runs[r].n; i++) queueCmd(runs[r].fam, (uint32_t)i, &q[i], &cb[i], &f[i]);
		for (int dir = 0; dir < 2; dir++) {
			double g[64];
			int nr = reps > 64 ? 64 : reps;
			copy(q, cb, runs[r].n, dir ? db : hb, dir ? hb : db, size, f); // warm-up
			for (int i = 0; i < nr; i++) g[i] = copy(q, cb, runs[r].n, dir ? db : hb, dir ? hb : db, size, f);
			report(runs[r].name, dir, g, nr);
		}
	}
	// The shader copy: set 0 reads the host memory (up), set 1 writes it (down).
	shaderCopy sc = makeShaderCopy(hb, db);
	VkQueue q;
	VkCommandBuffer cb;
	VkFence f;
	queueCmd((uint32_t)compute, 0, &q, &cb, &f);
	uint32_t grids[] = {132, 528, 2112, 8448, 65535};
	for (int gi = 0; gi < 5; gi++) {
		char what[64];
		snprintf(what, sizeof what, "shader copy, %u workgroups", grids[gi]);
		for (int dir = 0; dir < 2; dir++) {
			double g[64];
			int nr = reps > 64 ? 64 : reps;
			runShaderCopy(q, cb, f, &sc, dir, size, grids[gi]); // warm-up
			for (int i = 0; i < nr; i++) g[i] = runShaderCopy(q, cb, f, &sc, dir, size, grids[gi]);
			report(what, dir, g, nr);
		}
	}
	return 0;
}
