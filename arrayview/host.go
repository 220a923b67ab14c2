package arrayview

import (
	"github.com/goamp/goamp/runtime"
)

// Host is a view's host copy as the fast CPU bodies that ampgen generates (EachTile,
// EachRange) read and write it: the view's elements, its extent and its strides, taken
// once per tile, so that each At and Set of the kernel body is a few compares, multiplies
// and a slice index that the compiler inlines, instead of a method call that checks the
// view's coherence state. It does what View.At and View.Set do (the same index checks,
// the same panic outside the extent) on the host copy made current when the Host was
// taken; it sees no later change of the view's state, so it is only for the span of one
// dispatch on the CPU accelerator, which binds every view on the host before it runs.
// User code has no reason to use it: At and Set are the way to reach elements.
type Host[T any] struct {
	data []T
	lim  [3]uint // the extent's dimensions; past the rank the largest uint (never outside)
	st   [3]int  // element strides; past the rank 0 (geom's)
	ext  runtime.Extent
	key  any // the view's ArgInfo().Key, for the panic outside the extent
}

// KernelHost makes the view's host copy current for reading and writing, as the first Set
// would, and returns its Host (for generated CPU bodies; see Host). It panics, like Set,
// if the view is closed.
func (v *View[T]) KernelHost() Host[T] {
	if v.hostW.Load() != v.src.version.Load() {
		v.mustHost("Set", runtime.ReadWrite)
	}
	return v.hostOf()
}

// KernelHost makes the view's host copy current for reading, as the first At would, and
// returns its Host (for generated CPU bodies; see Host), on which only At may be called.
// It panics, like At, if the view is closed.
func (r *ReadView[T]) KernelHost() Host[T] {
	v := r.v
	if v.hostR.Load() != v.src.version.Load() {
		v.mustHost("At", runtime.Read)
	}
	return v.hostOf()
}

// hostOf returns the view's Host.
func (v *View[T]) hostOf() Host[T] {
	return Host[T]{data: v.data[v.g.base:], lim: v.lim, st: v.g.st, ext: v.g.ext, key: v}
}

// At returns the element at i (View.At on the host copy). It panics if i lies outside
// the extent.
func (h *Host[T]) At(i runtime.Index) T {
	if uint(i[0]) >= h.lim[0] || uint(i[1]) >= h.lim[1] || uint(i[2]) >= h.lim[2] {
		panic(&runtime.BoundsError{Index: i, Extent: h.ext, Key: h.key})
	}
	return h.data[i[0]*h.st[0]+i[1]*h.st[1]+i[2]*h.st[2]]
}

// Set stores x at i (View.Set on the host copy). It panics if i lies outside the extent.
func (h *Host[T]) Set(i runtime.Index, x T) {
	if uint(i[0]) >= h.lim[0] || uint(i[1]) >= h.lim[1] || uint(i[2]) >= h.lim[2] {
		panic(&runtime.BoundsError{Index: i, Extent: h.ext, Key: h.key})
	}
	h.data[i[0]*h.st[0]+i[1]*h.st[1]+i[2]*h.st[2]] = x
}

// At3 is At(runtime.Index{i0, i1, i2}) with the index's components passed one by one, so
// that a generated body that keeps them in registers never builds an Index in memory.
func (h *Host[T]) At3(i0, i1, i2 int) T {
	if uint(i0) >= h.lim[0] || uint(i1) >= h.lim[1] || uint(i2) >= h.lim[2] {
		panic(&runtime.BoundsError{Index: runtime.Index{i0, i1, i2}, Extent: h.ext, Key: h.key})
	}
	return h.data[i0*h.st[0]+i1*h.st[1]+i2*h.st[2]]
}

// Set3 is Set(runtime.Index{i0, i1, i2}, x) with the index's components passed one by one
// (see At3).
func (h *Host[T]) Set3(i0, i1, i2 int, x T) {
	if uint(i0) >= h.lim[0] || uint(i1) >= h.lim[1] || uint(i2) >= h.lim[2] {
		panic(&runtime.BoundsError{Index: runtime.Index{i0, i1, i2}, Extent: h.ext, Key: h.key})
	}
	h.data[i0*h.st[0]+i1*h.st[1]+i2*h.st[2]] = x
}

// At2 is At(runtime.Idx(i0, i1)): the third component is 0, inside every extent (whose
// dimensions are at least 1), so only two are checked (see At3).
func (h *Host[T]) At2(i0, i1 int) T {
	if uint(i0) >= h.lim[0] || uint(i1) >= h.lim[1] {
		panic(&runtime.BoundsError{Index: runtime.Index{i0, i1}, Extent: h.ext, Key: h.key})
	}
	return h.data[i0*h.st[0]+i1*h.st[1]]
}

// Set2 is Set(runtime.Idx(i0, i1), x) (see At2).
func (h *Host[T]) Set2(i0, i1 int, x T) {
	if uint(i0) >= h.lim[0] || uint(i1) >= h.lim[1] {
		panic(&runtime.BoundsError{Index: runtime.Index{i0, i1}, Extent: h.ext, Key: h.key})
	}
	h.data[i0*h.st[0]+i1*h.st[1]] = x
}

// At1 is At(runtime.Idx(i0)) (see At2).
func (h *Host[T]) At1(i0 int) T {
	if uint(i0) >= h.lim[0] {
		panic(&runtime.BoundsError{Index: runtime.Index{i0}, Extent: h.ext, Key: h.key})
	}
	return h.data[i0*h.st[0]]
}

// Set1 is Set(runtime.Idx(i0), x) (see At2).
func (h *Host[T]) Set1(i0 int, x T) {
	if uint(i0) >= h.lim[0] {
		panic(&runtime.BoundsError{Index: runtime.Index{i0}, Extent: h.ext, Key: h.key})
	}
	h.data[i0*h.st[0]] = x
}
