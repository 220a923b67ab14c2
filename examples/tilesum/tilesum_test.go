package tilesum

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/amptest"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { amptest.Main(m) }

// TestTileSum runs the kernel on every accelerator present with random inputs and tile
// sizes and compares it with a Go loop.
func TestTileSum(t *testing.T) {
	for _, a := range accelerator.All() {
		for _, tile := range []int{1, 2, 64, 256} {
			t.Run(fmt.Sprintf("%s/tile%d", a.Path(), tile), func(t *testing.T) {
				av, err := a.DefaultView()
				require.NoError(t, err)
				tiles := 1 + rand.IntN(20)
				in := make([]int32, tiles*tile)
				for i := range in {
					in[i] = rand.Int32N(2001) - 1000
				}
				total := []int32{rand.Int32N(1000)}
				want, wantTotal := make([]int32, tiles), total[0]
				for i, v := range in {
					want[i/tile] += v
					wantTotal += v
				}
				sums := make([]int32, tiles)
				inView := arrayview.MustNew(runtime.Ext(len(in)), in)
				sumsView := arrayview.MustNew(runtime.Ext(tiles), sums)
				totalView := arrayview.MustNew(runtime.Ext(1), total)
				k := TileSum{In: inView.ReadOnly(), Sums: sumsView, Total: totalView}
				require.NoError(t, runtime.ParallelForEachTiled(av, inView.Extent().Tile(tile), k))
				require.NoError(t, sumsView.Close())
				require.NoError(t, totalView.Close())
				require.NoError(t, inView.Close())
				assert.Equal(t, want, sums)
				assert.Equal(t, wantTotal, total[0])
			})
		}
	}
}
