package runtime

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// squares writes i*i per index (Each) or per range (EachRange) and counts range calls.
type squares struct {
	out    []int
	ranges *atomic.Int64
}

func (k squares) Each(i Index) { k.out[i[0]] = i[0] * i[0] }
func (k squares) EachRange(d Extent, lo, hi int) {
	k.ranges.Add(1)
	for i := lo; i < hi; i++ {
		k.out[i] = i * i
	}
}

// tileSums stores, for each thread, the sum of its tile's global indices: per thread with
// TileStatic and a barrier (Tiled) or per tile with loops (EachTile).
type tileSums struct {
	out   []int
	tiles *atomic.Int64
}

func (k tileSums) Tiled(t TiledIndex) {
	s := TileStatic[int](t, t.TileExtent.Size())
	s[t.Local[0]] = t.Global[0]
	t.Barrier.Wait()
	sum := 0
	for _, v := range s {
		sum += v
	}
	k.out[t.Global[0]] = sum
}

func (k tileSums) EachTile(d TiledExtent, tile Index) {
	k.tiles.Add(1)
	n := d.Tile.Dim(0)
	lo := tile[0] * n
	sum := 0
	for i := lo; i < lo+n; i++ { // phase 1: what every thread stores before the barrier
		sum += i
	}
	for i := lo; i < lo+n; i++ { // phase 2: what every thread does after it
		k.out[i] = sum
	}
}

func TestFastBodiesAgreeWithDefinition(t *testing.T) {
	const n = 10000
	var calls atomic.Int64
	fast, slow := make([]int, n), make([]int, n)
	require.NoError(t, RunCPU(context.Background(), Ext(n), squares{fast, &calls}))
	if raceThreads { // a race build runs Each, index by index (EnvRaceFastBodies)
		assert.Zero(t, calls.Load(), "EachRange was not used")
	} else {
		assert.Positive(t, calls.Load(), "EachRange was used")
	}
	calls.Store(0)
	require.NoError(t, RunCPU(context.Background(), Ext(n), perThreadKernel{squares{slow, &calls}}))
	assert.Zero(t, calls.Load(), "perThreadKernel runs Each")
	assert.Equal(t, slow, fast)

	var tiles atomic.Int64
	fastT, slowT := make([]int, 4096), make([]int, 4096)
	require.NoError(t, RunTiledCPU(context.Background(), Ext(4096).Tile(256), tileSums{fastT, &tiles}))
	want := int64(16)
	if raceThreads {
		want = 0 // a race build runs a goroutine per thread (EnvRaceFastBodies)
	}
	assert.Equal(t, want, tiles.Load())
	require.NoError(t, RunTiledCPU(context.Background(), Ext(4096).Tile(256), perThreadKernel{tileSums{slowT, &tiles}}))
	assert.Equal(t, want, tiles.Load(), "perThreadKernel runs Tiled")
	assert.Equal(t, slowT, fastT)
}

type panicky struct{}

func (panicky) Each(Index)                  {}
func (panicky) EachRange(Extent, int, int)  { panic("range boom") }
func (panicky) Tiled(TiledIndex)            {}
func (panicky) EachTile(TiledExtent, Index) { panic("tile boom") }

func TestFastBodiesPanics(t *testing.T) {
	if raceThreads {
		t.Skip("a race build runs Each and Tiled, which do not panic (EnvRaceFastBodies)")
	}
	err := RunCPU(context.Background(), Ext(100), panicky{})
	var pe *KernelPanicError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "range boom", pe.Value)
	err = RunTiledCPU(context.Background(), Ext(8).Tile(4), panicky{})
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "tile boom", pe.Value)
}
