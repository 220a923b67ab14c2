package accelerator

// MemoryUsage is the device memory an accelerator uses, by goamp's count and, where the
// device reports it (VK_EXT_memory_budget), by the driver's.
type MemoryUsage struct {
	// Allocated is the bytes of the device buffers goamp holds on the accelerator, every
	// view's together: arrays, device copies of views, scratch memory and staging buffers.
	// It is 0 on the CPU, whose data stays in the Go slices; on the strict CPU it counts
	// the buffers of its device copies.
	Allocated uint64
	// Heaps are the driver's figures for each memory heap (Properties.MemoryHeaps has their
	// sizes), nil where the device has no VK_EXT_memory_budget, and on the CPU.
	Heaps []HeapUsage
}

// HeapUsage is the driver's view of one memory heap (VK_EXT_memory_budget).
type HeapUsage struct {
	// Budget is how many bytes of the heap the process may use before allocations fail or
	// slow down: the driver's estimate, which moves with other processes' use.
	Budget uint64
	// Usage is how many bytes of the heap the process uses, goamp's buffers, pipelines
	// and the driver's own allocations included.
	Usage uint64
}

// MemoryUsage returns the device memory the accelerator uses now. It opens no device: an
// accelerator that has run nothing reports Allocated 0.
func (a *Accelerator) MemoryUsage() MemoryUsage {
	if a.strict {
		return MemoryUsage{Allocated: a.hostBytes.Load()}
	}
	if a.info == nil {
		return MemoryUsage{}
	}
	var u MemoryUsage
	a.mu.Lock()
	dev := a.dev
	a.mu.Unlock()
	if dev != nil {
		u.Allocated = dev.InUse()
	}
	for _, h := range a.reg.inst.MemoryBudget(a.info.Index) {
		u.Heaps = append(u.Heaps, HeapUsage{Budget: h.Budget, Usage: h.Usage})
	}
	return u
}

// MemoryInUse is the bytes of the device buffers the view holds: those allocated on it
// (arrays, device copies of views, scratch memory) and its staging buffers, not yet
// freed. It is 0 for a view of the CPU.
func (v *View) MemoryInUse() uint64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.inUse
}
