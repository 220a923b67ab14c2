//go:build cgo

package vk

/*
#include "shim.h"
#include <stdlib.h>
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"
	"time"
	"unsafe"

	vulkan "github.com/vulkan-go/vulkan"
)

// Available reports whether this build can use Vulkan at all (it was built with cgo).
const Available = true

var loadMu sync.Mutex

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
	devices    []DeviceInfo
	phys       []vulkan.PhysicalDevice
}

// Open loads the Vulkan loader and creates an instance. Errors match ErrUnavailable.
func Open(o Options) (*Instance, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	lib := o.Library
	if lib == "" {
		lib = "libvulkan.so.1"
	}
	clib := C.CString(lib)
	defer C.free(unsafe.Pointer(clib))
	var ebuf [512]C.char
	if C.amp_load(clib, &ebuf[0], C.int(len(ebuf))) == 0 {
		return nil, fmt.Errorf("%w: cannot load %s: %s", ErrUnavailable, lib, C.GoString(&ebuf[0]))
	}
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
	in := &Instance{inst: inst, validation: o.Validation}
	if err := in.enumerate(); err != nil {
		in.Close()
		return nil, err
	}
	return in, nil
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
		Index:         index,
		Name:          vulkan.ToString(p.DeviceName[:]),
		Type:          DeviceType(p.DeviceType),
		VendorID:      p.VendorID,
		DeviceID:      p.DeviceID,
		APIVersion:    p.ApiVersion,
		DriverVersion: p.DriverVersion,
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
	var qn uint32
	vulkan.GetPhysicalDeviceQueueFamilyProperties(pd, &qn, nil)
	qf := make([]vulkan.QueueFamilyProperties, qn)
	vulkan.GetPhysicalDeviceQueueFamilyProperties(pd, &qn, qf)
	// Prefer a compute family without graphics (a dedicated compute queue), else any compute family.
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
	var ex C.AmpDeviceExtra
	C.amp_device_extra(C.VkInstance(unsafe.Pointer(inst)), C.VkPhysicalDevice(unsafe.Pointer(pd)), C.uint32_t(p.ApiVersion), &ex)
	d.SubgroupSize = uint32(ex.subgroupSize)
	d.SubgroupOps = SubgroupOps(ex.subgroupOps)
	d.DriverName = C.GoString(&ex.driverName[0])
	d.DriverInfo = C.GoString(&ex.driverInfo[0])
	d.UUID = *(*[16]byte)(unsafe.Pointer(&ex.deviceUUID[0]))
	d.PushDescriptor = ex.pushDescriptor != 0
	return d
}

// Devices describes the physical devices, in enumeration order.
func (in *Instance) Devices() []DeviceInfo { return in.devices }

// Validation reports whether the validation layer is on.
func (in *Instance) Validation() bool { return in.validation }

// Messages drains the validation layer's messages collected so far (process wide).
func (in *Instance) Messages() []string { return TakeMessages() }

// MessageCount says how many validation messages are waiting, without draining them.
func MessageCount() int { return int(C.amp_message_count()) }

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
	info   DeviceInfo
	d      *C.AmpDevice
	queues []*Queue
}

// Queue is one VkQueue; submissions to it are serialized.
type Queue struct {
	mu sync.Mutex
	q  C.VkQueue
}

// OpenDevice creates a logical device on physical device index with up to maxQueues compute queues.
func (in *Instance) OpenDevice(index, maxQueues int) (*Device, error) {
	if index < 0 || index >= len(in.devices) {
		return nil, fmt.Errorf("vulkan: no physical device %d (have %d)", index, len(in.devices))
	}
	info := in.devices[index]
	if info.ComputeFamily < 0 {
		return nil, fmt.Errorf("vulkan: %s has no compute queue", info.Name)
	}
	if !info.PushDescriptor {
		return nil, fmt.Errorf("vulkan: %s lacks VK_KHR_push_descriptor, which goamp needs", info.Name)
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
	r := C.amp_device_create(C.VkInstance(unsafe.Pointer(in.inst)), C.VkPhysicalDevice(unsafe.Pointer(in.phys[index])),
		C.uint32_t(info.ComputeFamily), C.uint32_t(nq), b(info.Float64), b(info.Int64), b(info.Int16), &d)
	if err := check("vkCreateDevice", r); err != nil {
		return nil, err
	}
	dev := &Device{info: info, d: d}
	for i := 0; i < nq; i++ {
		dev.queues = append(dev.queues, &Queue{q: C.amp_device_queue(d, C.uint32_t(i))})
	}
	return dev, nil
}

// Info describes the device.
func (dev *Device) Info() *DeviceInfo { return &dev.info }

// Queues returns the device's compute queues.
func (dev *Device) Queues() []*Queue { return dev.queues }

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
}

// NewBuffer allocates a storage buffer of size bytes in memory of the given kind.
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
	if ptr != nil {
		b.mapped = unsafe.Slice((*byte)(ptr), size)
	}
	return b, nil
}

// Size is the buffer's size in bytes.
func (b *Buffer) Size() uint64 { return b.size }

// Mapped is the host mapping of the buffer, or nil when its memory is not host visible.
func (b *Buffer) Mapped() []byte { return b.mapped }

// Free releases the buffer. The caller makes sure no pending work uses it.
func (b *Buffer) Free() {
	if b.buf != nil {
		C.amp_buffer_destroy(b.dev.d, b.buf, b.mem)
		b.buf, b.mem, b.mapped = nil, nil, nil
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
		return nil, fmt.Errorf("vulkan: SPIR-V must be a non-empty multiple of 4 bytes, got %d", len(spirv))
	}
	if nbind > 32 || len(spec) > 16 {
		return nil, fmt.Errorf("vulkan: at most 32 bindings and 16 specialization constants (got %d, %d)", nbind, len(spec))
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

type cmdBuf struct {
	cb    C.VkCommandBuffer
	fence C.VkFence
}

// Batch is one submitted command buffer; Wait blocks until the device has run it.
type Batch struct {
	s    *Stream
	cb   *cmdBuf
	mu   sync.Mutex
	done bool
	err  error
	// Queries is the number of timestamp queries the batch wrote (two per profiled dispatch).
	queries int
}

// Stream records commands into a command buffer and submits them to a queue. A Stream is
// not safe for concurrent use; its owner serializes access.
type Stream struct {
	dev      *Device
	queue    *Queue
	pool     C.VkCommandPool
	open     *cmdBuf
	commands int
	free     []*cmdBuf
	inflight []*Batch
	last     *Batch
	scratch  [3][32]C.uint64_t
	// What the open command buffer has bound, so that a dispatch rebinds only what changed.
	boundPipe  *Pipeline
	boundBinds [32]Binding
	boundN     int
	boundPush  [256]byte
	pushN      int
	// copied says a copy was recorded since the last barrier, so the next barrier must
	// order transfers too.
	copied bool
	qp     C.VkQueryPool
	qcount int
	qnext  int
}

// NewStream creates a command stream on queue q of the device.
func (dev *Device) NewStream(q *Queue) (*Stream, error) {
	s := &Stream{dev: dev, queue: q}
	if err := check("vkCreateCommandPool", C.amp_cmdpool_create(dev.d, &s.pool)); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Stream) begin() error {
	if s.open != nil {
		return nil
	}
	s.reap()
	var c *cmdBuf
	if n := len(s.free); n > 0 {
		c = s.free[n-1]
		s.free = s.free[:n-1]
		if err := check("vkResetFences", C.amp_fence_reset(s.dev.d, c.fence)); err != nil {
			return err
		}
	} else {
		c = &cmdBuf{}
		if err := check("vkAllocateCommandBuffers", C.amp_cmdbuf_alloc(s.dev.d, s.pool, &c.cb)); err != nil {
			return err
		}
		if err := check("vkCreateFence", C.amp_fence_create(s.dev.d, &c.fence)); err != nil {
			return err
		}
	}
	if err := check("vkBeginCommandBuffer", C.amp_cmdbuf_begin(s.dev.d, c.cb)); err != nil {
		s.free = append(s.free, c)
		return err
	}
	s.open = c
	s.commands = 0
	s.boundPipe, s.boundN, s.pushN = nil, 0, -1
	// Copies of the previous batch are ordered by submission; a barrier in this one
	// still orders them (its first scope covers earlier submissions), so be safe.
	s.copied = true
	if s.qp != nil {
		C.amp_cmd_reset_queries(s.dev.d, c.cb, s.qp, 0, C.uint32_t(s.qcount))
		s.qnext = 0
	}
	return nil
}

// reap recycles the command buffers of finished batches.
func (s *Stream) reap() {
	keep := s.inflight[:0]
	for _, b := range s.inflight {
		b.mu.Lock()
		if !b.done && C.amp_fence_status(s.dev.d, b.cb.fence) == C.VK_SUCCESS {
			b.done = true
		}
		if b.done {
			s.free = append(s.free, b.cb)
		} else {
			keep = append(keep, b)
		}
		b.mu.Unlock()
	}
	s.inflight = keep
}

// Commands is the number of commands recorded since the last submit.
func (s *Stream) Commands() int { return s.commands }

// Dispatch records a compute dispatch; barrier inserts a full memory barrier before it.
func (s *Stream) Dispatch(p *Pipeline, binds []Binding, push []byte, groups [3]uint32, barrier bool) error {
	if err := s.begin(); err != nil {
		return err
	}
	if len(binds) != p.bindings {
		return fmt.Errorf("vulkan: pipeline has %d bindings, dispatch gives %d", p.bindings, len(binds))
	}
	flags := C.int(0)
	if barrier {
		flags |= C.AMP_BARRIER
		if s.copied {
			flags |= C.AMP_BARRIER_TRANSFER
			s.copied = false
		}
	}
	if s.boundPipe != p {
		flags |= C.AMP_BIND_PIPELINE
	}
	// Push descriptors survive a pipeline change only between compatible layouts: every
	// pipeline has its own layout, so a new pipeline always pushes them again.
	same := s.boundPipe == p && s.boundN == len(binds)
	for i, b := range binds {
		if same && s.boundBinds[i] != b {
			same = false
		}
		s.scratch[0][i] = C.uint64_t(uintptr(unsafe.Pointer(b.Buffer.buf)))
		s.scratch[1][i] = C.uint64_t(b.Offset)
		s.scratch[2][i] = C.uint64_t(b.Range)
	}
	if !same {
		flags |= C.AMP_PUSH_DESCRIPTORS
		s.boundN = copy(s.boundBinds[:], binds)
	}
	// Push constants persist between dispatches of one pipeline: push only changes.
	if !(s.boundPipe == p && s.pushN == len(push) && string(s.boundPush[:s.pushN]) == string(push)) {
		flags |= C.AMP_PUSH_CONSTANTS
		s.pushN = copy(s.boundPush[:], push)
	}
	s.boundPipe = p
	var pp unsafe.Pointer
	if len(push) > 0 {
		pp = unsafe.Pointer(&push[0])
	}
	query := C.int32_t(-1)
	if s.qp != nil && s.qnext+2 <= s.qcount {
		query = C.int32_t(s.qnext)
		s.qnext += 2
	}
	C.amp_cmd_dispatch(s.dev.d, s.open.cb, p.pipe, p.layout, C.uint32_t(len(binds)), &s.scratch[0][0], &s.scratch[1][0],
		&s.scratch[2][0], pp, C.uint32_t(len(push)), C.uint32_t(groups[0]), C.uint32_t(groups[1]), C.uint32_t(groups[2]), flags, s.qp, query)
	s.commands++
	return nil
}

// Barrier records a full compute/transfer memory barrier.
func (s *Stream) Barrier() error {
	if err := s.begin(); err != nil {
		return err
	}
	C.amp_cmd_barrier(s.dev.d, s.open.cb)
	s.copied = false
	s.commands++
	return nil
}

// Copy records a buffer-to-buffer copy.
func (s *Stream) Copy(src *Buffer, srcOff uint64, dst *Buffer, dstOff, size uint64) error {
	if err := s.begin(); err != nil {
		return err
	}
	C.amp_cmd_copy(s.dev.d, s.open.cb, src.buf, dst.buf, C.uint64_t(srcOff), C.uint64_t(dstOff), C.uint64_t(size))
	s.copied = true
	s.commands++
	return nil
}

// Submit ends the open command buffer and submits it. With nothing recorded it returns the
// last batch (possibly nil).
func (s *Stream) Submit() (*Batch, error) {
	if s.open == nil || s.commands == 0 {
		return s.last, nil
	}
	c := s.open
	s.open = nil
	s.queue.mu.Lock()
	r := C.amp_submit(s.dev.d, s.queue.q, c.cb, c.fence)
	s.queue.mu.Unlock()
	if err := check("vkQueueSubmit", r); err != nil {
		s.free = append(s.free, c)
		return nil, err
	}
	b := &Batch{s: s, cb: c, queries: s.qnext}
	s.inflight = append(s.inflight, b)
	s.last = b
	// Open the next command buffer now, while the device runs this one, so that the next
	// dispatch only records. Without timestamps (whose pool is reset per batch and read
	// after it) this is safe to do early.
	if s.qp == nil {
		if err := s.begin(); err != nil {
			return b, err
		}
	}
	return b, nil
}

// Last is the most recently submitted batch, or nil.
func (s *Stream) Last() *Batch { return s.last }

// Destroy waits for the stream's work and frees it.
func (s *Stream) Destroy() {
	for _, b := range s.inflight {
		_ = b.Wait(context.Background())
	}
	if s.qp != nil {
		C.amp_querypool_destroy(s.dev.d, s.qp)
		s.qp = nil
	}
	for _, b := range s.inflight {
		C.amp_fence_destroy(s.dev.d, b.cb.fence)
	}
	for _, c := range s.free {
		C.amp_fence_destroy(s.dev.d, c.fence)
	}
	if s.open != nil {
		C.amp_fence_destroy(s.dev.d, s.open.fence)
	}
	C.amp_cmdpool_destroy(s.dev.d, s.pool)
	s.inflight, s.free, s.open = nil, nil, nil
}

// spinWait is how long Batch.Wait polls its fence (yielding between polls) before it
// blocks: a blocked wait was seen to wake up 60-230 us late on the H100, longer than most
// kernels take, so like CUDA's default synchronization it spins first.
const spinWait = 2 * time.Millisecond

// Wait blocks until the batch has run, ctx is done, or the device is lost.
func (b *Batch) Wait(ctx context.Context) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return b.err
	}
	// Poll briefly before blocking: a blocking fence wait costs tens of microseconds of
	// wake-up latency on some drivers, more than a short kernel takes.
	// A CPU device (lavapipe) runs on the cores a spin would take from it: block at once.
	spin := spinWait
	if b.s.dev.info.Type == TypeCPU {
		spin = 0
	}
	deadline := time.Now().Add(spin)
	for time.Now().Before(deadline) {
		if C.amp_fence_status(b.s.dev.d, b.cb.fence) == C.VK_SUCCESS {
			b.done = true
			return nil
		}
		goruntime.Gosched()
	}
	for {
		r := C.amp_fence_wait(b.s.dev.d, b.cb.fence, C.uint64_t(50*time.Millisecond))
		if r == C.VK_SUCCESS {
			b.done = true
			return nil
		}
		if r != C.VK_TIMEOUT {
			b.err = check("vkWaitForFences", r)
			b.done = true
			return b.err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// Done reports whether the batch has finished, without blocking.
func (b *Batch) Done() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.done && C.amp_fence_status(b.s.dev.d, b.cb.fence) == C.VK_SUCCESS {
		b.done = true
	}
	return b.done
}

// EnableTimestamps turns on per-dispatch timestamp queries for up to n dispatches a batch.
func (s *Stream) EnableTimestamps(n int) error {
	if s.qp != nil || n <= 0 {
		return nil
	}
	if s.open != nil && s.commands > 0 {
		return errors.New("vulkan: enable timestamps between batches (submit first)")
	}
	if err := check("vkCreateQueryPool", C.amp_querypool_create(s.dev.d, C.uint32_t(2*n), &s.qp)); err != nil {
		return err
	}
	s.qcount = 2 * n
	if s.open != nil {
		// The command buffer opened early after the last submit: reset the queries in it.
		C.amp_cmd_reset_queries(s.dev.d, s.open.cb, s.qp, 0, C.uint32_t(s.qcount))
		s.qnext = 0
	}
	return nil
}

// Timestamps returns the raw begin/end timestamp pairs of the last batch's profiled dispatches.
// The batch must have finished.
func (s *Stream) Timestamps() ([]uint64, error) {
	if s.qp == nil || s.last == nil || s.last.queries == 0 {
		return nil, nil
	}
	out := make([]uint64, s.last.queries)
	if err := check("vkGetQueryPoolResults", C.amp_query_results(s.dev.d, s.qp, 0, C.uint32_t(len(out)), (*C.uint64_t)(unsafe.Pointer(&out[0])))); err != nil {
		return nil, err
	}
	return out, nil
}
