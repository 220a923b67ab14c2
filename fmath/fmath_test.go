package fmath_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/fmath"
)

var (
	nan  = float32(math.NaN())
	inf  = float32(math.Inf(1))
	negZ = float32(math.Copysign(0, -1))
)

// samples is how many random inputs each accuracy test draws.
const samples = 20000

// ulp32 is the spacing of float32 values at |w|: 2^(e-23) for |w| in [2^e, 2^(e+1)),
// and the smallest subnormal 2^-149 below 2^-126.
func ulp32(w float64) float64 {
	_, e := math.Frexp(math.Abs(w)) // |w| = f·2^e, f in [0.5, 1)
	return math.Ldexp(1, max(e-24, -149))
}

// ulps is how many float32 ULPs got lies from want; 0 when both are NaN, or when got is the
// infinity that a want beyond the float32 range rounds to.
func ulps(got float32, want float64) float64 {
	g := float64(got)
	switch {
	case math.IsNaN(g) || math.IsNaN(want):
		if math.IsNaN(g) && math.IsNaN(want) {
			return 0
		}
		return math.Inf(1)
	case math.IsInf(g, 0):
		if math.Abs(want) >= math.MaxFloat32 && math.Signbit(g) == math.Signbit(want) {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(g-want) / ulp32(want)
}

// uniform draws a float32 in [lo, hi].
func uniform(r *rand.Rand, lo, hi float64) float32 { return float32(lo + (hi-lo)*r.Float64()) }

// logUniform draws a float32 whose magnitude is 2^u for u uniform in [lo, hi], with a
// random sign when signed.
func logUniform(r *rand.Rand, lo, hi float64, signed bool) float32 {
	x := float32(math.Exp2(lo + (hi-lo)*r.Float64()))
	if signed && r.IntN(2) == 0 {
		x = -x
	}
	return x
}

// TestUnaryAgainstFloat64 compares each function with the float64 function of the math
// package on random inputs of its domain, within the CPU accuracy the package doc states.
func TestUnaryAgainstFloat64(t *testing.T) {
	wide := func(r *rand.Rand) float32 { return logUniform(r, -30, 30, true) }
	tests := []struct {
		name   string
		f      func(float32) float32
		ref    func(float64) float64
		gen    func(*rand.Rand) float32
		maxULP float64
	}{
		{"Exp", fmath.Exp, math.Exp, func(r *rand.Rand) float32 { return uniform(r, -103, 88) }, 1},
		{"Exp2", fmath.Exp2, math.Exp2, func(r *rand.Rand) float32 { return uniform(r, -149, 127) }, 1},
		{"Log", fmath.Log, math.Log, func(r *rand.Rand) float32 { return logUniform(r, -149, 127, false) }, 1},
		{"Log2", fmath.Log2, math.Log2, func(r *rand.Rand) float32 { return logUniform(r, -149, 127, false) }, 1},
		{"Sin", fmath.Sin, math.Sin, func(r *rand.Rand) float32 { return uniform(r, -100, 100) }, 1},
		{"Cos", fmath.Cos, math.Cos, func(r *rand.Rand) float32 { return uniform(r, -100, 100) }, 1},
		{"Tan", fmath.Tan, math.Tan, func(r *rand.Rand) float32 { return uniform(r, -1.5, 1.5) }, 1},
		{"Asin", fmath.Asin, math.Asin, func(r *rand.Rand) float32 { return uniform(r, -1, 1) }, 1},
		{"Acos", fmath.Acos, math.Acos, func(r *rand.Rand) float32 { return uniform(r, -1, 1) }, 1},
		{"Atan", fmath.Atan, math.Atan, wide, 1},
		{"Sinh", fmath.Sinh, math.Sinh, func(r *rand.Rand) float32 { return uniform(r, -89, 89) }, 1},
		{"Cosh", fmath.Cosh, math.Cosh, func(r *rand.Rand) float32 { return uniform(r, -89, 89) }, 1},
		{"Tanh", fmath.Tanh, math.Tanh, func(r *rand.Rand) float32 { return uniform(r, -10, 10) }, 1},
		{"Rsqrt", fmath.Rsqrt, func(x float64) float64 { return 1 / math.Sqrt(x) }, func(r *rand.Rand) float32 { return logUniform(r, -149, 127, false) }, 1},
		// The exact ones: the float64 function is exact at float32 inputs.
		{"Floor", fmath.Floor, math.Floor, wide, 0},
		{"Ceil", fmath.Ceil, math.Ceil, wide, 0},
		{"Trunc", fmath.Trunc, math.Trunc, wide, 0},
		{"Round", fmath.Round, math.Round, wide, 0},
		{"RoundEven", fmath.RoundEven, math.RoundToEven, wide, 0},
		{"Abs", fmath.Abs, math.Abs, wide, 0},
		{"Fract", fmath.Fract, func(x float64) float64 { return x - math.Floor(x) }, wide, 0.5},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(k), 9))
			worst, at := 0.0, float32(0)
			for range samples {
				x := tt.gen(r)
				if u := ulps(tt.f(x), tt.ref(float64(x))); u > worst || math.IsNaN(u) {
					worst, at = u, x
				}
			}
			assert.LessOrEqual(t, worst, tt.maxULP, "%s(%v) = %v, float64 gives %v",
				tt.name, at, tt.f(at), tt.ref(float64(at)))
		})
	}
}

