package algo

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Built-ins over several accelerators: MatMulOn, ReduceOn and SortOn cut their
// work into blocks over the accelerator views given (rtlink's Blocks, in proportion to the
// throughput measured for each built-in and element type on each accelerator) and run the
// blocks at once (rtlink's RunBlocks): MatMul by rows of the output, Reduce by partial
// results combined on the host, Sort by sorting each block's run where it lies and merging
// the sorted runs on the fastest view. Arguments are checked before any block runs (an
// Array, which lives on one view, split over others is a *runtime.AcceleratorMismatchError
// naming the function called), so that an error leaves the data as it was.

// splitRows and splitElems are what a block is a multiple of: rows of c for MatMul (whole
// tiles of its kernel), elements for Reduce and Sort (whole workgroups' worth).
const (
	splitRows  = 128
	splitElems = 1 << 16
)

// splitKey is the throughput key of built-in op on element type T.
func splitKey[T any](op string) string { return fmt.Sprintf("algo.%s[%T]", op, *new(T)) }

// onBlocks runs f for each of blocks (RunBlocks with key and rowWork) with the
// sections of the block's rows of dimension 0 of views, and releases them after f.
func onBlocks[T Number](key string, blocks []runtime.Block, rowWork float64, views []*arrayview.View[T],
	f func(b runtime.Block, secs []*arrayview.View[T]) error) error {
	return rt.RunBlocks(key, blocks, rowWork, func(b runtime.Block) error {
		secs := make([]*arrayview.View[T], 0, len(views))
		var err error
		for _, v := range views {
			var s *arrayview.View[T]
			if s, err = rowSection(v, b.Lo, b.Hi); err != nil {
				break
			}
			secs = append(secs, s)
		}
		if err == nil {
			err = f(b, secs)
		}
		for _, s := range secs {
			err = joinErr(err, s.Release())
		}
		return err
	})
}

// fastest returns the view of blocks with the highest throughput measured for key (the
// first block's view when none is measured).
func fastest(key string, blocks []runtime.Block) *accelerator.View {
	at, best := blocks[0].View, 0.0
	for _, b := range blocks {
		if r, ok := rt.Throughput(key, b.View.Accelerator()); ok && r > best {
			at, best = b.View, r
		}
	}
	return at
}

// checkHomes returns, before any block runs, the *runtime.AcceleratorMismatchError that a
// block would meet where one of views is an Array (data with a home accelerator view) and
// a block's view is another: else a block on the home view would have changed the data
// before another block failed.
func checkHomes[T any](op string, blocks []runtime.Block, names []string, views ...*arrayview.View[T]) error {
	args := make([]runtime.Arg, len(views))
	for i, v := range views {
		args[i] = v
	}
	for _, b := range blocks {
		if _, err := chooseView("algo."+op, op, b.View, names, args...); err != nil {
			return err
		}
	}
	return nil
}

// rowSection is the section of rows [lo, hi) of dimension 0 of v (rank 1 or 2).
func rowSection[T any](v *arrayview.View[T], lo, hi int) (*arrayview.View[T], error) {
	e := v.Extent()
	if e.Rank() == 1 {
		return v.Section(runtime.Idx(lo), runtime.Ext(hi-lo))
	}
	return v.Section(runtime.Idx(lo, 0), runtime.Ext(hi-lo, e.Dim(1)))
}

// MatMulOn computes c = a x b as MatMul does, over several accelerator views at once: c's
// rows are cut into blocks (multiples of 128 rows) in proportion to each view's measured
// MatMul throughput, and each view multiplies its rows of a by the whole of b into its
// rows of c (so b is copied to every view, a and c only in part). It returns when every
// block is queued (done, on the CPU); c's rows are valid where their block ran and reach
// the host as for one view. Each block's rows are exactly what MatMul gives on that
// block's accelerator. Shapes and errors are MatMul's, and a *runtime.SplitError for bad
// views.
func MatMulOn[T MatMulElem](avs []*accelerator.View, a, b, c *arrayview.View[T]) error {
	if err := matMulCheck(a, b, c); err != nil {
		return err
	}
	m, k, n := a.Extent().Dim(0), a.Extent().Dim(1), b.Extent().Dim(1)
	key := splitKey[T]("MatMul")
	blocks, err := rt.Blocks(key, avs, m, splitRows)
	if err != nil {
		return err
	}
	if err := checkHomes("MatMulOn", blocks, []string{"a", "b", "c"}, a, b, c); err != nil {
		return err
	}
	return onBlocks(key, blocks, 2*float64(k)*float64(n), []*arrayview.View[T]{a, c},
		func(bl runtime.Block, s []*arrayview.View[T]) error { return MatMul(bl.View, s[0], b, s[1]) })
}

// ReduceOn is Reduce over several accelerator views at once: in is cut into blocks
// (multiples of 65536 elements) in proportion to each view's measured Reduce throughput,
// each view reduces its block (Reduce), and the partial results are combined on the host
// in block order. It waits for the result. Errors are Reduce's, and a
// *runtime.SplitError for bad views. A float32 Sum may round differently from Reduce on
// one view (the partial sums are added in another order).
func ReduceOn[T Number](avs []*accelerator.View, in *arrayview.View[T], op Op) (T, error) {
	var zero T
	if op != Sum && op != Min && op != Max {
		return zero, fmt.Errorf("%w: %v (want Sum, Min or Max)", ErrUnknownOp, op)
	}
	n, err := famVector("ReduceOn", "in", in)
	if err != nil || n == 0 {
		return zero, err
	}
	key := splitKey[T]("Reduce")
	blocks, err := rt.Blocks(key, avs, n, splitElems)
	if err != nil {
		return zero, err
	}
	if err := checkHomes("ReduceOn", blocks, []string{"in"}, in); err != nil {
		return zero, err
	}
	part := make([]T, len(blocks))
	err = onBlocks(key, blocks, 1, []*arrayview.View[T]{in}, func(b runtime.Block, s []*arrayview.View[T]) error {
		var err error
		part[b.Index], err = Reduce(b.View, s[0], op)
		return err
	})
	acc := part[0]
	for _, x := range part[1:] {
		acc = combine(op, acc, x)
	}
	return acc, err
}

// SortOn is Sort (in the order of opt) of the rank-1 view v over several accelerator
// views at once: v is cut into blocks (multiples of 65536 elements) in proportion to each
// view's measured Sort throughput, each view sorts its block in place, and the sorted
// runs are merged on the view whose block ran at the highest measured throughput. It returns
// when the merge is queued. The result is the same as Sort's on one view (a sort's result
// does not depend on where it ran). Errors are SortWith's, and a *runtime.SplitError for
// bad views.
func SortOn[T Number](avs []*accelerator.View, v *arrayview.View[T], opt SortOptions) error {
	n, err := famVector("SortOn", "v", v)
	if err != nil || n < 2 {
		return err
	}
	key := splitKey[T]("Sort")
	blocks, err := rt.Blocks(key, avs, n, splitElems)
	if err != nil {
		return err
	}
	if err := checkHomes("SortOn", blocks, []string{"v"}, v); err != nil {
		return err
	}
	err = onBlocks(key, blocks, 1, []*arrayview.View[T]{v},
		func(b runtime.Block, s []*arrayview.View[T]) error { return SortWith(b.View, s[0], opt) })
	if err != nil {
		return err
	}
	bounds := []int{0}
	for _, b := range blocks {
		bounds = append(bounds, b.Hi)
	}
	at := fastest(key, blocks)
	w := windowLen[T](at)
	if w == 0 {
		w = n
	}
	return mergeAll(at, v, bounds, w, sortCode[T](opt))
}
