package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idleBytes returns the bytes of each of av's idle scratch buffers.
func idleBytes(av *accelerator.View) []uint64 {
	var out []uint64
	for _, k := range idleKeys(av) {
		n := uint64(k.dims[0])
		if k.rank == 2 {
			n *= uint64(k.dims[1])
		}
		out = append(out, n*uint64(k.elem.Size()))
	}
	return out
}

// TestScratchAfterTooLargeSort is issue 13's defect 5: a Sort that failed on a view over
// maxStorageBufferRange had to leave no scratch buffer held that no kernel can bind, and
// every Reduce of a 4,096-element view after it on the same accelerator view had to
// succeed. Since issue 12 such a Sort succeeds on a device (in windows), and TestBigView
// checks the scratch it leaves; on the CPU (no binding limit) the Sort of a shorter view
// succeeds and the Reduces must too.
func TestScratchAfterTooLargeSort(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			limit := a.Limits().MaxStorageBufferRange
			n := 1<<16 + 64
			if !a.Traits().HostMemory {
				// Since issue 12 such a Sort splits the view into windows and succeeds:
				// TestBigView sorts one and checks the scratch it leaves.
				t.Skip("a Sort over maxStorageBufferRange no longer fails; see TestBigView")
			}
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer func() { require.NoError(t, av.Close()) }()

			big := make([]float32, n)
			for i := range big {
				big[i] = r.Float32()*2e6 - 1e6
			}
			bv, err := arrayview.New(runtime.Ext(n), big)
			require.NoError(t, err)
			require.NoError(t, Sort(av, bv))
			require.NoError(t, bv.Synchronize())
			assert.True(t, slices.IsSorted(big), "the CPU sorts the view")
			bv.DiscardData()
			require.NoError(t, bv.Close())
			big = nil

			for i := range 6 {
				checkSmallReduce(t, av, r, fmt.Sprintf("%d after the Sort", i))
			}
			for _, b := range idleBytes(av) {
				assert.LessOrEqual(t, b, uint64(limit), "no idle scratch buffer over maxStorageBufferRange: %v", idleBytes(av))
			}
		})
	}
}

// checkSmallReduce checks Reduce Max of 4096 fresh random float32 on av (what: the
// message's context).
func checkSmallReduce(t *testing.T, av *accelerator.View, r *rand.Rand, what string) {
	data := make([]float32, 4096)
	for j := range data {
		data[j] = r.Float32()*2e3 - 1e3
	}
	v, err := arrayview.New(runtime.Ext(len(data)), data)
	require.NoError(t, err)
	got, err := Reduce(av, v, Max)
	require.NoError(t, err, "Reduce %s", what)
	assert.Equal(t, slices.Max(data), got, "Reduce %s", what)
	require.NoError(t, v.Close())
}
