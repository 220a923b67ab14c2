package vk

import (
	"errors"
	"fmt"
)

// DeviceType is the kind of a physical device, as VkPhysicalDeviceType says.
type DeviceType int

// The Vulkan physical device types.
const (
	TypeOther DeviceType = iota
	TypeIntegratedGPU
	TypeDiscreteGPU
	TypeVirtualGPU
	TypeCPU
)

func (t DeviceType) String() string {
	switch t {
	case TypeIntegratedGPU:
		return "integrated GPU"
	case TypeDiscreteGPU:
		return "discrete GPU"
	case TypeVirtualGPU:
		return "virtual GPU"
	case TypeCPU:
		return "CPU"
	}
	return "other"
}

// MemoryHeap is one VkMemoryHeap.
type MemoryHeap struct {
	Size        uint64
	DeviceLocal bool
}

// MemoryType is one VkMemoryType with its property flags spelled out.
type MemoryType struct {
	Heap         int
	DeviceLocal  bool
	HostVisible  bool
	HostCoherent bool
	HostCached   bool
}

// Limits are the compute limits of a device that goamp checks before a dispatch.
type Limits struct {
	MaxWorkgroupInvocations  uint32
	MaxWorkgroupSize         [3]uint32
	MaxWorkgroupCount        [3]uint32
	MaxSharedMemory          uint32
	MaxStorageBufferRange    uint32
	MaxPushConstantsSize     uint32
	MinStorageBufferAlign    uint64
	MaxMemoryAllocationCount uint32
	MaxMemoryAllocationSize  uint64
	TimestampPeriodNs        float32
	TimestampValidBits       uint32
}

// SubgroupOps are the VkSubgroupFeatureFlags bits (accelerator.SubgroupOps names them).
type SubgroupOps uint32

// DeviceInfo is everything goamp reads about one physical device.
type DeviceInfo struct {
	Index         int
	Name          string
	Type          DeviceType
	VendorID      uint32
	DeviceID      uint32
	APIVersion    uint32
	DriverVersion uint32
	DriverName    string
	DriverInfo    string
	UUID          [16]byte
	// GroupSize is how many physical devices the driver puts in this one's device group
	// (vkEnumeratePhysicalDeviceGroups): more than 1 where GPUs can share peer memory; 0
	// where unknown (Vulkan 1.0).
	GroupSize int
	// PipelineCacheUUID identifies the pipeline caches the device's driver accepts
	// (VkPhysicalDeviceProperties' pipelineCacheUUID).
	PipelineCacheUUID [16]byte
	Heaps             []MemoryHeap
	MemoryTypes       []MemoryType
	Limits            Limits
	SubgroupSize      uint32
	SubgroupOps       SubgroupOps
	Float64           bool
	Int64             bool
	Int16             bool
	ComputeFamily     int
	ComputeQueues     int
	// PushDescriptor says VK_KHR_push_descriptor is present: dispatches push their buffers
	// where it is, and bind descriptor sets allocated per dispatch where it is not.
	PushDescriptor bool
	// TimelineSemaphore says the device has timeline semaphores (Vulkan 1.2); streams then
	// learn that a batch finished by reading a counter instead of polling a fence.
	TimelineSemaphore bool
	// Storage16 says storage buffers may hold 16-bit values (storageBuffer16BitAccess of
	// VK_KHR_16bit_storage, core in 1.1; asked of Vulkan 1.2 devices); enabled when true.
	Storage16 bool
	// Float16 says shaders may compute in float16 (shaderFloat16); enabled when true.
	Float16 bool
	// Storage8 says storage buffers may hold 8-bit values (storageBuffer8BitAccess of
	// VK_KHR_8bit_storage, core in 1.2); enabled when true.
	Storage8 bool
	// Int8 says shaders may compute in 8-bit integers (shaderInt8); enabled when true.
	Int8 bool
	// SignedZeroInfNan says, for 16-, 32- and 64-bit floats, whether shaders may ask the
	// driver to keep the sign of zeros, infinities and NaNs (the SignedZeroInfNanPreserve
	// execution mode; shaderSignedZeroInfNanPreserveFloat16/32/64 of Vulkan 1.2).
	SignedZeroInfNan [3]bool
	// MemoryModel says the device has the Vulkan memory model (vulkanMemoryModel and
	// vulkanMemoryModelDeviceScope), which cooperative-matrix shaders declare; enabled with
	// them.
	MemoryModel bool
	// CoopMatrixNV lists the cooperative-matrix shapes and types the device reports
	// (vkGetPhysicalDeviceCooperativeMatrixPropertiesNV) when it has VK_NV_cooperative_matrix
	// and its feature, which are then enabled; empty otherwise.
	CoopMatrixNV []CoopMatrix
	// CoopMatrixKHR lists the shapes the device reports through VK_KHR_cooperative_matrix
	// (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR) when it has the extension and its
	// feature, which are then enabled; empty otherwise.
	CoopMatrixKHR []CoopMatrix
}

// CoopMatrix is one VkCooperativeMatrixPropertiesNV or ...KHR: A (M x K) times B (K x N) plus C
// (M x N) gives the result D, with the component types of each (ComponentFloat16, ...).
type CoopMatrix struct {
	M, N, K       uint32
	A, B, C, D    ComponentType
	SubgroupScope bool // the scope is the subgroup (the only scope goamp's shaders use)
}

// ComponentType is a VkComponentTypeNV (the KHR values are the same).
type ComponentType uint32

