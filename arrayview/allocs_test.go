package arrayview_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/examples/seeds"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

// dispatchBudget is the most heap allocations one dispatch of a pointer kernel over a
// device-resident view may make, by accelerator kind. On Vulkan the dispatch path
// allocates nothing (a Wait allocates the batch it waits for); the CPU accelerator starts
// a goroutine per worker, whose closures are allocations.
var dispatchBudget = []struct {
	name         string
	wait         bool
	vulkan, host float64
}{
	{name: "dispatch", vulkan: 0, host: 4},
	{name: "dispatch+wait", wait: true, vulkan: 1, host: 4},
}

// TestDispatchAllocs holds ParallelForEach to its allocation budget on every
// accelerator, back to back and with a wait, then checks what the dispatches computed:
// an allocation that creeps into the hot path fails here, not in a benchmark read weeks
// later.
func TestDispatchAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's CPU mode runs more goroutines per dispatch: budgets hold without -race")
	}
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer av.Close()
			n := 64 + rand.IntN(1000)
			v := arrayview.MustNew(runtime.Ext(n), make([]int32, n))
			defer v.Close()
			k := &iota{Out: v, Scale: 1 + rand.Int32N(100), Add: rand.Uint32N(1000)}
			// A generated tiled kernel (ampgen's GPU body and fast CPU body, tile_static
			// memory and a barrier), over a 2n x 6 domain of 2x2 tiles.
			sample := make([]int32, 2*n*6)
			for i := range sample {
				sample[i] = rand.Int32N(1 << 20)
			}
			sv := arrayview.MustNew(runtime.Ext(2*n, 6), sample)
			defer sv.Close()
			avg := arrayview.MustNew(runtime.Ext(2*n, 6), make([]int32, 2*n*6))
			defer avg.Close()
			tk := &seeds.TileAverage{Sample: sv.ReadOnly(), Average: avg}
			tiles := avg.Extent().Tile(2, 2)
			kernels := []struct {
				name     string
				dispatch func() error
			}{
				{"iota", func() error { return runtime.ParallelForEach(av, v.Extent(), k) }},
				{"TileAverage", func() error { return runtime.ParallelForEachTiled(av, tiles, tk) }},
			}
			for _, kn := range kernels {
				require.NoError(t, kn.dispatch()) // pipelines, caches
				require.NoError(t, av.Wait())
				for _, b := range dispatchBudget {
					budget := b.vulkan
					if strings.HasPrefix(a.Path(), "cpu") {
						budget = b.host
					}
					var failed error
					got := testing.AllocsPerRun(200, func() {
						if err := kn.dispatch(); err != nil {
							failed = err
						}
						if b.wait {
							if err := av.Wait(); err != nil {
								failed = err
							}
						}
					})
					require.NoError(t, failed)
					require.LessOrEqualf(t, got, budget, "%s of %s on %s: allocations per dispatch", b.name, kn.name, a.Path())
					t.Logf("%s of %s: %.0f allocations per dispatch (budget %.0f)", b.name, kn.name, got, budget)
				}
			}
			require.NoError(t, avg.Synchronize())
			for i := range 2 * n {
				for j := range 6 {
					r, c := i&^1, j&^1
					want := (sample[r*6+c] + sample[r*6+c+1] + sample[(r+1)*6+c] + sample[(r+1)*6+c+1]) / 4
					require.Equal(t, want, avg.At(runtime.Idx(i, j)), "average at (%d, %d)", i, j)
				}
			}
			require.NoError(t, v.Synchronize())
			for i := range n {
				require.Equal(t, int32(i)*k.Scale+int32(k.Add), v.At(runtime.Idx(i)), "element %d", i)
			}
		})
	}
}
