// Package rank holds kernels that index their views with indices of each form whose
// rank the translator tells, and of forms whose rank it does not (TestIndexed).
package rank

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Forms indexes each view with one form of index.
type Forms struct {
	A, B, C, D, E, F, G, H *arrayview.View[int32]
	N                      int32
}

// Each is the kernel.
func (k Forms) Each(i runtime.Index) {
	k.A.Set(i, 1)
	k.B.Set(runtime.Idx(i[0], int(k.N)), 1)
	k.C.Set(runtime.Idx(i[0], 0, 0), 1)
	k.D.Set(runtime.Index{i[0], 1, int(k.N)}, 1)
	k.E.Set(i.Add(runtime.Idx(0, 1)), 1)
	j := runtime.Idx(int(k.N), 1)
	k.F.Set(j, 1)
	m := i
	m[1] = 0
	k.G.Set(m, 1)
	k.H.Set(same(i), k.H.At(runtime.Idx(1, 2, 3)))
}

// same returns i.
func same(i runtime.Index) runtime.Index { return i }

// Tiles indexes its views with a TiledIndex's indices.
type Tiles struct {
	A, B, C *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Tiles) Tiled(t runtime.TiledIndex) {
	k.A.Set(t.Global, 1)
	k.B.Set(t.Tile, 1)
	o := t.TileOrigin
	k.C.Set(o.Add(t.Local), 1)
}

// Changed changes its index before it uses it.
type Changed struct {
	A *arrayview.View[int32]
}

// Each is the kernel.
func (k Changed) Each(i runtime.Index) {
	i[1] = 0
	k.A.Set(i, 1)
}
