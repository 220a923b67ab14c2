package runtime_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amprt "github.com/goamp/goamp/runtime"
)

func TestTiledExtentValidateOK(t *testing.T) {
	tests := []struct {
		name string
		te   amprt.TiledExtent
	}{
		{"sample 4x6 by 2x2", amprt.Ext(4, 6).Tile(2, 2)},
		{"1-D 1024", amprt.Ext(4096).Tile(1024)},
		{"2-D 32x32", amprt.Ext(64, 96).Tile(32, 32)},
		{"3-D 64x4x4", amprt.Ext(128, 8, 4).Tile(64, 4, 4)},
		{"3-D 1x1x1024", amprt.Ext(1, 1, 1024).Tile(1, 1, 1024)},
		{"tile of one", amprt.Ext(3).Tile(1)},
		{"tile equals extent", amprt.Ext(5, 7).Tile(5, 7)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.NoError(t, tt.te.Validate())
		})
	}
}

// invalidTiledExtents are TestTiledExtentValidate's domains, each with the error it gets.
var invalidTiledExtents = []struct {
	name      string
	te        amprt.TiledExtent
	msg       string // substring of Error()
	dim       int
	limit     int
	value     int
	extentErr bool // also matches ErrInvalidExtent
}{
	{
		name: "invalid extent", te: amprt.Ext(0, 4).Tile(2, 2),
		msg: "extent (0, 4): dimension 0 is 0; every dimension must be >= 1", dim: -1, extentErr: true,
	},
	{
		name: "extent rank 4", te: amprt.Ext(1, 2, 3, 4).Tile(1, 2, 3, 4),
		msg: "extent (1, 2, 3, ...): rank 4 is not 1, 2 or 3", dim: -1, extentErr: true,
	},
	{
		name: "tile rank lower", te: amprt.Ext(4, 6, 8).Tile(2, 2),
		msg: "tile rank 2 does not match extent rank 3", dim: -1, limit: 3, value: 2,
	},
	{
		name: "tile rank higher", te: amprt.Ext(4).Tile(2, 2),
		msg: "tile rank 2 does not match extent rank 1", dim: -1, limit: 1, value: 2,
	},
	{
		name: "no tile", te: amprt.Ext(4, 6).Tile(),
		msg: "tile rank 0 does not match extent rank 2", dim: -1, limit: 2, value: 0,
	},
	{
		name: "zero tile dim", te: amprt.Ext(4, 6).Tile(2, 0),
		msg: "tile (2, 0) has dimension 1 = 0; every tile dimension must be >= 1", dim: 1, limit: 1, value: 0,
	},
	{
		name: "negative tile dim", te: amprt.Ext(4, 6, 8).Tile(-2, 2, 2),
		msg: "tile (-2, 2, 2) has dimension 0 = -2", dim: 0, limit: 1, value: -2,
	},
	{
		name: "too many threads 2-D", te: amprt.Ext(64, 64).Tile(64, 32),
		msg: "tile 64x32 has 2048 threads; the limit is 1024", dim: -1, limit: 1024, value: 2048,
	},
	{
		name: "too many threads 1-D", te: amprt.Ext(2048).Tile(2048),
		msg: "tile 2048 has 2048 threads; the limit is 1024", dim: -1, limit: 1024, value: 2048,
	},
	{
		name: "too many threads 3-D", te: amprt.Ext(8, 16, 16).Tile(8, 16, 16),
		msg: "tile 8x16x16 has 2048 threads; the limit is 1024", dim: -1, limit: 1024, value: 2048,
	},
	{
		name: "thread count overflows", te: amprt.Ext(4, 4).Tile(math.MaxInt, 2),
		msg: "threads; the limit is 1024", dim: -1, limit: 1024, value: math.MaxInt,
	},
	{
		name: "rank-3 D0 over 64", te: amprt.Ext(128, 2, 2).Tile(128, 2, 2),
		msg: "tile 128x2x2 has dimension 0 = 128; the limit for rank-3 tiles is 64", dim: 0, limit: 64, value: 128,
	},
	{
		name: "not divisible", te: amprt.Ext(4, 7).Tile(2, 2),
		msg: "extent (4, 7) is not divisible by tile (2, 2) in dimension 1: 7 % 2 = 1; use Pad or Truncate",
		dim: 1, limit: 2, value: 7,
	},
	{
		name: "not divisible 1-D", te: amprt.Ext(1000).Tile(256),
		msg: "extent (1000) is not divisible by tile (256) in dimension 0: 1000 % 256 = 232", dim: 0, limit: 256, value: 1000,
	},
	{
		name: "not divisible 3-D", te: amprt.Ext(4, 4, 9).Tile(2, 2, 4),
		msg: "in dimension 2: 9 % 4 = 1", dim: 2, limit: 4, value: 9,
	},
}