// TestBinaryAgainstFloat64 does the same for the functions of two arguments.
func TestBinaryAgainstFloat64(t *testing.T) {
	tests := []struct {
		name   string
		f      func(float32, float32) float32
		ref    func(float64, float64) float64
		gen    func(*rand.Rand) (float32, float32)
		maxULP float64
	}{
		{"Pow", fmath.Pow, math.Pow, func(r *rand.Rand) (float32, float32) {
			return logUniform(r, -10, 10, false), uniform(r, -12, 12)
		}, 1},
		{"Atan2", fmath.Atan2, math.Atan2, func(r *rand.Rand) (float32, float32) {
			return logUniform(r, -20, 20, true), logUniform(r, -20, 20, true)
		}, 1},
		{"Min", fmath.Min, math.Min, func(r *rand.Rand) (float32, float32) {
			return logUniform(r, -20, 20, true), logUniform(r, -20, 20, true)
		}, 0},
		{"Max", fmath.Max, math.Max, func(r *rand.Rand) (float32, float32) {
			return logUniform(r, -20, 20, true), logUniform(r, -20, 20, true)
		}, 0},
		{"Step", fmath.Step, func(e, x float64) float64 { return float64(btof(x >= e)) },
			func(r *rand.Rand) (float32, float32) { return uniform(r, -4, 4), uniform(r, -4, 4) }, 0},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(k), 10))
			worst, ax, ay := 0.0, float32(0), float32(0)
			for range samples {
				x, y := tt.gen(r)
				if u := ulps(tt.f(x, y), tt.ref(float64(x), float64(y))); u > worst {
					worst, ax, ay = u, x, y
				}
			}
			assert.LessOrEqual(t, worst, tt.maxULP, "%s(%v, %v) = %v, float64 gives %v",
				tt.name, ax, ay, tt.f(ax, ay), tt.ref(float64(ax), float64(ay)))
		})
	}
}

// TestTernaryAgainstFloat64 checks Clamp, Mix and Smoothstep against their GLSL formulas
// evaluated in float64.
func TestTernaryAgainstFloat64(t *testing.T) {
	smooth := func(e0, e1, x float64) float64 {
		t := math.Min(math.Max((x-e0)/(e1-e0), 0), 1)
		return t * t * (3 - 2*t)
	}
	tests := []struct {
		name   string
		f      func(float32, float32, float32) float32
		ref    func(float64, float64, float64) float64
		gen    func(*rand.Rand) (float32, float32, float32)
		maxULP float64
	}{
		{"Clamp", fmath.Clamp, func(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) },
			func(r *rand.Rand) (float32, float32, float32) {
				return uniform(r, -8, 8), uniform(r, -5, 0), uniform(r, 0, 5)
			}, 0},
		{"Mix", fmath.Mix, func(x, y, a float64) float64 { return x*(1-a) + y*a },
			func(r *rand.Rand) (float32, float32, float32) {
				return logUniform(r, -10, 10, true), logUniform(r, -10, 10, true), uniform(r, 0, 1)
			}, 0.5},
		{"Smoothstep", fmath.Smoothstep, smooth, func(r *rand.Rand) (float32, float32, float32) {
			e0 := uniform(r, -10, 10)
			return e0, e0 + uniform(r, 0.01, 10), uniform(r, -25, 25)
		}, 0.5},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(k), 11))
			for range samples {
				x, y, z := tt.gen(r)
				want := tt.ref(float64(x), float64(y), float64(z))
				if u := ulps(tt.f(x, y, z), want); u > tt.maxULP {
					require.Failf(t, "too far", "%s(%v, %v, %v) = %v, float64 gives %v (%v ULP)",
						tt.name, x, y, z, tt.f(x, y, z), want, u)
				}
			}
		})
	}
}

