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

// The elementwise kernels' GPU launch: tiles of ewTile threads, each thread handling
// chunks of ewVec consecutive elements (one vec4 load or store per view when the views
// start on 16-byte boundaries), grid-stride over at most ewMaxGroups tiles, so that the
// launch rate of workgroups never limits a bandwidth-bound kernel.
const (
	ewTile = 256
	ewVec  = 4
)

// ewMaxGroups is the elementwise kernels' largest number of tiles (a few per multiprocessor
// of a large GPU); a variable so that benchmarks can tune it.
var ewMaxGroups = 4096

// ewGrid returns the tiled domain of an elementwise kernel over n elements and its
// number of threads (the grid stride, in chunks).
func ewGrid(n int) (runtime.TiledExtent, int) {
	chunks := (n + ewVec - 1) / ewVec
	groups := max(1, min(ewMaxGroups, (chunks+ewTile-1)/ewTile))
	return runtime.Ext(groups * ewTile).Tile(ewTile), groups * ewTile
}

// ewThreadChunks calls f(lo, hi) for the element ranges that the thread at global index
// g of a grid of threads threads handles: chunk c = g, g+threads, ... of ewVec elements,
// the last one cut at n. It is the definition of the GLSL bodies' loop.
func ewThreadChunks(g, threads, n int, f func(lo, hi int)) {
	for c := g; c*ewVec < n; c += threads {
		f(c*ewVec, min(c*ewVec+ewVec, n))
	}
}

// ewTileRanges calls f(lo, hi) for the element ranges that the threads of tile tile
// handle together: ewTile consecutive chunks per round of the grid stride.
func ewTileRanges(tile, threads, n int, f func(lo, hi int)) {
	for c := tile * ewTile; c*ewVec < n; c += threads {
		f(c*ewVec, min((c+ewTile)*ewVec, n))
	}
}

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
	dom, threads := ewGrid(n)
	k := addKernel[T]{A: a.ReadOnly(), B: b.ReadOnly(), Out: out, N: uint32(n), Type: typeCode[T](), threads: threads}
	return ewTiled(av, dom, k, perThread)
}

// addKernel is Add's kernel: Out[i] = A[i] + B[i] for the N elements, each thread
// handling the chunks of ewThreadChunks.
type addKernel[T Number] struct {
	A, B    *arrayview.ReadView[T]
	Out     *arrayview.View[T]
	N       uint32
	Type    int32 // typeCode[T]
	threads int   `amp:"-"`
}

// Program is the GPU body: glsl/vadd.comp.
func (addKernel[T]) Program() *runtime.Program { return MustProgram("vadd", 1) }

// Tiled is the definition.
func (k addKernel[T]) Tiled(t runtime.TiledIndex) {
	ewThreadChunks(t.Global[0], k.threads, int(k.N), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k.Out.Set(runtime.Idx(i), k.A.At(runtime.Idx(i))+k.B.At(runtime.Idx(i)))
		}
	})
}

// EachTile is the fast CPU body: the tile's ranges over the host slices.
func (k addKernel[T]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	a, err1 := k.A.ReadData()
	b, err2 := k.B.ReadData()
	o, err3 := k.Out.Data()
	ewTileRanges(tile[0], k.threads, int(k.N), func(lo, hi int) {
		if err1 != nil || err2 != nil || err3 != nil {
			for i := lo; i < hi; i++ {
				k.Out.Set(runtime.Idx(i), k.A.At(runtime.Idx(i))+k.B.At(runtime.Idx(i)))
			}
			return
		}
		a, b, o := a[lo:hi], b[lo:hi], o[lo:hi]
		b = b[:len(a)]
		o = o[:len(a)]
		for i, x := range a {
			o[i] = x + b[i]
		}
	})
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
	dom, threads := ewGrid(n)
	return ewTiled(av, dom, saxpyKernel{X: x.ReadOnly(), Y: y, N: uint32(n), Alpha: alpha, threads: threads}, perThread)
}

// saxpyKernel is Saxpy's kernel: Y[i] = Alpha*X[i] + Y[i] for the N elements, each
// thread handling the chunks of ewThreadChunks.
type saxpyKernel struct {
	X       *arrayview.ReadView[float32]
	Y       *arrayview.View[float32]
	N       uint32
	Alpha   float32
	threads int `amp:"-"`
}

// Program is the GPU body: glsl/saxpy.comp.
func (saxpyKernel) Program() *runtime.Program { return MustProgram("saxpy", 1) }

// Tiled is the definition.
func (k saxpyKernel) Tiled(t runtime.TiledIndex) {
	ewThreadChunks(t.Global[0], k.threads, int(k.N), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k.Y.Set(runtime.Idx(i), float32(k.Alpha*k.X.At(runtime.Idx(i)))+k.Y.At(runtime.Idx(i)))
		}
	})
}

// EachTile is the fast CPU body: the tile's ranges over the host slices.
func (k saxpyKernel) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	x, err1 := k.X.ReadData()
	y, err2 := k.Y.Data()
	a := k.Alpha
	ewTileRanges(tile[0], k.threads, int(k.N), func(lo, hi int) {
		if err1 != nil || err2 != nil {
			for i := lo; i < hi; i++ {
				k.Y.Set(runtime.Idx(i), float32(a*k.X.At(runtime.Idx(i)))+k.Y.At(runtime.Idx(i)))
			}
			return
		}
		x, y := x[lo:hi], y[lo:hi]
		y = y[:len(x)]
		for i, v := range x {
			y[i] = float32(a*v) + y[i]
		}
	})
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
	dom, threads := ewGrid(n)
	return ewTiled(av, dom, fillKernel[T]{V: v, N: uint32(n), Bits: ewBitsOf(value), Value: value, threads: threads}, perThread)
}

// fillKernel is Fill's kernel: V[i] = Value (whose bits the GPU body gets in Bits) for
// the N elements, each thread handling the chunks of ewThreadChunks.
type fillKernel[T Number] struct {
	V       *arrayview.View[T]
	N       uint32
	Bits    uint32
	Value   T   `amp:"-"`
	threads int `amp:"-"`
}

// Program is the GPU body: glsl/fill.comp.
func (fillKernel[T]) Program() *runtime.Program { return MustProgram("fill", 1) }

// Tiled is the definition.
func (k fillKernel[T]) Tiled(t runtime.TiledIndex) {
	ewThreadChunks(t.Global[0], k.threads, int(k.N), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			k.V.Set(runtime.Idx(i), k.Value)
		}
	})
}

// EachTile is the fast CPU body: the tile's ranges over the host slice.
func (k fillKernel[T]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	v, err := k.V.Data()
	x := k.Value
	ewTileRanges(tile[0], k.threads, int(k.N), func(lo, hi int) {
		if err != nil {
			for i := lo; i < hi; i++ {
				k.V.Set(runtime.Idx(i), x)
			}
			return
		}
		v := v[lo:hi]
		for i := range v {
			v[i] = x
		}
	})
}
