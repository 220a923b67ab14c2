// vklatency: the driver-level cost of one tiny compute dispatch, measured without Go, to see
// where goamp's dispatch overhead goes and which completion path is cheapest on a device.
//
//   cc -O2 -Iinternal/vk/third_party/vulkan-headers -o vklatency scripts/vklatency.c -l:libvulkan.so.1
//   ./vklatency internal/vk/testdata/iota.spv [device]
//
// It reports CPU recording time per dispatch, GPU time per dependent dispatch, and for a
// one-dispatch submission the round trip with each way of learning that it finished: fence
// polling, a blocking fence wait, timeline-semaphore polling, a blocking semaphore wait, and
// a GPU-written host-visible counter; and a pre-recorded command buffer submitted again.
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include "vkprobe.h"

static VkDevice dev;
static VkQueue queue;
static VkPipeline pipe;
static VkPipelineLayout layout;
static VkBuffer buf, counter;
static volatile uint32_t *counterMap;
static PFN_vkCmdPushDescriptorSetKHR pushDesc;
static VkShaderModule shaderModule;

static int cmp(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double median_us(uint64_t *v, int n) {
	qsort(v, n, sizeof(*v), cmp);
	return v[n / 2] / 1e3;
}

static void begin(VkCommandBuffer cb, VkCommandBufferUsageFlags flags) {
	CHECK(vkResetCommandBuffer(cb, 0));
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = flags};
	CHECK(vkBeginCommandBuffer(cb, &bi));
}

static void bind(VkCommandBuffer cb) {
	vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	VkDescriptorBufferInfo bi[2] = {{buf, 0, 4096}, {buf, 0, 4096}};
	VkWriteDescriptorSet w[2];
	for (int i = 0; i < 2; i++)
		w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i,
			.descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[i]};
	pushDesc(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, w);
	uint32_t pc[2] = {64, 2};
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
}

// Barrier kinds between dependent dispatches.
enum { B_NONE, B_FULL, B_WAW, B_RAW, B_EXEC, B_BUFFER, B_SYNC2, NBARRIERS };
static const char *barrierName[] = {"none", "full (rw->rw)", "write->write", "write->read", "execution only", "buffer range w->rw", "sync2 (rw->rw)"};
static PFN_vkCmdPipelineBarrier2 barrier2; // null without synchronization2

static void computeBarrier(VkCommandBuffer cb, int kind) {
	VkAccessFlags src = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT, dst = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
	if (kind == B_WAW) src = dst = VK_ACCESS_SHADER_WRITE_BIT;
	if (kind == B_RAW) src = VK_ACCESS_SHADER_WRITE_BIT, dst = VK_ACCESS_SHADER_READ_BIT;
	if (kind == B_SYNC2) {
		VkMemoryBarrier2 m2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
			.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, .srcAccessMask = VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT,
			.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, .dstAccessMask = VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT};
		VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &m2};
		barrier2(cb, &di);
		return;
	}
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src, .dstAccessMask = dst};
	VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = dst, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.buffer = buf, .offset = 0, .size = 256};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
		kind == B_EXEC || kind == B_BUFFER ? 0 : 1, &mb, kind == B_BUFFER ? 1 : 0, &bb, 0, NULL);
}

// finish ends a batch as goamp does: make its writes available to the host. With count, a
// transfer then writes value into the host-visible counter; with host 0, no barrier at all.
static int host = 1;
static void finish(VkCommandBuffer cb, int count, uint32_t value) {
	if (!host) {
		CHECK(vkEndCommandBuffer(cb));
		return;
	}
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
		VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	if (count) {
		vkCmdFillBuffer(cb, counter, 0, 4, value);
		VkMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
		vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &hb, 0, NULL, 0, NULL);
	}
	CHECK(vkEndCommandBuffer(cb));
}

static void record(VkCommandBuffer cb, int n, int barrier) {
	bind(cb);
	for (int i = 0; i < n; i++) {
		if (barrier != B_NONE && i > 0) computeBarrier(cb, barrier);
		vkCmdDispatch(cb, 1, 1, 1);
	}
}