func btof(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// bigf is x as a big.Float with room for any exact sum of float32 products.
func bigf(x float32) *big.Float { return new(big.Float).SetPrec(1200).SetFloat64(float64(x)) }

// TestSqrtRsqrt checks Sqrt against a correctly rounded square root and Rsqrt within
// 1 ULP of the exact reciprocal square root.
func TestSqrtRsqrt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range samples {
		x := logUniform(r, -149, 127, false)
		want, _ := new(big.Float).SetPrec(24).Sqrt(bigf(x)).Float32()
		require.Equal(t, want, fmath.Sqrt(x), "Sqrt(%v)", x)
		rs := new(big.Float).SetPrec(200).Sqrt(bigf(x))
		exact, _ := rs.Quo(new(big.Float).SetPrec(200).SetInt64(1), rs).Float64()
		require.LessOrEqual(t, ulps(fmath.Rsqrt(x), exact), 1.0, "Rsqrt(%v)", x)
	}
}

// TestFmaCorrectlyRounded compares Fma with the exact a·b + c rounded once, on random
// inputs and on cases where c cancels most of a·b, where rounding twice goes wrong.
func TestFmaCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range samples {
		a, b := logUniform(r, -60, 60, true), logUniform(r, -60, 60, true)
		var c float32
		switch n % 3 {
		case 0:
			c = logUniform(r, -120, 120, true)
		case 1: // near cancellation
			c = -a * b * (1 + uniform(r, -1e-6, 1e-6))
		case 2: // far below a·b's last bit
			c = a * b * logUniform(r, -60, -20, true)
		}
		exact := new(big.Float).SetPrec(1200).Mul(bigf(a), bigf(b))
		want, _ := exact.Add(exact, bigf(c)).Float32()
		require.Equal(t, want, fmath.Fma(a, b, c), "Fma(%v, %v, %v)", a, b, c)
	}
	// (1 + 2^-12)² = 1 + 2^-11 + 2^-24 lies halfway between two float32s; ±2^-80 decides
	// the direction, but a float64 sum drops it and rounds the halfway case to even.
	a := float32(1 + 1.0/4096)
	assert.Equal(t, float32(1+1.0/2048+1.0/(1<<23)), fmath.Fma(a, a, 0x1p-80))
	assert.Equal(t, float32(1+1.0/2048), fmath.Fma(a, a, -0x1p-80))
	assert.Equal(t, float32(1+1.0/2048), float32(float64(a)*float64(a)+0x1p-80), "the naive sum rounds twice")
}

// floorMod is x - y·floor(x/y) in exact arithmetic, rounded to float32.
func floorMod(x, y float32) float32 {
	q := new(big.Float).SetPrec(1200).Quo(bigf(x), bigf(y))
	n, acc := q.Int(nil) // truncated toward zero
	if q.Sign() < 0 && acc != big.Exact {
		n.Sub(n, big.NewInt(1))
	}
	yn := new(big.Float).SetPrec(1200).Mul(bigf(y), new(big.Float).SetInt(n))
	f, _ := yn.Sub(bigf(x), yn).Float32()
	return f
}

// TestModExact compares Mod with the exact floored modulus on ratios from tiny to 2^250,
// both signs, and on both of Mod's paths.
func TestModExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := range samples {
		y := logUniform(r, -100, 100, true)
		var x float32
		switch n % 3 {
		case 0: // |x/y| < 2^24: the float64 path
			x = y * logUniform(r, -40, 23.9, true)
		case 1: // huge ratios: math.Mod
			x = y * logUniform(r, 24, 140, true)
		case 2: // tiny x of the other sign: the result rounds toward |y|
			x = -y * logUniform(r, -60, -20, false)
		}
		if math.IsInf(float64(x), 0) || x == 0 {
			continue
		}
		require.Equal(t, floorMod(x, y), fmath.Mod(x, y), "Mod(%v, %v)", x, y)
	}
}

