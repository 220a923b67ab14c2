// Declarations for internal/vkgen of what the vendored Khronos headers (1.3.239) lack,
// spelled as the registry defines them, in the headers' own layout so that vkgen parses
// them alike. No C compiler reads this file.

// VK_KHR_cooperative_matrix (extension 507).
#define VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME "VK_KHR_cooperative_matrix"

typedef enum VkStructureTypeKHRCooperativeMatrix {
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR = 1000506000,
    VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR = 1000506001,
} VkStructureTypeKHRCooperativeMatrix;

typedef struct VkPhysicalDeviceCooperativeMatrixFeaturesKHR {
    VkStructureType    sType;
    void*              pNext;
    VkBool32           cooperativeMatrix;
    VkBool32           cooperativeMatrixRobustBufferAccess;
} VkPhysicalDeviceCooperativeMatrixFeaturesKHR;

typedef struct VkCooperativeMatrixPropertiesKHR {
    VkStructureType    sType;
    void*              pNext;
    uint32_t           MSize;
    uint32_t           NSize;
    uint32_t           KSize;
    VkComponentTypeNV  AType;
    VkComponentTypeNV  BType;
    VkComponentTypeNV  CType;
    VkComponentTypeNV  ResultType;
    VkBool32           saturatingAccumulation;
    VkScopeNV          scope;
} VkCooperativeMatrixPropertiesKHR;

typedef VkResult (VKAPI_PTR *PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)(VkPhysicalDevice physicalDevice, uint32_t* pPropertyCount, VkCooperativeMatrixPropertiesKHR* pProperties);

// VK_KHR_portability_subset, which vulkan_beta.h declares: a device that has it (MoltenVK)
// must be opened with it.
#define VK_KHR_PORTABILITY_SUBSET_EXTENSION_NAME "VK_KHR_portability_subset"
