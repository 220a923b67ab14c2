// The C half of internal/vk: the parts of Vulkan that vulkan-go does not wrap (properties2, push
// descriptors, debug utils) and the per-dispatch fast path, which must not allocate per call.
#ifndef GOAMP_SHIM_H
#define GOAMP_SHIM_H

#define VK_NO_PROTOTYPES 1
// The vendored Khronos headers (third_party/vulkan-headers/README.md), by their path from this
// file so that no other copy on the include path can stand in for them.
#include "third_party/vulkan-headers/vulkan/vulkan.h"
#include <stdint.h>

typedef struct {
	uint32_t subgroupSize;
	uint32_t subgroupStages;
	uint32_t subgroupOps;
	uint32_t driverID;
	char driverName[VK_MAX_DRIVER_NAME_SIZE];
	char driverInfo[VK_MAX_DRIVER_INFO_SIZE];
	uint8_t deviceUUID[VK_UUID_SIZE];
	uint32_t maxSharedMemorySize; // repeated from limits for convenience
	uint32_t pushDescriptor;      // VK_KHR_push_descriptor present
	uint32_t timelineSemaphore;
	uint64_t maxMemoryAllocationSize; // VkPhysicalDeviceMaintenance3Properties; 0 if unknown
	// Half precision and cooperative matrices (Vulkan 1.2 devices only; 0 elsewhere).
	uint32_t storage16;   // storageBuffer16BitAccess
	uint32_t float16;     // shaderFloat16
	uint32_t storage8;    // storageBuffer8BitAccess (VK_KHR_8bit_storage, core in 1.2)
	uint32_t int8;        // shaderInt8
	uint32_t memoryModel; // vulkanMemoryModel and its device scope (cooperative-matrix shaders declare them)
	uint32_t coopNV;      // VK_NV_cooperative_matrix present and its cooperativeMatrix feature
	uint32_t coopKHR;     // VK_KHR_cooperative_matrix present and its cooperativeMatrix feature
	uint32_t coopKCount;  // entries of coopK used
	uint32_t coopK[16][8]; // VkCooperativeMatrixPropertiesKHR, as coop
	uint32_t coopCount;   // entries of coop used
	uint32_t coop[16][8]; // VkCooperativeMatrixPropertiesNV: M, N, K, A, B, C, D types, scope
	uint32_t groupSize;   // physical devices in the device group of this one (vkEnumeratePhysicalDeviceGroups); 0 if unknown
	uint32_t groupSubsetAlloc; // the group's subsetAllocation
	uint32_t szInfNan;    // shaderSignedZeroInfNanPreserveFloat16/32/64 as bits 0/1/2 (Vulkan 1.2 devices; 0 elsewhere)
} AmpDeviceExtra;

// Bits of amp_device_create's extra argument: features enabled beside the core ones.
#define AMP_FEAT_STORAGE16 1u
#define AMP_FEAT_FLOAT16 2u
#define AMP_FEAT_MEMORY_MODEL 4u
#define AMP_FEAT_COOP_NV 8u
#define AMP_FEAT_COOP_KHR 16u
#define AMP_FEAT_STORAGE8 32u
#define AMP_FEAT_INT8 64u

// VK_KHR_cooperative_matrix's feature structure, which the vendored headers (1.3.239)
// predate: declared here as the registry defines it (extension 507).
#define AMP_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME "VK_KHR_cooperative_matrix"
#define AMP_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR ((VkStructureType)1000506000)
typedef struct {
	VkStructureType sType;
	void *pNext;
	VkBool32 cooperativeMatrix;
	VkBool32 cooperativeMatrixRobustBufferAccess;
} AmpCoopMatrixFeaturesKHR;
#define AMP_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR ((VkStructureType)1000506001)
typedef struct {
	VkStructureType sType;
	void *pNext;
	uint32_t MSize, NSize, KSize;
	uint32_t AType, BType, CType, ResultType; // VkComponentTypeKHR (the NV values)
	VkBool32 saturatingAccumulation;
	uint32_t scope; // VkScopeKHR (the NV values)
} AmpCoopMatrixPropertiesKHR;
typedef VkResult (VKAPI_PTR *AmpGetCoopMatrixPropertiesKHR)(VkPhysicalDevice, uint32_t *, AmpCoopMatrixPropertiesKHR *);

