//go:build !cgo

package vk

// InUse is 0 without cgo: there are no devices.
func (*Device) InUse() uint64 { return 0 }

// HeapUsage is VK_EXT_memory_budget's view of one memory heap.
type HeapUsage struct {
	// Budget is how many bytes of the heap this process may use.
	Budget uint64
	// Usage is how many bytes of the heap this process uses.
	Usage uint64
}

// MemoryBudget is nil without cgo.
func (*Instance) MemoryBudget(int) []HeapUsage { return nil }
