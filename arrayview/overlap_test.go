package arrayview_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Views that share one data's coherence state: New on a slice inside an open view's,
// overlapping slices refused, and Release of a view while others of the data stay open.

// scaleIn scales v in place: v[i] *= k (one view as both of fzScale's fields).
func scaleIn(t *testing.T, av *accelerator.View, v *arrayview.View[int32], k int32) {
	t.Helper()
	require.NoError(t, runtime.ParallelForEach(av, v.Extent(), fzScale{Src: v.ReadOnly(), Dst: v, K: k}))
}

// TestSubSliceViews: a view made with New on a slice inside an earlier view's slice (a
// row, a prefix, the same slice again as rank 2) shares its coherence state, so kernels
// on either see the other's results and nothing is written back over them; on every
// accelerator.
func TestSubSliceViews(t *testing.T) {
	cases := []struct {
		name string
		lo   int
		hi   int
		ext  runtime.Extent
	}{
		{"row", 8, 16, runtime.Ext(8)},
		{"prefix", 0, 20, runtime.Ext(20)},
		{"suffix", 40, 64, runtime.Ext(24)},
		{"the same slice", 0, 64, runtime.Ext(64)},
	}
	r := rand.New(rand.NewPCG(41, uint64(os.Getpid())))
	everyView(t, func(t *testing.T, av *accelerator.View) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				data := make([]int32, 64)
				for i := range data {
					data[i] = r.Int32N(1000) + 1
				}
				want := slices.Clone(data)
				all := arrayview.MustNew(runtime.Ext(64), data)
				part, err := arrayview.New(c.ext, data[c.lo:c.hi])
				require.NoError(t, err)
				scaleIn(t, av, part, 3)
				scaleIn(t, av, all, 5)
				scaleIn(t, av, part, 7)
				for i := range want {
					want[i] *= 5
					if i >= c.lo && i < c.hi {
						want[i] *= 21
					}
				}
				// A rank-2 view of the same memory sees the kernels' results too.
				grid, err := arrayview.New(runtime.Ext(8, 8), data)
				require.NoError(t, err)
				assert.Equal(t, want[8*7+3], grid.At(runtime.Idx(7, 3)))
				require.NoError(t, grid.Close())
				require.NoError(t, part.Close())
				require.NoError(t, all.Close())
				assert.Equal(t, want, data)
			})
		}
	})
}

// TestOverlapRefused: a slice that overlaps an open view's slice without lying in it, or
// the same bytes as another element type, is an *OverlapError naming both ranges, and the
// open view's data stays as it was; once that view is closed the slice is accepted.
func TestOverlapRefused(t *testing.T) {
	data := make([]int32, 16)
	for i := range data {
		data[i] = int32(i*7 + 1)
	}
	before := slices.Clone(data)
	first := arrayview.MustNew(runtime.Ext(8), data[4:12])
	cases := []struct {
		name string
		make func() error
		says string
	}{
		{"starts before", func() error { _, err := arrayview.New(runtime.Ext(6), data[0:6]); return err },
			"overlaps an open view's"},
		{"ends after", func() error { _, err := arrayview.New(runtime.Ext(6), data[10:16]); return err },
			"overlaps an open view's"},
		{"holds it", func() error { _, err := arrayview.New(runtime.Ext(16), data); return err },
			"without lying inside it"},
		{"another element type", func() error {
			f := unsafe.Slice((*float32)(unsafe.Pointer(&data[4])), 8)
			v, err := arrayview.New(runtime.Ext(8), f)
			if err != nil {
				return err
			}
			return v.Close()
		}, ""},
		{"another element size", func() error {
			b := unsafe.Slice((*int8)(unsafe.Pointer(&data[4])), 8)
			_, err := arrayview.New(runtime.Ext(8), b)
			return err
		}, "(elements of 4 bytes) with another element size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.make()
			if c.name == "another element type" {
				require.NoError(t, err, "same bytes, same element size: one source")
				return
			}
			var oe *arrayview.OverlapError
			require.ErrorAs(t, err, &oe)
			assert.True(t, errors.Is(err, arrayview.ErrOverlap))
			assert.Equal(t, uintptr(unsafe.Pointer(&data[4])), oe.OtherLo)
			assert.Contains(t, err.Error(), c.says)
		})
	}
	assert.Equal(t, before, data)
	require.NoError(t, first.Close())
	v, err := arrayview.New(runtime.Ext(16), data)
	require.NoError(t, err, "the overlapping view is closed")
	require.NoError(t, v.Close())
}

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

// TestReleaseThenLastClose: a view written by a kernel and released while one of its
// sections is open keeps its results on the device; closing that section, the data's last
// open view, brings them home (all of them, not only the section's).
func TestReleaseThenLastClose(t *testing.T) {
	r := rand.New(rand.NewPCG(43, uint64(os.Getpid())))
	everyView(t, func(t *testing.T, av *accelerator.View) {
		for _, sync := range []bool{true, false} {
			data := make([]int32, 32)
			for i := range data {
				data[i] = r.Int32N(1000) + 1
			}
			want := slices.Clone(data)
			for i := range want {
				want[i] *= 3
			}
			v := arrayview.MustNew(runtime.Ext(32), data)
			tail, err := v.Section(runtime.Idx(24), runtime.Ext(8))
			require.NoError(t, err)
			scaleIn(t, av, v, 3)
			require.NoError(t, v.Release())
			if sync {
				require.NoError(t, tail.Close())
			} else {
				require.NoError(t, tail.Release(), "the last open view: Release is Close")
			}
			assert.Equal(t, want, data)
		}
	})
}

// TestOverlapAndSameElements: Overlap says whether two views share an element, and
// SameElements whether they are the same elements in the same order; sections of one
// place, a view over the same slice and a shifted one are told apart.
func TestOverlapAndSameElements(t *testing.T) {
	data := make([]int32, 32)
	v := arrayview.MustNew(runtime.Ext(4, 8), data)
	row1, err := v.Section(runtime.Idx(1, 0), runtime.Ext(1, 8))
	require.NoError(t, err)
	row1again, err := v.Project(1)
	require.NoError(t, err)
	over := arrayview.MustNew(runtime.Ext(8), data[8:16]) // row 1, through the slice
	shifted := arrayview.MustNew(runtime.Ext(8), data[9:17])
	col, err := v.Section(runtime.Idx(0, 3), runtime.Ext(4, 1))
	require.NoError(t, err)
	other := arrayview.MustNew(runtime.Ext(8), make([]int32, 8))
	for _, c := range []struct {
		name          string
		a, b          *arrayview.View[int32]
		overlap, same bool
	}{
		{"a section and a projection of one row", row1, row1again, true, true},
		{"a row and a view over its slice", row1, over, true, true},
		{"a row and its slice shifted by one", row1, shifted, true, false},
		{"a row and a column", row1, col, true, false},
		{"the whole and a row", v, row1, true, false},
		{"other data", row1, other, false, false},
		{"nil", row1, nil, false, false},
	} {
		assert.Equal(t, c.overlap, arrayview.Overlap(c.a, c.b), "%s: Overlap", c.name)
		assert.Equal(t, c.same, arrayview.SameElements(c.a, c.b), "%s: SameElements", c.name)
		assert.Equal(t, c.same, arrayview.SameElements(c.b, c.a), "%s: SameElements, swapped", c.name)
	}
}
