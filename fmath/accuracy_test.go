package fmath_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/fmath/internal/fmathk"
	"github.com/goamp/goamp/runtime"
)

// applyOn runs fmathk.Apply of fn over x, y, z on av and returns the results.
func applyOn(t testing.TB, av *accelerator.View, fn int32, x, y, z []float32) []float32 {
	t.Helper()
	out := make([]float32, len(x))
	ov := arrayview.MustNew(runtime.Ext(len(x)), out)
	view := func(s []float32) *arrayview.ReadView[float32] {
		return arrayview.MustNew(runtime.Ext(len(s)), s).ReadOnly()
	}
	k := fmathk.Apply{X: view(x), Y: view(y), Z: view(z), Out: ov, Fn: fn}
	require.NoError(t, runtime.ParallelForEach(av, ov.Extent(), k))
	require.NoError(t, ov.Synchronize())
	return out
}

// every returns the float32 values in [lo, hi] whose bits are multiples of step, then the
// special values in that range: ±0, ±1, the range's ends and the smallest normals, and NaN.
func every(step uint32, lo, hi float32) []float32 {
	var s []float32
	for b := uint64(0); b < 1<<32; b += uint64(step) {
		if x := math.Float32frombits(uint32(b)); x >= lo && x <= hi {
			s = append(s, x)
		}
	}
	for _, x := range []float32{0, negZ, 1, -1, lo, hi, 0x1p-126, -0x1p-126, math.MaxFloat32, -math.MaxFloat32} {
		if x >= lo && x <= hi {
			s = append(s, x)
		}
	}
	return append(s, nan)
}

// subnormal reports whether w is nonzero and below the float32 normals: devices may
// flush such inputs and results to zero.
func subnormal(w float64) bool { return w != 0 && math.Abs(w) < 0x1p-126 }

// accuracyCase is one function's stated bound (package fmath's table), checked over its
// inputs: args returns them (x, and y and z for the functions of more arguments), ref the
// float64 result, and err the error of got against it in the bound's unit (ULP, or
// absolute).
type accuracyCase struct {
	name  string
	fn    int32
	args  func(r *rand.Rand) (x, y, z []float32)
	ref   func(x, y, z float64) float64
	err   func(got float32, want, x, y, z float64) float64
	bound float64
}

// ulpErr is the error in float32 ULPs (ulps).
func ulpErr(got float32, want, _, _, _ float64) float64 { return ulps(got, want) }

// absErr is the absolute error, 0 where both are NaN.
func absErr(got float32, want, _, _, _ float64) float64 {
	if math.IsNaN(float64(got)) && math.IsNaN(want) {
		return 0
	}
	return math.Abs(float64(got) - want)
}

// inputStep is the bit spacing of TestAccuracy's inputs: accuracyStep, or with -short (the
// suites on SwiftShader, without cgo and on the CPU in make test, where test-vulkan runs
// the whole table on lavapipe) every 16381st float32.
func inputStep() uint32 {
	if testing.Short() {
		return max(accuracyStep, 16381)
	}
	return accuracyStep
}

// accuracyPairs is how many random pairs TestAccuracy draws for Pow and Atan2.
func accuracyPairs() int { return (1 << 32) / int(inputStep()) }

// unary makes the inputs of a function of one argument: every value in [lo, hi] at the
// given bit spacing, with the specials.
func unary(lo, hi float32) func(*rand.Rand) ([]float32, []float32, []float32) {
	return func(*rand.Rand) ([]float32, []float32, []float32) {
		x := every(inputStep(), lo, hi)
		return x, x, x
	}
}

// pairs makes n pairs from gen.
func pairs(n int, gen func(r *rand.Rand) (float32, float32)) func(*rand.Rand) ([]float32, []float32, []float32) {
	return func(r *rand.Rand) ([]float32, []float32, []float32) {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = gen(r)
		}
		return x, y, y
	}
}

// f1 adapts a float64 function of one argument.
func f1(f func(float64) float64) func(x, _, _ float64) float64 {
	return func(x, _, _ float64) float64 { return f(x) }
}

// f2 adapts a float64 function of two arguments.
func f2(f func(x, y float64) float64) func(x, y, _ float64) float64 {
	return func(x, y, _ float64) float64 { return f(x, y) }
}

