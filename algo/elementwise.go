package algo

import (
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// This file holds the elementwise kernels (Add, Saxpy, Fill) and what the kernels of
// elementwise.go, transpose.go and sort.go share. Each kernel has a per-thread Go body
// that is its definition (Each or Tiled), a GPU body (generated from the Go body by
// ampgen, or hand-written GLSL in shaders/glsl/ for sort.go's) and a fast CPU body (EachRange or
// EachTile) that loops over the views' host slices; the conformance tests check that all
// three agree.

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
			if n > maxLen {
				return 0, shapeErr(op, "%s has %d elements; %s handles at most %d", names[0], n, op, maxLen)
			}
		} else if m != n {
			return 0, shapeErr(op, "%s has length %d, %s has length %d; they must match", names[0], n, names[i], m)
		}
	}
	return n, nil
}

// ewBits reinterprets a slice of a 32-bit Number type as its raw words.
func ewBits[T Number](s []T) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// ewBitsOf returns the raw 32-bit word of x.
func ewBitsOf[T Number](x T) uint32 { return *(*uint32)(unsafe.Pointer(&x)) }

// The elementwise kernels' GPU launch: tiles of ewTile threads, grid-stride over at most
// ewMaxGroups tiles (so that the launch rate of workgroups never limits a bandwidth-bound
// kernel), sized for ewPer elements per thread. Thread g of the T threads handles the
// elements g, g+T, g+2T, ... (consecutive threads touch consecutive elements: coalesced
// scalar accesses), four rounds of the stride at a time, so that each thread has four
// loads of each input in flight before its stores. (The bodies spell t.Global[0] as
// t.Tile[0]*t.TileExtent.Dim(0) + t.Local[0]: ampgen's GLSL for a body that uses no other
// tile built-in lacks ampGlobal.)
const (
	ewTile = 256
	ewPer  = 4
)

// ewMaxLen is the longest view one dispatch of the elementwise kernels takes: their GPU
// bodies' element indices (i + 3*threads) are 32-bit ints. Longer views (up to maxLen) are
// split into windows (ewRun).
const ewMaxLen = 1 << 30

// ewMaxGroups is the elementwise kernels' largest number of tiles (a few per multiprocessor
// of a large GPU); a variable so that benchmarks can tune it.
var ewMaxGroups = 4096

// ewGrid returns the tiled domain of an elementwise kernel over n elements and its
// number of threads (the grid stride, in elements).
func ewGrid(n int) (runtime.TiledExtent, int) {
	groups := max(1, min(ewMaxGroups, (n+ewTile*ewPer-1)/(ewTile*ewPer)))
	return runtime.Ext(groups * ewTile).Tile(ewTile), groups * ewTile
}

// ewTileRanges calls f(lo, hi) for the element ranges that the threads of tile tile
// handle together in a grid of threads threads: ewTile consecutive elements per round of
// the grid stride (the fast CPU bodies' loop).
func ewTileRanges(tile, threads, n int, f func(lo, hi int)) {
	for lo := tile * ewTile; lo < n; lo += threads {
		f(lo, min(lo+ewTile, n))
	}
}

// Add computes out[i] = a[i] + b[i] on accelerator view av (nil: the view the data lives
// on, else the default accelerator's), like C++ AMP's vector-addition sample. a, b and out
// must be rank-1 views of one length (else a *ShapeError); out may be a or b (the same
// elements: one shifted against the other is a *ShapeError). Integer
// addition wraps, as in Go. On a GPU the work is queued: read out (At, Data, CopyTo,
// Synchronize) to wait for it.
func Add[T Number](av *accelerator.View, a, b, out *arrayview.View[T]) error {
	return ewRun(av, "Add", []string{"a", "b", "out"}, []*arrayview.View[T]{a, b, out},
		func(av *accelerator.View, v []*arrayview.View[T], n int) error {
			dom, threads := ewGrid(n)
			k := addKernel[T]{A: v[0].ReadOnly(), B: v[1].ReadOnly(), Out: v[2], N: int32(n), Threads: int32(threads)}
			return dispatchTiled(av, dom, k)
		})
}

// addKernel is Add's kernel: Out[i] = A[i] + B[i] for the N elements, grid-stride over
// Threads threads (see ewGrid). Its GPU body is generated from Tiled by ampgen.
type addKernel[T Number] struct {
	A, B    *arrayview.ReadView[T]
	Out     *arrayview.View[T]
	N       int32
	Threads int32
}

// Tiled is the definition and the GPU body: thread g adds the elements g, g+Threads, ...,
// four strides at a time (all loads before the stores).
func (k addKernel[T]) Tiled(t runtime.TiledIndex) {
	n, step := int(k.N), int(k.Threads)
	i := t.Tile[0]*t.TileExtent.Dim(0) + t.Local[0]
	for ; i+3*step < n; i += 4 * step {
		i1, i2, i3 := runtime.Idx(i+step), runtime.Idx(i+2*step), runtime.Idx(i+3*step)
		a0, a1, a2, a3 := k.A.At(runtime.Idx(i)), k.A.At(i1), k.A.At(i2), k.A.At(i3)
		b0, b1, b2, b3 := k.B.At(runtime.Idx(i)), k.B.At(i1), k.B.At(i2), k.B.At(i3)
		k.Out.Set(runtime.Idx(i), a0+b0)
		k.Out.Set(i1, a1+b1)
		k.Out.Set(i2, a2+b2)
		k.Out.Set(i3, a3+b3)
	}
	for ; i < n; i += step {
		k.Out.Set(runtime.Idx(i), k.A.At(runtime.Idx(i))+k.B.At(runtime.Idx(i)))
	}
}

