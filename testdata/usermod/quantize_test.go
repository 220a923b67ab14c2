package usermod

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quantized is what Quantize then Dequantize leave: the steps, the float16 values and the
// rows' wrapped sums.
type quantized struct {
	q    []int8
	h    []half.Float16
	sums []int8
}

// TestQuantize runs Quantize and Dequantize on every accelerator present with random
// data (some of it past the int8 range, to saturate), compares each result with the
// CPU's bit for bit, and the CPU's with a Go loop.
func TestQuantize(t *testing.T) {
	rng := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	const rows, cols = 37, 129
	x := make([]float32, rows*cols)
	for i := range x {
		x[i] = float32(rng.NormFloat64() * 3)
	}
	scale := float32(0.01 + 0.05*rng.Float64())
	cpu := amptest.Compare(t, func(t testing.TB, av *accelerator.View) quantized {
		return runQuantize(t, av, x, rows, cols, scale)
	}, amptest.Equal[quantized])

	for i, v := range x {
		want := int8(max(-127, min(127, math.Round(float64(v*(1/scale))))))
		require.Equal(t, want, cpu.q[i], "step %d of %v", i, v)
		assert.Equal(t, half.FromFloat32(float32(want)*scale), cpu.h[i], "value %d", i)
	}
	for r := range rows {
		var s int8
		for _, q := range cpu.q[r*cols : (r+1)*cols] {
			s += q
		}
		assert.Equal(t, s, cpu.sums[r], "row %d's sum", r)
	}
}

// runQuantize runs both kernels on av and returns their results.
func runQuantize(t testing.TB, av *accelerator.View, x []float32, rows, cols int, scale float32) quantized {
	res := quantized{q: make([]int8, len(x)), h: make([]half.Float16, len(x)), sums: make([]int8, rows)}
	xv, err := arrayview.New(runtime.Ext(rows, cols), x)
	require.NoError(t, err)
	qv, err := arrayview.New(runtime.Ext(rows, cols), res.q)
	require.NoError(t, err)
	qv.DiscardData()
	require.NoError(t, runtime.ParallelForEach(av, qv.Extent(), Quantize{In: xv.ReadOnly(), Out: qv, InvScale: 1 / scale}))
	hv, err := arrayview.New(runtime.Ext(rows, cols), res.h)
	require.NoError(t, err)
	hv.DiscardData()
	sv, err := arrayview.New(runtime.Ext(rows), res.sums)
	require.NoError(t, err)
	sv.DiscardData()
	k := Dequantize{In: qv.ReadOnly(), Out: hv, Sums: sv, Scale: scale}
	require.NoError(t, runtime.ParallelForEach(av, qv.Extent(), k))
	for _, v := range []interface{ Close() error }{xv, qv, hv, sv} {
		require.NoError(t, v.Close()) // the results reach the Go slices
	}
	return res
}