func TestTiledExtentValidate(t *testing.T) {
	for _, tt := range invalidTiledExtents {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.te.Validate()
			require.Error(t, err)
			assert.True(t, errors.Is(err, amprt.ErrInvalidComputeDomain))
			assert.Equal(t, tt.extentErr, errors.Is(err, amprt.ErrInvalidExtent))
			var ce *amprt.ComputeDomainError
			require.True(t, errors.As(err, &ce))
			assert.Contains(t, err.Error(), tt.msg)
			assert.Contains(t, ce.Reason, tt.msg)
			assert.Equal(t, tt.dim, ce.Dim)
			assert.Equal(t, tt.limit, ce.Limit)
			assert.Equal(t, tt.value, ce.Value)
			assert.Equal(t, tt.te.Extent, ce.Extent)
			assert.Equal(t, tt.te.Tile, ce.Tile)

			// The executor refuses the domain with the same error.
			err = amprt.RunTiledCPU(context.Background(), tt.te, tiledFunc(func(amprt.TiledIndex) {
				t.Error("kernel ran on an invalid domain")
			}))
			assert.Equal(t, tt.te.Validate(), err)
		})
	}
}

func TestPadTruncate(t *testing.T) {
	tests := []struct {
		name      string
		te        amprt.TiledExtent
		pad, trun amprt.Extent
		truncOK   bool
	}{
		{"sample", amprt.Ext(4, 7).Tile(2, 2), amprt.Ext(4, 8), amprt.Ext(4, 6), true},
		{"divisible unchanged", amprt.Ext(4, 6).Tile(2, 2), amprt.Ext(4, 6), amprt.Ext(4, 6), true},
		{"1-D", amprt.Ext(1000).Tile(256), amprt.Ext(1024), amprt.Ext(768), true},
		{"3-D", amprt.Ext(5, 5, 5).Tile(2, 3, 4), amprt.Ext(6, 6, 8), amprt.Ext(4, 3, 4), true},
		{"smaller than tile", amprt.Ext(3).Tile(4), amprt.Ext(4), amprt.Ext(0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.te.Pad()
			assert.Equal(t, tt.pad, p.Extent)
			assert.Equal(t, tt.te.Tile, p.Tile)
			assert.NoError(t, p.Validate())
			assert.Equal(t, tt.te.TileCount(), p.TileCount())

			tr := tt.te.Truncate()
			assert.Equal(t, tt.trun, tr.Extent)
			assert.Equal(t, tt.te.Tile, tr.Tile)
			if tt.truncOK {
				assert.NoError(t, tr.Validate())
			} else {
				assert.ErrorIs(t, tr.Validate(), amprt.ErrInvalidExtent)
			}
		})
	}

	// Invalid tiles leave the extent alone rather than panicking.
	assert.Equal(t, amprt.Ext(4, 7), amprt.Ext(4, 7).Tile(0, 0).Pad().Extent)
	assert.Equal(t, amprt.Ext(4, 7), amprt.Ext(4, 7).Tile().Truncate().Extent)
	// With a rank mismatch, the dims that have a tile dim are still rounded.
	assert.Equal(t, amprt.Ext(6, 8), amprt.Ext(4, 7).Tile(3, 2, 5).Pad().Extent)
}

