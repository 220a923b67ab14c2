package arrayview_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// The element access of kernels' CPU bodies: Host.At and Host.Set, At4 and Set4.

// TestKernelHost checks Host.At and Host.Set (and their forms with the index's components
// as scalars, At1..At3 and Set1..Set3) against View.At and View.Set on views of
// every rank, on sections and projections, and that an index outside the extent panics
// with the message View.At gives.
func TestKernelHost(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 16))
	tests := []struct {
		name   string
		ext    runtime.Extent
		view   func(v *arrayview.View[int32]) (*arrayview.View[int32], error)
		at     runtime.Index
		panics bool
	}{
		{"rank1", runtime.Ext(37), nil, runtime.Idx(36), false},
		{"rank1 past end", runtime.Ext(37), nil, runtime.Idx(37), true},
		{"rank1 negative", runtime.Ext(37), nil, runtime.Idx(-1), true},
		{"rank1 refuses later components", runtime.Ext(37), nil, runtime.Idx(5, 9, 9), true},
		{"rank1 refuses a second component", runtime.Ext(37), nil, runtime.Idx(5, 9), true},
		{"rank2 refuses a third component", runtime.Ext(5, 9), nil, runtime.Idx(4, 8, 1), true},
		{"rank2", runtime.Ext(5, 9), nil, runtime.Idx(4, 8), false},
		{"rank2 row negative", runtime.Ext(5, 9), nil, runtime.Idx(-1, 2), true},
		{"rank3 on its first plane", runtime.Ext(3, 4, 5), nil, runtime.Idx(2, 3), false},
		{"rank2 column past end", runtime.Ext(5, 9), nil, runtime.Idx(1, 9), true},
		{"rank3", runtime.Ext(3, 4, 5), nil, runtime.Idx(2, 3, 4), false},
		{"rank3 row past end", runtime.Ext(3, 4, 5), nil, runtime.Idx(0, 4, 0), true},
		{"section", runtime.Ext(6, 10), func(v *arrayview.View[int32]) (*arrayview.View[int32], error) {
			return v.Section(runtime.Idx(2, 3), runtime.Ext(3, 4))
		}, runtime.Idx(2, 3), false},
		{"section past its extent", runtime.Ext(6, 10), func(v *arrayview.View[int32]) (*arrayview.View[int32], error) {
			return v.Section(runtime.Idx(2, 3), runtime.Ext(3, 4))
		}, runtime.Idx(1, 4), true},
		{"projection", runtime.Ext(3, 4, 5), func(v *arrayview.View[int32]) (*arrayview.View[int32], error) {
			return v.Project(1)
		}, runtime.Idx(3, 2), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := make([]int32, tt.ext.Size())
			for i := range data {
				data[i] = r.Int32()
			}
			v, err := arrayview.New(tt.ext, data)
			require.NoError(t, err)
			defer func() { require.NoError(t, v.Close()) }()
			if tt.view != nil {
				s, err := tt.view(v)
				require.NoError(t, err)
				defer func() { require.NoError(t, s.Close()) }()
				v = s
			}
			h, rh := v.KernelHost(), v.ReadOnly().KernelHost()
			if tt.panics {
				want := panicOf(func() { v.At(tt.at) })
				require.NotEmpty(t, want)
				assert.Equal(t, want, panicOf(func() { h.At(tt.at) }))
				assert.Equal(t, want, panicOf(func() { rh.At(tt.at) }))
				assert.Equal(t, want, panicOf(func() { h.Set(tt.at, 1) }))
				checkScalarPanics(t, h, rh, tt.at, want)
				return
			}
			assert.Equal(t, v.At(tt.at), h.At(tt.at))
			assert.Equal(t, v.At(tt.at), rh.At(tt.at))
			x := r.Int32()
			h.Set(tt.at, x)
			assert.Equal(t, x, v.At(tt.at))
			assert.Equal(t, x, rh.At(tt.at))
			checkScalarForms(t, r, v, h, rh, tt.at)
		})
	}
}

// panicOf runs f and returns what it panicked with, printed, or "" when it did not.
func panicOf(f func()) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// checkScalarPanics checks that the Hosts' At and Set with the index's components as
// scalars (At3, and At1 or At2 where the later components are 0) panic with want at at.
func checkScalarPanics(t *testing.T, h, rh arrayview.Host[int32], at runtime.Index, want string) {
	t.Helper()
	assert.Equal(t, want, panicOf(func() { rh.At3(at[0], at[1], at[2]) }))
	assert.Equal(t, want, panicOf(func() { h.Set3(at[0], at[1], at[2], 1) }))
	switch {
	case at[1] == 0 && at[2] == 0:
		assert.Equal(t, want, panicOf(func() { rh.At1(at[0]) }))
		assert.Equal(t, want, panicOf(func() { h.Set1(at[0], 1) }))
	case at[2] == 0:
		assert.Equal(t, want, panicOf(func() { rh.At2(at[0], at[1]) }))
		assert.Equal(t, want, panicOf(func() { h.Set2(at[0], at[1], 1) }))
	}
}

