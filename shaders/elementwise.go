package shaders

import (
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// This file holds the elementwise kernels (Add, Saxpy, Fill) and what the kernels of
// elementwise.go, transpose.go and sort.go share. Each kernel has a GPU body (the GLSL
// program of the same name in glsl/), a per-thread Go body that is its definition (Each
// or Tiled) and a fast CPU body (EachRange or EachTile) that loops over the views' host
// slices; the conformance tests check that all three agree.

// ewIndex runs a non-tiled kernel; perThread forces its per-thread Each body on the CPU
// (the conformance tests' check of the fast body).
func ewIndex(av *accelerator.View, ext runtime.Extent, k runtime.IndexKernel, perThread bool) error {
	if perThread {
		return runtime.ParallelForEach(av, ext, runtime.PerThreadKernel{Kernel: k})
	}
	return runtime.ParallelForEach(av, ext, k)
}

// ewTiled runs a tiled kernel; perThread forces its per-thread Tiled body on the CPU.
func ewTiled(av *accelerator.View, ext runtime.TiledExtent, k runtime.TiledKernel, perThread bool) error {
	if perThread {
		return runtime.ParallelForEachTiled(av, ext, runtime.PerThreadKernel{Kernel: k})
	}
	return runtime.ParallelForEachTiled(av, ext, k)
}

// ewVector checks that v is a non-nil rank-1 view and returns its length.
func ewVector[T any](op, name string, v *arrayview.View[T]) (int, error) {
	if v == nil {
		return 0, shapeErr(op, "%s is nil", name)
	}
	if r := v.Rank(); r != 1 {
		return 0, shapeErr(op, "%s has rank %d (extent %s); %s needs rank-1 views", name, r, v.Extent(), op)
	}
	return v.Extent().Dim(0), nil
}

// ewSameLen checks that rank-1 views named names all have the length of the first.
func ewSameLen[T any](op string, names []string, views ...*arrayview.View[T]) (int, error) {
	n := 0
	for i, v := range views {
		m, err := ewVector(op, names[i], v)
		if err != nil {
			return 0, err
		}
		if i == 0 {
			n = m
		} else if m != n {
			return 0, shapeErr(op, "%s has length %d, %s has length %d; they must match", names[0], n, names[i], m)
		}
	}
	return n, nil
}

// ewHomes applies runtime.ParallelForEach's accelerator rule to the views of an operation
// that discards an output view first, so that a mismatch is reported before the discard:
// every view that lives on one accelerator view (an arrayview.Array) must live on av, or
// when av is nil on the same one.
func ewHomes(op string, av *accelerator.View, names []string, args ...runtime.Arg) error {
	from := "the view passed to " + op
	for i, a := range args {
		home := a.ArgInfo().Home
		switch {
		case home == nil:
		case av == nil:
			av, from = home, names[i]
		case home != av:
			return &runtime.AcceleratorMismatchError{Kernel: "shaders." + op, Want: av, WantFrom: from, Field: names[i], Got: home}
		}
	}
	return nil
}

// ewBits reinterprets a slice of a 32-bit Number type as its raw words.
func ewBits[T Number](s []T) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// ewBitsOf returns the raw 32-bit word of x.
func ewBitsOf[T Number](x T) uint32 { return *(*uint32)(unsafe.Pointer(&x)) }

// Add computes out[i] = a[i] + b[i] on accelerator view av (nil: the view the data lives
// on, else the default accelerator's), like C++ AMP's vector-addition sample. a, b and out
// must be rank-1 views of one length (else a *ShapeError); out may be a or b. Integer
// addition wraps, as in Go. On a GPU the work is queued: read out (At, Data, CopyTo,
// Synchronize) to wait for it.
func Add[T Number](av *accelerator.View, a, b, out *arrayview.View[T]) error {
	return addOp(av, a, b, out, false)
}

func addOp[T Number](av *accelerator.View, a, b, out *arrayview.View[T], perThread bool) error {
	n, err := ewSameLen("Add", []string{"a", "b", "out"}, a, b, out)
	if err != nil {
		return err
	}
	k := addKernel[T]{A: a.ReadOnly(), B: b.ReadOnly(), Out: out, Type: typeCode[T]()}
	return ewIndex(av, runtime.Ext(n), k, perThread)
}

// addKernel is Add's kernel: Out[i] = A[i] + B[i].
type addKernel[T Number] struct {
	A, B *arrayview.ReadView[T]
	Out  *arrayview.View[T]
	Type int32 // typeCode[T]
}

// Program is the GPU body: glsl/vadd.comp.
func (addKernel[T]) Program() *runtime.Program { return MustProgram("vadd", 1) }

// Each is the definition.
func (k addKernel[T]) Each(i runtime.Index) { k.Out.Set(i, k.A.At(i)+k.B.At(i)) }

// EachRange is the fast CPU body.
func (k addKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	a, err1 := k.A.ReadData()
	b, err2 := k.B.ReadData()
	o, err3 := k.Out.Data()
	if err1 != nil || err2 != nil || err3 != nil {
		for i := lo; i < hi; i++ {
			k.Each(runtime.Idx(i))
		}
		return
	}
	a, b, o = a[lo:hi], b[lo:hi], o[lo:hi]
	b = b[:len(a)]
	o = o[:len(a)]
	for i, x := range a {
		o[i] = x + b[i]
	}
}

// Saxpy computes y[i] = alpha*x[i] + y[i] on accelerator view av (nil: the view the data
// lives on, else the default accelerator's), the C++ AMP "transform" sample. x and y must
// be rank-1 views of one length (else a *ShapeError). The product and the sum are rounded
// separately on the CPU; a GPU may fuse them (one rounding).
func Saxpy(av *accelerator.View, alpha float32, x, y *arrayview.View[float32]) error {
	return saxpyOp(av, alpha, x, y, false)
}

func saxpyOp(av *accelerator.View, alpha float32, x, y *arrayview.View[float32], perThread bool) error {
	n, err := ewSameLen("Saxpy", []string{"x", "y"}, x, y)
	if err != nil {
		return err
	}
	return ewIndex(av, runtime.Ext(n), saxpyKernel{X: x.ReadOnly(), Y: y, Alpha: alpha}, perThread)
}

// saxpyKernel is Saxpy's kernel: Y[i] = Alpha*X[i] + Y[i].
type saxpyKernel struct {
	X     *arrayview.ReadView[float32]
	Y     *arrayview.View[float32]
	Alpha float32
}

// Program is the GPU body: glsl/saxpy.comp.
func (saxpyKernel) Program() *runtime.Program { return MustProgram("saxpy", 1) }

// Each is the definition.
func (k saxpyKernel) Each(i runtime.Index) { k.Y.Set(i, float32(k.Alpha*k.X.At(i))+k.Y.At(i)) }

// EachRange is the fast CPU body.
func (k saxpyKernel) EachRange(_ runtime.Extent, lo, hi int) {
	x, err1 := k.X.ReadData()
	y, err2 := k.Y.Data()
	if err1 != nil || err2 != nil {
		for i := lo; i < hi; i++ {
			k.Each(runtime.Idx(i))
		}
		return
	}
	x, y = x[lo:hi], y[lo:hi]
	y = y[:len(x)]
	a := k.Alpha
	for i, v := range x {
		y[i] = float32(a*v) + y[i]
	}
}

// Fill sets every element of v to value on accelerator view av (nil: the view the data
// lives on, else the default accelerator's), like C++ AMP's fill of an array_view. v must
// be a rank-1 view (else a *ShapeError). Fill only writes: it first calls v.DiscardData,
// so that v's old contents are never uploaded to a GPU (nor copied back), which is also
// why v's previous contents are gone even if the dispatch then fails.
func Fill[T Number](av *accelerator.View, v *arrayview.View[T], value T) error {
	return fillOp(av, v, value, false)
}

func fillOp[T Number](av *accelerator.View, v *arrayview.View[T], value T, perThread bool) error {
	n, err := ewVector("Fill", "v", v)
	if err != nil {
		return err
	}
	if err := ewHomes("Fill", av, []string{"v"}, v); err != nil {
		return err
	}
	v.DiscardData()
	return ewIndex(av, runtime.Ext(n), fillKernel[T]{V: v, Bits: ewBitsOf(value), Value: value}, perThread)
}

// fillKernel is Fill's kernel: V[i] = Value (whose bits the GPU body gets in Bits).
type fillKernel[T Number] struct {
	V     *arrayview.View[T]
	Bits  uint32
	Value T `amp:"-"`
}

// Program is the GPU body: glsl/fill.comp.
func (fillKernel[T]) Program() *runtime.Program { return MustProgram("fill", 1) }

// Each is the definition.
func (k fillKernel[T]) Each(i runtime.Index) { k.V.Set(i, k.Value) }

// EachRange is the fast CPU body.
func (k fillKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	v, err := k.V.Data()
	if err != nil {
		for i := lo; i < hi; i++ {
			k.Each(runtime.Idx(i))
		}
		return
	}
	v = v[lo:hi]
	x := k.Value
	for i := range v {
		v[i] = x
	}
}
