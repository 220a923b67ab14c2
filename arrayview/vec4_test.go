package arrayview_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

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
				assert.PanicsWithValue(t, panicText(t, v, tc.at), func() { v.At4(tc.at) })
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
func panicText(t *testing.T, v *arrayview.View[float32], i runtime.Index) (msg any) {
	e := v.Extent()
	j := i
	if uint(j[e.Rank()-1]) < uint(e.Dim(e.Rank()-1)) {
		j[e.Rank()-1] += 3
	}
	defer func() { msg = recover() }()
	v.At(j)
	t.Fatalf("At(%v) did not panic", j)
	return nil
}
