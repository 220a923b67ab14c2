package accelerator

import (
	"strings"

	"github.com/goamp/goamp/internal/vk"
)

// Limits are the compute limits of a device that goamp checks before a dispatch, with
// Vulkan's names for them in brackets. The CPU accelerator has limits too (C++ AMP's tile
// rules and generous bounds), so that a kernel that runs on the CPU is checked as on a GPU.
type Limits struct {
	// MaxWorkgroupInvocations is the most threads in one tile
	// (maxComputeWorkGroupInvocations).
	MaxWorkgroupInvocations uint32 `json:"max_workgroup_invocations"`
	// MaxWorkgroupSize is the largest tile in each dimension, x first: x is a tile's last
	// (fastest) dimension, z its first in rank 3 (maxComputeWorkGroupSize).
	MaxWorkgroupSize [3]uint32 `json:"max_workgroup_size"`
	// MaxWorkgroupCount is the most tiles one dispatch may have in each dimension, x first
	// as in MaxWorkgroupSize (maxComputeWorkGroupCount).
	MaxWorkgroupCount [3]uint32 `json:"max_workgroup_count"`
	// MaxSharedMemory is the most bytes of tile_static memory one tile may use
	// (maxComputeSharedMemorySize).
	MaxSharedMemory uint32 `json:"max_shared_memory"`
	// MaxStorageBufferRange is the most bytes one view argument may cover
	// (maxStorageBufferRange).
	MaxStorageBufferRange uint32 `json:"max_storage_buffer_range"`
	// MaxPushConstantsSize is the most bytes of scalar kernel fields (push constants) one
	// dispatch may pass (maxPushConstantsSize).
	MaxPushConstantsSize uint32 `json:"max_push_constants_size"`
	// MinStorageBufferAlign is the alignment in bytes of a view argument's offset in its
	// buffer (minStorageBufferOffsetAlignment); 0 on the CPU.
	MinStorageBufferAlign uint64 `json:"min_storage_buffer_offset_alignment"`
	// MaxMemoryAllocationCount is the most device memory allocations that may exist at
	// once (maxMemoryAllocationCount); 0 on the CPU.
	MaxMemoryAllocationCount uint32 `json:"max_memory_allocation_count"`
	// MaxMemoryAllocationSize is the most bytes one device allocation (one array's
	// data, one scratch buffer) may have (maxMemoryAllocationSize, Vulkan 1.1); 0 on
	// the CPU and where unknown.
	MaxMemoryAllocationSize uint64 `json:"max_memory_allocation_size"`
	// TimestampPeriodNs is the nanoseconds per tick of the device's timestamps
	// (timestampPeriod); 0 on the CPU.
	TimestampPeriodNs float32 `json:"timestamp_period_ns"`
	// TimestampValidBits is how many low bits of a timestamp are meaningful
	// (timestampValidBits of the compute queue family); 0 on the CPU.
	TimestampValidBits uint32 `json:"timestamp_valid_bits"`
	// MaxLoopIterations is the most loop iterations one thread of a kernel runs, all its
	// loops counted together, before the driver ends them without an error (no Vulkan
	// limit: a driver's guard against endless loops); 0 where loops run to their end.
	// lavapipe (Mesa's llvmpipe driver): 65,535.
	MaxLoopIterations uint32 `json:"max_loop_iterations,omitempty"`
}

// llvmpipeLoopCap is Mesa's LP_MAX_TGSI_LOOP_ITERATIONS: llvmpipe (lavapipe) ends a
// shader invocation's loops after this many iterations in all.
const llvmpipeLoopCap = 65535

// limitsOf converts the Vulkan layer's limits.
func limitsOf(l vk.Limits) Limits {
	return Limits{
		MaxWorkgroupInvocations: l.MaxWorkgroupInvocations, MaxWorkgroupSize: l.MaxWorkgroupSize,
		MaxWorkgroupCount: l.MaxWorkgroupCount, MaxSharedMemory: l.MaxSharedMemory,
		MaxStorageBufferRange: l.MaxStorageBufferRange, MaxPushConstantsSize: l.MaxPushConstantsSize,
		MinStorageBufferAlign: l.MinStorageBufferAlign, MaxMemoryAllocationCount: l.MaxMemoryAllocationCount,
		MaxMemoryAllocationSize: l.MaxMemoryAllocationSize, TimestampPeriodNs: l.TimestampPeriodNs, TimestampValidBits: l.TimestampValidBits,
	}
}

// SubgroupOps is a set of subgroup (warp, wave) operations that a device supports in
// compute shaders: bit i is operation i of "basic", "vote", "arithmetic", "ballot",
// "shuffle", "shuffle_relative", "clustered", "quad" (Vulkan's VkSubgroupFeatureFlags).
type SubgroupOps uint32

