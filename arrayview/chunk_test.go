package arrayview_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/hooks"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChunkedCopy is a view whose device copy is larger than one allocation (capped at 64
// KiB by hooks.MaxAllocation, as maxMemoryAllocationSize caps it on a GPU): the copy is
// cut into chunks allocated as kernels touch them, a kernel over the whole view is an
// *AllocationSpanError that leaves the data as it was, and kernels over sections cut at
// BindEnd write every element, which reaches the host and the other accelerators.
func TestChunkedCopy(t *testing.T) {
	const chunk = 64 << 10 / 4 // int32 elements per chunk
	hooks.MaxAllocation.Store(64 << 10)
	defer hooks.MaxAllocation.Store(0)
	eachView(t, 9, func(t *testing.T, rng *rand.Rand, av *accelerator.View) {
		if av.Accelerator().Traits().HostMemory {
			t.Skip("the CPU's storage is the host's: nothing is cut")
		}
		n := 3*chunk + 1 + rng.IntN(chunk)
		data := randInts(rng, n)
		want := slices.Clone(data)
		v := arrayview.MustNew(runtime.Ext(n), data)
		defer func() { require.NoError(t, v.Close()) }()

		before := av.MemoryInUse()
		err := runtime.ParallelForEach(av, v.Extent(), iota{Out: v, Scale: 3})
		var span *arrayview.AllocationSpanError
		require.ErrorAs(t, err, &span)
		assert.ErrorIs(t, err, arrayview.ErrTooLarge)
		assert.Equal(t, uint64(64<<10), span.ChunkBytes)
		got, err := v.ReadData()
		require.NoError(t, err)
		require.Equal(t, want, got, "the failed dispatch changed nothing")

		// One section inside the third chunk allocates that chunk only.
		lo := 2*chunk + 5
		assert.Equal(t, 3*chunk, v.BindEnd(av, lo))
		s, err := v.Section(runtime.Idx(lo), runtime.Ext(100))
		require.NoError(t, err)
		require.NoError(t, runtime.ParallelForEach(av, s.Extent(), iota{Out: s, Scale: 2, Add: 7}))
		require.NoError(t, s.Release())
		// One chunk, and the staging memory the copy needs on a discrete GPU: not the
		// whole copy.
		grew := av.MemoryInUse() - before
		assert.GreaterOrEqual(t, grew, uint64(chunk*4))
		assert.Less(t, grew, uint64(n*4-chunk*4), "fewer than all chunks allocated")
		for i := range 100 {
			want[lo+i] = int32(2*i + 7)
		}

		// The whole view, section by section at the bindable ends.
		for lo := 0; lo < n; {
			hi := v.BindEnd(av, lo)
			require.Greater(t, hi, lo)
			require.LessOrEqual(t, hi, n)
			s, err := v.Section(runtime.Idx(lo), runtime.Ext(hi-lo))
			require.NoError(t, err)
			require.NoError(t, runtime.ParallelForEach(av, s.Extent(), iota{Out: s, Scale: -1, Add: uint32(lo)}))
			require.NoError(t, s.Release())
			for i := lo; i < hi; i++ {
				want[i] = int32(lo - (i - lo))
			}
			lo = hi
		}
		got, err = v.ReadData()
		require.NoError(t, err)
		require.Equal(t, want, got)

		// Read back on every other accelerator, through the host.
		for _, a := range accelerator.All() {
			other, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			r, err := v.Section(runtime.Idx(n-10), runtime.Ext(10))
			require.NoError(t, err)
			require.NoError(t, runtime.ParallelForEach(other, r.Extent(), iota{Out: r, Scale: 1}))
			require.NoError(t, r.Release())
			require.NoError(t, other.Close(), a.Path())
			for i := range 10 {
				want[n-10+i] = int32(i)
			}
		}
		got, err = v.ReadData()
		require.NoError(t, err)
		require.Equal(t, want, got, "after the other accelerators")
	})
}

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

// TestBigUserKernel runs a user kernel on a view larger than one binding: 160 MiB
// (lavapipe's maxStorageBufferRange is 128 MiB), or GOAMP_BIG_VIEW_BYTES (6 GiB on an
// H100, past its maxMemoryAllocationSize of 4 GiB too: the copy is chunked). A kernel of
// the user's (iota) runs over every section cut at BindEnd on each Vulkan device, and every
// element is checked on the host.
func TestBigUserKernel(t *testing.T) {
	bytes := 160 << 20 // past lavapipe's maxStorageBufferRange of 128 MiB
	if s := os.Getenv("GOAMP_BIG_VIEW_BYTES"); s != "" {
		var err error
		bytes, err = strconv.Atoi(s)
		require.NoError(t, err, "GOAMP_BIG_VIEW_BYTES")
	}
	n := bytes / 4
	eachView(t, 11, func(t *testing.T, rng *rand.Rand, av *accelerator.View) {
		if av.Accelerator().Traits().HostMemory {
			t.Skip("the CPU has no allocation limit")
		}
		data := make([]int32, n)
		v := arrayview.MustNew(runtime.Ext(n), data)
		v.DiscardData()
		scale := int32(1 + rng.IntN(5))
		starts := []int{0}
		for lo := 0; lo < n; lo = starts[len(starts)-1] {
			hi := v.BindEnd(av, lo)
			s, err := v.Section(runtime.Idx(lo), runtime.Ext(hi-lo))
			require.NoError(t, err)
			require.NoError(t, runtime.ParallelForEach(av, s.Extent(), iota{Out: s, Scale: scale, Add: uint32(lo)}))
			require.NoError(t, s.Release())
			starts = append(starts, hi)
		}
		require.NoError(t, v.Close())
		t.Logf("%d elements in %d sections", n, len(starts)-1)
		for k := range len(starts) - 1 {
			lo, hi := starts[k], starts[k+1]
			for i := lo; i < hi; i++ {
				if want := int32(i-lo)*scale + int32(uint32(lo)); data[i] != want {
					t.Fatalf("element %d = %d, want %d (section from %d)", i, data[i], want, lo)
				}
			}
		}
	})
}