static void submit(VkCommandBuffer cb, VkFence f, VkSemaphore tl, uint64_t value) {
	VkTimelineSemaphoreSubmitInfo ts = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.signalSemaphoreValueCount = 1, .pSignalSemaphoreValues = &value};
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
	if (tl) {
		si.pNext = &ts;
		si.signalSemaphoreCount = 1;
		si.pSignalSemaphores = &tl;
	}
	CHECK(vkQueueSubmit(queue, 1, &si, f));
}

static void fenceWait(VkFence f) {
	CHECK(vkWaitForFences(dev, 1, &f, VK_TRUE, UINT64_MAX));
	CHECK(vkResetFences(dev, 1, &f));
}

static uint32_t fams[16], qflags[16], nfam;
static VkFence fence;
static VkSemaphore tl;

// makePipeline builds the iota pipeline: two storage buffers (in a push-descriptor set
// layout, or an ordinary one, returned in dsl) and 8 bytes of push constants.
static void makePipeline(VkShaderModule mod, int pushDescriptors, VkDescriptorSetLayout *dsl, VkPipelineLayout *pl, VkPipeline *pp) {
	storageLayout(dev, 2, pushDescriptors ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0, 8, dsl, pl);
	uint32_t local = 64;
	VkSpecializationMapEntry me = {0, 0, 4};
	VkSpecializationInfo si = {1, &me, 4, &local};
	VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = mod, .pName = "main", .pSpecializationInfo = &si}, .layout = *pl};
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, pp));
}

static void setup(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: vklatency SPV [device-index]\n");
		exit(2);
	}
	FILE *fp = fopen(argv[1], "rb");
	if (!fp) { perror(argv[1]); exit(1); }
	static uint32_t code[1 << 16];
	size_t codeBytes = fread(code, 1, sizeof(code), fp);
	fclose(fp);

	int want = argc > 2 ? atoi(argv[2]) : 0;
	VkPhysicalDevice pd = physicalDevice((uint32_t)want);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(pd, &props);
	printf("device %d: %s\n", want, props.deviceName);

	uint32_t nf = 16;
	VkQueueFamilyProperties qf[16];
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nf, qf);
	float prio = 1;
	VkDeviceQueueCreateInfo qcis[16];
	for (uint32_t i = 0; i < nf; i++)
		if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
			qcis[nfam] = (VkDeviceQueueCreateInfo){.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
				.queueFamilyIndex = i, .queueCount = 1, .pQueuePriorities = &prio};
			qflags[nfam] = qf[i].queueFlags;
			fams[nfam++] = i;
		}
	VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .synchronization2 = VK_TRUE};
	VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .timelineSemaphore = VK_TRUE,
		.pNext = props.apiVersion >= VK_API_VERSION_1_3 ? &f13 : NULL};
	const char *exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f12, .queueCreateInfoCount = nfam,
		.pQueueCreateInfos = qcis, .enabledExtensionCount = 1, .ppEnabledExtensionNames = exts};
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
	pushDesc = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR");
	if (props.apiVersion >= VK_API_VERSION_1_3) barrier2 = (PFN_vkCmdPipelineBarrier2)vkGetDeviceProcAddr(dev, "vkCmdPipelineBarrier2");

	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	VkBuffer *bufs[2] = {&buf, &counter};
	uint32_t wantFlags[2] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
	for (int k = 0; k < 2; k++) {
		VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096,
			.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
		CHECK(vkCreateBuffer(dev, &bci, NULL, bufs[k]));
		VkMemoryRequirements req;
		vkGetBufferMemoryRequirements(dev, *bufs[k], &req);
		uint32_t t = 0;
		for (; t < mp.memoryTypeCount; t++)
			if ((req.memoryTypeBits & (1u << t)) && (mp.memoryTypes[t].propertyFlags & wantFlags[k]) == wantFlags[k]) break;
		VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = t};
		VkDeviceMemory mem;
		CHECK(vkAllocateMemory(dev, &mai, NULL, &mem));
		CHECK(vkBindBufferMemory(dev, *bufs[k], mem, 0));
		if (k == 1) CHECK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&counterMap));
	}

	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = codeBytes, .pCode = code};
	VkShaderModule mod;
	CHECK(vkCreateShaderModule(dev, &smci, NULL, &mod));
	shaderModule = mod;
	VkDescriptorSetLayout dsl;
	makePipeline(mod, 1, &dsl, &layout, &pipe);
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	CHECK(vkCreateFence(dev, &fci, NULL, &fence));
	VkSemaphoreTypeCreateInfo stci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &stci};
	CHECK(vkCreateSemaphore(dev, &sci, NULL, &tl));
}