// AmpDevice holds a logical device and the device-level entry points the shim calls.
typedef struct AmpDevice {
	VkPhysicalDevice phys;
	VkDevice dev;
	uint32_t family;
	PFN_vkDestroyDevice DestroyDevice;
	PFN_vkGetDeviceQueue GetDeviceQueue;
	PFN_vkCreateBuffer CreateBuffer;
	PFN_vkDestroyBuffer DestroyBuffer;
	PFN_vkGetBufferMemoryRequirements GetBufferMemoryRequirements;
	PFN_vkAllocateMemory AllocateMemory;
	PFN_vkFreeMemory FreeMemory;
	PFN_vkBindBufferMemory BindBufferMemory;
	PFN_vkMapMemory MapMemory;
	PFN_vkCreateShaderModule CreateShaderModule;
	PFN_vkDestroyShaderModule DestroyShaderModule;
	PFN_vkCreateDescriptorSetLayout CreateDescriptorSetLayout;
	PFN_vkDestroyDescriptorSetLayout DestroyDescriptorSetLayout;
	PFN_vkCreatePipelineLayout CreatePipelineLayout;
	PFN_vkDestroyPipelineLayout DestroyPipelineLayout;
	PFN_vkCreateComputePipelines CreateComputePipelines;
	PFN_vkDestroyPipeline DestroyPipeline;
	PFN_vkCreateCommandPool CreateCommandPool;
	PFN_vkDestroyCommandPool DestroyCommandPool;
	PFN_vkAllocateCommandBuffers AllocateCommandBuffers;
	PFN_vkBeginCommandBuffer BeginCommandBuffer;
	PFN_vkEndCommandBuffer EndCommandBuffer;
	PFN_vkResetCommandBuffer ResetCommandBuffer;
	PFN_vkCmdBindPipeline CmdBindPipeline;
	PFN_vkCmdPushConstants CmdPushConstants;
	PFN_vkCmdPushDescriptorSetKHR CmdPushDescriptorSetKHR;
	PFN_vkCmdDispatch CmdDispatch;
	PFN_vkCmdPipelineBarrier CmdPipelineBarrier;
	PFN_vkCmdCopyBuffer CmdCopyBuffer;
	PFN_vkCmdWriteTimestamp CmdWriteTimestamp;
	PFN_vkCmdResetQueryPool CmdResetQueryPool;
	PFN_vkCreateQueryPool CreateQueryPool;
	PFN_vkDestroyQueryPool DestroyQueryPool;
	PFN_vkGetQueryPoolResults GetQueryPoolResults;
	PFN_vkCreateFence CreateFence;
	PFN_vkDestroyFence DestroyFence;
	PFN_vkResetFences ResetFences;
	PFN_vkWaitForFences WaitForFences;
	PFN_vkGetFenceStatus GetFenceStatus;
	PFN_vkQueueSubmit QueueSubmit;
	PFN_vkDeviceWaitIdle DeviceWaitIdle;
	// Timeline semaphores (Vulkan 1.2), loaded when the device has them.
	PFN_vkCreateSemaphore CreateSemaphore;
	PFN_vkDestroySemaphore DestroySemaphore;
	PFN_vkGetSemaphoreCounterValue GetSemaphoreCounterValue;
	PFN_vkWaitSemaphores WaitSemaphores;
	// The pipeline cache every pipeline is created through (VK_NULL_HANDLE: none).
	PFN_vkCreatePipelineCache CreatePipelineCache;
	PFN_vkGetPipelineCacheData GetPipelineCacheData;
	PFN_vkDestroyPipelineCache DestroyPipelineCache;
	VkPipelineCache cache;
	// VK_EXT_external_memory_host (issue 12's pinned transfers): enabled when the device has
	// it; hostImportAlign is its minImportedHostPointerAlignment (0: no import).
	PFN_vkGetMemoryHostPointerPropertiesEXT GetMemoryHostPointerPropertiesEXT;
	uint64_t hostImportAlign;
} AmpDevice;

int amp_load(const char *lib, char *err, int errlen);
void *amp_gipa(void);

const void *amp_messenger_info(void);
VkResult amp_instance_init(VkInstance inst, int debug);
void amp_instance_destroy(VkInstance inst);
int amp_take_messages(char *buf, int len, int *dropped);

void amp_device_extra(VkInstance inst, VkPhysicalDevice phys, uint32_t apiVersion, AmpDeviceExtra *out);
uint32_t amp_memory_budget(VkPhysicalDevice phys, uint64_t *budget, uint64_t *usage);
VkResult amp_device_create(VkInstance inst, VkPhysicalDevice phys, uint32_t family, uint32_t queues,
	int f64, int i64, int i16, int timeline, int swapchain, uint32_t extra, AmpDevice **out);
void amp_device_destroy(AmpDevice *d);
int amp_device_has_ext(VkPhysicalDevice phys, const char *name);
VkResult amp_device_wait_idle(AmpDevice *d);
VkQueue amp_device_queue(AmpDevice *d, uint32_t index);

VkResult amp_buffer_create(AmpDevice *d, VkDeviceSize size, uint32_t memProps, uint32_t avoidProps,
	VkBuffer *buf, VkDeviceMemory *mem, void **mapped, uint32_t *memType);
