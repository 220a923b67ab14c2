// vkcopy: the rate of copies between imported host memory (VK_EXT_external_memory_host,
// as goamp's pinned Synchronize uses) and device-local memory, measured without Go, on
// each kind of queue: the compute queue goamp uses, a transfer-only queue (the copy
// engines), and two transfer queues each copying half.
//
//   cc -O2 -Iinternal/vk/third_party/vulkan-headers -o vkcopy scripts/vkcopy.c -l:libvulkan.so.1
//   ./vkcopy [MiB] [reps] [device] [huge]
//
// With huge set to 1 the host memory is 2 MiB-aligned and advised MADV_HUGEPAGE before
// its pages are touched (transparent huge pages, where the kernel allows them).
// It prints GB/s (10^9 bytes a second, wall time from submit to fence) per direction and
// queue, median of reps.
#define _DEFAULT_SOURCE
#define _ISOC11_SOURCE
#include <vulkan/vulkan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#define CHECK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, r_); exit(1); } } while (0)

static uint64_t now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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

// buffer makes a buffer of size bytes: imported from host when host is set, else device-local.
static VkBuffer buffer(VkDeviceSize size, void *host) {
	VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
		.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = host ? &ext : NULL, .size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, .sharingMode = VK_SHARING_MODE_CONCURRENT};
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

int main(int argc, char **argv) {
	VkDeviceSize mib = argc > 1 ? (VkDeviceSize)atoll(argv[1]) : 256;
	int reps = argc > 2 ? atoi(argv[2]) : 10;
	uint32_t devIndex = argc > 3 ? (uint32_t)atoi(argv[3]) : 0;
	int huge = argc > 4 && atoi(argv[4]) != 0;
	VkDeviceSize size = mib << 20;
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
	VkInstance inst;
	CHECK(vkCreateInstance(&ici, NULL, &inst));
	uint32_t nd = 0;
	CHECK(vkEnumeratePhysicalDevices(inst, &nd, NULL));
	VkPhysicalDevice pds[16];
	if (nd > 16) nd = 16;
	CHECK(vkEnumeratePhysicalDevices(inst, &nd, pds));
	if (devIndex >= nd) {
		fprintf(stderr, "no device %u\n", devIndex);
		return 1;
	}
	phys = pds[devIndex];
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
	VkBuffer hb = buffer(size, host), db = buffer(size, NULL);
	printf("%s, %llu MiB, %d reps, host alignment %zu, huge pages %d\n", props.deviceName, (unsigned long long)mib, reps, align, huge);

	struct { const char *name; uint32_t fam; int n; } runs[] = {{"compute queue", (uint32_t)compute, 1},
		{"transfer queue", (uint32_t)transfer, 1}, {"2 transfer queues", (uint32_t)transfer, 2}};
	for (int r = 0; r < 3; r++) {
		if ((r > 0 && !tq) || runs[r].n > (int)(r ? tq : 1)) continue;
		VkQueue q[2];
		VkCommandBuffer cb[2];
		VkFence f[2];
		for (int i = 0; i < runs[r].n; i++) {
			vkGetDeviceQueue(dev, runs[r].fam, (uint32_t)i, &q[i]);
			VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
				.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = runs[r].fam};
			VkCommandPool pool;
			CHECK(vkCreateCommandPool(dev, &pci, NULL, &pool));
			VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
				.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
			CHECK(vkAllocateCommandBuffers(dev, &cai, &cb[i]));
			VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
			CHECK(vkCreateFence(dev, &fci, NULL, &f[i]));
		}
		for (int dir = 0; dir < 2; dir++) {
			double g[64];
			int nr = reps > 64 ? 64 : reps;
			copy(q, cb, runs[r].n, dir ? db : hb, dir ? hb : db, size, f); // warm-up
			for (int i = 0; i < nr; i++) g[i] = copy(q, cb, runs[r].n, dir ? db : hb, dir ? hb : db, size, f);
			qsort(g, (size_t)nr, sizeof(double), cmpd);
			printf("%s, %s: median %.1f GB/s (min %.1f, max %.1f)\n", runs[r].name, dir ? "down" : "up", g[nr / 2], g[0], g[nr - 1]);
		}
	}
	return 0;
}