static VkCommandPool pool;
static uint64_t tlValue;

enum { REPS = 400 };
static uint64_t rec[REPS], sub[REPS], wt[REPS], tot[REPS];

// roundTrip submits cb (or nothing, with cb NULL) and polls the timeline semaphore.
static double roundTrip(VkCommandBuffer cb, int reps) {
	for (int r = 0; r < reps; r++) {
		uint64_t t0 = now();
		VkTimelineSemaphoreSubmitInfo ts = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
			.signalSemaphoreValueCount = 1, .pSignalSemaphoreValues = &(uint64_t){++tlValue}};
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ts, .commandBufferCount = cb ? 1 : 0,
			.pCommandBuffers = &cb, .signalSemaphoreCount = 1, .pSignalSemaphores = &tl};
		CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
		uint64_t v = 0;
		while (v < tlValue) CHECK(vkGetSemaphoreCounterValue(dev, tl, &v));
		tot[r] = now() - t0;
	}
	return median_us(tot, reps);
}

static void warm(VkCommandBuffer cb, double seconds) {
	for (uint64_t t0 = now(); now() - t0 < (uint64_t)(seconds * 1e9);) {
		begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
		record(cb, 512, B_FULL);
		finish(cb, 0, 0);
		submit(cb, fence, VK_NULL_HANDLE, 0);
		fenceWait(fence);
	}
}

static void perCallCosts(VkCommandBuffer cb) {
	enum { N = 512 };
	uint64_t best[8] = {0};
	const char *names[] = {"begin", "bind pipeline", "push descriptors", "push constants", "dispatch", "barrier full", "barrier execution only", "end"};
	for (int rep = 0; rep < 50; rep++) {
		uint64_t t[8];
		uint64_t a = now();
		begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
		t[0] = now() - a;
		VkDescriptorBufferInfo bi[2] = {{buf, 0, 4096}, {buf, 0, 4096}};
		VkWriteDescriptorSet w[2];
		for (int i = 0; i < 2; i++)
			w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i,
				.descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[i]};
		uint32_t pc[2] = {64, 2};
		a = now();
		for (int i = 0; i < N; i++) vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
		t[1] = now() - a; a = now();
		for (int i = 0; i < N; i++) pushDesc(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, w);
		t[2] = now() - a; a = now();
		for (int i = 0; i < N; i++) vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
		t[3] = now() - a; a = now();
		for (int i = 0; i < N; i++) vkCmdDispatch(cb, 1, 1, 1);
		t[4] = now() - a; a = now();
		for (int i = 0; i < N; i++) computeBarrier(cb, B_FULL);
		t[5] = now() - a; a = now();
		for (int i = 0; i < N; i++) computeBarrier(cb, B_EXEC);
		t[6] = now() - a; a = now();
		host = 0;
		finish(cb, 0, 0);
		host = 1;
		t[7] = now() - a;
		for (int k = 0; k < 8; k++) {
			uint64_t per = (k == 0 || k == 7) ? t[k] * N : t[k];
			if (rep == 0 || per < best[k]) best[k] = per;
		}
	}
	printf("CPU cost per call (best of 50 batches of %d):", N);
	for (int k = 0; k < 8; k++) printf(" %s %.3f us;", names[k], best[k] / (double)N / 1e3);
	printf("\n");
}

// realisticCosts: the CPU cost of what goamp records per dispatch when a dispatch binds other
// buffers and push constants than the one before: push descriptors against bound descriptor
// sets, and a barrier every eighth dispatch.
enum { K = 8 };
static VkPipelineLayout layout2;
static VkDescriptorSet sets[K];
static VkPipeline pipe2;

