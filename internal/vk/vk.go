//go:build cgo

package vk

/*
#include "shim.h"
#include <stdlib.h>
*/
import "C"

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	vulkan "github.com/vulkan-go/vulkan"
)

// Available reports whether this build can use Vulkan at all (it was built with cgo).
const Available = true

var loadMu sync.Mutex

// loadedLib is the Vulkan loader Open loaded (under loadMu), "" before the first.
var loadedLib string

func check(op string, r C.VkResult) error {
	if r == C.VK_SUCCESS {
		return nil
	}
	return &Error{Op: op, Result: int32(r)}
}

// Instance is a Vulkan instance with its physical devices described.
type Instance struct {
	inst       vulkan.Instance
	validation bool
	// surface: the instance has VK_KHR_surface (Options.InstanceExtensions), so its devices
	// are opened with VK_KHR_swapchain where they have it.
	surface bool
	devices []DeviceInfo
	phys    []vulkan.PhysicalDevice
}

// Open loads the Vulkan loader and creates an instance. Errors match ErrUnavailable.
func Open(o Options) (*Instance, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	lib := o.Library
	if lib == "" {
		lib = "libvulkan.so.1"
	}
	// The loader stays loaded for the process (vulkan-go keeps its entry points), so a
	// second Open naming another library would silently get the first one.
	if loadedLib != "" && loadedLib != lib {
		return nil, fmt.Errorf("%w: cannot load %s: %s is loaded already, and a process keeps its first Vulkan loader", ErrUnavailable, lib, loadedLib)
	}
	clib := C.CString(lib)
	defer C.free(unsafe.Pointer(clib))
	var ebuf [512]C.char
	if C.amp_load(clib, &ebuf[0], C.int(len(ebuf))) == 0 {
		return nil, fmt.Errorf("%w: cannot load %s: %s", ErrUnavailable, lib, C.GoString(&ebuf[0]))
	}
	loadedLib = lib
	vulkan.SetGetInstanceProcAddr(C.amp_gipa())
	if err := vulkan.Init(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var layers, exts []string
	if o.Validation {
		if !hasLayer("VK_LAYER_KHRONOS_validation") {
			return nil, fmt.Errorf("%w: validation requested but VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)", ErrUnavailable)
		}
		layers = append(layers, "VK_LAYER_KHRONOS_validation\x00")
		exts = append(exts, "VK_EXT_debug_utils\x00")
	}
	// A window's extensions are enabled where the loader has them (the window says so when
	// it makes its surface); without them goamp computes as before.
	surface := false
	for _, e := range o.InstanceExtensions {
		if hasInstanceExtension(e) {
			exts = append(exts, e+"\x00")
			surface = surface || e == "VK_KHR_surface"
		}
	}
	app := vulkan.ApplicationInfo{
		SType:            vulkan.StructureTypeApplicationInfo,
		PApplicationName: "goamp\x00",
		PEngineName:      "goamp\x00",
		ApiVersion:       vulkan.MakeVersion(1, 3, 0),
	}
	ci := vulkan.InstanceCreateInfo{
		SType:                   vulkan.StructureTypeInstanceCreateInfo,
		PApplicationInfo:        &app,
		EnabledLayerCount:       uint32(len(layers)),
		PpEnabledLayerNames:     layers,
		EnabledExtensionCount:   uint32(len(exts)),
		PpEnabledExtensionNames: exts,
	}
	if o.Validation {
		ci.PNext = unsafe.Pointer(C.amp_messenger_info())
	}
	var inst vulkan.Instance
	if r := vulkan.CreateInstance(&ci, nil, &inst); r != vulkan.Success {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, &Error{Op: "vkCreateInstance", Result: int32(r)})
	}
	if err := vulkan.InitInstance(inst); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	cinst := C.VkInstance(unsafe.Pointer(inst))
	debug := C.int(0)
	if o.Validation {
		debug = 1
	}
	if err := check("debug messenger", C.amp_instance_init(cinst, debug)); err != nil {
		C.amp_instance_destroy(cinst)
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	in := &Instance{inst: inst, validation: o.Validation, surface: surface}
	if err := in.enumerate(); err != nil {
		in.Close()
		return nil, err
	}
	return in, nil
}

// hasInstanceExtension reports whether the loader offers instance extension name.
func hasInstanceExtension(name string) bool {
	var n uint32
	vulkan.EnumerateInstanceExtensionProperties("", &n, nil)
	props := make([]vulkan.ExtensionProperties, n)
	vulkan.EnumerateInstanceExtensionProperties("", &n, props)
	for _, p := range props {
		p.Deref()
		if vulkan.ToString(p.ExtensionName[:]) == name {
			return true
		}
	}
	return false
}

func hasLayer(name string) bool {
	var n uint32
	vulkan.EnumerateInstanceLayerProperties(&n, nil)
	props := make([]vulkan.LayerProperties, n)
	vulkan.EnumerateInstanceLayerProperties(&n, props)
	for _, p := range props {
		p.Deref()
		if vulkan.ToString(p.LayerName[:]) == name {
			return true
		}
	}
	return false
}

func (in *Instance) enumerate() error {
	var n uint32
	if r := vulkan.EnumeratePhysicalDevices(in.inst, &n, nil); r != vulkan.Success {
		return fmt.Errorf("%w: %v", ErrUnavailable, &Error{Op: "vkEnumeratePhysicalDevices", Result: int32(r)})
	}
	in.phys = make([]vulkan.PhysicalDevice, n)
	if n > 0 {
		vulkan.EnumeratePhysicalDevices(in.inst, &n, in.phys)
	}
	for i, pd := range in.phys {
		in.devices = append(in.devices, describe(in.inst, pd, i))
	}
	return nil
}

// describe gathers what goamp needs to know of physical device pd (enumeration index index).
func describe(inst vulkan.Instance, pd vulkan.PhysicalDevice, index int) DeviceInfo {
	var p vulkan.PhysicalDeviceProperties
	vulkan.GetPhysicalDeviceProperties(pd, &p)
	p.Deref()
	p.Limits.Deref()
	var f vulkan.PhysicalDeviceFeatures
	vulkan.GetPhysicalDeviceFeatures(pd, &f)
	f.Deref()
	var mp vulkan.PhysicalDeviceMemoryProperties
	vulkan.GetPhysicalDeviceMemoryProperties(pd, &mp)
	mp.Deref()
	l := p.Limits
	d := DeviceInfo{
		Index:             index,
		Name:              vulkan.ToString(p.DeviceName[:]),
		Type:              DeviceType(p.DeviceType),
		VendorID:          p.VendorID,
		DeviceID:          p.DeviceID,
		APIVersion:        p.ApiVersion,
		DriverVersion:     p.DriverVersion,
		PipelineCacheUUID: p.PipelineCacheUUID,
		Limits: Limits{
			MaxWorkgroupInvocations:  l.MaxComputeWorkGroupInvocations,
			MaxWorkgroupSize:         l.MaxComputeWorkGroupSize,
			MaxWorkgroupCount:        l.MaxComputeWorkGroupCount,
			MaxSharedMemory:          l.MaxComputeSharedMemorySize,
			MaxStorageBufferRange:    l.MaxStorageBufferRange,
			MaxPushConstantsSize:     l.MaxPushConstantsSize,
			MinStorageBufferAlign:    uint64(l.MinStorageBufferOffsetAlignment),
			MaxMemoryAllocationCount: l.MaxMemoryAllocationCount,
			TimestampPeriodNs:        l.TimestampPeriod,
		},
		Float64:       f.ShaderFloat64 == vulkan.True,
		Int64:         f.ShaderInt64 == vulkan.True,
		Int16:         f.ShaderInt16 == vulkan.True,
		ComputeFamily: -1,
	}
	describeMemory(&d, &mp)
	describeQueues(&d, pd)
	var ex C.AmpDeviceExtra
	C.amp_device_extra(C.VkInstance(unsafe.Pointer(inst)), C.VkPhysicalDevice(unsafe.Pointer(pd)), C.uint32_t(p.ApiVersion), &ex)
	d.SubgroupSize = uint32(ex.subgroupSize)
	d.SubgroupOps = SubgroupOps(ex.subgroupOps)
	d.DriverName = C.GoString(&ex.driverName[0])
	d.DriverInfo = C.GoString(&ex.driverInfo[0])
	d.UUID = *(*[16]byte)(unsafe.Pointer(&ex.deviceUUID[0]))
	d.PushDescriptor = ex.pushDescriptor != 0
	d.TimelineSemaphore = ex.timelineSemaphore != 0
	d.Limits.MaxMemoryAllocationSize = uint64(ex.maxMemoryAllocationSize)
	d.GroupSize = int(ex.groupSize)
	d.Storage16, d.Float16, d.MemoryModel = ex.storage16 != 0, ex.float16 != 0, ex.memoryModel != 0
	d.Storage8, d.Int8 = ex.storage8 != 0, ex.int8 != 0
	d.SignedZeroInfNan = [3]bool{ex.szInfNan&1 != 0, ex.szInfNan&2 != 0, ex.szInfNan&4 != 0}
	if d.MemoryModel {
		d.CoopMatrixNV = coopShapes(ex.coopNV, ex.coopCount, &ex.coop)
		d.CoopMatrixKHR = coopShapes(ex.coopKHR, ex.coopKCount, &ex.coopK)
	}
	return d
}

// describeMemory adds the device's memory heaps and types to d.
func describeMemory(d *DeviceInfo, mp *vulkan.PhysicalDeviceMemoryProperties) {
	for i := 0; i < int(mp.MemoryHeapCount); i++ {
		h := mp.MemoryHeaps[i]
		h.Deref()
		d.Heaps = append(d.Heaps, MemoryHeap{Size: uint64(h.Size), DeviceLocal: h.Flags&vulkan.MemoryHeapFlags(vulkan.MemoryHeapDeviceLocalBit) != 0})
	}
	for i := 0; i < int(mp.MemoryTypeCount); i++ {
		t := mp.MemoryTypes[i]
		t.Deref()
		fl := vulkan.MemoryPropertyFlagBits(t.PropertyFlags)
		d.MemoryTypes = append(d.MemoryTypes, MemoryType{
			Heap:         int(t.HeapIndex),
			DeviceLocal:  fl&vulkan.MemoryPropertyDeviceLocalBit != 0,
			HostVisible:  fl&vulkan.MemoryPropertyHostVisibleBit != 0,
			HostCoherent: fl&vulkan.MemoryPropertyHostCoherentBit != 0,
			HostCached:   fl&vulkan.MemoryPropertyHostCachedBit != 0,
		})
	}
}

// describeQueues adds the device's compute queue family to d: one without graphics (a
// dedicated compute queue) where there is one, else any with compute; ComputeFamily stays
// -1 when there is none.
func describeQueues(d *DeviceInfo, pd vulkan.PhysicalDevice) {
	var qn uint32
	vulkan.GetPhysicalDeviceQueueFamilyProperties(pd, &qn, nil)
	qf := make([]vulkan.QueueFamilyProperties, qn)
	vulkan.GetPhysicalDeviceQueueFamilyProperties(pd, &qn, qf)
	best := -1
	for i := range qf {
		qf[i].Deref()
		fl := vulkan.QueueFlagBits(qf[i].QueueFlags)
		if fl&vulkan.QueueComputeBit == 0 {
			continue
		}
		if best < 0 || (fl&vulkan.QueueGraphicsBit == 0 && vulkan.QueueFlagBits(qf[best].QueueFlags)&vulkan.QueueGraphicsBit != 0) {
			best = i
		}
	}
	if best >= 0 {
		d.ComputeFamily = best
		d.ComputeQueues = int(qf[best].QueueCount)
		d.Limits.TimestampValidBits = qf[best].TimestampValidBits
	}
}

// Devices describes the physical devices, in enumeration order.
func (in *Instance) Devices() []DeviceInfo { return in.devices }

// Validation reports whether the validation layer is on.
func (in *Instance) Validation() bool { return in.validation }

// TakeMessages drains the validation messages collected so far.
func TakeMessages() []string {
	buf := make([]byte, 1<<16)
	var dropped C.int
	n := C.amp_take_messages((*C.char)(unsafe.Pointer(&buf[0])), C.int(len(buf)), &dropped)
	var out []string
	start := 0
	for i := 0; i < int(n); i++ {
		if buf[i] == '\n' {
			out = append(out, string(buf[start:i]))
			start = i + 1
		}
	}
	if dropped > 0 {
		out = append(out, fmt.Sprintf("(%d more messages dropped)", int(dropped)))
	}
	return out
}

// Close destroys the instance. Devices opened from it must be closed first.
func (in *Instance) Close() {
	if in.inst != nil {
		C.amp_instance_destroy(C.VkInstance(unsafe.Pointer(in.inst)))
		in.inst = nil
	}
}

// Device is a logical device with its compute queues.
type Device struct {
	info DeviceInfo
	in   *Instance
	phys vulkan.PhysicalDevice
	d    *C.AmpDevice
	// swapchain: the device was opened with VK_KHR_swapchain (see NewSwapchain).
	swapchain bool
	queues    []*Queue
	inUse     atomic.Uint64 // bytes of the buffers allocated and not yet freed
}

// Queue is one VkQueue; submissions to it are serialized.
type Queue struct {
	mu sync.Mutex
	q  C.VkQueue
}

// OpenDevice creates a logical device on physical device index with up to maxQueues compute queues.
func (in *Instance) OpenDevice(index, maxQueues int) (*Device, error) {
	if index < 0 || index >= len(in.devices) {
		return nil, fmt.Errorf("goamp/vk: no physical device %d (have %d)", index, len(in.devices))
	}
	info := in.devices[index]
	if info.ComputeFamily < 0 {
		return nil, fmt.Errorf("goamp/vk: %s has no compute queue", info.Name)
	}
	if !info.PushDescriptor {
		return nil, fmt.Errorf("goamp/vk: %s lacks VK_KHR_push_descriptor, which goamp needs", info.Name)
	}
	nq := info.ComputeQueues
	if maxQueues > 0 && nq > maxQueues {
		nq = maxQueues
	}
	var d *C.AmpDevice
	b := func(v bool) C.int {
		if v {
			return 1
		}
		return 0
	}
	phys := C.VkPhysicalDevice(unsafe.Pointer(in.phys[index]))
	cext := C.CString("VK_KHR_swapchain")
	defer C.free(unsafe.Pointer(cext))
	swapchain := in.surface && C.amp_device_has_ext(phys, cext) != 0
	r := C.amp_device_create(C.VkInstance(unsafe.Pointer(in.inst)), phys,
		C.uint32_t(info.ComputeFamily), C.uint32_t(nq), b(info.Float64), b(info.Int64), b(info.Int16), b(info.TimelineSemaphore), b(swapchain),
		extraFeatures(&info), &d)
	if err := check("vkCreateDevice", r); err != nil {
		return nil, err
	}
	dev := &Device{info: info, in: in, phys: in.phys[index], d: d, swapchain: swapchain}
	for i := 0; i < nq; i++ {
		dev.queues = append(dev.queues, &Queue{q: C.amp_device_queue(d, C.uint32_t(i))})
	}
	return dev, nil
}

// coopShapes is the first count shapes of list when on (the feature is there), else nil.
func coopShapes(on, count C.uint32_t, list *[16][8]C.uint32_t) []CoopMatrix {
	if on == 0 {
		return nil
	}
	var out []CoopMatrix
	for i := range int(count) {
		c := list[i]
		out = append(out, CoopMatrix{M: uint32(c[0]), N: uint32(c[1]), K: uint32(c[2]),
			A: ComponentType(c[3]), B: ComponentType(c[4]), C: ComponentType(c[5]), D: ComponentType(c[6]),
			SubgroupScope: c[7] == C.VK_SCOPE_SUBGROUP_NV})
	}
	return out
}

// extraFeatures is amp_device_create's extra argument for info: the AMP_FEAT_* bits of
// the half-precision, 8-bit and cooperative-matrix features the device has.
// The memory model is enabled only for cooperative matrices, whose shaders declare it: it
// changes what the validation layer accepts of the other shaders' memory scopes.
func extraFeatures(info *DeviceInfo) C.uint32_t {
	var f C.uint32_t
	for _, x := range []struct {
		on  bool
		bit C.uint32_t
	}{{info.Storage16, C.AMP_FEAT_STORAGE16}, {info.Float16, C.AMP_FEAT_FLOAT16}, {info.MemoryModel && (len(info.CoopMatrixNV) > 0 || len(info.CoopMatrixKHR) > 0), C.AMP_FEAT_MEMORY_MODEL},
		{len(info.CoopMatrixNV) > 0, C.AMP_FEAT_COOP_NV}, {len(info.CoopMatrixKHR) > 0, C.AMP_FEAT_COOP_KHR},
		{info.Storage8, C.AMP_FEAT_STORAGE8}, {info.Int8, C.AMP_FEAT_INT8}} {
		if x.on {
			f |= x.bit
		}
	}
	return f
}

// Queues returns the device's compute queues.
func (dev *Device) Queues() []*Queue { return dev.queues }

// WaitIdle waits until the device has run everything submitted to its queues
// (vkDeviceWaitIdle). The streams' batches learn of it at their next poll. Tests use it to
// have a batch finished on the device before the host has seen it finish.
func (dev *Device) WaitIdle() error {
	return check("vkDeviceWaitIdle", C.amp_device_wait_idle(dev.d))
}

// Close waits for the device to go idle and destroys it.
func (dev *Device) Close() {
	if dev.d != nil {
		C.amp_device_destroy(dev.d)
		dev.d = nil
	}
}

// Buffer is a VkBuffer with its own memory, mapped when host visible.
type Buffer struct {
	dev    *Device
	buf    C.VkBuffer
	mem    C.VkDeviceMemory
	size   uint64
	mapped []byte
	kind   MemKind
	pinned []byte // ImportHost: the host memory the buffer is (nil for NewBuffer's)
}

// NewBuffer allocates a storage buffer of size bytes in memory of the given kind. A
// MemDevice buffer is never mapped (Mapped is nil), even in host-visible memory.
func (dev *Device) NewBuffer(size uint64, kind MemKind) (*Buffer, error) {
	if size == 0 {
		size = 4
	}
	const (
		deviceLocal  = 0x1
		hostVisible  = 0x2
		hostCoherent = 0x4
		hostCached   = 0x8
	)
	var want, avoid uint32
	switch kind {
	case MemDevice:
		want, avoid = deviceLocal, hostVisible
	case MemUpload:
		want, avoid = hostVisible|hostCoherent, deviceLocal
	case MemDownload:
		want, avoid = hostVisible|hostCached, deviceLocal
	case MemShared:
		want = deviceLocal | hostVisible | hostCoherent
	}
	if r, ok := fault(FaultAlloc); ok {
		return nil, &Error{Op: fmt.Sprintf("allocating a %d-byte buffer", size), Result: r}
	}
	b := &Buffer{dev: dev, size: size, kind: kind}
	var ptr unsafe.Pointer
	var mt C.uint32_t
	r := C.amp_buffer_create(dev.d, C.VkDeviceSize(size), C.uint32_t(want), C.uint32_t(avoid), &b.buf, &b.mem, &ptr, &mt)
	if r == C.VK_ERROR_FEATURE_NOT_PRESENT && kind == MemDownload {
		// No cached host memory: coherent will do.
		r = C.amp_buffer_create(dev.d, C.VkDeviceSize(size), C.uint32_t(hostVisible|hostCoherent), 0, &b.buf, &b.mem, &ptr, &mt)
	}
	if err := check(fmt.Sprintf("allocating a %d-byte buffer", size), r); err != nil {
		return nil, err
	}
	// MemDevice memory is never accessed through a mapping, even where it is host visible
	// (lavapipe, resizable BAR): its data moves by staging copies.
	if ptr != nil && kind != MemDevice {
		b.mapped = unsafe.Slice((*byte)(ptr), size)
	}
	dev.inUse.Add(size)
	return b, nil
}

// Mapped is the host mapping of the buffer, or nil when its memory is not host visible.
func (b *Buffer) Mapped() []byte { return b.mapped }

// Free releases the buffer. The caller makes sure no pending work uses it.
func (b *Buffer) Free() {
	if b.buf != nil {
		if b.pinned == nil {
			b.dev.inUse.Add(^(b.size - 1)) // minus size
		}
		C.amp_buffer_destroy(b.dev.d, b.buf, b.mem)
		b.buf, b.mem, b.mapped, b.pinned = nil, nil, nil, nil
	}
}

// Pipeline is a compute pipeline with a push-descriptor set layout of storage buffers.
type Pipeline struct {
	dev      *Device
	layout   C.VkPipelineLayout
	dsl      C.VkDescriptorSetLayout
	pipe     C.VkPipeline
	bindings int
	pushSize int
}

// NewPipeline builds a compute pipeline from SPIR-V with nbind storage-buffer bindings,
// pushSize bytes of push constants and the given specialization constants (IDs 0, 1, ...).
func (dev *Device) NewPipeline(spirv []byte, nbind, pushSize int, spec []uint32) (*Pipeline, error) {
	if len(spirv) == 0 || len(spirv)%4 != 0 {
		return nil, fmt.Errorf("goamp/vk: SPIR-V must be a non-empty multiple of 4 bytes, got %d", len(spirv))
	}
	if nbind > 32 || len(spec) > 16 {
		return nil, fmt.Errorf("goamp/vk: at most 32 bindings and 16 specialization constants (got %d, %d)", nbind, len(spec))
	}
	code := C.CBytes(spirv)
	defer C.free(code)
	var sp *C.uint32_t
	if len(spec) > 0 {
		cs := C.CBytes(unsafe.Slice((*byte)(unsafe.Pointer(&spec[0])), 4*len(spec)))
		defer C.free(cs)
		sp = (*C.uint32_t)(cs)
	}
	p := &Pipeline{dev: dev, bindings: nbind, pushSize: pushSize}
	r := C.amp_pipeline_create(dev.d, (*C.uint32_t)(code), C.size_t(len(spirv)), C.uint32_t(nbind), C.uint32_t(pushSize),
		sp, C.uint32_t(len(spec)), &p.layout, &p.dsl, &p.pipe)
	if err := check("creating a compute pipeline", r); err != nil {
		return nil, err
	}
	return p, nil
}

// Destroy releases the pipeline.
func (p *Pipeline) Destroy() {
	if p.pipe != nil {
		C.amp_pipeline_destroy(p.dev.d, p.layout, p.dsl, p.pipe)
		p.pipe = nil
	}
}

// Binding is a buffer range bound to one storage-buffer binding.
type Binding struct {
	Buffer *Buffer
	Offset uint64
	Range  uint64
}
