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

// TestKernelHost checks Host.At and Host.Set against View.At and View.Set on views of
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
		{"rank1 ignores later components", runtime.Ext(37), nil, runtime.Idx(5, 9, 9), false},
		{"rank2", runtime.Ext(5, 9), nil, runtime.Idx(4, 8), false},
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
				return
			}
			assert.Equal(t, v.At(tt.at), h.At(tt.at))
			assert.Equal(t, v.At(tt.at), rh.At(tt.at))
			x := r.Int32()
			h.Set(tt.at, x)
			assert.Equal(t, x, v.At(tt.at))
			assert.Equal(t, x, rh.At(tt.at))
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