// accuracyCases are the bounds of fmath's table that hold on every device.
func accuracyCases() []accuracyCase {
	inf := float32(math.Inf(1))
	pi := float32(math.Pi)
	return []accuracyCase{
		{"Sqrt", fmathk.Sqrt, unary(0, inf), f1(math.Sqrt), ulpErr, 3},
		{"Rsqrt", fmathk.Rsqrt, unary(0, inf), f1(func(x float64) float64 { return 1 / math.Sqrt(x) }), ulpErr, 2},
		{"Exp", fmathk.Exp, unary(-inf, inf), f1(math.Exp), ulpErr, 2},
		{"Exp2", fmathk.Exp2, unary(-inf, inf), f1(math.Exp2), ulpErr, 2},
		{"Log", fmathk.Log, unary(0, inf), f1(math.Log), ulpErr, 2},
		{"Log2", fmathk.Log2, unary(0, inf), f1(math.Log2), ulpErr, 2},
		{"Sin", fmathk.Sin, unary(-4096, 4096), f1(math.Sin), absErr, 0x1p-21},
		{"Cos", fmathk.Cos, unary(-4096, 4096), f1(math.Cos), absErr, 0x1p-21},
		{"Tan", fmathk.Tan, unary(-pi/2, pi/2), f1(math.Tan), tanErr, 1},
		{"Asin", fmathk.Asin, unary(-1, 1), f1(math.Asin), ulpErr, 3},
		{"Acos", fmathk.Acos, unary(-1, 1), f1(math.Acos), ulpErr, 2},
		{"Atan", fmathk.Atan, unary(-inf, inf), f1(math.Atan), ulpErr, 4},
		{"Sinh", fmathk.Sinh, unary(-inf, inf), f1(math.Sinh), ulpErr, 3},
		{"Cosh", fmathk.Cosh, unary(-inf, inf), f1(math.Cosh), ulpErr, 3},
		{"Tanh", fmathk.Tanh, unary(-inf, inf), f1(math.Tanh), ulpErr, 2},
		{"Pow", fmathk.Pow, pairs(accuracyPairs(), func(r *rand.Rand) (float32, float32) {
			return logUniform(r, -126, 127, false), uniform(r, -4, 4) * float32(math.Exp2(float64(r.IntN(6))))
		}), f2(math.Pow), powErr, 1},
		{"Atan2", fmathk.Atan2, pairs(accuracyPairs(), func(r *rand.Rand) (float32, float32) {
			return logUniform(r, -60, 60, true), logUniform(r, -60, 60, true)
		}), f2(math.Atan2), ulpErr, 4},
		{"Fract", fmathk.Fract, unary(-inf, inf), f1(func(x float64) float64 { return x - math.Floor(x) }), fractErr, 0.5},
		{"Floor", fmathk.Floor, unary(-inf, inf), f1(math.Floor), ulpErr, 0},
		{"Ceil", fmathk.Ceil, unary(-inf, inf), f1(math.Ceil), ulpErr, 0},
		{"Trunc", fmathk.Trunc, unary(-inf, inf), f1(math.Trunc), ulpErr, 0},
		{"Round", fmathk.Round, unary(-inf, inf), f1(math.Round), ulpErr, 0},
		{"RoundEven", fmathk.RoundEven, unary(-inf, inf), f1(math.RoundToEven), ulpErr, 0},
		{"Abs", fmathk.Abs, unary(-inf, inf), f1(math.Abs), ulpErr, 0},
	}
}

// tanErr is Tan's error against its bound, inherited from Sin(x) / Cos(x): an absolute
// error of 2^-21 in each, then the division's 2.5 ULP; 1 means the bound.
func tanErr(got float32, want, x, _, _ float64) float64 {
	switch {
	case math.IsNaN(float64(got)) != math.IsNaN(want):
		return math.Inf(1)
	case math.IsNaN(want):
		return 0
	}
	c := math.Abs(math.Cos(x))
	allowed := 0x1p-21*(1+math.Abs(want))/c + 2.5*ulp32(want)
	return math.Abs(float64(got)-want) / allowed
}

// powErr is Pow's error against its bound, 2 + 2.5·|y·log2(x)| ULP; 1 means the bound.
func powErr(got float32, want, x, y, _ float64) float64 {
	return ulps(got, want) / (2 + 2.5*math.Abs(y*math.Log2(x)))
}

// fractErr is Fract's error: 1 - 2^-24 and above round to 1 for a tiny negative x.
func fractErr(got float32, want, _, _, _ float64) float64 {
	if got == 1 && want > 1-0x1p-24 {
		return 0
	}
	return ulps(got, want)
}