func TestTileCounts(t *testing.T) {
	tests := []struct {
		name     string
		te       amprt.TiledExtent
		count    amprt.Index
		tiles    int
		tileSize int
		str      string
	}{
		{"sample", amprt.Ext(4, 6).Tile(2, 2), amprt.Idx(2, 3), 6, 4, "(4, 6) tiled (2, 2)"},
		{"1-D", amprt.Ext(4096).Tile(1024), amprt.Idx(4), 4, 1024, "(4096) tiled (1024)"},
		{"3-D", amprt.Ext(128, 8, 4).Tile(64, 4, 4), amprt.Idx(2, 2, 1), 4, 1024, "(128, 8, 4) tiled (64, 4, 4)"},
		{"rounded up", amprt.Ext(4, 7).Tile(2, 2), amprt.Idx(2, 4), 8, 4, "(4, 7) tiled (2, 2)"},
		{"rank mismatch", amprt.Ext(4, 6).Tile(2), amprt.Idx(2, 0), 0, 2, "(4, 6) tiled (2)"},
		{"invalid tile", amprt.Ext(4, 6).Tile(2, 0), amprt.Idx(2, 0), 0, 0, "(4, 6) tiled (2, 0)"},
		{"invalid extent", amprt.Ext().Tile(), amprt.Idx(), 0, 0, "() tiled ()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.count, tt.te.TileCount())
			assert.Equal(t, tt.tiles, tt.te.Tiles())
			assert.Equal(t, tt.tileSize, tt.te.TileSize())
			assert.Equal(t, tt.str, tt.te.String())
		})
	}
}

func TestOutsideTiledKernel(t *testing.T) {
	var zero amprt.TiledIndex
	s := amprt.TileStatic[float64](zero, 5)
	assert.Len(t, s, 5)
	assert.Len(t, amprt.TileStatic[int](zero, 0), 0)
	// The zero Barrier and the fences do nothing and do not panic.
	assert.NotPanics(t, func() {
		zero.Barrier.Wait()
		zero.Barrier.WaitWithAllMemoryFence()
		zero.Barrier.WaitWithGlobalMemoryFence()
		zero.Barrier.WaitWithTileStaticMemoryFence()
		amprt.AllMemoryFence(zero)
		amprt.GlobalMemoryFence(zero)
		amprt.TileStaticMemoryFence(zero)
	})
}

// TestBarrierKinds exchanges values through tile_static memory with each
// kind of barrier; the race detector checks the barrier's ordering.
func TestBarrierKinds(t *testing.T) {
	tests := []struct {
		name string
		wait func(amprt.Barrier)
	}{
		{"Wait", amprt.Barrier.Wait},
		{"WaitWithAllMemoryFence", amprt.Barrier.WaitWithAllMemoryFence},
		{"WaitWithGlobalMemoryFence", amprt.Barrier.WaitWithGlobalMemoryFence},
		{"WaitWithTileStaticMemoryFence", amprt.Barrier.WaitWithTileStaticMemoryFence},
	}
	const n, tile = 512, 64
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			right := make([]int, n) // value of the right neighbour in the tile
			left := make([]int, n)  // value of the left neighbour in the tile
			err := amprt.RunTiledCPU(context.Background(), amprt.Ext(n).Tile(tile), tiledFunc(func(ti amprt.TiledIndex) {
				sh := amprt.TileStatic[int](ti, tile)
				l, g := ti.Local[0], ti.Global[0]
				sh[l] = g
				tt.wait(ti.Barrier)
				right[g] = sh[(l+1)%tile]
				tt.wait(ti.Barrier)
				sh[l] = -g // overwrite only after everyone has read
				tt.wait(ti.Barrier)
				left[g] = -sh[(l+tile-1)%tile]
			}))
			require.NoError(t, err)
			for g := range n {
				origin := g / tile * tile
				l := g - origin
				require.Equal(t, origin+(l+1)%tile, right[g], "global %d", g)
				require.Equal(t, origin+(l+tile-1)%tile, left[g], "global %d", g)
			}
		})
	}
}

