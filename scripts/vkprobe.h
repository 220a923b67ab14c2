// vkprobe.h: what the driver-floor probes vklatency.c, vkcopy.c and vkstats.c share: CHECK,
// a monotonic clock, the physical device to probe, and a compute pipeline layout of storage
// buffers and push constants. Each probe includes it after its feature macros and is still
// compiled alone (cc ... scripts/vkNAME.c): a quoted include is found beside the source.
#ifndef VKPROBE_H
#define VKPROBE_H

#include <vulkan/vulkan.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// CHECK exits, naming the call and its result, when a Vulkan call does not succeed.
#define CHECK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, r_); exit(1); } } while (0)

// now returns CLOCK_MONOTONIC's time in nanoseconds.
static inline uint64_t now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// physicalDevice creates a Vulkan 1.3 instance and returns its physical device index (of
// the first 16), or exits with status 1 when there is no such device.
static inline VkPhysicalDevice physicalDevice(uint32_t index) {
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
	VkInstance inst;
	CHECK(vkCreateInstance(&ici, NULL, &inst));
	uint32_t n = 0;
	CHECK(vkEnumeratePhysicalDevices(inst, &n, NULL));
	VkPhysicalDevice pds[16];
	if (n > 16) n = 16;
	VkResult r = vkEnumeratePhysicalDevices(inst, &n, pds);
	if (r != VK_INCOMPLETE) CHECK(r);
	if (index >= n) {
		fprintf(stderr, "no Vulkan device %u (%u found)\n", index, n);
		exit(1);
	}
	return pds[index];
}

// storageLayout makes a compute pipeline's layout: one descriptor set layout (created with
// flags) of buffers storage buffers at bindings 0..buffers-1 (at most 8), returned in dsl,
// and pushBytes bytes of push constants.
static inline void storageLayout(VkDevice dev, uint32_t buffers, VkDescriptorSetLayoutCreateFlags flags, uint32_t pushBytes,
	VkDescriptorSetLayout *dsl, VkPipelineLayout *pl) {
	VkDescriptorSetLayoutBinding b[8];
	if (buffers > 8) buffers = 8;
	for (uint32_t i = 0; i < buffers; i++) {
		b[i] = (VkDescriptorSetLayoutBinding){.binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
			.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
	}
	VkDescriptorSetLayoutCreateInfo dli = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .flags = flags,
		.bindingCount = buffers, .pBindings = b};
	CHECK(vkCreateDescriptorSetLayout(dev, &dli, NULL, dsl));
	VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = pushBytes};
	VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = dsl,
		.pushConstantRangeCount = 1, .pPushConstantRanges = &pr};
	CHECK(vkCreatePipelineLayout(dev, &pli, NULL, pl));
}

#endif
