package arrayview_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

// TestDeviceToDevice moves data written on one accelerator view's device to another's
// (through the host), sections with ragged ends, in both directions, and checks every
// element read on the second device and on the host.
func TestDeviceToDevice(t *testing.T) {
	eachView(t, 10, func(t *testing.T, rng *rand.Rand, av *accelerator.View) {
		if av.Accelerator().Traits().HostMemory {
			t.Skip("the CPU's storage is the host's")
		}
		other, err := av.Accelerator().CreateView(accelerator.Automatic)
		require.NoError(t, err)
		defer func() { require.NoError(t, other.Close()) }()
		n := 10*1024 + rng.IntN(1024)
		data := randInts(rng, n)
		v := arrayview.MustNew(runtime.Ext(n), data)
		defer func() { require.NoError(t, v.Close()) }()
		want := slices.Clone(data)
		out := make([]int32, n)
		ov := arrayview.MustNew(runtime.Ext(n), out)
		defer func() { require.NoError(t, ov.Close()) }()
		for round, pair := range [][2]*accelerator.View{{av, other}, {other, av}} {
			lo := rng.IntN(100)
			s, err := v.Section(runtime.Idx(lo), runtime.Ext(n-lo-rng.IntN(100)))
			require.NoError(t, err)
			// Written on pair[0], then read on pair[1] into out.
			require.NoError(t, runtime.ParallelForEach(pair[0], s.Extent(), iota{Out: s, Scale: 3, Add: uint32(round)}))
			require.NoError(t, runtime.ParallelForEach(pair[1], v.Extent(), fzScale{Src: v.ReadOnly(), Dst: ov, K: 2}))
			for i := range s.Extent().Size() {
				want[lo+i] = int32(3*i + round)
			}
			require.NoError(t, s.Release())
			got, err := ov.ReadData()
			require.NoError(t, err)
			for i := range want {
				require.Equal(t, 2*want[i], got[i], "round %d element %d", round, i)
			}
		}
		got, err := v.ReadData()
		require.NoError(t, err)
		require.Equal(t, want, got)
	})
}