// TestAccuracy checks every bound of fmath's accuracy table on every accelerator (the
// GPU's functions are goamp's own where a driver's built-in may be worse): the functions
// of one argument at every 4093rd float32 of their range (every 16381st under -race or
// -short) with the special values, Pow and Atan2 on a million random pairs (a quarter
// under -race or -short). Inputs and results below the float32 normals are left out,
// since devices may flush them to zero.
func TestAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 17))
	cases := accuracyCases()
	inputs := make([][3][]float32, len(cases))
	for i, c := range cases {
		x, y, z := c.args(r)
		inputs[i] = [3][]float32{x, y, z}
	}
	amptest.EachView(t, func(t *testing.T, av *accelerator.View) {
		for i, c := range cases {
			x, y, z := inputs[i][0], inputs[i][1], inputs[i][2]
			got := applyOn(t, av, c.fn, x, y, z)
			worst, at := 0.0, -1
			for j, g := range got {
				want := c.ref(float64(x[j]), float64(y[j]), float64(z[j]))
				if subnormal(want) || subnormal(float64(x[j])) || subnormal(float64(y[j])) {
					continue
				}
				if e := c.err(g, want, float64(x[j]), float64(y[j]), float64(z[j])); e > worst || math.IsNaN(e) {
					worst, at = e, j
				}
			}
			if at >= 0 {
				assert.LessOrEqual(t, worst, c.bound, "%s(%v, %v): got %v, float64 gives %v",
					c.name, x[at], y[at], got[at], c.ref(float64(x[at]), float64(y[at]), float64(z[at])))
			}
			t.Logf("%s %s: %d inputs, max error %.3g (bound %.3g)", av.Accelerator().Path(), c.name, len(x), worst, c.bound)
		}
	})
}

// TestMod checks Mod on every accelerator against the exact floored modulus: within 2
// ULP of max(|x|, |y|) of it, or of it ± y (x/y rounded across an integer on a GPU).
func TestMod(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 18))
	n := 1 << 18
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = logUniform(r, -20, 30, true), logUniform(r, -20, 20, true)
	}
	amptest.EachView(t, func(t *testing.T, av *accelerator.View) {
		got := applyOn(t, av, fmathk.Mod, x, y, y)
		for i, g := range got {
			xi, yi := float64(x[i]), float64(y[i])
			want := math.Mod(xi, yi)
			if want != 0 && (want < 0) != (yi < 0) {
				want += yi
			}
			d := math.Abs(float64(g) - want)
			d = min(d, math.Abs(d-math.Abs(yi)))
			require.LessOrEqual(t, d, 2*ulp32(max(math.Abs(xi), math.Abs(yi))), "Mod(%v, %v) = %v, exactly %v", x[i], y[i], g, want)
		}
	})
}

// TestTanhSmall is the case that was found: lavapipe's tanh had a relative error of 1.7e-4
// at x = 1e-4 (a GELU had to be rewritten). Every device now gives it within 2 ULP.
func TestTanhSmall(t *testing.T) {
	x := []float32{1e-4, -1e-4, 1e-6, 3e-3, 0.1}
	amptest.EachView(t, func(t *testing.T, av *accelerator.View) {
		got := applyOn(t, av, fmathk.Tanh, x, x, x)
		for i, g := range got {
			assert.LessOrEqual(t, ulps(g, math.Tanh(float64(x[i]))), 2.0, fmt.Sprintf("Tanh(%v) = %v", x[i], g))
		}
	})
}

// TestFmaRounding checks Fma's stated behaviour on every accelerator: a·b + c rounded
// once (the CPU, NVIDIA's GPUs) or a·b rounded, then + c rounded (lavapipe), never
// anything else.
func TestFmaRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 19))
	n := 1 << 16
	a, b, c := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range a {
		a[i], b[i] = logUniform(r, -20, 20, true), logUniform(r, -20, 20, true)
		c[i] = -a[i] * b[i] * uniform(r, 0.5, 1.5) // near cancellation, where the roundings differ
	}
	amptest.EachView(t, func(t *testing.T, av *accelerator.View) {
		got := applyOn(t, av, fmathk.Fma, a, b, c)
		for i, g := range got {
			once := fmath.Fma(a[i], b[i], c[i])
			twice := float32(a[i]*b[i]) + c[i] // the conversion rounds the product: no fusing
			require.True(t, g == once || g == twice, "Fma(%v, %v, %v) = %v: neither %v (one rounding) nor %v (two)",
				a[i], b[i], c[i], g, once, twice)
		}
	})
}