// subgroupOpNames are the operations' names, in bit order.
var subgroupOpNames = []string{"basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle_relative", "clustered", "quad"}

// Names lists the operations in the set, in bit order.
func (s SubgroupOps) Names() []string {
	var out []string
	for i, n := range subgroupOpNames {
		if s&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// Has reports whether the set holds the named operation ("arithmetic", "shuffle", ...);
// false for a name it does not know.
func (s SubgroupOps) Has(name string) bool {
	for i, n := range subgroupOpNames {
		if n == name {
			return s&(1<<i) != 0
		}
	}
	return false
}

// String lists the operations' names, separated by spaces.
func (s SubgroupOps) String() string { return strings.Join(s.Names(), " ") }

// MemoryHeap is one memory heap of a device (a VkMemoryHeap).
type MemoryHeap struct {
	// Size is the heap's size in bytes.
	Size uint64 `json:"size"`
	// DeviceLocal says the heap is the device's own memory (VRAM on a discrete GPU).
	DeviceLocal bool `json:"device_local"`
}

// MemoryType is one memory type of a device (a VkMemoryType), its property flags spelled
// out.
type MemoryType struct {
	// Heap is the index in Properties.MemoryHeaps of the heap the type allocates from.
	Heap int `json:"heap"`
	// DeviceLocal says the memory is fastest for the device to access.
	DeviceLocal bool `json:"device_local"`
	// HostVisible says the host can map the memory.
	HostVisible bool `json:"host_visible"`
	// HostCoherent says the host's writes and the device's are visible to each other
	// without flushes.
	HostCoherent bool `json:"host_coherent"`
	// HostCached says host reads of the memory are cached (fast for copies back).
	HostCached bool `json:"host_cached"`
}

// memoryOf converts the Vulkan layer's heaps and memory types.
func memoryOf(hs []vk.MemoryHeap, ts []vk.MemoryType) ([]MemoryHeap, []MemoryType) {
	heaps := make([]MemoryHeap, len(hs))
	for i, h := range hs {
		heaps[i] = MemoryHeap{Size: h.Size, DeviceLocal: h.DeviceLocal}
	}
	types := make([]MemoryType, len(ts))
	for i, t := range ts {
		types[i] = MemoryType{Heap: t.Heap, DeviceLocal: t.DeviceLocal, HostVisible: t.HostVisible,
			HostCoherent: t.HostCoherent, HostCached: t.HostCached}
	}
	return heaps, types
}

// Properties is a description of an accelerator, for printing and JSON (cmd/ampinfo
// prints it); C++ AMP's accelerator properties are among its fields.
type Properties struct {
	// Path is the device path: "cpu" or "vulkan:N".
	Path string `json:"path"`
	// Description is the device's name.
	Description string `json:"description"`
	// Default says the accelerator is the default one (see Default).
	Default bool `json:"default"`
	// Type is the kind of device: "discrete GPU", "integrated GPU", "virtual GPU", "CPU"
	// (a Vulkan device of CPU type, such as lavapipe), "other", or "CPU (goroutines)".
	Type string `json:"type"`
	// IsEmulated is Accelerator.IsEmulated.
	IsEmulated bool `json:"is_emulated"`
	// DedicatedMemory is Accelerator.DedicatedMemory, in bytes.
	DedicatedMemory uint64 `json:"dedicated_memory"`
	// SupportsDouble is Accelerator.SupportsDoublePrecision.
	SupportsDouble bool `json:"supports_double_precision"`
	// SupportsLimitedDouble is Accelerator.SupportsLimitedDoublePrecision.
	SupportsLimitedDouble bool `json:"supports_limited_double_precision"`
	// SupportsCPUSharedMemory is Accelerator.SupportsCPUSharedMemory.
	SupportsCPUSharedMemory bool `json:"supports_cpu_shared_memory"`
	// Version is Accelerator.Version.
	Version string `json:"version"`
	// DriverVersion is Accelerator.DriverVersion ("" for the CPU).
	DriverVersion string `json:"driver_version,omitempty"`
	// DriverName is the Vulkan driver's name ("llvmpipe", "NVIDIA"; "" for the CPU).
	DriverName string `json:"driver_name,omitempty"`
	// DriverInfo is the driver's own description of its build ("" for the CPU).
	DriverInfo string `json:"driver_info,omitempty"`
	// VendorID is the PCI vendor ID (0x10de for NVIDIA; 0 for the CPU).
	VendorID uint32 `json:"vendor_id"`
	// DeviceID is the vendor's device ID (0 for the CPU).
	DeviceID uint32 `json:"device_id"`
	// UUID identifies the device across processes and APIs, 8-4-4-4-12 hex digits ("" for
	// the CPU).
	UUID string `json:"uuid,omitempty"`
	// DeviceGroupSize is how many GPUs the driver groups with this one for peer memory
	// (Vulkan device groups: VK_KHR_device_group); 1 where it stands alone, 0 for the CPU
	// and where unknown. goamp copies between accelerators through the host either way.
	DeviceGroupSize int `json:"device_group_size"`
	// SubgroupSize is Accelerator.SubgroupSize.
	SubgroupSize uint32 `json:"subgroup_size"`
	// SubgroupOps are the names of Accelerator.SubgroupOps, never nil.
	SubgroupOps []string `json:"subgroup_operations"`
	// Int64 says kernels may use 64-bit integers.
	Int64 bool `json:"int64"`
	// Storage16 and Float16 are Accelerator.Supports16BitStorage and SupportsFloat16:
	// half.Float16 views, and float16 arithmetic.
	Storage16 bool `json:"storage_16bit"`
	Float16   bool `json:"float16"`
	// Storage8 and Int8 are Accelerator.Supports8BitStorage and SupportsInt8: int8 and
	// uint8 views, and 8-bit integer arithmetic.
	Storage8 bool `json:"storage_8bit"`
	Int8     bool `json:"int8"`
	// SignedZeroInfNaN lists the float widths (16, 32, 64) of which
	// Accelerator.KeepsSignedZeroInfNaN is true, never nil.
	SignedZeroInfNaN []int `json:"signed_zero_inf_nan"`
	// CooperativeMatrices and CooperativeMatricesNV are the shapes of
	// Accelerator.CooperativeMatricesKHR and CooperativeMatrices, as their String methods
	// write them ("16x16x16 float16*float16+float32->float32"), never nil.
	CooperativeMatrices   []string `json:"cooperative_matrices"`
	CooperativeMatricesNV []string `json:"cooperative_matrices_nv"`
	// Limits is Accelerator.Limits.
	Limits Limits `json:"limits"`
	// MemoryHeaps are the device's memory heaps (none for the CPU).
	MemoryHeaps []MemoryHeap `json:"memory_heaps,omitempty"`
	// MemoryTypes are the device's memory types (none for the CPU).
	MemoryTypes []MemoryType `json:"memory_types,omitempty"`
}

// Properties describes the accelerator.
func (a *Accelerator) Properties() Properties {
	p := Properties{
		Path: a.path, Description: a.desc, Type: "CPU (goroutines)", IsEmulated: a.IsEmulated(),
		DedicatedMemory: a.DedicatedMemory(), SupportsDouble: a.SupportsDoublePrecision(),
		SupportsLimitedDouble: a.SupportsLimitedDoublePrecision(), SupportsCPUSharedMemory: a.SupportsCPUSharedMemory(),
		Version: a.Version(), DriverVersion: a.DriverVersion(), SubgroupSize: a.SubgroupSize(),
		SubgroupOps: a.SubgroupOps().Names(), Int64: true, Limits: a.Limits(),
		Storage16: a.Supports16BitStorage(), Float16: a.SupportsFloat16(), Storage8: a.Supports8BitStorage(), Int8: a.SupportsInt8(),
		CooperativeMatrices: shapeNames(a.CooperativeMatricesKHR()), CooperativeMatricesNV: shapeNames(a.CooperativeMatrices()),
		SignedZeroInfNaN: []int{},
	}
	for _, w := range []int{16, 32, 64} {
		if a.KeepsSignedZeroInfNaN(w) {
			p.SignedZeroInfNaN = append(p.SignedZeroInfNaN, w)
		}
	}
	if d, err := Default(); err == nil && d == a {
		p.Default = true
	}
	if a.info != nil {
		p.Type = a.info.Type.String()
		p.DriverName, p.DriverInfo = a.info.DriverName, a.info.DriverInfo
		p.VendorID, p.DeviceID = a.info.VendorID, a.info.DeviceID
		p.UUID = a.info.UUIDString()
		p.DeviceGroupSize = a.info.GroupSize
		p.Int64 = a.info.Int64
		p.MemoryHeaps, p.MemoryTypes = memoryOf(a.info.Heaps, a.info.MemoryTypes)
	}
	if p.SubgroupOps == nil {
		p.SubgroupOps = []string{}
	}
	return p
}

// shapeNames returns the shapes' String forms, never nil.
func shapeNames(shapes []CoopMatrixShape) []string {
	out := []string{}
	for _, s := range shapes {
		out = append(out, s.String())
	}
	return out
}
