//go:build cgo

package vk

/*
#include "shim.h"
*/
import "C"

import "unsafe"

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
	if index < 0 || index >= len(in.phys) {
		return nil
	}
	var budget, usage [C.VK_MAX_MEMORY_HEAPS]C.uint64_t
	n := C.amp_memory_budget(C.VkPhysicalDevice(unsafe.Pointer(in.phys[index])), &budget[0], &usage[0])
	h := make([]HeapUsage, n)
	for i := range h {
		h[i] = HeapUsage{Budget: uint64(budget[i]), Usage: uint64(usage[i])}
	}
	if len(h) == 0 {
		return nil
	}
	return h
}
