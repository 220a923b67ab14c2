package tilesum

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// TileSum sums each tile of a one-dimensional In into one element of Sums and adds every
// tile's sum to Total[0]. Tiles must have a power-of-two size.
type TileSum struct {
	// In is the input: one element per thread.
	In *arrayview.ReadView[int32]
	// Sums has one element per tile.
	Sums *arrayview.View[int32]
	// Total[0] accumulates the sums of all tiles, atomically.
	Total *arrayview.View[int32]
}

// Tiled is the kernel: each tile loads its elements into tile_static memory and adds
// them pairwise, halving the active threads after each barrier; thread 0 writes the sum.
func (k TileSum) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	s := runtime.TileStatic[int32](t, n) // tile_static int s[n]
	l := t.Local[0]
	s[l] = k.In.At(t.Global)
	t.Barrier.Wait()
	for stride := n / 2; stride > 0; stride /= 2 {
		if l < stride {
			s[l] += s[l+stride]
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	if l == 0 {
		k.Sums.Set(t.Tile, s[0])
		k.Total.AtomicAdd(runtime.Idx(0), s[0])
	}
}
