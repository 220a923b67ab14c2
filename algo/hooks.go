package algo

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/runtime"
)

// testHooks are the choices that only the tests and benchmarks make (export_test.go sets
// them, between calls, never concurrently with one); programs never change them, so the
// algorithms run with the zero value.
type testHooks struct {
	// perThread runs the kernels' per-thread Go bodies (their definitions) on the CPU
	// instead of the fast ones (rtlink's PerThread), so that the conformance tests can
	// check the fast bodies against them.
	perThread bool
	// noSubgroups runs the shared-memory GPU programs on devices with subgroup arithmetic.
	noSubgroups bool
	// scan chooses the scans' algorithm: scanAuto, scanMultiPass or scanSinglePass.
	scan int
	// sort chooses Sort's algorithm: sortAuto, sortBitonic, sortRadix or
	// sortRadixFallback.
	sort int
	// narrowScatter keeps the pairs' one-round scatter in tiles of 256 threads
	// (sort_radix_scatter_p) where the wide one would run (radixWide).
	narrowScatter bool
	// separatePairs keeps a radix sort's keys and values in separate temporaries where
	// it would interleave them (radixPlan), to compare the two; interleavePairs
	// interleaves them on every accelerator and scatter body, so that tests cover each.
	separatePairs, interleavePairs bool
	// twoRounds keeps the pairs' ballot scatter placing keys, then values, in shared
	// memory where it would place them together (radixOneRound), to compare the two.
	twoRounds bool
	// window, when positive, is the window length (elements) of the built-ins that split
	// views larger than one binding, on every accelerator (windowLen).
	window int
	// hybrid chooses whether radix sorts take the hybrid path (sort_hybrid.go):
	// hybridAuto, hybridOff or hybridForce; hybridBits, when not 0, fixes its low bits
	// (16 or 24).
	hybrid, hybridBits int
}

// hooks are the package's test hooks.
var hooks testHooks

// dispatch runs a non-tiled kernel of the library: runtime.ParallelForEach, with its
// per-thread Each body on the CPU when hooks.perThread is set.
func dispatch(av *accelerator.View, ext runtime.Extent, k runtime.IndexKernel) error {
	if hooks.perThread {
		return runtime.ParallelForEach(av, ext, rt.PerThread(k).(runtime.IndexKernel))
	}
	return runtime.ParallelForEach(av, ext, k)
}

// dispatchTiled runs a tiled kernel of the library: runtime.ParallelForEachTiled, with its
// per-thread Tiled body on the CPU when hooks.perThread is set.
func dispatchTiled(av *accelerator.View, dom runtime.TiledExtent, k runtime.TiledKernel) error {
	if hooks.perThread {
		return runtime.ParallelForEachTiled(av, dom, rt.PerThread(k).(runtime.TiledKernel))
	}
	return runtime.ParallelForEachTiled(av, dom, k)
}

// useSubgroups reports whether to run the GPU programs with subgroup operations on av: where
// the device has subgroup arithmetic, unless hooks.noSubgroups is set.
func useSubgroups(av *accelerator.View) bool {
	ops := av.Accelerator().SubgroupOps()
	return !hooks.noSubgroups && ops.Has("basic") && ops.Has("arithmetic")
}
