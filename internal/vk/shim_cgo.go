//go:build cgo

package vk

/*
// third_party/vulkan-headers holds the vendored Vulkan headers (its README.md); the loader is
// opened with dlopen, never linked.
#cgo CPPFLAGS: -I${SRCDIR}/third_party/vulkan-headers
#cgo LDFLAGS: -ldl
#include "shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *amp_lib;
static PFN_vkGetInstanceProcAddr amp_GetInstanceProcAddr;

int amp_load(const char *lib, char *err, int errlen) {
	if (amp_GetInstanceProcAddr) return 1;
	amp_lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!amp_lib) {
		const char *e = dlerror();
		snprintf(err, errlen, "%s", e ? e : "dlopen failed");
		return 0;
	}
	amp_GetInstanceProcAddr = (PFN_vkGetInstanceProcAddr)dlsym(amp_lib, "vkGetInstanceProcAddr");
	if (!amp_GetInstanceProcAddr) {
		snprintf(err, errlen, "%s has no vkGetInstanceProcAddr", lib);
		dlclose(amp_lib);
		amp_lib = NULL;
		return 0;
	}
	return 1;
}

void *amp_gipa(void) { return (void *)amp_GetInstanceProcAddr; }

// Validation messages: the callback appends to a bounded buffer that Go drains, and when
// Go has a handler (amp_msg_forward) passes each to it as well, as it is reported.
static pthread_mutex_t amp_msg_mu = PTHREAD_MUTEX_INITIALIZER;
static char amp_msgs[1 << 16];
static int amp_msgs_len;
static int amp_msgs_dropped;
static int amp_msg_forward;
extern void ampGoMessage(char *lvl, char *msg); // msg_cgo.go

void amp_set_forward(int on) { __atomic_store_n(&amp_msg_forward, on, __ATOMIC_SEQ_CST); }

static VKAPI_ATTR VkBool32 VKAPI_CALL amp_debug_cb(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
	VkDebugUtilsMessageTypeFlagsEXT type, const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
	(void)type; (void)user;
	const char *lvl = (sev & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
	const char *msg = data && data->pMessage ? data->pMessage : "(no message)";
	pthread_mutex_lock(&amp_msg_mu);
	int room = (int)sizeof(amp_msgs) - amp_msgs_len;
	int n = snprintf(amp_msgs + amp_msgs_len, room > 0 ? room : 0, "%s: %s\n", lvl, msg);
	if (n >= room) {
		amp_msgs_dropped++;
		if (room > 0) amp_msgs[amp_msgs_len] = 0;
	} else {
		amp_msgs_len += n;
	}
	pthread_mutex_unlock(&amp_msg_mu);
	if (__atomic_load_n(&amp_msg_forward, __ATOMIC_SEQ_CST)) ampGoMessage((char *)lvl, (char *)msg);
	return VK_FALSE;
}

// amp_inject_message reports msg through amp_debug_cb as the layer would (a test hook).
void amp_inject_message(const char *msg, int error) {
	VkDebugUtilsMessengerCallbackDataEXT data = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
		.pMessage = msg,
	};
	amp_debug_cb(error ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT : VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
		VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data, NULL);
}

static VkDebugUtilsMessengerCreateInfoEXT amp_dbg_info = {
	.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
	.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
	.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
	.pfnUserCallback = amp_debug_cb,
};

const void *amp_messenger_info(void) { return &amp_dbg_info; }

int amp_take_messages(char *buf, int len, int *dropped) {
	pthread_mutex_lock(&amp_msg_mu);
	int n = amp_msgs_len < len ? amp_msgs_len : len;
	memcpy(buf, amp_msgs, n);
	*dropped = amp_msgs_dropped;
	amp_msgs_len = 0;
	amp_msgs_dropped = 0;
	pthread_mutex_unlock(&amp_msg_mu);
	return n;
}

static VkDebugUtilsMessengerEXT amp_messenger;
static PFN_vkGetPhysicalDeviceProperties2 amp_GetPhysicalDeviceProperties2;
static PFN_vkCreateDevice amp_CreateDevice;
static PFN_vkGetDeviceProcAddr amp_GetDeviceProcAddr;
static PFN_vkGetPhysicalDeviceMemoryProperties amp_GetPhysicalDeviceMemoryProperties;
static PFN_vkEnumerateDeviceExtensionProperties amp_EnumerateDeviceExtensionProperties;
static PFN_vkGetPhysicalDeviceFeatures2 amp_GetPhysicalDeviceFeatures2;
static PFN_vkGetPhysicalDeviceMemoryProperties2 amp_GetPhysicalDeviceMemoryProperties2;

VkResult amp_instance_init(VkInstance inst, int debug) {
	amp_GetPhysicalDeviceProperties2 = (PFN_vkGetPhysicalDeviceProperties2)amp_GetInstanceProcAddr(inst, "vkGetPhysicalDeviceProperties2");
	amp_CreateDevice = (PFN_vkCreateDevice)amp_GetInstanceProcAddr(inst, "vkCreateDevice");
	amp_GetDeviceProcAddr = (PFN_vkGetDeviceProcAddr)amp_GetInstanceProcAddr(inst, "vkGetDeviceProcAddr");
	amp_GetPhysicalDeviceMemoryProperties = (PFN_vkGetPhysicalDeviceMemoryProperties)amp_GetInstanceProcAddr(inst, "vkGetPhysicalDeviceMemoryProperties");
	amp_EnumerateDeviceExtensionProperties = (PFN_vkEnumerateDeviceExtensionProperties)amp_GetInstanceProcAddr(inst, "vkEnumerateDeviceExtensionProperties");
	amp_GetPhysicalDeviceFeatures2 = (PFN_vkGetPhysicalDeviceFeatures2)amp_GetInstanceProcAddr(inst, "vkGetPhysicalDeviceFeatures2");
	amp_GetPhysicalDeviceMemoryProperties2 = (PFN_vkGetPhysicalDeviceMemoryProperties2)amp_GetInstanceProcAddr(inst, "vkGetPhysicalDeviceMemoryProperties2");
	if (!amp_CreateDevice || !amp_GetDeviceProcAddr) return VK_ERROR_INITIALIZATION_FAILED;
	if (debug) {
		PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)amp_GetInstanceProcAddr(inst, "vkCreateDebugUtilsMessengerEXT");
		if (!create) return VK_ERROR_EXTENSION_NOT_PRESENT;
		return create(inst, &amp_dbg_info, NULL, &amp_messenger);
	}
	return VK_SUCCESS;
}

void amp_instance_destroy(VkInstance inst) {
	if (amp_messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)amp_GetInstanceProcAddr(inst, "vkDestroyDebugUtilsMessengerEXT");
		if (destroy) destroy(inst, amp_messenger, NULL);
		amp_messenger = VK_NULL_HANDLE;
	}
	PFN_vkDestroyInstance di = (PFN_vkDestroyInstance)amp_GetInstanceProcAddr(inst, "vkDestroyInstance");
	if (di) di(inst, NULL);
}

static int amp_has_ext(VkPhysicalDevice phys, const char *name) {
	uint32_t n = 0;
	if (!amp_EnumerateDeviceExtensionProperties) return 0;
	amp_EnumerateDeviceExtensionProperties(phys, NULL, &n, NULL);
	VkExtensionProperties *p = calloc(n ? n : 1, sizeof(*p));
	amp_EnumerateDeviceExtensionProperties(phys, NULL, &n, p);
	int found = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(p[i].extensionName, name) == 0) found = 1;
	}
	free(p);
	return found;
}

int amp_device_has_ext(VkPhysicalDevice phys, const char *name) { return amp_has_ext(phys, name); }

// amp_memory_budget fills budget and usage (VK_MAX_MEMORY_HEAPS entries each) with
// VK_EXT_memory_budget's figures for each heap of phys and returns the heap count, or 0
// when the device lacks the extension or Vulkan 1.1.
uint32_t amp_memory_budget(VkPhysicalDevice phys, uint64_t *budget, uint64_t *usage) {
	if (!amp_GetPhysicalDeviceMemoryProperties2 || !amp_has_ext(phys, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME)) return 0;
	VkPhysicalDeviceMemoryBudgetPropertiesEXT mb = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
	VkPhysicalDeviceMemoryProperties2 mp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, .pNext = &mb};
	amp_GetPhysicalDeviceMemoryProperties2(phys, &mp);
	uint32_t n = mp.memoryProperties.memoryHeapCount;
	for (uint32_t i = 0; i < n; i++) {
		budget[i] = mb.heapBudget[i];
		usage[i] = mb.heapUsage[i];
	}
	return n;
}

// AmpHalfQuery holds the feature structures that amp_device_extra asks about half
// precision and cooperative matrices.
typedef struct {
	VkPhysicalDevice8BitStorageFeatures s8;
	VkPhysicalDevice16BitStorageFeatures s16;
	VkPhysicalDeviceShaderFloat16Int8Features f16;
	VkPhysicalDeviceVulkanMemoryModelFeatures mm;
	VkPhysicalDeviceCooperativeMatrixFeaturesNV coop;
	AmpCoopMatrixFeaturesKHR coopKHR;
	int hasCoop, hasCoopKHR;
} AmpHalfQuery;

// amp_half_chain fills q for vkGetPhysicalDeviceFeatures2 and returns the head of its
// chain, the cooperative-matrix queries included only where their extensions are present.
static void *amp_half_chain(VkPhysicalDevice phys, AmpHalfQuery *q, void *next) {
	memset(q, 0, sizeof(*q));
	q->hasCoopKHR = amp_has_ext(phys, AMP_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
	q->coopKHR = (AmpCoopMatrixFeaturesKHR){.sType = AMP_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR, .pNext = next};
	if (q->hasCoopKHR) next = &q->coopKHR;
	q->hasCoop = amp_has_ext(phys, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
	q->coop = (VkPhysicalDeviceCooperativeMatrixFeaturesNV){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV, .pNext = next};
	q->mm = (VkPhysicalDeviceVulkanMemoryModelFeatures){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
		.pNext = q->hasCoop ? (void *)&q->coop : next};
	q->f16 = (VkPhysicalDeviceShaderFloat16Int8Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, .pNext = &q->mm};
	q->s16 = (VkPhysicalDevice16BitStorageFeatures){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES, .pNext = &q->f16};
	q->s8 = (VkPhysicalDevice8BitStorageFeatures){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES, .pNext = &q->s16};
	return &q->s8;
}

// amp_coop_record appends the cooperative-matrix shapes of n properties to list (count
// entries used, at most 16): p points at the first one's MSize, the structures are stride
// bytes apart, and each holds M, N, K and the four component types from MSize on and the
// scope scopeAt words after MSize (NV and KHR differ only there).
static void amp_coop_record(uint32_t list[16][8], uint32_t *count, uint32_t n, const uint32_t *p, size_t stride, int scopeAt) {
	for (uint32_t i = 0; i < n && *count < 16; i++, p = (const uint32_t *)((const char *)p + stride)) {
		uint32_t *c = list[(*count)++];
		for (int j = 0; j < 7; j++) c[j] = p[j];
		c[7] = p[scopeAt];
	}
}

// amp_half_record copies q's answers into out, with the device's cooperative-matrix
// shapes (vkGetPhysicalDeviceCooperativeMatrixPropertiesNV and ...KHR) where it has the
// features.
static void amp_half_record(VkInstance inst, VkPhysicalDevice phys, const AmpHalfQuery *q, AmpDeviceExtra *out) {
	out->storage16 = q->s16.storageBuffer16BitAccess;
	out->float16 = q->f16.shaderFloat16;
	out->storage8 = q->s8.storageBuffer8BitAccess;
	out->int8 = q->f16.shaderInt8;
	out->memoryModel = q->mm.vulkanMemoryModel && q->mm.vulkanMemoryModelDeviceScope;
	out->coopNV = q->hasCoop && q->coop.cooperativeMatrix;
	out->coopKHR = q->hasCoopKHR && q->coopKHR.cooperativeMatrix;
	PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV get = (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)
		amp_GetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
	uint32_t n = 0;
	if (out->coopNV && get && get(phys, &n, NULL) == VK_SUCCESS && n > 0) {
		VkCooperativeMatrixPropertiesNV *p = calloc(n, sizeof(*p));
		for (uint32_t i = 0; i < n; i++) p[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV;
		if (get(phys, &n, p) >= 0) amp_coop_record(out->coop, &out->coopCount, n, &p[0].MSize, sizeof(*p), 7);
		free(p);
	}
	AmpGetCoopMatrixPropertiesKHR getK = (AmpGetCoopMatrixPropertiesKHR)
		amp_GetInstanceProcAddr(inst, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
	n = 0;
	if (out->coopKHR && getK && getK(phys, &n, NULL) == VK_SUCCESS && n > 0) {
		AmpCoopMatrixPropertiesKHR *p = calloc(n, sizeof(*p));
		for (uint32_t i = 0; i < n; i++) p[i].sType = AMP_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR;
		if (getK(phys, &n, p) >= 0) amp_coop_record(out->coopK, &out->coopKCount, n, &p[0].MSize, sizeof(*p), 8);
		free(p);
	}
}

// amp_device_group records the size of the device group phys belongs to (Vulkan 1.1's
// vkEnumeratePhysicalDeviceGroups): more than 1 where the driver links GPUs for peer memory.
static void amp_device_group(VkInstance inst, VkPhysicalDevice phys, AmpDeviceExtra *out) {
	PFN_vkEnumeratePhysicalDeviceGroups en = (PFN_vkEnumeratePhysicalDeviceGroups)
		amp_GetInstanceProcAddr(inst, "vkEnumeratePhysicalDeviceGroups");
	uint32_t n = 0;
	if (!en || en(inst, &n, NULL) != VK_SUCCESS || n == 0) return;
	VkPhysicalDeviceGroupProperties *g = calloc(n, sizeof(*g));
	for (uint32_t i = 0; i < n; i++) g[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GROUP_PROPERTIES;
	if (en(inst, &n, g) >= 0) {
		for (uint32_t i = 0; i < n; i++) {
			for (uint32_t j = 0; j < g[i].physicalDeviceCount; j++) {
				if (g[i].physicalDevices[j] == phys) {
					out->groupSize = g[i].physicalDeviceCount;
					out->groupSubsetAlloc = g[i].subsetAllocation;
				}
			}
		}
	}
	free(g);
}

void amp_device_extra(VkInstance inst, VkPhysicalDevice phys, uint32_t apiVersion, AmpDeviceExtra *out) {
	memset(out, 0, sizeof(*out));
	if (VK_API_VERSION_MINOR(apiVersion) >= 1) amp_device_group(inst, phys, out);
	out->pushDescriptor = amp_has_ext(phys, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
	if (!amp_GetPhysicalDeviceProperties2 || VK_API_VERSION_MINOR(apiVersion) < 1) return;
	VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
	VkPhysicalDeviceDriverProperties drv = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
	VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
	VkPhysicalDeviceMaintenance3Properties m3 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
	p2.pNext = &m3;
	m3.pNext = &sg;
	sg.pNext = &id;
	VkPhysicalDeviceFloatControlsProperties fc = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
	if (VK_API_VERSION_MINOR(apiVersion) >= 2) {
		id.pNext = &drv;
		drv.pNext = &fc;
	}
	amp_GetPhysicalDeviceProperties2(phys, &p2);
	out->szInfNan = (fc.shaderSignedZeroInfNanPreserveFloat16 ? 1u : 0u) |
		(fc.shaderSignedZeroInfNanPreserveFloat32 ? 2u : 0u) | (fc.shaderSignedZeroInfNanPreserveFloat64 ? 4u : 0u);
	out->subgroupSize = sg.subgroupSize;
	out->subgroupStages = sg.supportedStages;
	out->subgroupOps = sg.supportedOperations;
	out->maxMemoryAllocationSize = m3.maxMemoryAllocationSize;
	memcpy(out->deviceUUID, id.deviceUUID, VK_UUID_SIZE);
	if (VK_API_VERSION_MINOR(apiVersion) >= 2 && amp_GetPhysicalDeviceFeatures2) {
		VkPhysicalDeviceTimelineSemaphoreFeatures tf = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
		AmpHalfQuery hq;
		VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &tf};
		tf.pNext = amp_half_chain(phys, &hq, NULL);
		amp_GetPhysicalDeviceFeatures2(phys, &f2);
		out->timelineSemaphore = tf.timelineSemaphore;
		amp_half_record(inst, phys, &hq, out);
	}
	if (VK_API_VERSION_MINOR(apiVersion) >= 2) {
		out->driverID = drv.driverID;
		memcpy(out->driverName, drv.driverName, sizeof(out->driverName));
		memcpy(out->driverInfo, drv.driverInfo, sizeof(out->driverInfo));
	}
}

// amp_host_import_align returns the device's minImportedHostPointerAlignment where it has
// VK_EXT_external_memory_host (and Vulkan 1.1's properties2), else 0.
static uint64_t amp_host_import_align(VkPhysicalDevice phys) {
	if (!amp_GetPhysicalDeviceProperties2 || !amp_has_ext(phys, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) return 0;
	VkPhysicalDeviceExternalMemoryHostPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &hp};
	amp_GetPhysicalDeviceProperties2(phys, &p2);
	return hp.minImportedHostPointerAlignment;
}

#define LOADD(name) d->name = (PFN_vk##name)amp_GetDeviceProcAddr(d->dev, "vk" #name)

VkResult amp_device_create(VkInstance inst, VkPhysicalDevice phys, uint32_t family, uint32_t queues,
	int f64, int i64, int i16, int timeline, int swapchain, uint32_t extra, AmpDevice **out) {
	(void)inst;
	float prio[64];
	if (queues > 64) queues = 64;
	for (uint32_t i = 0; i < queues; i++) prio[i] = 1.0f;
	VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = family, .queueCount = queues, .pQueuePriorities = prio};
	VkPhysicalDeviceFeatures feats = {0};
	feats.shaderFloat64 = f64 ? VK_TRUE : VK_FALSE;
	feats.shaderInt64 = i64 ? VK_TRUE : VK_FALSE;
	feats.shaderInt16 = i16 ? VK_TRUE : VK_FALSE;
	const char *exts[5] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
	uint32_t next = 1;
	if (swapchain) exts[next++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
	// Pinned transfers (issue 12): import Go memory as host memory where the device can.
	uint64_t importAlign = amp_host_import_align(phys);
	if (importAlign) exts[next++] = VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME;
	if (extra & AMP_FEAT_COOP_NV) exts[next++] = VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME;
	if (extra & AMP_FEAT_COOP_KHR) exts[next++] = AMP_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
	VkPhysicalDeviceTimelineSemaphoreFeatures tf = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
		.timelineSemaphore = VK_TRUE};
	// Half precision and cooperative matrices (extra's AMP_FEAT_* bits), each enabled only
	// where amp_device_extra found it.
	VkPhysicalDevice16BitStorageFeatures s16 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
		.storageBuffer16BitAccess = (extra & AMP_FEAT_STORAGE16) != 0, .pNext = timeline ? &tf : NULL};
	VkPhysicalDeviceShaderFloat16Int8Features f16 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
		.shaderFloat16 = (extra & AMP_FEAT_FLOAT16) != 0, .shaderInt8 = (extra & AMP_FEAT_INT8) != 0, .pNext = &s16};
	VkPhysicalDevice8BitStorageFeatures s8 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
		.storageBuffer8BitAccess = (extra & AMP_FEAT_STORAGE8) != 0, .pNext = &f16};
	VkPhysicalDeviceVulkanMemoryModelFeatures mm = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
		.vulkanMemoryModel = (extra & AMP_FEAT_MEMORY_MODEL) != 0, .vulkanMemoryModelDeviceScope = (extra & AMP_FEAT_MEMORY_MODEL) != 0,
		.pNext = &s8};
	VkPhysicalDeviceCooperativeMatrixFeaturesNV coop = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV,
		.cooperativeMatrix = VK_TRUE, .pNext = &mm};
	AmpCoopMatrixFeaturesKHR coopKHR = {.sType = AMP_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR,
		.cooperativeMatrix = VK_TRUE};
	void *chain = timeline ? (void *)&tf : NULL;
	if (extra & (AMP_FEAT_STORAGE16 | AMP_FEAT_FLOAT16 | AMP_FEAT_MEMORY_MODEL | AMP_FEAT_STORAGE8 | AMP_FEAT_INT8)) chain = &mm;
	if (extra & AMP_FEAT_COOP_NV) chain = &coop;
	if (extra & AMP_FEAT_COOP_KHR) {
		coopKHR.pNext = chain;
		chain = &coopKHR;
	}
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = chain, .queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci, .enabledExtensionCount = next, .ppEnabledExtensionNames = exts,
		.pEnabledFeatures = &feats};
	VkDevice dev;
	VkResult r = amp_CreateDevice(phys, &dci, NULL, &dev);
	if (r != VK_SUCCESS) return r;
	AmpDevice *d = calloc(1, sizeof(AmpDevice));
	d->phys = phys;
	d->dev = dev;
	d->family = family;
	LOADD(DestroyDevice); LOADD(GetDeviceQueue); LOADD(CreateBuffer); LOADD(DestroyBuffer);
	LOADD(GetBufferMemoryRequirements); LOADD(AllocateMemory); LOADD(FreeMemory); LOADD(BindBufferMemory);
	LOADD(MapMemory); LOADD(CreateShaderModule); LOADD(DestroyShaderModule);
	LOADD(CreateDescriptorSetLayout); LOADD(DestroyDescriptorSetLayout); LOADD(CreatePipelineLayout);
	LOADD(DestroyPipelineLayout); LOADD(CreateComputePipelines); LOADD(DestroyPipeline);
	LOADD(CreateCommandPool); LOADD(DestroyCommandPool); LOADD(AllocateCommandBuffers);
	LOADD(BeginCommandBuffer); LOADD(EndCommandBuffer); LOADD(ResetCommandBuffer);
	LOADD(CmdBindPipeline); LOADD(CmdPushConstants); LOADD(CmdPushDescriptorSetKHR); LOADD(CmdDispatch);
	LOADD(CmdPipelineBarrier); LOADD(CmdCopyBuffer); LOADD(CmdWriteTimestamp);
	LOADD(CmdResetQueryPool); LOADD(CreateQueryPool); LOADD(DestroyQueryPool); LOADD(GetQueryPoolResults);
	LOADD(CreateFence); LOADD(DestroyFence); LOADD(ResetFences); LOADD(WaitForFences); LOADD(GetFenceStatus);
	LOADD(QueueSubmit); LOADD(DeviceWaitIdle);
	LOADD(CreatePipelineCache); LOADD(GetPipelineCacheData); LOADD(DestroyPipelineCache);
	if (importAlign) {
		LOADD(GetMemoryHostPointerPropertiesEXT);
		if (d->GetMemoryHostPointerPropertiesEXT) d->hostImportAlign = importAlign;
	}
	if (timeline) {
		LOADD(CreateSemaphore); LOADD(DestroySemaphore); LOADD(GetSemaphoreCounterValue); LOADD(WaitSemaphores);
	}
	*out = d;
	return VK_SUCCESS;
}

void amp_device_destroy(AmpDevice *d) {
	d->DeviceWaitIdle(d->dev);
	if (d->cache != VK_NULL_HANDLE) d->DestroyPipelineCache(d->dev, d->cache, NULL);
	d->DestroyDevice(d->dev, NULL);
	free(d);
}

VkResult amp_device_wait_idle(AmpDevice *d) { return d->DeviceWaitIdle(d->dev); }

VkQueue amp_device_queue(AmpDevice *d, uint32_t index) {
	VkQueue q;
	d->GetDeviceQueue(d->dev, d->family, index, &q);
	return q;
}

VkResult amp_buffer_create(AmpDevice *d, VkDeviceSize size, uint32_t memProps, uint32_t avoidProps,
	VkBuffer *buf, VkDeviceMemory *mem, void **mapped, uint32_t *memType) {
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
		.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE};
	VkResult r = d->CreateBuffer(d->dev, &bci, NULL, buf);
	if (r != VK_SUCCESS) return r;
	VkMemoryRequirements req;
	d->GetBufferMemoryRequirements(d->dev, *buf, &req);
	VkPhysicalDeviceMemoryProperties mp;
	amp_GetPhysicalDeviceMemoryProperties(d->phys, &mp);
	int chosen = -1;
	// First pass: all wanted properties and none of the avoided ones; second: wanted only.
	for (int pass = 0; pass < 2 && chosen < 0; pass++) {
		for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
			if (!(req.memoryTypeBits & (1u << i))) continue;
			uint32_t f = mp.memoryTypes[i].propertyFlags;
			if ((f & memProps) != memProps) continue;
			if (pass == 0 && (f & avoidProps)) continue;
			chosen = (int)i;
			break;
		}
	}
	if (chosen < 0) {
		d->DestroyBuffer(d->dev, *buf, NULL);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
		.memoryTypeIndex = (uint32_t)chosen};
	r = d->AllocateMemory(d->dev, &mai, NULL, mem);
	if (r != VK_SUCCESS) {
		d->DestroyBuffer(d->dev, *buf, NULL);
		return r;
	}
	r = d->BindBufferMemory(d->dev, *buf, *mem, 0);
	if (r == VK_SUCCESS && (mp.memoryTypes[chosen].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
		r = d->MapMemory(d->dev, *mem, 0, VK_WHOLE_SIZE, 0, mapped);
	} else {
		*mapped = NULL;
	}
	if (r != VK_SUCCESS) {
		d->DestroyBuffer(d->dev, *buf, NULL);
		d->FreeMemory(d->dev, *mem, NULL);
		return r;
	}
	*memType = (uint32_t)chosen;
	return VK_SUCCESS;
}

VkResult amp_host_import(AmpDevice *d, void *ptr, VkDeviceSize size, VkBuffer *buf, VkDeviceMemory *mem) {
	const VkExternalMemoryHandleTypeFlagBits ht = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
	if (!d->hostImportAlign) return VK_ERROR_FEATURE_NOT_PRESENT;
	VkMemoryHostPointerPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
	VkResult r = d->GetMemoryHostPointerPropertiesEXT(d->dev, ht, ptr, &hp);
	if (r != VK_SUCCESS) return r;
	VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, .handleTypes = ht};
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &ext, .size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
	r = d->CreateBuffer(d->dev, &bci, NULL, buf);
	if (r != VK_SUCCESS) return r;
	VkMemoryRequirements req;
	d->GetBufferMemoryRequirements(d->dev, *buf, &req);
	uint32_t bits = req.memoryTypeBits & hp.memoryTypeBits;
	if (!bits || req.size > size) {
		d->DestroyBuffer(d->dev, *buf, NULL);
		return VK_ERROR_FEATURE_NOT_PRESENT;
	}
	// Prefer host-coherent memory: the host writes the pages without flushes.
	VkPhysicalDeviceMemoryProperties mp;
	amp_GetPhysicalDeviceMemoryProperties(d->phys, &mp);
	const uint32_t coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	uint32_t type = 32;
	for (uint32_t i = 0; i < mp.memoryTypeCount && type == 32; i++) {
		if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & coherent) == coherent) type = i;
	}
	if (type == 32) {
		type = 0;
		while (!(bits & (1u << type))) type++;
	}
	VkImportMemoryHostPointerInfoEXT imp = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
		.handleType = ht, .pHostPointer = ptr};
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &imp, .allocationSize = size,
		.memoryTypeIndex = type};
	r = d->AllocateMemory(d->dev, &mai, NULL, mem);
	if (r != VK_SUCCESS) {
		d->DestroyBuffer(d->dev, *buf, NULL);
		return r;
	}
	r = d->BindBufferMemory(d->dev, *buf, *mem, 0);
	if (r != VK_SUCCESS) amp_buffer_destroy(d, *buf, *mem);
	return r;
}

void amp_buffer_destroy(AmpDevice *d, VkBuffer buf, VkDeviceMemory mem) {
	d->DestroyBuffer(d->dev, buf, NULL);
	d->FreeMemory(d->dev, mem, NULL);
}

VkResult amp_pipeline_create(AmpDevice *d, const uint32_t *code, size_t codeBytes, uint32_t nbind,
	uint32_t pushSize, const uint32_t *spec, uint32_t nspec, VkPipelineLayout *layout,
	VkDescriptorSetLayout *dsl, VkPipeline *pipe) {
	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = codeBytes, .pCode = code};
	VkShaderModule mod;
	VkResult r = d->CreateShaderModule(d->dev, &smci, NULL, &mod);
	if (r != VK_SUCCESS) return r;
	VkDescriptorSetLayoutBinding b[32];
	if (nbind > 32) nbind = 32;
	for (uint32_t i = 0; i < nbind; i++) {
		b[i] = (VkDescriptorSetLayoutBinding){.binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
			.descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
	}
	VkDescriptorSetLayoutCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR, .bindingCount = nbind, .pBindings = b};
	r = d->CreateDescriptorSetLayout(d->dev, &dci, NULL, dsl);
	if (r != VK_SUCCESS) goto fail_mod;
	VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = pushSize};
	VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1, .pSetLayouts = dsl, .pushConstantRangeCount = pushSize ? 1 : 0,
		.pPushConstantRanges = &pcr};
	r = d->CreatePipelineLayout(d->dev, &plci, NULL, layout);
	if (r != VK_SUCCESS) goto fail_dsl;
	VkSpecializationMapEntry me[16];
	if (nspec > 16) nspec = 16;
	for (uint32_t i = 0; i < nspec; i++) {
		me[i] = (VkSpecializationMapEntry){.constantID = i, .offset = i * 4, .size = 4};
	}
	VkSpecializationInfo si = {.mapEntryCount = nspec, .pMapEntries = me, .dataSize = nspec * 4, .pData = spec};
	VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = mod, .pName = "main", .pSpecializationInfo = nspec ? &si : NULL},
		.layout = *layout};
	r = d->CreateComputePipelines(d->dev, d->cache, 1, &cpci, NULL, pipe);
	if (r != VK_SUCCESS) goto fail_layout;
	d->DestroyShaderModule(d->dev, mod, NULL);
	return VK_SUCCESS;
fail_layout:
	d->DestroyPipelineLayout(d->dev, *layout, NULL);
fail_dsl:
	d->DestroyDescriptorSetLayout(d->dev, *dsl, NULL);
fail_mod:
	d->DestroyShaderModule(d->dev, mod, NULL);
	return r;
}

void amp_pipeline_destroy(AmpDevice *d, VkPipelineLayout layout, VkDescriptorSetLayout dsl, VkPipeline pipe) {
	d->DestroyPipeline(d->dev, pipe, NULL);
	d->DestroyPipelineLayout(d->dev, layout, NULL);
	d->DestroyDescriptorSetLayout(d->dev, dsl, NULL);
}

// amp_cache_create gives the device its pipeline cache, filled from data (n bytes; n == 0:
// empty). A driver that refuses the data (it checks the header, and need not check more)
// gets an empty cache instead.
VkResult amp_cache_create(AmpDevice *d, const void *data, size_t n) {
	if (d->cache != VK_NULL_HANDLE) {
		d->DestroyPipelineCache(d->dev, d->cache, NULL);
		d->cache = VK_NULL_HANDLE;
	}
	VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
		.initialDataSize = n, .pInitialData = n ? data : NULL};
	VkResult r = d->CreatePipelineCache(d->dev, &ci, NULL, &d->cache);
	if (r != VK_SUCCESS && n) {
		ci.initialDataSize = 0;
		ci.pInitialData = NULL;
		r = d->CreatePipelineCache(d->dev, &ci, NULL, &d->cache);
	}
	if (r != VK_SUCCESS) d->cache = VK_NULL_HANDLE;
	return r;
}

// amp_cache_data is vkGetPipelineCacheData of the device's cache: with data NULL it sets
// *n to the size, else it copies up to *n bytes.
VkResult amp_cache_data(AmpDevice *d, void *data, size_t *n) {
	if (d->cache == VK_NULL_HANDLE) {
		*n = 0;
		return VK_SUCCESS;
	}
	return d->GetPipelineCacheData(d->dev, d->cache, n, data);
}

VkResult amp_cmdpool_create(AmpDevice *d, VkCommandPool *pool) {
	VkCommandPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = d->family};
	return d->CreateCommandPool(d->dev, &ci, NULL, pool);
}

void amp_cmdpool_destroy(AmpDevice *d, VkCommandPool pool) { d->DestroyCommandPool(d->dev, pool, NULL); }

VkResult amp_cmdbuf_alloc(AmpDevice *d, VkCommandPool pool, VkCommandBuffer *cb) {
	VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
	return d->AllocateCommandBuffers(d->dev, &ai, cb);
}

VkResult amp_cmdbuf_begin(AmpDevice *d, VkCommandBuffer cb) {
	VkResult r = d->ResetCommandBuffer(cb, 0);
	if (r != VK_SUCCESS) return r;
	// Not one-time: a stream may submit a small batch again without recording it (see replay).
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	return d->BeginCommandBuffer(cb, &bi);
}

VkResult amp_fence_create(AmpDevice *d, VkFence *f) {
	VkFenceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	return d->CreateFence(d->dev, &ci, NULL, f);
}
void amp_fence_destroy(AmpDevice *d, VkFence f) { d->DestroyFence(d->dev, f, NULL); }
VkResult amp_fence_wait(AmpDevice *d, VkFence f, uint64_t timeoutNs) {
	return d->WaitForFences(d->dev, 1, &f, VK_TRUE, timeoutNs);
}
VkResult amp_fence_status(AmpDevice *d, VkFence f) { return d->GetFenceStatus(d->dev, f); }
VkResult amp_fence_reset(AmpDevice *d, VkFence f) { return d->ResetFences(d->dev, 1, &f); }

VkResult amp_submit(AmpDevice *d, VkQueue q, VkCommandBuffer cb, int end, VkFence f, VkSemaphore sem, uint64_t value) {
	if (end == AMP_END_HOST) {
		// Make the batch's device writes available to the host, which reads mapped memory
		// once the batch is seen finished.
		VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
			.dstAccessMask = VK_ACCESS_HOST_READ_BIT};
		d->CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
			VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	}
	if (end) {
		VkResult r = d->EndCommandBuffer(cb);
		if (r != VK_SUCCESS) return r;
	}
	VkTimelineSemaphoreSubmitInfo ts = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.signalSemaphoreValueCount = 1, .pSignalSemaphoreValues = &value};
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
	if (sem != VK_NULL_HANDLE) {
		si.pNext = &ts;
		si.signalSemaphoreCount = 1;
		si.pSignalSemaphores = &sem;
	}
	return d->QueueSubmit(q, 1, &si, f);
}

VkResult amp_semaphore_create(AmpDevice *d, VkSemaphore *s) {
	VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
	VkSemaphoreCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti};
	return d->CreateSemaphore(d->dev, &ci, NULL, s);
}
void amp_semaphore_destroy(AmpDevice *d, VkSemaphore s) { d->DestroySemaphore(d->dev, s, NULL); }
int64_t amp_semaphore_value(AmpDevice *d, VkSemaphore s) {
	uint64_t v = 0;
	VkResult r = d->GetSemaphoreCounterValue(d->dev, s, &v);
	return r == VK_SUCCESS ? (int64_t)v : (int64_t)r;
}
VkResult amp_semaphore_wait(AmpDevice *d, VkSemaphore s, uint64_t value, uint64_t timeoutNs) {
	VkSemaphoreWaitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
		.pSemaphores = &s, .pValues = &value};
	return d->WaitSemaphores(d->dev, &wi, timeoutNs);
}


static void amp_barrier(AmpDevice *d, VkCommandBuffer cb) {
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT,
		.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
	d->CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
		VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

static void amp_cmd_dispatch(AmpDevice *d, VkCommandBuffer cb, VkPipeline pipe, VkPipelineLayout layout,
	uint32_t nbuf, const uint64_t *bufs, const uint64_t *offs, const uint64_t *ranges,
	const uint8_t *push, uint32_t pushSize, uint32_t gx, uint32_t gy, uint32_t gz, int flags,
	VkQueryPool qp, int32_t query) {
	if (flags & AMP_BARRIER) {
		if (flags & AMP_BARRIER_TRANSFER) {
			amp_barrier(d, cb);
		} else {
			// Dispatch after dispatch: a compute-to-compute dependency is enough, and
			// lighter for the driver than one that also drains the transfer stage.
			VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
				.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
				.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
			d->CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
				0, 1, &mb, 0, NULL, 0, NULL);
		}
	}
	if (qp != VK_NULL_HANDLE && query >= 0)
		d->CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, (uint32_t)query);
	if (flags & AMP_BIND_PIPELINE) d->CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	if (nbuf && (flags & AMP_PUSH_DESCRIPTORS)) {
		VkDescriptorBufferInfo bi[32];
		VkWriteDescriptorSet w[32];
		if (nbuf > 32) nbuf = 32;
		for (uint32_t i = 0; i < nbuf; i++) {
			bi[i] = (VkDescriptorBufferInfo){.buffer = (VkBuffer)bufs[i], .offset = offs[i], .range = ranges[i]};
			w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = i,
				.descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[i]};
		}
		d->CmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, nbuf, w);
	}
	if (pushSize && (flags & AMP_PUSH_CONSTANTS)) d->CmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushSize, push);
	d->CmdDispatch(cb, gx, gy, gz);
	if (qp != VK_NULL_HANDLE && query >= 0)
		d->CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, (uint32_t)query + 1);
}

void amp_record(AmpDevice *d, VkCommandBuffer cb, VkQueryPool qp, const uint8_t *p, size_t n) {
	size_t off = 0;
	while (off + sizeof(AmpRec) <= n) {
		const AmpRec *r = (const AmpRec *)(p + off);
		off += sizeof(AmpRec);
		switch (r->kind) {
		case AMP_REC_DISPATCH: {
			const uint64_t *h = (const uint64_t *)(p + off);
			off += 24 * (size_t)r->nbuf;
			const uint8_t *push = p + off;
			off += (r->pushSize + 7u) & ~7u;
			amp_cmd_dispatch(d, cb, (VkPipeline)(uintptr_t)r->pipe, (VkPipelineLayout)(uintptr_t)r->layout, r->nbuf,
				h, h + r->nbuf, h + 2 * r->nbuf, push, r->pushSize, r->gx, r->gy, r->gz, r->flags, qp, r->query);
			break;
		}
		case AMP_REC_BARRIER:
			amp_barrier(d, cb);
			break;
		case AMP_REC_COPY: {
			VkBufferCopy c = {.srcOffset = r->srcOff, .dstOffset = r->dstOff, .size = r->size};
			d->CmdCopyBuffer(cb, (VkBuffer)(uintptr_t)r->src, (VkBuffer)(uintptr_t)r->dst, 1, &c);
			break;
		}
		}
	}
}

VkResult amp_querypool_create(AmpDevice *d, uint32_t count, VkQueryPool *qp) {
	VkQueryPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = count};
	return d->CreateQueryPool(d->dev, &ci, NULL, qp);
}
void amp_querypool_destroy(AmpDevice *d, VkQueryPool qp) { d->DestroyQueryPool(d->dev, qp, NULL); }
void amp_cmd_reset_queries(AmpDevice *d, VkCommandBuffer cb, VkQueryPool qp, uint32_t first, uint32_t count) {
	d->CmdResetQueryPool(cb, qp, first, count);
}
VkResult amp_query_results(AmpDevice *d, VkQueryPool qp, uint32_t first, uint32_t count, uint64_t *out) {
	return d->GetQueryPoolResults(d->dev, qp, first, count, count * sizeof(uint64_t), out, sizeof(uint64_t),
		VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
}

*/
import "C"
