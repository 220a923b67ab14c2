package vk

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Device is a logical device with its compute queues.
type Device struct {
	info DeviceInfo
	in   *Instance
	phys vkPhysicalDevice
	dev  vkDevice
	fn   *deviceFuncs
	// memory is the physical device's memory types, for choosing a buffer's.
	memory vkPhysicalDeviceMemoryProperties
	// cache is the pipeline cache every pipeline is created through (0: none).
	cache vkPipelineCache
	// hostImportAlign is minImportedHostPointerAlignment where VK_EXT_external_memory_host
	// is enabled, else 0.
	hostImportAlign uint64
	// swapchain: the device was opened with VK_KHR_swapchain (see NewSwapchain).
	swapchain bool
	// push: dispatches push their descriptors (VK_KHR_push_descriptor); without it, they
	// bind descriptor sets (Stream).
	push   bool
	queues []*Queue
	inUse  atomic.Uint64 // bytes of the buffers allocated and not yet freed
}

// Queue is one VkQueue; submissions to it are serialized.
type Queue struct {
	mu sync.Mutex
	q  vkQueue
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
	nq := info.ComputeQueues
	if maxQueues > 0 && nq > maxQueues {
		nq = maxQueues
	}
	dev := &Device{info: info, in: in, phys: in.phys[index], fn: new(deviceFuncs),
		push: info.PushDescriptor && !in.noPush}
	exts := in.exts[index]
	dev.swapchain = in.surface && exts[vkKHRSwapchainExtensionName]
	if exts[vkEXTExternalMemoryHostExtensionName] {
		dev.hostImportAlign = in.hostImportAlign(dev.phys)
	}
	if err := dev.create(exts, nq); err != nil {
		return nil, err
	}
	in.fn.GetPhysicalDeviceMemoryProperties(dev.phys, &dev.memory)
	dev.fn.load(func(name string) uintptr { return in.fn.GetDeviceProcAddr(dev.dev, unsafe.StringData(name)) })
	if dev.fn.getMemoryHostPointerPropertiesEXT == 0 {
		dev.hostImportAlign = 0
	}
	for i := range nq {
		q := &Queue{}
		dev.fn.GetDeviceQueue(dev.dev, uint32(info.ComputeFamily), uint32(i), &q.q)
		dev.queues = append(dev.queues, q)
	}
	return dev, nil
}

// create calls vkCreateDevice with nq queues of the compute family, the extensions goamp
// uses that exts has, and the features info found.
func (dev *Device) create(exts map[string]bool, nq int) error {
	info := &dev.info
	prio := make([]float32, nq)
	for i := range prio {
		prio[i] = 1
	}
	qci := &vkDeviceQueueCreateInfo{sType: vkStructureTypeDeviceQueueCreateInfo,
		queueFamilyIndex: uint32(info.ComputeFamily), queueCount: uint32(nq), pQueuePriorities: unsafe.Pointer(&prio[0])}
	feats := &vkPhysicalDeviceFeatures{shaderFloat64: vkBool(info.Float64), shaderInt64: vkBool(info.Int64),
		shaderInt16: vkBool(info.Int16)}
	var names []string
	coopNV, coopKHR := len(info.CoopMatrixNV) > 0, len(info.CoopMatrixKHR) > 0
	for _, e := range []struct {
		name string
		on   bool
	}{{vkKHRPushDescriptorExtensionName, dev.push}, {vkKHRSwapchainExtensionName, dev.swapchain}, {vkEXTExternalMemoryHostExtensionName, dev.hostImportAlign != 0},
		{vkNVCooperativeMatrixExtensionName, coopNV}, {vkKHRCooperativeMatrixExtensionName, coopKHR},
		{vkKHRPortabilitySubsetExtensionName, exts[vkKHRPortabilitySubsetExtensionName]}} {
		if e.on {
			names = append(names, e.name)
		}
	}
	// The memory model is enabled only for cooperative matrices, whose shaders declare it:
	// it changes what the validation layer accepts of the other shaders' memory scopes.
	memoryModel := info.MemoryModel && (coopNV || coopKHR)
	q := new(featureQuery)
	q.tf.timelineSemaphore = vkTrue
	q.s16.storageBuffer16BitAccess = vkBool(info.Storage16)
	q.f16.shaderFloat16, q.f16.shaderInt8 = vkBool(info.Float16), vkBool(info.Int8)
	q.s8.storageBuffer8BitAccess = vkBool(info.Storage8)
	q.mm.vulkanMemoryModel, q.mm.vulkanMemoryModelDeviceScope = vkBool(memoryModel), vkBool(memoryModel)
	q.coop.cooperativeMatrix, q.coopKHR.cooperativeMatrix = vkTrue, vkTrue
	half := info.Storage16 || info.Float16 || info.Storage8 || info.Int8 || memoryModel
	dci := &vkDeviceCreateInfo{sType: vkStructureTypeDeviceCreateInfo,
		pNext:                q.chain(info.TimelineSemaphore, half, coopNV, coopKHR),
		queueCreateInfoCount: 1, pQueueCreateInfos: unsafe.Pointer(qci),
		enabledExtensionCount: uint32(len(names)), ppEnabledExtensionNames: cStrings(names),
		pEnabledFeatures: unsafe.Pointer(feats)}
	return check("vkCreateDevice", dev.in.fn.CreateDevice(dev.phys, dci, nil, &dev.dev))
}