// TestMemoryFences runs the fences without a barrier inside a kernel.
func TestMemoryFences(t *testing.T) {
	tests := []struct {
		name  string
		fence func(amprt.TiledIndex)
	}{
		{"AllMemoryFence", amprt.AllMemoryFence},
		{"GlobalMemoryFence", amprt.GlobalMemoryFence},
		{"TileStaticMemoryFence", amprt.TileStaticMemoryFence},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := make([]int, 64)
			err := amprt.RunTiledCPU(context.Background(), amprt.Ext(8, 8).Tile(4, 4), tiledFunc(func(ti amprt.TiledIndex) {
				sh := amprt.TileStatic[int](ti, 16)
				l := ti.TileExtent.Linear(ti.Local)
				sh[l] = l + 1
				tt.fence(ti)
				ti.Barrier.Wait()
				tt.fence(ti)
				out[amprt.Ext(8, 8).Linear(ti.Global)] = sh[15-l]
			}))
			require.NoError(t, err)
			for g, v := range out {
				local := amprt.Ext(4, 4).Linear(amprt.Idx(g/8%4, g%8%4))
				assert.Equal(t, 16-local, v, "global %d", g)
			}
		})
	}
}

// TestTileStaticPerTile checks that every tile gets fresh, zeroed storage,
// shared by its threads, with several allocations of different types, over
// many more tiles than workers (so thread goroutines are reused).
func TestTileStaticPerTile(t *testing.T) {
	const tile, tiles = 16, 500
	sums := make([]int, tiles)
	dirty := make([]bool, tiles*tile)
	err := amprt.RunTiledCPU(context.Background(), amprt.Ext(tiles*tile).Tile(tile), tiledFunc(func(ti amprt.TiledIndex) {
		a := amprt.TileStatic[int](ti, tile)
		b := amprt.TileStatic[float32](ti, 1)
		c := amprt.TileStatic[struct{ x, y int }](ti, 3)
		l, g := ti.Local[0], ti.Global[0]
		dirty[g] = a[l] != 0 || (l == 0 && (b[0] != 0 || c[2].y != 0))
		ti.Barrier.Wait()
		a[l] = g
		if l == 0 {
			b[0] = 1
			c[2].y = 1
		}
		ti.Barrier.Wait()
		if l == 0 {
			for _, v := range a {
				sums[ti.Tile[0]] += v
			}
		}
	}))
	require.NoError(t, err)
	for i := range tiles {
		origin := i * tile
		assert.Equal(t, tile*origin+tile*(tile-1)/2, sums[i], "tile %d", i)
	}
	for g, d := range dirty {
		require.False(t, d, "storage not zeroed for global %d", g)
	}
}

