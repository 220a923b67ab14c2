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

// HostImportAlign is 0 without cgo: nothing can be imported.
func (*Device) HostImportAlign() uint64 { return 0 }

// ImportHost always fails without cgo.
func (*Device) ImportHost([]byte) (*Buffer, error) { return nil, unavailable() }

// Pins is false without cgo.
func (*Buffer) Pins([]byte) bool { return false }
