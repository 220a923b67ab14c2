package accelerator

import goruntime "runtime"

// Traits are the properties of an accelerator that the packages above this one choose
// their code paths by. Code that would ask "is this the CPU?" asks instead for the
// property its choice depends on, so that it stays right for an accelerator of a new kind
// (an integrated GPU, a CPU Vulkan driver such as lavapipe, a wide CPU device). The other
// properties an algorithm tunes for are methods of their own: Workers (how many threads
// run at once where that is few), SubgroupOps and SubgroupSize (subgroup operations),
// SupportsCPUSharedMemory (unified memory), Limits (sizes).
type Traits struct {
	// HostMemory says the accelerator keeps data in host memory itself: its kernels run
	// on the host, over the Go slices of the array views (the goroutine accelerator). No
	// device buffers exist, nothing is uploaded or copied back, no storage-buffer binding
	// limits a kernel argument, and a kernel's fast CPU body may read and write the views'
	// slices directly. It is false for every Vulkan device, unified memory included
	// (SupportsCPUSharedMemory): those kernels read device buffers.
	HostMemory bool
	// Wide says the accelerator runs thousands of kernel threads at once, as a GPU does:
	// every Vulkan device, lavapipe included (it runs workgroups on SIMD lanes of every
	// core). Algorithms give a wide accelerator many workgroups and may use single-pass
	// schemes whose workgroups wait for each other's results; they give one that is not
	// wide a few long chunks of work per worker (Workers).
	Wide bool
	// Strict says the accelerator runs kernels' Go definitions on the host, one goroutine
	// per thread, over device copies of their data that it keeps apart from the Go slices,
	// with tile_static memory and discarded data poisoned (StrictCPU). Its device memory is
	// host memory of its own. HostMemory and Wide are false.
	Strict bool
}

// Traits returns the properties that code choosing a path for this accelerator depends
// on (see Traits). It is cheap: a dispatch asks it.
func (a *Accelerator) Traits() Traits {
	switch {
	case a.strict:
		return Traits{Strict: true}
	case a.info == nil:
		return Traits{HostMemory: true}
	}
	return Traits{Wide: true}
}

// Workers is how many kernel threads an accelerator that is not Wide runs at once:
// GOMAXPROCS at the time of the call for the goroutine accelerator. It is 0 for a Wide
// accelerator, whose width algorithms do not count in threads.
func (a *Accelerator) Workers() int {
	if a.info == nil {
		return goruntime.GOMAXPROCS(0)
	}
	return 0
}