// EachTile is the fast CPU body: the tile's ranges over the host slices. It stays beside
// ampgen's generated body, which made Add of 4 Mi float32 5.5-8.3x slower
// (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine): the kernel is grid-stride, and the generated body runs each
// thread's whole loop before the next thread's, so every thread strides across the whole
// array; this one walks the tile's ranges in order.
func (k addKernel[T]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	a, err1 := k.A.ReadData()
	b, err2 := k.B.ReadData()
	o, err3 := k.Out.Data()
	ewTileRanges(tile[0], int(k.Threads), int(k.N), func(lo, hi int) {
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
// be rank-1 views of one length (else a *ShapeError); y may be x, but not shifted against
// it (a *ShapeError). The product and the sum are rounded
// separately on the CPU; a GPU may fuse them (one rounding).
func Saxpy(av *accelerator.View, alpha float32, x, y *arrayview.View[float32]) error {
	return ewRun(av, "Saxpy", []string{"x", "y"}, []*arrayview.View[float32]{x, y},
		func(av *accelerator.View, v []*arrayview.View[float32], n int) error {
			dom, threads := ewGrid(n)
			k := saxpyKernel{X: v[0].ReadOnly(), Y: v[1], N: int32(n), Alpha: alpha, Threads: int32(threads)}
			return dispatchTiled(av, dom, k)
		})
}

// saxpyKernel is Saxpy's kernel: Y[i] = Alpha*X[i] + Y[i] for the N elements,
// grid-stride over Threads threads (see ewGrid). Its GPU body is generated from Tiled by
// ampgen.
type saxpyKernel struct {
	X       *arrayview.ReadView[float32]
	Y       *arrayview.View[float32]
	N       int32
	Alpha   float32
	Threads int32
}

// Tiled is the definition and the GPU body: thread g updates the elements g, g+Threads,
// ..., four strides at a time (all loads before the stores).
func (k saxpyKernel) Tiled(t runtime.TiledIndex) {
	n, step, a := int(k.N), int(k.Threads), k.Alpha
	i := t.Tile[0]*t.TileExtent.Dim(0) + t.Local[0]
	for ; i+3*step < n; i += 4 * step {
		i1, i2, i3 := runtime.Idx(i+step), runtime.Idx(i+2*step), runtime.Idx(i+3*step)
		x0, x1, x2, x3 := k.X.At(runtime.Idx(i)), k.X.At(i1), k.X.At(i2), k.X.At(i3)
		y0, y1, y2, y3 := k.Y.At(runtime.Idx(i)), k.Y.At(i1), k.Y.At(i2), k.Y.At(i3)
		k.Y.Set(runtime.Idx(i), float32(a*x0)+y0)
		k.Y.Set(i1, float32(a*x1)+y1)
		k.Y.Set(i2, float32(a*x2)+y2)
		k.Y.Set(i3, float32(a*x3)+y3)
	}
	for ; i < n; i += step {
		k.Y.Set(runtime.Idx(i), float32(a*k.X.At(runtime.Idx(i)))+k.Y.At(runtime.Idx(i)))
	}
}

// EachTile is the fast CPU body: the tile's ranges over the host slices. It stays beside
// ampgen's generated body, which made Saxpy of 4 Mi float32 7.3-9.0x slower
// (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine): grid-stride, as addKernel's EachTile says.
func (k saxpyKernel) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	x, err1 := k.X.ReadData()
	y, err2 := k.Y.Data()
	a := k.Alpha
	ewTileRanges(tile[0], int(k.Threads), int(k.N), func(lo, hi int) {
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
	return ewRun(av, "Fill", []string{"v"}, []*arrayview.View[T]{v},
		func(av *accelerator.View, v []*arrayview.View[T], n int) error {
			if err := v[0].Discard(); err != nil {
				return err
			}
			dom, threads := ewGrid(n)
			return dispatchTiled(av, dom, fillKernel[T]{V: v[0], N: int32(n), Value: value, Threads: int32(threads)})
		})
}

// fillKernel is Fill's kernel: V[i] = Value for the N elements, grid-stride over Threads
// threads (see ewGrid); with Add set, V[i] += Value instead (the carry of a scan split into
// windows, scanWindows). Its GPU body is generated from Tiled by ampgen.
type fillKernel[T Number] struct {
	V       *arrayview.View[T]
	N       int32
	Value   T
	Threads int32
	Add     int32
}

// Tiled is the definition and the GPU body: thread g stores (or adds to) the elements g,
// g+Threads, ....
func (k fillKernel[T]) Tiled(t runtime.TiledIndex) {
	n, step := int(k.N), int(k.Threads)
	for i := t.Tile[0]*t.TileExtent.Dim(0) + t.Local[0]; i < n; i += step {
		x := k.Value
		if k.Add != 0 {
			x += k.V.At(runtime.Idx(i))
		}
		k.V.Set(runtime.Idx(i), x)
	}
}

// EachTile is the fast CPU body: the tile's ranges over the host slice. It stays beside
// ampgen's generated body, which made Fill of 4 Mi float32 2.8x slower
// (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine): grid-stride, as addKernel's EachTile says.
func (k fillKernel[T]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	v, err := k.V.Data()
	x := k.Value
	ewTileRanges(tile[0], int(k.Threads), int(k.N), func(lo, hi int) {
		switch {
		case err != nil:
			for i := lo; i < hi; i++ {
				y := x
				if k.Add != 0 {
					y += k.V.At(runtime.Idx(i))
				}
				k.V.Set(runtime.Idx(i), y)
			}
		case k.Add != 0:
			v := v[lo:hi]
			for i := range v {
				v[i] += x
			}
		default:
			v := v[lo:hi]
			for i := range v {
				v[i] = x
			}
		}
	})
}
