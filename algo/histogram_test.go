package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refHistogram is the reference: torch.histc's rule, with Histogram's float32 arithmetic
// written out.
func refHistogram(s []float32, bins int, lo, hi float32) []uint32 {
	out := make([]uint32, bins)
	scale := float32(float64(bins) / (float64(hi) - float64(lo)))
	for _, x := range s {
		if x < lo || x > hi || x != x {
			continue
		}
		d := float32(x-lo) * scale
		b := bins - 1
		if d < float32(bins) {
			b = int(d)
		}
		out[b]++
	}
	return out
}

// histData returns n values in [-0.25, 1.25), with lo = 0 and hi = 1 themselves, NaN and
// infinities among them.
func histData(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 3))
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*1.5 - 0.25
	}
	specials := []float32{0, 1, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0.5, 1}
	for i, x := range specials {
		if j := i * 37; j < n {
			s[j] = x
		}
	}
	return s
}

func TestHistogram(t *testing.T) {
	for _, c := range famCases(t) {
		for _, n := range famLengths {
			if c.perThread && n > famPerThreadMax {
				continue
			}
			s := histData(n, uint64(n))
			keep := append([]float32(nil), s...)
			in := arrayview.MustNew(runtime.Ext(n), s)
			for _, bins := range []int{1, 7, 100, 1000} {
				t.Run(fmt.Sprintf("%s/n=%d/bins=%d", c, n, bins), func(t *testing.T) {
					got, err := histogramOp(c.av, in, bins, 0, 1, c.testHooks)
					require.NoError(t, err)
					assert.Equal(t, refHistogram(s, bins, 0, 1), got)
				})
			}
			require.NoError(t, in.Close())
			require.Equal(t, math.Float32bits(keep[n/2]), math.Float32bits(s[n/2]))
		}
	}
}

// TestHistogramMaxBins uses the most bins the device takes (the largest workgroup) and
// sections at every alignment.
func TestHistogramMaxBins(t *testing.T) {
	const n = 30011
	s := histData(n, 5)
	for _, c := range famCases(t) {
		bins := MaxHistogramBins(c.av)
		require.GreaterOrEqual(t, bins, 4096)
		for _, off := range []int{0, 1, 2, 3, 4} {
			m := n - off
			if c.perThread {
				m = famPerThreadMax
			}
			t.Run(fmt.Sprintf("%s/bins=%d/off=%d", c, bins, off), func(t *testing.T) {
				in, err := arrayview.MustNew(runtime.Ext(n), s).Section(runtime.Idx(off), runtime.Ext(m))
				require.NoError(t, err)
				got, err := histogramOp(c.av, in, bins, -0.1, 1.1, c.testHooks)
				require.NoError(t, err)
				assert.Equal(t, refHistogram(s[off:off+m], bins, -0.1, 1.1), got)
			})
		}
	}
}

// TestHistogramRange: lo == hi == 0 takes the data's range, an empty range is widened by
// one on each side, as in torch.histc.
func TestHistogramRange(t *testing.T) {
	for _, c := range famCases(t) {
		t.Run(c.String(), func(t *testing.T) {
			s := []float32{2, 3, 3, 5, 9}
			got, err := histogramOp(c.av, arrayview.MustNew(runtime.Ext(len(s)), s), 7, 0, 0, c.testHooks)
			require.NoError(t, err)
			assert.Equal(t, []uint32{1, 2, 0, 1, 0, 0, 1}, got)
			got, err = histogramOp(c.av, arrayview.MustNew(runtime.Ext(len(s)), s), 4, 3, 3, c.testHooks)
			require.NoError(t, err)
			assert.Equal(t, refHistogram(s, 4, 2, 4), got)
			assert.Equal(t, []uint32{1, 0, 2, 0}, got)
			inf := []float32{1, float32(math.Inf(1))}
			_, err = histogramOp(c.av, arrayview.MustNew(runtime.Ext(len(inf)), inf), 4, 0, 0, c.testHooks)
			require.ErrorIs(t, err, ErrShape)
			assert.Contains(t, err.Error(), "the data's range [1, +Inf] must be finite")
		})
	}
}

func TestHistogramErrors(t *testing.T) {
	av, err := accelerator.CPU().DefaultView()
	require.NoError(t, err)
	v := arrayview.MustNew(runtime.Ext(3), []float32{1, 2, 3})
	maxBins := MaxHistogramBins(av)
	for _, tc := range []struct {
		bins   int
		lo, hi float32
		msg    string
	}{
		{0, 0, 1, "bins is 0; it must be between 1 and"},
		{maxBins + 1, 0, 1, fmt.Sprintf("bins is %d; it must be between 1 and %d", maxBins+1, maxBins)},
		{10, 2, 1, "lo 2 is greater than hi 1"},
		{10, float32(math.NaN()), 1, "must be finite"},
		{10, 0, float32(math.Inf(1)), "must be finite"},
	} {
		_, err := Histogram(av, v, tc.bins, tc.lo, tc.hi)
		require.ErrorIs(t, err, ErrShape, tc.msg)
		assert.Contains(t, err.Error(), tc.msg)
	}
	_, err = Histogram(av, nil, 10, 0, 1)
	require.ErrorIs(t, err, ErrShape)
	m := arrayview.MustNew(runtime.Ext(1, 3), []float32{1, 2, 3})
	_, err = Histogram(av, m, 10, 0, 1)
	require.ErrorIs(t, err, ErrShape)
}