static void realisticCosts(VkCommandBuffer cb, VkPhysicalDeviceMemoryProperties *mp) {
	enum { N = 512 };
	VkBuffer outs[K];
	for (int k = 0; k < K; k++) {
		VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096,
			.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
		CHECK(vkCreateBuffer(dev, &bci, NULL, &outs[k]));
		VkMemoryRequirements req;
		vkGetBufferMemoryRequirements(dev, outs[k], &req);
		uint32_t t = 0;
		while (!(req.memoryTypeBits & (1u << t))) t++;
		VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = t};
		VkDeviceMemory mem;
		CHECK(vkAllocateMemory(dev, &mai, NULL, &mem));
		CHECK(vkBindBufferMemory(dev, outs[k], mem, 0));
	}
	(void)mp;
	// A second layout with ordinary descriptor sets, and K sets, one per output buffer.
	VkDescriptorSetLayout dsl2;
	makePipeline(shaderModule, 0, &dsl2, &layout2, &pipe2);
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * K};
	VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = K, .poolSizeCount = 1, .pPoolSizes = &ps};
	VkDescriptorPool dp;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
	VkDescriptorSetLayout layouts[K];
	for (int k = 0; k < K; k++) layouts[k] = dsl2;
	VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = dp,
		.descriptorSetCount = K, .pSetLayouts = layouts};
	CHECK(vkAllocateDescriptorSets(dev, &dsai, sets));
	for (int k = 0; k < K; k++) {
		VkDescriptorBufferInfo bi[2] = {{buf, 0, 4096}, {outs[k], 0, 4096}};
		VkWriteDescriptorSet w[2];
		for (int i = 0; i < 2; i++)
			w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[k], .dstBinding = i,
				.descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[i]};
		vkUpdateDescriptorSets(dev, 2, w, 0, NULL);
	}

	const char *names[] = {"push descriptors + push constants + dispatch", "bound descriptor set + push constants + dispatch", "push constants + dispatch", "dispatch"};
	for (int variant = 0; variant < 4; variant++) {
		uint64_t best = 0;
		for (int rep = 0; rep < 50; rep++) {
			begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, variant == 1 ? pipe2 : pipe);
			if (variant >= 2) {
				VkDescriptorBufferInfo bi[2] = {{buf, 0, 4096}, {outs[0], 0, 4096}};
				VkWriteDescriptorSet w[2];
				for (int i = 0; i < 2; i++)
					w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i,
						.descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[i]};
				pushDesc(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, w);
			}
			if (variant == 3) {
				uint32_t pc[2] = {64, 1};
				vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
			}
			uint64_t a = now();
			for (int i = 0; i < N; i++) {
				if (i % K == 0 && i > 0) computeBarrier(cb, B_FULL);
				if (variant == 0) {
					VkDescriptorBufferInfo bi[2] = {{buf, 0, 4096}, {outs[i % K], 0, 4096}};
					VkWriteDescriptorSet w[2];
					for (int j = 0; j < 2; j++)
						w[j] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = j,
							.descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[j]};
					pushDesc(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, w);
				} else if (variant == 1) {
					vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout2, 0, 1, &sets[i % K], 0, NULL);
				}
				if (variant <= 2) {
					uint32_t pc[2] = {64, (uint32_t)i};
					vkCmdPushConstants(cb, variant == 1 ? layout2 : layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
				}
				vkCmdDispatch(cb, 1, 1, 1);
			}
			uint64_t t = now() - a;
			finish(cb, 0, 0);
			submit(cb, fence, VK_NULL_HANDLE, 0);
			fenceWait(fence);
			if (rep == 0 || t < best) best = t;
		}
		printf("CPU per dispatch, %s (barrier every %d): %.3f us\n", names[variant], K, best / (double)N / 1e3);
	}
}

// batchGPU returns the median time from submit to done of a batch of n dispatches with
// the given barrier between them, and in *recordUs the median time to record the batch.
static double batchGPU(VkCommandBuffer cb, int n, int barrier, double *recordUs) {
	for (int r = 0; r < REPS / 8; r++) {
		begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
		uint64_t tr = now();
		record(cb, n, barrier);
		rec[r] = now() - tr;
		finish(cb, 0, 0);
		uint64_t t0 = now();
		submit(cb, fence, VK_NULL_HANDLE, 0);
		while (vkGetFenceStatus(dev, fence) != VK_SUCCESS) {}
		wt[r] = now() - t0;
		CHECK(vkResetFences(dev, 1, &fence));
	}
	if (recordUs) *recordUs = median_us(rec, REPS / 8);
	return median_us(wt, REPS / 8);
}

