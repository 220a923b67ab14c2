package algo

import (
	"os"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookKernel marks which CPU body ran: Each (the per-thread definition) writes 1, the
// fast EachRange and EachTile bodies write 2.
type hookKernel struct{ V *arrayview.View[int32] }

func (k hookKernel) Each(i runtime.Index) { k.V.Set(i, 1) }

func (k hookKernel) EachRange(_ runtime.Extent, lo, hi int) {
	for i := lo; i < hi; i++ {
		k.V.Set(runtime.Idx(i), 2)
	}
}

func (k hookKernel) Tiled(t runtime.TiledIndex) { k.V.Set(t.Global, 1) }

func (k hookKernel) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	for l := range d.Tile.Dim(0) {
		k.V.Set(runtime.Idx(tile[0]*d.Tile.Dim(0)+l), 2)
	}
}

// raceThreads says the CPU accelerator runs kernels per index and per thread, not their
// fast bodies: in a race build, unless runtime.EnvRaceFastBodies says otherwise.
var raceThreads = raceOn && os.Getenv(runtime.EnvRaceFastBodies) != "1"

// TestHooksPerThread: dispatch and dispatchTiled run the fast CPU bodies, and the
// per-thread definitions while hooks.perThread is set (until restored).
func TestHooksPerThread(t *testing.T) {
	av, err := accelerator.CPU().DefaultView()
	require.NoError(t, err)
	const n = 96
	for _, tt := range []struct {
		name      string
		perThread bool
		want      int32
	}{{"fast", false, 2}, {"per-thread", true, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			for _, tiled := range []bool{false, true} {
				want := tt.want
				if raceThreads {
					want = 1 // a race build runs Each and Tiled (runtime.EnvRaceFastBodies)
				}
				data := make([]int32, n)
				v := arrayview.MustNew(runtime.Ext(n), data)
				restore := setHooks(perThreadHooks(tt.perThread))
				if tiled {
					err = dispatchTiled(av, runtime.Ext(n).Tile(32), hookKernel{v})
				} else {
					err = dispatch(av, runtime.Ext(n), hookKernel{v})
				}
				restore()
				require.NoError(t, err)
				require.NoError(t, v.Synchronize())
				for i, x := range data {
					require.Equal(t, want, x, "tiled %v, element %d", tiled, i)
				}
			}
		})
	}
	assert.Equal(t, testHooks{}, hooks, "restored")
}
