package algo

import (
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
)

// eachView runs fn in a subtest per accelerator on a fresh view of it (amptest.EachView).
func eachView(t *testing.T, fn func(t *testing.T, av *accelerator.View)) { amptest.EachView(t, fn) }

// The tests' access to the package's test hooks (hooks.go): each helper runs an algorithm
// with the hooks set for the call, then restores them. Tests that use them do not run in
// parallel.

// setHooks sets the package's test hooks to h and returns the function that restores the
// previous ones.
func setHooks(h testHooks) (restore func()) {
	saved := hooks
	hooks = h
	return func() { hooks = saved }
}

// SortBenchHooks sets the hooks the sort benchmarks' flags ask for (-algo.sort.separate,
// -algo.sort.tworounds, -algo.sort.hybrid) and returns the function that restores the
// previous ones.
func SortBenchHooks() (restore func()) {
	h := hooks
	h.separatePairs = *benchSortSeparate
	h.twoRounds = *benchSortTwoRounds
	h.hybrid = *benchSortHybrid
	h.narrowScatter = *benchSortNarrow
	return setHooks(h)
}

// perThreadHooks are the hooks that run the per-thread bodies on the CPU when perThread is
// set, else the fast ones.
func perThreadHooks(perThread bool) testHooks { return testHooks{perThread: perThread} }

// addOp is Add, with the per-thread bodies when perThread is set.
func addOp[T Number](av *accelerator.View, a, b, out *arrayview.View[T], perThread bool) error {
	defer setHooks(perThreadHooks(perThread))()
	return Add(av, a, b, out)
}

// saxpyOp is Saxpy, with the per-thread bodies when perThread is set.
func saxpyOp(av *accelerator.View, alpha float32, x, y *arrayview.View[float32], perThread bool) error {
	defer setHooks(perThreadHooks(perThread))()
	return Saxpy(av, alpha, x, y)
}

// fillOp is Fill, with the per-thread bodies when perThread is set.
func fillOp[T Number](av *accelerator.View, v *arrayview.View[T], value T, perThread bool) error {
	defer setHooks(perThreadHooks(perThread))()
	return Fill(av, v, value)
}

// transposeOp is Transpose, with the per-thread bodies when perThread is set.
func transposeOp[T Number](av *accelerator.View, in, out *arrayview.View[T], perThread bool) error {
	defer setHooks(perThreadHooks(perThread))()
	return Transpose(av, in, out)
}

// convolveOp is Convolve2D, with the per-thread bodies when perThread is set.
func convolveOp(av *accelerator.View, in, out *arrayview.View[float32], rowKernel, colKernel []float32, perThread bool) error {
	defer setHooks(perThreadHooks(perThread))()
	return Convolve2D(av, in, out, rowKernel, colKernel)
}

// matMulOp is MatMulWith, with the per-thread bodies when perThread is set.
func matMulOp[T MatMulElem](av *accelerator.View, a, b, c *arrayview.View[T], opt MatMulOptions, perThread bool) error {
	defer setHooks(perThreadHooks(perThread))()
	return MatMulWith(av, a, b, c, opt)
}

// sortOp is Sort, with the per-thread bodies when perThread is set.
func sortOp[T Number](av *accelerator.View, v *arrayview.View[T], perThread bool) error {
	return sortWith(av, v, perThread, sortAuto)
}

// sortWith is Sort with the algorithm chosen (sortAuto: by length), with the per-thread
// bodies when perThread is set.
func sortWith[T Number](av *accelerator.View, v *arrayview.View[T], perThread bool, algo int) error {
	defer setHooks(testHooks{perThread: perThread, sort: algo})()
	return Sort(av, v)
}

// reduceOp is Reduce with the hooks h.
func reduceOp[T Number](av *accelerator.View, in *arrayview.View[T], op Op, h testHooks) (T, error) {
	defer setHooks(h)()
	return Reduce(av, in, op)
}

// scanOp is InclusiveScan (ExclusiveScan when exclusive is set) with the hooks h.
func scanOp[T Number](av *accelerator.View, in, out *arrayview.View[T], exclusive bool, h testHooks) error {
	defer setHooks(h)()
	return runScan(av, in, out, exclusive)
}

// histogramOp is Histogram with the hooks h.
func histogramOp(av *accelerator.View, in *arrayview.View[float32], bins int, lo, hi float32, h testHooks) ([]uint32, error) {
	defer setHooks(h)()
	return Histogram(av, in, bins, lo, hi)
}

// WarmUpSorts is warmUp, for the sort benchmarks of package algo_test.
func WarmUpSorts(sortOnce func()) { warmUp(sortOnce) }

// Median is median, for the benchmarks of package algo_test.
func Median(xs []float64) float64 { return median(xs) }
