package algo

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// The segmented sort's and Argsort's small kernels (sortpairs.go); ampgen generates their
// GPU bodies from Each.

// sortZeroKernel zeroes Dst (any rank).
type sortZeroKernel struct {
	Dst *arrayview.View[int32]
}

// Each is the definition and the GPU body.
func (k sortZeroKernel) Each(i runtime.Index) { k.Dst.Set(i, 0) }

// sortCopyKernel copies the rank-1 Src to Dst.
type sortCopyKernel[T Number] struct {
	Src *arrayview.ReadView[T]
	Dst *arrayview.View[T]
}

// Each is the definition and the GPU body.
func (k sortCopyKernel[T]) Each(i runtime.Index) { k.Dst.Set(i, k.Src.At(i)) }

// sortFlattenKernel copies the rank-2 Src, of Cols columns, to the rank-1 Dst in row-major
// order.
type sortFlattenKernel[T Number] struct {
	Src  *arrayview.ReadView[T]
	Dst  *arrayview.View[T]
	Cols int32
}

// Each is the definition and the GPU body.
func (k sortFlattenKernel[T]) Each(i runtime.Index) {
	k.Dst.Set(runtime.Idx(i[0]*int(k.Cols)+i[1]), k.Src.At(i))
}

// sortRowKeyKernel writes the row of each flat index of Perm (Perm[i] / Cols) to Dst.
type sortRowKeyKernel struct {
	Perm *arrayview.ReadView[int32]
	Dst  *arrayview.View[int32]
	Cols int32
}

// Each is the definition and the GPU body.
func (k sortRowKeyKernel) Each(i runtime.Index) { k.Dst.Set(i, k.Perm.At(i)/k.Cols) }

// sortRowIndexKernel writes to the rank-2 Dst, of Cols columns, the column of each flat
// index of the rank-1 Perm, in row-major order.
type sortRowIndexKernel struct {
	Perm *arrayview.ReadView[int32]
	Dst  *arrayview.View[int32]
	Cols int32
}

// Each is the definition and the GPU body.
func (k sortRowIndexKernel) Each(i runtime.Index) {
	k.Dst.Set(i, k.Perm.At(runtime.Idx(i[0]*int(k.Cols)+i[1]))%k.Cols)
}

// sortGatherKernel writes to the rank-2 Dst, of Cols columns, the elements of the rank-1
// Src at the flat indices of Perm, in row-major order.
type sortGatherKernel[T Number] struct {
	Src  *arrayview.ReadView[T]
	Perm *arrayview.ReadView[int32]
	Dst  *arrayview.View[T]
	Cols int32
}

// Each is the definition and the GPU body.
func (k sortGatherKernel[T]) Each(i runtime.Index) {
	p := k.Perm.At(runtime.Idx(i[0]*int(k.Cols) + i[1]))
	k.Dst.Set(i, k.Src.At(runtime.Idx(int(p))))
}
