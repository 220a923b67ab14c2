// vkstats: what the driver compiled goamp's programs into, through
// VK_KHR_pipeline_executable_properties: each executable's statistics (on NVIDIA, among
// others, the registers a thread uses, which with the shared memory decides how many
// workgroups an SM holds at once). For tuning the sort programs, whose speed followed
// their occupancy (RESULTS.md), without a vendor profiler.
//
//   cc -O2 -Iinternal/vk/third_party/vulkan-headers -o vkstats scripts/vkstats.c -l:libvulkan.so.1
//   ./vkstats shaders/spv/sort_local_p.spv:512 shaders/spv/sort_radix_scatter_p512.spv:512 ...
//
// Each argument is a SPIR-V file and its workgroup's invocations (goamp's programs take the
// workgroup size as specialization constants 0, 1, 2; 1 where not given). The pipeline
// layout is a superset of any goamp program's: eight storage buffers and 128 bytes of
// push constants.
#include <string.h>
#include "vkprobe.h"

// ENUMERATE is Vulkan's two-call enumeration through fn (the device, then info): count
// gets how many there are, at most the capacity of arr, whose entries get sType stype and
// are then filled.
#define ENUMERATE(fn, info, arr, count, stype) do { \
	count = 0; \
	CHECK(fn(dev, info, &count, NULL)); \
	if (count > sizeof arr / sizeof arr[0]) count = sizeof arr / sizeof arr[0]; \
	memset(arr, 0, sizeof arr); \
	for (uint32_t i_ = 0; i_ < count; i_++) arr[i_].sType = stype; \
	VkResult e_ = fn(dev, info, &count, arr); \
	if (e_ != VK_SUCCESS && e_ != VK_INCOMPLETE) CHECK(e_); \
} while (0)

// readFile returns the bytes of path and their number.
static uint32_t *readFile(const char *path, size_t *n) {
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint32_t *buf = malloc((size_t)len);
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		perror(path);
		exit(1);
	}
	fclose(f);
	*n = (size_t)len;
	return buf;
}

// printStat prints one statistic.
static void printStat(const VkPipelineExecutableStatisticKHR *s) {
	switch (s->format) {
	case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: printf("    %s: %s\n", s->name, s->value.b32 ? "true" : "false"); break;
	case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: printf("    %s: %lld\n", s->name, (long long)s->value.i64); break;
	case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: printf("    %s: %llu\n", s->name, (unsigned long long)s->value.u64); break;
	case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: printf("    %s: %g\n", s->name, s->value.f64); break;
	default: printf("    %s: ?\n", s->name);
	}
}

int main(int argc, char **argv) {
	VkPhysicalDevice phys = physicalDevice(0);
	VkPhysicalDeviceProperties props;
	vkGetPhysicalDeviceProperties(phys, &props);
	printf("%s\n", props.deviceName);
	float prio = 1;
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1, .pQueuePriorities = &prio};
	VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pf = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR, .pipelineExecutableInfo = VK_TRUE};
	const char *exts[] = {VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &pf, .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
		.enabledExtensionCount = 1, .ppEnabledExtensionNames = exts};
	VkDevice dev;
	CHECK(vkCreateDevice(phys, &dci, NULL, &dev));
	PFN_vkGetPipelineExecutablePropertiesKHR getProps = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(dev, "vkGetPipelineExecutablePropertiesKHR");
	PFN_vkGetPipelineExecutableStatisticsKHR getStats = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(dev, "vkGetPipelineExecutableStatisticsKHR");

	VkDescriptorSetLayout dl;
	VkPipelineLayout layout;
	storageLayout(dev, 8, 0, 128, &dl, &layout);

	for (int a = 1; a < argc; a++) {
		char path[4096];
		snprintf(path, sizeof path, "%s", argv[a]);
		uint32_t size[3] = {1, 1, 1};
		char *colon = strrchr(path, ':');
		if (colon) {
			*colon = 0;
			size[0] = (uint32_t)atoi(colon + 1);
		}
		size_t n;
		uint32_t *code = readFile(path, &n);
		VkShaderModuleCreateInfo smi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = n, .pCode = code};
		VkShaderModule mod;
		CHECK(vkCreateShaderModule(dev, &smi, NULL, &mod));
		VkSpecializationMapEntry me[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
		VkSpecializationInfo si = {.mapEntryCount = 3, .pMapEntries = me, .dataSize = sizeof size, .pData = size};
		VkComputePipelineCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
			.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, .layout = layout,
			.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = mod,
				.pName = "main", .pSpecializationInfo = &si}};
		VkPipeline pipe;
		CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &pipe));
		VkPipelineInfoKHR pinfo = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipe};
		VkPipelineExecutablePropertiesKHR ep[4];
		uint32_t ne;
		ENUMERATE(getProps, &pinfo, ep, ne, VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR);
		printf("%s (workgroup %u):\n", path, size[0]);
		for (uint32_t e = 0; e < ne; e++) {
			printf("  %s, subgroup %u\n", ep[e].name, ep[e].subgroupSize);
			VkPipelineExecutableInfoKHR ei = {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = pipe, .executableIndex = e};
			VkPipelineExecutableStatisticKHR st[32];
			uint32_t ns;
			ENUMERATE(getStats, &ei, st, ns, VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR);
			for (uint32_t i = 0; i < ns; i++) printStat(&st[i]);
		}
		vkDestroyPipeline(dev, pipe, NULL);
		vkDestroyShaderModule(dev, mod, NULL);
		free(code);
	}
	return 0;
}
