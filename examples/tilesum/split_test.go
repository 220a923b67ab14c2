package tilesum

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTileSumOn runs the user kernel TileSum over every accelerator at once
// (runtime.ParallelForEachTiledOn: lavapipe and the CPU here), each block on its own
// sections, and compares the tiles' sums and the total with one accelerator's run.
func TestTileSumOn(t *testing.T) {
	var avs []*accelerator.View
	for _, a := range accelerator.All() {
		av, err := a.CreateView(accelerator.Automatic)
		require.NoError(t, err)
		defer func() { require.NoError(t, av.Close()) }()
		avs = append(avs, av)
	}
	if len(avs) < 2 && os.Getenv(amptest.EnvRequireVulkan) == "1" {
		t.Fatalf("%s=1 but one accelerator: %v", amptest.EnvRequireVulkan, accelerator.NoVulkanReason())
	}
	r := rand.New(rand.NewPCG(amptest.Seed(t), 1))
	for _, tile := range []int{1, 64, 256} {
		t.Run(fmt.Sprintf("tile%d", tile), func(t *testing.T) {
			tiles := 2 + r.IntN(300)
			in := make([]int32, tiles*tile)
			for i := range in {
				in[i] = r.Int32N(2001) - 1000
			}
			want := runTileSum(t, avs[0], in, tile, 0)
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