func vkBool(b bool) uint32 {
	if b {
		return vkTrue
	}
	return vkFalse
}

// hostImportAlign returns pd's minImportedHostPointerAlignment (VK_EXT_external_memory_host).
func (in *Instance) hostImportAlign(pd vkPhysicalDevice) uint64 {
	if in.fn.getPhysicalDeviceProperties2 == 0 {
		return 0
	}
	q := new(struct {
		p2 vkPhysicalDeviceProperties2
		hp vkPhysicalDeviceExternalMemoryHostPropertiesEXT
	})
	q.hp.sType = vkStructureTypePhysicalDeviceExternalMemoryHostPropertiesEXT
	q.p2 = vkPhysicalDeviceProperties2{sType: vkStructureTypePhysicalDeviceProperties2, pNext: unsafe.Pointer(&q.hp)}
	in.fn.GetPhysicalDeviceProperties2(pd, &q.p2)
	return q.hp.minImportedHostPointerAlignment
}

// PushDescriptors reports whether dispatches push their buffers' descriptors
// (VK_KHR_push_descriptor) rather than bind descriptor sets.
func (dev *Device) PushDescriptors() bool { return dev.push }

// Queues returns the device's compute queues.
func (dev *Device) Queues() []*Queue { return dev.queues }

// WaitIdle waits until the device has run everything submitted to its queues
// (vkDeviceWaitIdle). The streams' batches learn of it at their next poll. Tests use it to
// have a batch finished on the device before the host has seen it finish.
func (dev *Device) WaitIdle() error {
	return check("vkDeviceWaitIdle", dev.fn.DeviceWaitIdle(dev.dev))
}

// Close waits for the device to go idle and destroys it.
func (dev *Device) Close() {
	if dev.dev == 0 {
		return
	}
	dev.fn.DeviceWaitIdle(dev.dev)
	if dev.cache != 0 {
		dev.fn.DestroyPipelineCache(dev.dev, dev.cache, nil)
		dev.cache = 0
	}
	dev.fn.DestroyDevice(dev.dev, nil)
	dev.dev = 0
}

// InUse is the number of bytes of the device's buffers allocated through NewBuffer and not
// yet freed: goamp's own count, which the driver's (HeapUsage) includes.
func (dev *Device) InUse() uint64 { return dev.inUse.Load() }

// HeapUsage is VK_EXT_memory_budget's view of one memory heap.
type HeapUsage struct {
	// Budget is how many bytes of the heap this process may use before allocations fail
	// or slow down (the driver's estimate, which moves with other processes' use).
	Budget uint64
	// Usage is how many bytes of the heap this process uses, every allocation included.
	Usage uint64
}

// MemoryBudget returns, per heap of physical device index, the process's usage and budget
// (VK_EXT_memory_budget), or nil where the device lacks the extension.
func (in *Instance) MemoryBudget(index int) []HeapUsage {
	if index < 0 || index >= len(in.phys) || in.fn.getPhysicalDeviceMemoryProperties2 == 0 ||
		!in.exts[index][vkEXTMemoryBudgetExtensionName] {
		return nil
	}
	q := new(struct {
		mp vkPhysicalDeviceMemoryProperties2
		mb vkPhysicalDeviceMemoryBudgetPropertiesEXT
	})
	q.mb.sType = vkStructureTypePhysicalDeviceMemoryBudgetPropertiesEXT
	q.mp = vkPhysicalDeviceMemoryProperties2{sType: vkStructureTypePhysicalDeviceMemoryProperties2, pNext: unsafe.Pointer(&q.mb)}
	in.fn.GetPhysicalDeviceMemoryProperties2(in.phys[index], &q.mp)
	n := q.mp.memoryProperties.memoryHeapCount
	if n == 0 {
		return nil
	}
	h := make([]HeapUsage, n)
	for i := range h {
		h[i] = HeapUsage{Budget: q.mb.heapBudget[i], Usage: q.mb.heapUsage[i]}
	}
	return h
}