// checkScalarForms checks Set1..Set3 and At1..At3 at at against View.At.
func checkScalarForms(t *testing.T, r *rand.Rand, v *arrayview.View[int32], h, rh arrayview.Host[int32], at runtime.Index) {
	t.Helper()
	y := r.Int32()
	h.Set3(at[0], at[1], at[2], y)
	assert.Equal(t, y, v.At(at))
	assert.Equal(t, y, rh.At3(at[0], at[1], at[2]))
	if at[2] == 0 {
		y = r.Int32()
		h.Set2(at[0], at[1], y)
		assert.Equal(t, y, v.At(at))
		assert.Equal(t, y, rh.At2(at[0], at[1]))
	}
	if at[1] == 0 && at[2] == 0 {
		y = r.Int32()
		h.Set1(at[0], y)
		assert.Equal(t, y, v.At(at))
		assert.Equal(t, y, rh.At1(at[0]))
	}
}

// TestAt4Set4 checks At4 and Set4 against At and Set on views of every rank and on
// sections, at every alignment, and that a quad reaching past the last dimension panics
// with the index named.
func TestAt4Set4(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 4))
	tests := []struct {
		name   string
		ext    runtime.Extent
		origin runtime.Index // of a section of extent sub; sub's rank 0: the whole view
		sub    runtime.Extent
		at     runtime.Index
		panics bool
	}{
		{"rank1 start", runtime.Ext(37), runtime.Index{}, runtime.Extent{}, runtime.Idx(0), false},
		{"rank1 unaligned", runtime.Ext(37), runtime.Index{}, runtime.Extent{}, runtime.Idx(33), false},
		{"rank1 past end", runtime.Ext(37), runtime.Index{}, runtime.Extent{}, runtime.Idx(34), true},
		{"rank2 row", runtime.Ext(5, 9), runtime.Index{}, runtime.Extent{}, runtime.Idx(3, 5), false},
		{"rank2 across rows", runtime.Ext(5, 9), runtime.Index{}, runtime.Extent{}, runtime.Idx(3, 6), true},
		{"rank3", runtime.Ext(3, 4, 6), runtime.Index{}, runtime.Extent{}, runtime.Idx(2, 3, 1), false},
		{"section", runtime.Ext(6, 10), runtime.Idx(1, 3), runtime.Ext(4, 6), runtime.Idx(2, 2), false},
		{"section past its end", runtime.Ext(6, 10), runtime.Idx(1, 3), runtime.Ext(4, 6), runtime.Idx(2, 3), true},
		{"outside", runtime.Ext(37), runtime.Index{}, runtime.Extent{}, runtime.Idx(-1), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := make([]float32, tc.ext.Size())
			for i := range data {
				data[i] = r.Float32()
			}
			v := arrayview.MustNew(tc.ext, data)
			if tc.sub.Rank() > 0 {
				var err error
				v, err = v.Section(tc.origin, tc.sub)
				require.NoError(t, err)
			}
			if tc.panics {
				assert.PanicsWithError(t, panicText(t, v, tc.at), func() { v.At4(tc.at) })
				assert.Panics(t, func() { v.Set4(tc.at, [4]float32{}) })
				assert.Panics(t, func() { v.ReadOnly().At4(tc.at) })
				return
			}
			last := v.Extent().Rank() - 1
			var want [4]float32
			for c := range want {
				j := tc.at
				j[last] += c
				want[c] = v.At(j)
			}
			assert.Equal(t, want, v.At4(tc.at))
			assert.Equal(t, want, v.ReadOnly().At4(tc.at))
			x := [4]float32{r.Float32(), r.Float32(), r.Float32(), r.Float32()}
			v.Set4(tc.at, x)
			for c := range x {
				j := tc.at
				j[last] += c
				assert.Equal(t, x[c], v.At(j))
			}
			assert.Equal(t, x, v.At4(tc.at))
		})
	}
}

// panicText is the message At panics with for the first element of the quad at i that
// lies outside v's extent.
func panicText(t *testing.T, v *arrayview.View[float32], i runtime.Index) (msg string) {
	e := v.Extent()
	j := i
	if uint(j[e.Rank()-1]) < uint(e.Dim(e.Rank()-1)) {
		j[e.Rank()-1] += 3
	}
	defer func() { msg = fmt.Sprint(recover()) }()
	v.At(j)
	t.Fatalf("At(%v) did not panic", j)
	return ""
}
