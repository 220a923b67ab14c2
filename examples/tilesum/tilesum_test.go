package tilesum

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { amptest.Main(m) }

// TestTileSum runs the kernel on every accelerator present (amptest.Compare) with random
// inputs and tile sizes, compares each accelerator's result with the CPU's, and the CPU's
// with a Go loop.
func TestTileSum(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	for _, tile := range []int{1, 2, 64, 256} {
		t.Run(fmt.Sprintf("tile%d", tile), func(t *testing.T) {
			tiles := 1 + r.IntN(20)
			in := make([]int32, tiles*tile)
			for i := range in {
				in[i] = r.Int32N(2001) - 1000
			}
			total := r.Int32N(1000)
			want := make([]int32, tiles+1) // the tiles' sums, then the total
			want[tiles] = total
			for i, v := range in {
				want[i/tile] += v
				want[tiles] += v
			}
			got := amptest.Compare(t, func(t testing.TB, av *accelerator.View) []int32 {
				return runTileSum(t, av, in, tile, total)
			}, amptest.Equal)
			assert.Equal(t, want, got, "the CPU's result against a Go loop")
		})
	}
}

// runTileSum runs TileSum on av over in, in tiles of tile elements, with Total[0] = total
// at the start, and returns the tiles' sums followed by the total.
func runTileSum(t testing.TB, av *accelerator.View, in []int32, tile int, total int32) []int32 {
	tiles := len(in) / tile
	sums, tot := make([]int32, tiles), []int32{total}
	inView := arrayview.MustNew(runtime.Ext(len(in)), in)
	sumsView := arrayview.MustNew(runtime.Ext(tiles), sums)
	sumsView.DiscardData()
	totalView := arrayview.MustNew(runtime.Ext(1), tot)
	k := TileSum{In: inView.ReadOnly(), Sums: sumsView, Total: totalView}
	require.NoError(t, runtime.ParallelForEachTiled(av, inView.Extent().Tile(tile), k))
	for _, v := range []interface{ Close() error }{sumsView, totalView, inView} {
		require.NoError(t, v.Close())
	}
	return append(sums, tot[0])
}

// TestTileSumOn runs the user kernel TileSum over every accelerator at once
// (runtime.ParallelForEachTiledOn: lavapipe and the CPU here), each block on its own
// sections, and compares the tiles' sums and the total with one accelerator's run.
func TestTileSumOn(t *testing.T) {
	avs := amptest.Views(t) // the CPU's, then each Vulkan device's
	r := rand.New(rand.NewPCG(amptest.Seed(t), 1))
	for _, tile := range []int{1, 64, 256} {
		t.Run(fmt.Sprintf("tile%d", tile), func(t *testing.T) {
			tiles := 2 + r.IntN(300)
			in := make([]int32, tiles*tile)
			for i := range in {
				in[i] = r.Int32N(2001) - 1000
			}
			want := runTileSum(t, avs[len(avs)-1], in, tile, 0)
			sums, totals := make([]int32, tiles), make([]int32, len(avs))
			inView := arrayview.MustNew(runtime.Ext(len(in)), in)
			sumsView := arrayview.MustNew(runtime.Ext(tiles), sums)
			totalsView := arrayview.MustNew(runtime.Ext(len(avs)), totals)
			ran := make([]bool, len(avs))
			err := runtime.ParallelForEachTiledOn(avs, inView.Extent().Tile(tile), func(b runtime.Block) (TileSum, error) {
				ran[b.Index] = true
				// The block's elements, its tiles' sums and a total of its own: blocks
				// must not write the same elements.
				in, err := inView.Section(runtime.Idx(b.Lo), runtime.Ext(b.Rows()))
				if err != nil {
					return TileSum{}, err
				}
				s, err := sumsView.Section(runtime.Idx(b.Lo/tile), runtime.Ext(b.Rows()/tile))
				if err != nil {
					return TileSum{}, err
				}
				tot, err := totalsView.Section(runtime.Idx(b.Index), runtime.Ext(1))
				return TileSum{In: in.ReadOnly(), Sums: s, Total: tot}, err
			})
			require.NoError(t, err)
			for _, v := range []interface{ Close() error }{inView, sumsView, totalsView} {
				require.NoError(t, v.Close())
			}
			var total int32
			for _, x := range totals {
				total += x
			}
			assert.Equal(t, want, append(sums, total))
			t.Logf("blocks ran: %v", ran)
		})
	}
}
