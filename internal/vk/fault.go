package vk

import "sync/atomic"

// FaultPoint names a Vulkan call that InjectFault can make fail.
type FaultPoint int

// The calls InjectFault can make fail.
const (
	// FaultAlloc is the memory allocation of Device.NewBuffer (vkAllocateMemory): the
	// buffer is not created.
	FaultAlloc FaultPoint = iota
	// FaultSubmit is a stream's vkQueueSubmit: the batch is not submitted, and its
	// commands are lost.
	FaultSubmit
	// FaultWait is a wait for a batch or a poll of one (vkWaitSemaphores,
	// vkGetSemaphoreCounterValue, vkWaitForFences, vkGetFenceStatus) that finds it
	// finished: the fault fires only once the device has in fact run the batch, so that
	// nothing a test frees afterwards is still in use.
	FaultWait
	// FaultSubmitted fails the stream just after a successful vkQueueSubmit, as when Submit's
	// poll of an earlier batch finds the device lost: Submit returns the submitted batch
	// and the error together (the batch runs; its buffers must outlive it).
	FaultSubmitted
	numFaultPoints
)

// String names the point after the Vulkan call it stands for.
func (p FaultPoint) String() string {
	switch p {
	case FaultAlloc:
		return "vkAllocateMemory"
	case FaultSubmit:
		return "vkQueueSubmit"
	case FaultWait:
		return "waiting for a batch"
	case FaultSubmitted:
		return "after vkQueueSubmit"
	}
	return "unknown fault point"
}

// VkResult values for InjectFault (and Error.Result).
const (
	// ResultOutOfHostMemory is VK_ERROR_OUT_OF_HOST_MEMORY.
	ResultOutOfHostMemory int32 = -1
	// ResultOutOfDeviceMemory is VK_ERROR_OUT_OF_DEVICE_MEMORY.
	ResultOutOfDeviceMemory int32 = -2
	// ResultDeviceLost is VK_ERROR_DEVICE_LOST.
	ResultDeviceLost int32 = -4
)

// Fault is a failure armed by InjectFault.
type Fault struct {
	point  FaultPoint
	result int32
	left   atomic.Int64 // successful calls still to let through
	fired  atomic.Bool
}

// faults holds the fault armed at each point (nil: none); the calls load it atomically,
// which is all an unarmed point costs.
var faults [numFaultPoints]atomic.Pointer[Fault]

// InjectFault arms a failure at point p: the call there succeeds after more times (on any
// device), then returns result, a VkResult such as ResultOutOfDeviceMemory or
// ResultDeviceLost, as the driver would, once; later calls succeed again unless the
// failure is sticky (a stream whose submit or wait failed stays failed: Stream.Err). It
// replaces the fault armed at p before, and returns the armed fault, which says whether
// it fired and disarms it.
//
// A test hook, for tests of goamp's packages (accelerator, arrayview, algo, ...) to reach
// the paths a working driver never takes: out of device memory in the middle of a batch,
// a failed submit, a lost device. Programs must not call it.
func InjectFault(p FaultPoint, after int, result int32) *Fault {
	f := &Fault{point: p, result: result}
	f.left.Store(int64(after))
	faults[p].Store(f)
	return f
}

// Fired reports whether the fault has fired.
func (f *Fault) Fired() bool { return f.fired.Load() }

// Disarm disarms the fault if it is still armed.
func (f *Fault) Disarm() { faults[f.point].CompareAndSwap(f, nil) }

// fault reports whether the call at point p must fail now, and with which result: it
// counts the call against the fault armed there.
func fault(p FaultPoint) (int32, bool) {
	f := faults[p].Load()
	if f == nil || f.left.Add(-1) >= 0 {
		return 0, false
	}
	if !faults[p].CompareAndSwap(f, nil) {
		return 0, false // fired for another call, or replaced meanwhile
	}
	f.fired.Store(true)
	return f.result, true
}