int main(int argc, char **argv) {
	setup(argc, argv);
	VkCommandBuffer cb[2];
	for (uint32_t f = 0; f < nfam; f++) {
		vkGetDeviceQueue(dev, fams[f], 0, &queue);
		VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
			.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = fams[f]};
		CHECK(vkCreateCommandPool(dev, &cpi, NULL, &pool));
		VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
			.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 2};
		CHECK(vkAllocateCommandBuffers(dev, &cai, cb));
		printf("== queue family %u (flags 0x%x)\n", fams[f], qflags[f]);
		warm(cb[0], f == 0 ? 1.0 : 0.2);
		if (f == 0) {
			perCallCosts(cb[0]);
			realisticCosts(cb[0], NULL);
		}
		double one = batchGPU(cb[0], 1, B_NONE, NULL);
		for (int k = 0; k < NBARRIERS; k++) {
			if (k == B_SYNC2 && !barrier2) continue;
			double rec512;
			double many = batchGPU(cb[0], 512, k, &rec512);
			printf("GPU time per dispatch, barrier %-20s: %.3f us (recording it with its barrier: %.3f us)\n",
				barrierName[k], (many - one) / 511, rec512 / 512);
		}
		// Round-trip floors: nothing, an empty command buffer, one dispatch without and with the
		// host barrier, all pre-recorded; then recorded afresh each time, with a fence.
		printf("round trip, no command buffer: %.2f us\n", roundTrip(VK_NULL_HANDLE, REPS));
		struct { const char *name; int n, barrier, host, sets; } pre[] = {
			{"empty command buffer", 0, B_NONE, 0, 0},
			{"one dispatch, no host barrier", 1, B_NONE, 0, 0},
			{"one dispatch, host barrier", 1, B_NONE, 1, 0},
			{"one dispatch with a bound descriptor set, no host barrier", 1, B_NONE, 0, 1},
			{"two dependent dispatches, no host barrier", 2, B_FULL, 0, 0},
		};
		for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
			begin(cb[1], 0);
			if (pre[i].sets) {
				vkCmdBindPipeline(cb[1], VK_PIPELINE_BIND_POINT_COMPUTE, pipe2);
				vkCmdBindDescriptorSets(cb[1], VK_PIPELINE_BIND_POINT_COMPUTE, layout2, 0, 1, &sets[0], 0, NULL);
				uint32_t pc[2] = {64, 2};
				vkCmdPushConstants(cb[1], layout2, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8, pc);
				vkCmdDispatch(cb[1], 1, 1, 1);
			} else if (pre[i].n > 0) {
				record(cb[1], pre[i].n, pre[i].barrier);
			}
			host = pre[i].host;
			finish(cb[1], 0, 0);
			printf("round trip, %s: %.2f us\n", pre[i].name, roundTrip(cb[1], REPS));
		}
		host = 1;
		for (int r = 0; r < REPS; r++) {
			uint64_t t0 = now();
			begin(cb[0], VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
			record(cb[0], 1, B_NONE);
			finish(cb[0], 0, 0);
			uint64_t t1 = now();
			submit(cb[0], fence, VK_NULL_HANDLE, 0);
			uint64_t t2 = now();
			while (vkGetFenceStatus(dev, fence) != VK_SUCCESS) {}
			uint64_t t3 = now();
			CHECK(vkResetFences(dev, 1, &fence));
			rec[r] = t1 - t0; sub[r] = t2 - t1; wt[r] = t3 - t2; tot[r] = t3 - t0;
		}
		printf("recorded afresh, fence poll: record %.2f us, submit %.2f us, wait %.2f us, total %.2f us\n",
			median_us(rec, REPS), median_us(sub, REPS), median_us(wt, REPS), median_us(tot, REPS));
		vkDeviceWaitIdle(dev);
		vkDestroyCommandPool(dev, pool, NULL);
	}
	{
		uint64_t t0 = now();
		for (int i = 0; i < 10000; i++) (void)vkGetFenceStatus(dev, fence);
		uint64_t t1 = now();
		uint64_t v;
		for (int i = 0; i < 10000; i++) (void)vkGetSemaphoreCounterValue(dev, tl, &v);
		uint64_t t2 = now();
		printf("vkGetFenceStatus %.3f us, vkGetSemaphoreCounterValue %.3f us per call\n", (t1 - t0) / 1e7, (t2 - t1) / 1e7);
	}
	return 0;
}