// edgeCases pins the special values: NaN, infinities, signed zeros, halves.
var edgeCases = []struct {
	expr      string
	got, want float32
}{
	{"Round(2.5)", fmath.Round(2.5), 3},
	{"Round(-2.5)", fmath.Round(-2.5), -3},
	{"Round(0.5)", fmath.Round(0.5), 1},
	{"Round(-0.5)", fmath.Round(-0.5), -1},
	{"Round(0.49999997)", fmath.Round(0.49999997), 0},
	{"RoundEven(2.5)", fmath.RoundEven(2.5), 2},
	{"RoundEven(3.5)", fmath.RoundEven(3.5), 4},
	{"RoundEven(-2.5)", fmath.RoundEven(-2.5), -2},
	{"RoundEven(-0.5)", fmath.RoundEven(-0.5), negZ},
	{"Round(-0.2)", fmath.Round(-0.2), negZ},
	{"Trunc(-0.7)", fmath.Trunc(-0.7), negZ},
	{"Ceil(-0.7)", fmath.Ceil(-0.7), negZ},
	{"Floor(-0)", fmath.Floor(negZ), negZ},
	{"Floor(-Inf)", fmath.Floor(-inf), -inf},
	{"Round(1e30)", fmath.Round(1e30), 1e30},
	{"Fract(-1.25)", fmath.Fract(-1.25), 0.75},
	{"Fract(-1e-30)", fmath.Fract(-1e-30), 1},
	{"Fract(Inf)", fmath.Fract(inf), nan},
	{"Abs(-0)", fmath.Abs(negZ), 0},
	{"Abs(-Inf)", fmath.Abs(-inf), inf},
	{"Sign(-3)", fmath.Sign(-3), -1},
	{"Sign(7)", fmath.Sign(7), 1},
	{"Sign(-0)", fmath.Sign(negZ), negZ},
	{"Sign(NaN)", fmath.Sign(nan), nan},
	{"Sqrt(-1)", fmath.Sqrt(-1), nan},
	{"Sqrt(-0)", fmath.Sqrt(negZ), negZ},
	{"Sqrt(Inf)", fmath.Sqrt(inf), inf},
	{"Rsqrt(0)", fmath.Rsqrt(0), inf},
	{"Rsqrt(-0)", fmath.Rsqrt(negZ), -inf},
	{"Rsqrt(Inf)", fmath.Rsqrt(inf), 0},
	{"Rsqrt(4)", fmath.Rsqrt(4), 0.5},
	{"Exp(-Inf)", fmath.Exp(-inf), 0},
	{"Exp(89)", fmath.Exp(89), inf},
	{"Exp2(-150)", fmath.Exp2(-150), 0},
	{"Exp2(10)", fmath.Exp2(10), 1024},
	{"Log(0)", fmath.Log(0), -inf},
	{"Log(-1)", fmath.Log(-1), nan},
	{"Log2(2^-149)", fmath.Log2(0x1p-149), -149},
	{"Log2(2^127)", fmath.Log2(0x1p127), 127},
	{"Pow(-2, 3)", fmath.Pow(-2, 3), -8},
	{"Pow(2, 0.5)", fmath.Pow(2, 0.5), math.Sqrt2},
	{"Pow(0, -1)", fmath.Pow(0, -1), inf},
	{"Atan2(1, -Inf)", fmath.Atan2(1, -inf), math.Pi},
	{"Atan2(-0, -1)", fmath.Atan2(negZ, -1), -math.Pi},
	{"Asin(1.5)", fmath.Asin(1.5), nan},
	{"Tanh(Inf)", fmath.Tanh(inf), 1},
	{"Sinh(-0)", fmath.Sinh(negZ), negZ},
	{"Min(NaN, 1)", fmath.Min(nan, 1), nan},
	{"Min(1, NaN)", fmath.Min(1, nan), 1},
	{"Max(NaN, 1)", fmath.Max(nan, 1), nan},
	{"Max(1, NaN)", fmath.Max(1, nan), 1},
	{"Min(-0, 0)", fmath.Min(negZ, 0), negZ},
	{"Min(0, -0)", fmath.Min(0, negZ), 0},
	{"Max(-Inf, -3)", fmath.Max(-inf, -3), -3},
	{"Clamp(NaN, 0, 1)", fmath.Clamp(nan, 0, 1), nan},
	{"Clamp(-5, -1, 2)", fmath.Clamp(-5, -1, 2), -1},
	{"Clamp(5, -1, 2)", fmath.Clamp(5, -1, 2), 2},
	{"Clamp(Inf, -1, 2)", fmath.Clamp(inf, -1, 2), 2},
	{"Mix(3, 7, 0)", fmath.Mix(3, 7, 0), 3},
	{"Mix(3, 7, 1)", fmath.Mix(3, 7, 1), 7},
	{"Mix(3, 7, 0.25)", fmath.Mix(3, 7, 0.25), 4},
	{"Fma(2, 3, -6)", fmath.Fma(2, 3, -6), 0},
	{"Fma(Inf, 0, 1)", fmath.Fma(inf, 0, 1), nan},
	{"Fma(1e38, 4, -1e38)", fmath.Fma(1e38, 4, -1e38), float32(3 * float64(float32(1e38)))}, // a·b overflows float32
	{"Fma(1e30, 1e30, -Inf)", fmath.Fma(1e30, 1e30, -inf), -inf},
	{"Fma(2^-100, 2^-60, 0)", fmath.Fma(0x1p-100, 0x1p-60, 0), 0},
	{"Fma(2^-75, 2^-75, 0)", fmath.Fma(0x1p-75, 0x1p-74, 0), 0x1p-149},
	{"Step(1, 1)", fmath.Step(1, 1), 1},
	{"Step(1, 0.99)", fmath.Step(1, 0.99), 0},
	{"Step(NaN, 0)", fmath.Step(nan, 0), 1},
	{"Smoothstep(0, 1, -1)", fmath.Smoothstep(0, 1, -1), 0},
	{"Smoothstep(0, 1, 2)", fmath.Smoothstep(0, 1, 2), 1},
	{"Smoothstep(0, 2, 1)", fmath.Smoothstep(0, 2, 1), 0.5},
	{"Mod(-1, 3)", fmath.Mod(-1, 3), 2},
	{"Mod(1, -3)", fmath.Mod(1, -3), -2},
	{"Mod(-7.5, -2)", fmath.Mod(-7.5, -2), -1.5},
	{"Mod(7, 7)", fmath.Mod(7, 7), 0},
	{"Mod(-1e-30, 3)", fmath.Mod(-1e-30, 3), 3},
	{"Mod(5, 0)", fmath.Mod(5, 0), nan},
	{"Mod(Inf, 2)", fmath.Mod(inf, 2), nan},
	{"Mod(5, Inf)", fmath.Mod(5, inf), nan},
	{"Mod(1e38, 3)", fmath.Mod(1e38, 3), float32(math.Mod(float64(float32(1e38)), 3))},
}

