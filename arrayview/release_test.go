package arrayview_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRelease: a section written by a kernel and released leaves the host slice as it was
// on a device (nothing is copied back on its account) and its data reaches the host
// through the view it was made from; released last, it is Close (the data reaches the
// host). Releasing twice does nothing; a nil view is an *ArgumentError.
func TestRelease(t *testing.T) {
	r := rand.New(rand.NewPCG(12, uint64(os.Getpid())))
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := make([]int32, 64)
		for i := range data {
			data[i] = int32(r.Uint32())
		}
		before := slices.Clone(data)
		v, err := arrayview.New(runtime.Ext(64), data)
		require.NoError(t, err)
		sec, err := v.Section(runtime.Idx(16), runtime.Ext(32))
		require.NoError(t, err)
		scale := int32(r.IntN(100) + 2)
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(32), iota{Out: sec, Scale: scale}))
		require.NoError(t, sec.Release())
		require.NoError(t, sec.Release(), "a second Release does nothing")
		if !av.Accelerator().Traits().HostMemory {
			assert.Equal(t, before, data, "Release copied nothing back")
		}
		require.NoError(t, v.Synchronize())
		want := slices.Clone(before)
		for i := range 32 {
			want[16+i] = int32(i) * scale
		}
		assert.Equal(t, want, data)

		// The last open view: Release is Close.
		sec, err = v.Section(runtime.Idx(0), runtime.Ext(8))
		require.NoError(t, err)
		require.NoError(t, v.Close())
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(8), iota{Out: sec, Scale: -scale}))
		require.NoError(t, sec.Release())
		for i := range 8 {
			want[i] = -int32(i) * scale
		}
		assert.Equal(t, want, data)
	})
	var nilView *arrayview.View[int32]
	var ae *arrayview.ArgumentError
	require.ErrorAs(t, nilView.Release(), &ae)
}