func TestTileStaticMismatch(t *testing.T) {
	tests := []struct {
		name   string
		kernel func(amprt.TiledIndex)
		msg    string
	}{
		{"different length", func(ti amprt.TiledIndex) {
			amprt.TileStatic[int](ti, 4+ti.Local[0]%2)
			ti.Barrier.Wait()
		}, "of length"},
		{"different type", func(ti amprt.TiledIndex) {
			if ti.Local[0]%2 == 0 {
				amprt.TileStatic[int](ti, 4)
			} else {
				amprt.TileStatic[float32](ti, 4)
			}
			ti.Barrier.Wait()
		}, "every thread of a tile must make the same TileStatic calls"},
		{"negative length", func(ti amprt.TiledIndex) {
			amprt.TileStatic[int](ti, -1)
		}, "negative length -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runWithin(t, func() error {
				return amprt.RunTiledCPU(context.Background(), amprt.Ext(8).Tile(4), tiledFunc(tt.kernel))
			})
			require.ErrorIs(t, err, amprt.ErrKernelPanic)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

// reduceKernel sums each tile of in with a tree reduction in tile_static
// memory and checks the indices of every thread.
type reduceKernel struct {
	domain amprt.TiledExtent
	in     []int
	sums   []int   // one per tile
	seen   []int32 // one per global index: number of threads that had it
	bad    []string
}

func (k *reduceKernel) Tiled(ti amprt.TiledIndex) {
	g := k.domain.Extent.Linear(ti.Global)
	k.seen[g]++ // every thread has a distinct global index
	var origin amprt.Index
	for d := range k.domain.Extent.Rank() {
		origin[d] = ti.Tile[d] * k.domain.Tile.Dim(d)
	}
	switch {
	case ti.Global != ti.TileOrigin.Add(ti.Local):
		k.bad[g] = "Global != TileOrigin + Local"
	case ti.TileOrigin != origin:
		k.bad[g] = "TileOrigin != Tile * TileExtent"
	case !ti.TileExtent.Equal(k.domain.Tile):
		k.bad[g] = "TileExtent is not the tile"
	case !ti.TileExtent.Contains(ti.Local):
		k.bad[g] = "Local is outside the tile"
	case !k.domain.Extent.Contains(ti.Global):
		k.bad[g] = "Global is outside the extent"
	}

	n := ti.TileExtent.Size()
	l := ti.TileExtent.Linear(ti.Local)
	sh := amprt.TileStatic[int](ti, n)
	sh[l] = k.in[g]
	for stride := n / 2; stride > 0; stride /= 2 {
		ti.Barrier.Wait()
		if l < stride {
			sh[l] += sh[l+stride]
		}
	}
	ti.Barrier.Wait()
	if l == 0 {
		k.sums[tileGrid(k.domain).Linear(ti.Tile)] = sh[0]
	}
}

func TestTileReduction(t *testing.T) {
	tests := []struct {
		name   string
		domain amprt.TiledExtent
	}{
		{"1-D 1024", amprt.Ext(4096).Tile(1024)},
		{"2-D 32x32", amprt.Ext(64, 96).Tile(32, 32)},
		{"3-D 64x4x4", amprt.Ext(128, 8, 4).Tile(64, 4, 4)},
		{"2-D 2x2 many tiles", amprt.Ext(64, 64).Tile(2, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			size := tt.domain.Extent.Size()
			k := &reduceKernel{
				domain: tt.domain,
				in:     make([]int, size),
				sums:   make([]int, tt.domain.Tiles()),
				seen:   make([]int32, size),
				bad:    make([]string, size),
			}
			for i := range k.in {
				k.in[i] = i%7 + 1
			}
			err := runWithin(t, func() error { return amprt.RunTiledCPU(context.Background(), tt.domain, k) })
			require.NoError(t, err)

			want := make([]int, tt.domain.Tiles())
			grid := tileGrid(tt.domain)
			for g := range size {
				gi := tt.domain.Extent.Delinearize(g)
				var tile amprt.Index
				for d := range tt.domain.Extent.Rank() {
					tile[d] = gi[d] / tt.domain.Tile.Dim(d)
				}
				want[grid.Linear(tile)] += k.in[g]
				require.Equal(t, int32(1), k.seen[g], "global %v ran %d times", gi, k.seen[g])
				require.Empty(t, k.bad[g], "global %v", gi)
			}
			assert.Equal(t, want, k.sums)
		})
	}
}

// tileGrid returns the grid of tiles of te as an extent.
func tileGrid(te amprt.TiledExtent) amprt.Extent {
	c := te.TileCount()
	return amprt.Ext(c[:te.Extent.Rank()]...)
}