func TestEdgeCases(t *testing.T) {
	for _, tt := range edgeCases {
		t.Run(tt.expr, func(t *testing.T) {
			if math.IsNaN(float64(tt.want)) {
				assert.True(t, tt.got != tt.got, "%s = %v, want NaN", tt.expr, tt.got)
				return
			}
			assert.Equal(t, math.Float32bits(tt.want), math.Float32bits(tt.got),
				"%s = %v, want %v (bits compared, so the sign of zero counts)", tt.expr, tt.got, tt.want)
		})
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		x          float32
		nan, isInf bool
	}{
		{nan, true, false},
		{float32(-math.NaN()), true, false},
		{inf, false, true},
		{-inf, false, true},
		{math.MaxFloat32, false, false},
		{-math.MaxFloat32, false, false},
		{0x1p-149, false, false},
		{negZ, false, false},
		{3.5, false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.x), func(t *testing.T) {
			assert.Equal(t, tt.nan, fmath.IsNaN(tt.x))
			assert.Equal(t, tt.isInf, fmath.IsInf(tt.x))
		})
	}
}

func TestConstants(t *testing.T) {
	var pi float32 = fmath.Pi // untyped: assignable to float32
	assert.Equal(t, float32(math.Pi), pi)
	assert.Equal(t, float64(math.E), float64(fmath.E))
}

// BenchmarkFuncs times each function on varied inputs, for comparison with the float32
// arithmetic around it in a CPU kernel.
func BenchmarkFuncs(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float32, 1024)
	for i := range xs {
		xs[i] = uniform(r, 0.1, 50)
	}
	funcs := []struct {
		name string
		f    func(float32) float32
	}{
		{"Sqrt", fmath.Sqrt}, {"Rsqrt", fmath.Rsqrt}, {"Exp", fmath.Exp}, {"Log", fmath.Log},
		{"Sin", fmath.Sin}, {"Floor", fmath.Floor}, {"Round", fmath.Round}, {"Fract", fmath.Fract},
		{"Fma", func(x float32) float32 { return fmath.Fma(x, x, 1) }},
		{"Mod", func(x float32) float32 { return fmath.Mod(x, 3.25) }},
		{"Pow", func(x float32) float32 { return fmath.Pow(x, 1.5) }},
	}
	for _, fn := range funcs {
		b.Run(fn.name, func(b *testing.B) {
			var sink float32
			for i := 0; b.Loop(); i++ {
				sink += fn.f(xs[i&1023])
			}
			if sink == 42 {
				b.Log(sink)
			}
		})
	}
}