void amp_buffer_destroy(AmpDevice *d, VkBuffer buf, VkDeviceMemory mem);
// amp_host_import makes a transfer buffer of the size bytes of host memory at ptr (both
// multiples of d->hostImportAlign) through VK_EXT_external_memory_host.
VkResult amp_host_import(AmpDevice *d, void *ptr, VkDeviceSize size, VkBuffer *buf, VkDeviceMemory *mem);

VkResult amp_pipeline_create(AmpDevice *d, const uint32_t *code, size_t codeBytes, uint32_t nbind,
	uint32_t pushSize, const uint32_t *spec, uint32_t nspec, VkPipelineLayout *layout,
	VkDescriptorSetLayout *dsl, VkPipeline *pipe);
void amp_pipeline_destroy(AmpDevice *d, VkPipelineLayout layout, VkDescriptorSetLayout dsl, VkPipeline pipe);
VkResult amp_cache_create(AmpDevice *d, const void *data, size_t n);
VkResult amp_cache_data(AmpDevice *d, void *data, size_t *n);

VkResult amp_cmdpool_create(AmpDevice *d, VkCommandPool *pool);
void amp_cmdpool_destroy(AmpDevice *d, VkCommandPool pool);
VkResult amp_cmdbuf_alloc(AmpDevice *d, VkCommandPool pool, VkCommandBuffer *cb);
VkResult amp_cmdbuf_begin(AmpDevice *d, VkCommandBuffer cb);
VkResult amp_fence_create(AmpDevice *d, VkFence *f);
void amp_fence_destroy(AmpDevice *d, VkFence f);
VkResult amp_fence_wait(AmpDevice *d, VkFence f, uint64_t timeoutNs);
VkResult amp_fence_status(AmpDevice *d, VkFence f);
VkResult amp_fence_reset(AmpDevice *d, VkFence f);
// amp_submit submits cb, signaling fence f or, when sem is not null, timeline semaphore sem
// with value. With end, it first closes cb: AMP_END_HOST adds a barrier that makes the
// batch's writes visible to the host, for batches that write host-visible memory. A command
// buffer submitted again is already closed (end 0).
#define AMP_END 1
#define AMP_END_HOST 2
VkResult amp_submit(AmpDevice *d, VkQueue q, VkCommandBuffer cb, int end, VkFence f, VkSemaphore sem, uint64_t value);
VkResult amp_semaphore_create(AmpDevice *d, VkSemaphore *s);
void amp_semaphore_destroy(AmpDevice *d, VkSemaphore s);
// amp_semaphore_value returns the semaphore's counter, or a VkResult error code (negative).
int64_t amp_semaphore_value(AmpDevice *d, VkSemaphore s);
VkResult amp_semaphore_wait(AmpDevice *d, VkSemaphore s, uint64_t value, uint64_t timeoutNs);

// Commands are encoded by Go into a byte arena and recorded by one cgo call per batch (or
// per full arena), so that recording costs no cgo call per command and the driver's code
// stays hot in the cache. A record is an AmpRec; a dispatch's is followed by nbuf buffer
// handles, nbuf offsets and nbuf ranges (uint64 each) and its push constants padded to 8
// bytes.
typedef struct {
	uint32_t kind;
	int32_t flags;
	uint32_t nbuf, pushSize;
	uint32_t gx, gy, gz;
	int32_t query; // timestamp query pair of a profiled dispatch, or -1
	uint64_t pipe, layout;
	uint64_t src, dst, srcOff, dstOff, size;
} AmpRec;

// AmpRec kinds.
#define AMP_REC_DISPATCH 1
#define AMP_REC_BARRIER 2
#define AMP_REC_COPY 3

// Dispatch flags.
#define AMP_BARRIER 1
#define AMP_BIND_PIPELINE 2
#define AMP_PUSH_DESCRIPTORS 4
#define AMP_PUSH_CONSTANTS 8
// With AMP_BARRIER: the barrier also orders transfers (a copy was recorded since the last one).
#define AMP_BARRIER_TRANSFER 16

// amp_record records the n bytes of encoded commands at p into cb.
void amp_record(AmpDevice *d, VkCommandBuffer cb, VkQueryPool qp, const uint8_t *p, size_t n);

VkResult amp_querypool_create(AmpDevice *d, uint32_t count, VkQueryPool *qp);
void amp_querypool_destroy(AmpDevice *d, VkQueryPool qp);
void amp_cmd_reset_queries(AmpDevice *d, VkCommandBuffer cb, VkQueryPool qp, uint32_t first, uint32_t count);
VkResult amp_query_results(AmpDevice *d, VkQueryPool qp, uint32_t first, uint32_t count, uint64_t *out);

#endif
