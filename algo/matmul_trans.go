package algo

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// matMulTransposed is MatMulWith with opt.TransA or opt.TransB: each transposed operand
// is transposed (Transpose) into a scratch matrix of av, and the untransposed kernel
// multiplies those. The copy moves O(MK + KN) elements against the product's O(MNK)
// operations (BenchmarkMatMulTransposed measures its cost against the plain product); it
// keeps one tiled kernel, with its vectorized, conflict-free loads, for all four
// combinations. Shape errors (before anything is touched) name the operands' extents as
// multiplied, op(a) and op(b), and say which operand is transposed.
func matMulTransposed[T MatMulElem](av *accelerator.View, a, b, c *arrayview.View[T], opt MatMulOptions) error {
	op := "MatMul" + matMulTransName(opt.TransA, opt.TransB)
	ea, eb, ec := extentOf(a), extentOf(b), extentOf(c)
	if ea != nil && opt.TransA && ea.Rank() == 2 {
		ea = ptrTo(runtime.Ext(ea.Dim(1), ea.Dim(0)))
	}
	if eb != nil && opt.TransB && eb.Rank() == 2 {
		eb = ptrTo(runtime.Ext(eb.Dim(1), eb.Dim(0)))
	}
	if err := matMulShapes(op, ea, eb, ec); err != nil {
		return err
	}
	av, err := runtime.ChooseView("algo.MatMul", op, av, []string{"a", "b", "c"}, a, b, c)
	if err != nil {
		return err
	}
	// The scratch goes back once the product is queued: later work on av runs after it.
	for _, x := range []struct {
		on  bool
		v   **arrayview.View[T]
		ext *runtime.Extent
	}{{opt.TransA, &a, ea}, {opt.TransB, &b, eb}} {
		if !x.on {
			continue
		}
		t, err := transposedScratch(av, *x.v, *x.ext)
		if err != nil {
			return err
		}
		defer t.release()
		*x.v = t.v
	}
	opt.TransA, opt.TransB = false, false
	return MatMulWith(av, a, b, c, opt)
}

// transposedScratch returns a scratch matrix of av of extent ext holding x's transpose.
func transposedScratch[T MatMulElem](av *accelerator.View, x *arrayview.View[T], ext runtime.Extent) (*scratchBuf[T], error) {
	t, err := takeScratch[T](av, ext, "")
	if err != nil {
		return nil, err
	}
	t.v.DiscardData() // guideline B: its old contents are never uploaded
	if err := Transpose(av, x, t.v); err != nil {
		t.release()
		return nil, err
	}
	return t, nil
}

// matMulTransName names the transposed operands in MatMul's errors: " (a transposed)", ...
func matMulTransName(ta, tb bool) string {
	switch {
	case ta && tb:
		return " (a and b transposed)"
	case ta:
		return " (a transposed)"
	case tb:
		return " (b transposed)"
	}
	return ""
}

// ptrTo returns a pointer to a copy of e.
func ptrTo(e runtime.Extent) *runtime.Extent { return &e }