// The component types goamp's shaders use.
const (
	ComponentFloat16 ComponentType = 0
	ComponentFloat32 ComponentType = 1
	ComponentSint8   ComponentType = 3
	ComponentSint32  ComponentType = 5
	ComponentUint8   ComponentType = 7
	ComponentUint32  ComponentType = 9
	// ComponentBfloat16 is VK_COMPONENT_TYPE_BFLOAT16_KHR (VK_KHR_shader_bfloat16).
	ComponentBfloat16 ComponentType = 1000141000
)

// UUIDString formats the device UUID as 8-4-4-4-12 hex digits.
func (d *DeviceInfo) UUIDString() string {
	u := d.UUID
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// DeviceLocalBytes sums the device-local heaps.
func (d *DeviceInfo) DeviceLocalBytes() uint64 {
	var n uint64
	for _, h := range d.Heaps {
		if h.DeviceLocal {
			n += h.Size
		}
	}
	return n
}

// UnifiedMemory reports whether every device-local memory type is also host visible and
// coherent, as on lavapipe and integrated GPUs: then buffers are mapped directly.
func (d *DeviceInfo) UnifiedMemory() bool {
	found := false
	for _, t := range d.MemoryTypes {
		if t.DeviceLocal {
			if !t.HostVisible || !t.HostCoherent {
				return false
			}
			found = true
		}
	}
	return found
}

// APIVersionString formats a Vulkan API version as major.minor.patch.
func APIVersionString(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", (v>>22)&0x7f, (v>>12)&0x3ff, v&0xfff)
}

// DriverVersionString formats a driver version the way its vendor does (NVIDIA packs
// 10.8.8.6 bits; others follow the Vulkan API encoding).
func DriverVersionString(vendor, v uint32) string {
	if vendor == 0x10de {
		return fmt.Sprintf("%d.%d.%02d", v>>22, (v>>14)&0xff, (v>>6)&0xff)
	}
	return APIVersionString(v)
}

// Error is a failed Vulkan call: the operation and its VkResult. It matches
// ErrOutOfDeviceMemory, ErrDeviceLost or ErrTimeout where its result is one of those.
type Error struct {
	// Op is the Vulkan function that failed, e.g. "vkAllocateMemory".
	Op string
	// Result is the VkResult it returned.
	Result int32
}

// Sentinels that Error values match with errors.Is.
var (
	// ErrUnavailable: no Vulkan here (no loader, a system goamp does not load it on, or
	// instance creation failed).
	ErrUnavailable = errors.New("goamp/vk: vulkan unavailable")
	// ErrOutOfDeviceMemory: VK_ERROR_OUT_OF_DEVICE_MEMORY or VK_ERROR_OUT_OF_HOST_MEMORY.
	ErrOutOfDeviceMemory = errors.New("goamp/vk: out of device memory")
	// ErrDeviceLost: VK_ERROR_DEVICE_LOST.
	ErrDeviceLost = errors.New("goamp/vk: device lost")
	// ErrTimeout: a wait ran past its deadline.
	ErrTimeout = errors.New("goamp/vk: timed out waiting for the device")
)

var resultNames = map[int32]string{
	1: "VK_NOT_READY", 2: "VK_TIMEOUT", -1: "VK_ERROR_OUT_OF_HOST_MEMORY", -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
	-3: "VK_ERROR_INITIALIZATION_FAILED", -4: "VK_ERROR_DEVICE_LOST", -5: "VK_ERROR_MEMORY_MAP_FAILED",
	-6: "VK_ERROR_LAYER_NOT_PRESENT", -7: "VK_ERROR_EXTENSION_NOT_PRESENT", -8: "VK_ERROR_FEATURE_NOT_PRESENT",
	-9: "VK_ERROR_INCOMPATIBLE_DRIVER", -13: "VK_ERROR_UNKNOWN",
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("goamp/vk: %s: %s", e.Op, e.ResultName()) }

// ResultName names the VkResult, e.g. "VK_ERROR_DEVICE_LOST" ("VkResult -1000069000" for
// one without a name here).
func (e *Error) ResultName() string {
	if name, ok := resultNames[e.Result]; ok {
		return name
	}
	return fmt.Sprintf("VkResult %d", e.Result)
}

// Is matches the sentinels above.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrOutOfDeviceMemory:
		return e.Result == -1 || e.Result == -2
	case ErrDeviceLost:
		return e.Result == -4
	case ErrTimeout:
		return e.Result == 2
	}
	return false
}

// MemKind says where a buffer lives.
type MemKind int

// Buffer memory kinds.
const (
	// MemDevice is device-local memory, not necessarily host visible; the host never maps
	// it, so its data moves by copies through MemUpload or MemDownload buffers (staging).
	MemDevice MemKind = iota
	// MemUpload is host-visible coherent memory for staging host-to-device copies.
	MemUpload
	// MemDownload is host-visible cached memory for device-to-host copies.
	MemDownload
	// MemShared is device-local memory that the host maps directly (unified memory).
	MemShared
)

// Options configure Open.
type Options struct {
	// Library is the Vulkan loader to open; "" means the system's: libvulkan.so.1,
	// vulkan-1.dll, or on macOS libvulkan.1.dylib, else libMoltenVK.dylib.
	Library string
	// Validation enables VK_LAYER_KHRONOS_validation and collects its messages.
	Validation bool
	// InstanceExtensions are instance extensions to enable besides goamp's own: a window's
	// (VK_KHR_surface and its window system's, see AdoptSurface), only for the program
	// that shows one. With VK_KHR_surface, devices are opened with VK_KHR_swapchain where
	// they have it.
	InstanceExtensions []string
	// NoPushDescriptors makes devices bind buffers through descriptor sets even where they
	// have VK_KHR_push_descriptor, as devices without it do (to test that path).
	NoPushDescriptors bool
}
