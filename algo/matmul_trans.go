package algo

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// matMulTransposed is MatMulWith with opt.TransA or opt.TransB: each transposed operand
// is transposed (Transpose) into a scratch matrix of av, and the untransposed kernel
// multiplies those. The copy moves O(MK + KN) elements against the product's O(MNK)
// operations (BenchmarkMatMulTransposed measures its cost against the plain product); it
// keeps one tiled kernel, with its vectorized, conflict-free loads, for all four
// combinations. Shape errors (before anything is touched) name the operands' extents as
// multiplied, op(a) and op(b), and say which operand is transposed.
func matMulTransposed[T MatMulElem](av *accelerator.View, a, b, c *arrayview.View[T], opt MatMulOptions) error {
	ta, tb := opt.TransA, opt.TransB
	opt.TransA, opt.TransB = false, false
	return withTransposes("MatMul", av, a, b, c, ta, tb, Transpose[T], func(av *accelerator.View, a, b *arrayview.View[T]) error {
		return MatMulWith(av, a, b, c, opt)
	})
}

// withTransposes checks the shapes of op(a) x op(b) = c for operation op (op(x) is x's
// transpose where ta or tb says so), chooses the accelerator view as the matrix multiplies
// do, transposes the operands marked into scratch matrices of that view with transpose,
// and calls mul with the operands as multiplied. The scratch goes back once mul has
// queued its work: later work on the view runs after it.
func withTransposes[T scratchElem, O any](op string, av *accelerator.View, a, b *arrayview.View[T], c *arrayview.View[O], ta, tb bool,
	transpose func(av *accelerator.View, in, out *arrayview.View[T]) error, mul func(av *accelerator.View, a, b *arrayview.View[T]) error) error {
	op += matMulTransName(ta, tb)
	ea, eb, ec := extentOf(a), extentOf(b), extentOf(c)
	if ea != nil && ta && ea.Rank() == 2 {
		ea = ptrTo(runtime.Ext(ea.Dim(1), ea.Dim(0)))
	}
	if eb != nil && tb && eb.Rank() == 2 {
		eb = ptrTo(runtime.Ext(eb.Dim(1), eb.Dim(0)))
	}
	if err := matMulShapes(op, ea, eb, ec); err != nil {
		return err
	}
	if err := matMulApart(op, a, b, c); err != nil {
		return err
	}
	av, err := chooseView("algo.MatMul", op, av, []string{"a", "b", "c"}, a, b, c)
	if err != nil {
		return err
	}
	for _, x := range []struct {
		on  bool
		v   **arrayview.View[T]
		ext *runtime.Extent
	}{{ta, &a, ea}, {tb, &b, eb}} {
		if !x.on {
			continue
		}
		t, err := takeScratch[T](av, *x.ext, "")
		if err != nil {
			return err
		}
		defer t.release()
		t.v.DiscardData() // guideline B: its old contents are never uploaded
		if err := transpose(av, *x.v, t.v); err != nil {
			return err
		}
		*x.v = t.v
	}
	return mul(av, a, b)
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

// transposeNarrow writes the transpose of in (rank 2) into out (the transposed extent,
// checked by the caller) on av, for the 2- and 1-byte elements of MatMulF16 and MatMulI8:
// transpose_16 or transpose_8 on Vulkan devices, which move the elements' bits as
// Transpose's kernel moves 4-byte ones; the Tiled definition on the CPU.
func transposeNarrow[T half.Float16 | int8](av *accelerator.View, in, out *arrayview.View[T]) error {
	rows, cols := in.Extent().Dim(0), in.Extent().Dim(1)
	if err := out.Discard(); err != nil {
		return err
	}
	dom := runtime.Ext(ceilDiv(rows, transposeDim)*transposeRows, ceilDiv(cols, transposeDim)*transposeDim).Tile(transposeRows, transposeDim)
	return dispatchTiled(av, dom, transposeNarrowKernel[T]{In: in.ReadOnly(), Out: out, Rows: int32(rows), Cols: int32(cols)})
}

// transposeNarrowKernel is transposeNarrow's kernel: Out[c][r] = In[r][c], tiled
// transposeRows x transposeDim over the padded grid of 32 x 32 blocks.
type transposeNarrowKernel[T half.Float16 | int8] struct {
	In         *arrayview.ReadView[T]
	Out        *arrayview.View[T]
	Rows, Cols int32
}

// Program is the GPU body: shaders/glsl/transpose_n.glsl for T's width.
func (transposeNarrowKernel[T]) Program() *runtime.Program {
	var x T
	if _, ok := any(x).(int8); ok {
		return shaders.MustProgram("transpose_8", 2)
	}
	return shaders.MustProgram("transpose_16", 2)
}

// SharedBytes is the GPU body's shared block of 32 x 33 uints.
func (transposeNarrowKernel[T]) SharedBytes([3]int) int { return 4 * transposeDim * (transposeDim + 1) }

// Tiled is the definition: the tile's threads move the elements of its block, thread
// (y, x) rows y, y + transposeRows, ... of column x.
func (k transposeNarrowKernel[T]) Tiled(t runtime.TiledIndex) {
	r0, c0 := t.Tile[0]*transposeDim, t.Tile[1]*transposeDim
	for i := t.Local[0]; i < transposeDim; i += transposeRows {
		r, c := r0+i, c0+t.Local[1]
		if r < int(k.Rows) && c < int(k.Cols) {
			k.Out.Set(runtime.Idx(c, r), k.In.At(runtime.Idx(r, c)))
		}
	}
}
