package algo

import (
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

// TestScratchAfterTooLargeSort is issue 13's defect 5: a Sort that fails on a view over
// maxStorageBufferRange (a float32 view of limit/4+64 elements: 128 MiB + 256 bytes on
// lavapipe) must leave no scratch buffer held that no kernel can bind, and every Reduce of
// a 4,096-element view after it on the same accelerator view must succeed. On the CPU
// (no binding limit) the Sort of a shorter view succeeds and the Reduces must too.
func TestScratchAfterTooLargeSort(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			limit := a.Limits().MaxStorageBufferRange
			n := 1<<16 + 64
			if !a.Traits().HostMemory {
				if limit > 1<<30 {
					t.Skipf("maxStorageBufferRange %d: a view over it takes too much host memory", limit)
				}
				n = int(limit)/4 + 64
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
			err = Sort(av, bv)
			if a.Traits().HostMemory { // no storage-buffer binding limits the scratch
				require.NoError(t, err)
				require.NoError(t, bv.Synchronize())
				assert.True(t, slices.IsSorted(big), "the CPU sorts the view")
			} else {
				var tl *arrayview.TooLargeError
				require.ErrorAs(t, err, &tl, "Sort of %d float32 elements", n)
				assert.Equal(t, limit, tl.Limit)
				for _, b := range idleBytes(av) {
					assert.LessOrEqual(t, b, uint64(limit)/2, "the failed Sort's scratch is not held: %v", idleBytes(av))
				}
			}
			bv.DiscardData()
			require.NoError(t, bv.Close())
			big = nil

			for i := range 6 {
				data := make([]float32, 4096)
				for j := range data {
					data[j] = r.Float32()*2e3 - 1e3
				}
				v, err := arrayview.New(runtime.Ext(len(data)), data)
				require.NoError(t, err)
				got, err := Reduce(av, v, Max)
				require.NoError(t, err, "Reduce %d after the Sort", i)
				assert.Equal(t, slices.Max(data), got, "Reduce %d after the Sort", i)
				require.NoError(t, v.Close())
			}
			for _, b := range idleBytes(av) {
				assert.LessOrEqual(t, b, uint64(limit), "no idle scratch buffer over maxStorageBufferRange: %v", idleBytes(av))
			}
		})
	}
}
