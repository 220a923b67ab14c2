package translate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	amprt "github.com/goamp/goamp/runtime"
)

// TestIndexNext checks runtime.Index.Next, which the EachRange methods that GoFile writes
// step with: from any offset it reaches the next one in row-major order, as Delinearize
// says, and after the last it is one past the end (the first coordinate at the first
// dimension, the others 0).
func TestIndexNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, rank := range []int{1, 2, 3} {
		t.Run(string(rune('0'+rank))+"d", func(t *testing.T) {
			for range 20 {
				dims := make([]int, rank)
				for d := range dims {
					dims[d] = 1 + rng.IntN(5)
				}
				e := amprt.Ext(dims...)
				idx := e.Delinearize(0)
				for n := 1; n <= e.Size(); n++ {
					idx.Next(e)
					want := amprt.Index{dims[0]}
					if n < e.Size() {
						want = e.Delinearize(n)
					}
					if !assert.Equal(t, want, idx, "extent %v, after offset %d", dims, n-1) {
						return
					}
				}
			}
		})
	}
}

// TestStep3 checks runtime.Step3, which the EachRange methods that GoFile writes step an
// index's scalar components with: from any offset of a domain of rank 1 to 3 it reaches
// Delinearize of the next offset.
func TestStep3(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, rank := range []int{1, 2, 3} {
		for range 20 {
			dims := make([]int, rank)
			for d := range dims {
				dims[d] = 1 + rng.IntN(5)
			}
			e := amprt.Ext(dims...)
			n1, n2 := max(e.Dim(1), 1), max(e.Dim(2), 1)
			i0, i1, i2 := 0, 0, 0
			for n := 1; n < e.Size(); n++ {
				i0, i1, i2 = amprt.Step3(i0, i1, i2, n1, n2)
				if !assert.Equal(t, e.Delinearize(n), amprt.Index{i0, i1, i2}, "extent %v, after offset %d", dims, n-1) {
					return
				}
			}
		}
	}
}

// TestTileOrigin checks runtime.TiledExtent.TileOrigin, which the EachTile methods that
// GoFile writes start from: each tile's origin is its coordinates times the tile's
// dimensions, and the tiles' origins cover the domain's indices exactly once.
func TestTileOrigin(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for range 20 {
		rank := 1 + rng.IntN(3)
		dims, tile := make([]int, rank), make([]int, rank)
		for d := range dims {
			tile[d] = 1 + rng.IntN(4)
			dims[d] = tile[d] * (1 + rng.IntN(4))
		}
		te := amprt.TiledExtent{Extent: amprt.Ext(dims...), Tile: amprt.Ext(tile...)}
		seen := map[amprt.Index]bool{}
		count := te.TileCount()
		for n := range te.Tiles() {
			c := amprt.Ext(count[:rank]...).Delinearize(n)
			o := te.TileOrigin(c)
			for d := range rank {
				assert.Equal(t, c[d]*tile[d], o[d], "%v tile %v dimension %d", te, c, d)
			}
			for m := range te.TileSize() {
				seen[o.Add(te.Tile.Delinearize(m))] = true
			}
		}
		assert.Len(t, seen, te.Extent.Size(), "%v: the tiles cover the domain once", te)
	}
}
