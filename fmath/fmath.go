package fmath

import "math"

// Mathematical constants, untyped as math's are: they become float32 where a kernel uses
// them as one.
const (
	// Pi is π.
	Pi = math.Pi
	// E is Euler's number e.
	E = math.E
)

// maxFloat32 is the largest finite float32, as a float32.
const maxFloat32 float32 = math.MaxFloat32

// Sqrt returns the square root of x (GLSL sqrt), NaN for x < 0. Error: at most 3 ULP on
// every device; correctly rounded on the CPU.
func Sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Rsqrt returns 1/√x (GLSL inversesqrt): +Inf for +0, -Inf for -0, NaN for x < 0.
// Error: at most 2 ULP on every device.
func Rsqrt(x float32) float32 { return float32(1 / math.Sqrt(float64(x))) }

// Exp returns eˣ (goamp's own GLSL, not the driver's exp). Error: at most 2 ULP on every
// device; results below 2^-126 may be flushed to zero on a GPU.
func Exp(x float32) float32 { return float32(math.Exp(float64(x))) }

// Exp2 returns 2ˣ (goamp's own GLSL, not the driver's exp2). Error: at most 2 ULP on every
// device; results below 2^-126 may be flushed to zero on a GPU.
func Exp2(x float32) float32 { return float32(math.Exp2(float64(x))) }

// Log returns the natural logarithm of x (goamp's own GLSL, not the driver's log): -Inf
// for ±0, NaN for x < 0. Error: at most 2 ULP on every device.
func Log(x float32) float32 { return float32(math.Log(float64(x))) }

// Log2 returns the base-2 logarithm of x (goamp's own GLSL, not the driver's log2): exact
// for powers of two, -Inf for ±0, NaN for x < 0. Error: at most 2 ULP on every device.
func Log2(x float32) float32 { return float32(math.Log2(float64(x))) }

// Pow returns xʸ: on a GPU, for x > 0, goamp's Exp2(y·Log2(x)) (1 for y = 0 or x = 1), else
// GLSL pow. On the CPU the special cases are math.Pow's (Pow(-8, 3) is -512); GLSL leaves
// x < 0, and x = 0 with y <= 0, undefined. Error for x > 0: at most 2 + 2.5·|y·log2(x)|
// ULP on every device (it grows with the exponent computed); at most 1 ULP on the CPU.
func Pow(x, y float32) float32 { return float32(math.Pow(float64(x), float64(y))) }

// Sin returns the sine of x radians (goamp's own GLSL, not the driver's sin). Error: at
// most 2^-21 absolute for |x| <= 4096 on every device; beyond, the float32 argument
// reduction loses accuracy (2^-20 at 65536, 2^-5 at 2^20); at most 1 ULP on the CPU
// everywhere.
func Sin(x float32) float32 { return float32(math.Sin(float64(x))) }

// Cos returns the cosine of x radians (goamp's own GLSL, not the driver's cos). Error: as
// Sin's.
func Cos(x float32) float32 { return float32(math.Cos(float64(x))) }

// Tan returns the tangent of x radians (goamp's own GLSL, not the driver's tan). Error, for
// x in (-π/2, π/2): inherited from Sin(x)/Cos(x), at most 2^-21·(1 + |tan x|)/|cos x| +
// 2.5 ULP on every device; at most 1 ULP on the CPU.
func Tan(x float32) float32 { return float32(math.Tan(float64(x))) }

// Asin returns the arcsine of x in [-π/2, π/2] (goamp's own GLSL, not the driver's asin),
// NaN for |x| > 1. Error: at most 3 ULP on every device.
func Asin(x float32) float32 { return float32(math.Asin(float64(x))) }

// Acos returns the arccosine of x in [0, π] (goamp's own GLSL, not the driver's acos),
// NaN for |x| > 1. Error: at most 2 ULP on every device.
func Acos(x float32) float32 { return float32(math.Acos(float64(x))) }

// Atan returns the arctangent of x in [-π/2, π/2] (goamp's own GLSL, not the driver's
// atan). Error: at most 4 ULP on every device (its range reduction divides, and a GPU's
// division may be 2.5 ULP off).
func Atan(x float32) float32 { return float32(math.Atan(float64(x))) }

// Atan2 returns the angle of the point (x, y) in [-π, π] (goamp's own GLSL, not the
// driver's atan(y, x)), with math.Atan2's special cases on every device. Error: at most
// 4 ULP on every device.
func Atan2(y, x float32) float32 { return float32(math.Atan2(float64(y), float64(x))) }

// Sinh returns the hyperbolic sine of x (goamp's own GLSL, not the driver's sinh). Error:
// at most 3 ULP on every device.
func Sinh(x float32) float32 { return float32(math.Sinh(float64(x))) }

// Cosh returns the hyperbolic cosine of x (goamp's own GLSL, not the driver's cosh).
// Error: at most 3 ULP on every device.
func Cosh(x float32) float32 { return float32(math.Cosh(float64(x))) }

// Tanh returns the hyperbolic tangent of x (goamp's own GLSL, not the driver's tanh).
// Error: at most 2 ULP on every device, small x included.
func Tanh(x float32) float32 { return float32(math.Tanh(float64(x))) }

// Floor returns the greatest integer value <= x (GLSL floor): exact.
func Floor(x float32) float32 { return float32(math.Floor(float64(x))) }

// Ceil returns the least integer value >= x (GLSL ceil): exact.
func Ceil(x float32) float32 { return float32(math.Ceil(float64(x))) }

// Round returns the integer value nearest to x, halves away from zero, as math.Round
// does, exactly, on every device (goamp's own GLSL: GLSL's round lets the device choose
// the direction of halves).
func Round(x float32) float32 { return float32(math.Round(float64(x))) }

// RoundEven returns the integer value nearest to x, halves to even (GLSL roundEven):
// exact.
func RoundEven(x float32) float32 { return float32(math.RoundToEven(float64(x))) }

// Trunc returns the integer value of x rounded toward zero (GLSL trunc): exact.
func Trunc(x float32) float32 { return float32(math.Trunc(float64(x))) }

// Fract returns x - Floor(x), rounded: it is in [0, 1), except that a negative x very close
// to zero gives 1 (x + 1 rounds up), as GLSL defines fract. Infinities give NaN.
// Error: at most ½ ULP on every device.
func Fract(x float32) float32 { return x - Floor(x) }

// Abs returns |x| (GLSL abs): it clears the sign bit, of NaN and -0 too.
func Abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Min returns y if y < x, otherwise x: GLSL's definition of min. With a NaN operand it
// returns x (NaN when x is NaN, y when only y is); with zeros of both signs it returns x.
// A GPU may return either operand when one is NaN.
func Min(x, y float32) float32 {
	if y < x {
		return y
	}
	return x
}

// Max returns y if x < y, otherwise x: GLSL's definition of max, with the same rules for
// NaN and zeros as Min.
func Max(x, y float32) float32 {
	if x < y {
		return y
	}
	return x
}

// Clamp returns Min(Max(x, lo), hi) (GLSL clamp): a NaN x stays NaN on the CPU. GLSL
// leaves lo > hi undefined.
func Clamp(x, lo, hi float32) float32 { return Min(Max(x, lo), hi) }

// Mix returns the linear blend x·(1-a) + y·a (GLSL mix), computed in float64 and rounded
// once; a = 0 gives x and a = 1 gives y, for finite x and y.
func Mix(x, y, a float32) float32 {
	a64 := float64(a)
	return float32(float64(x)*(1-a64) + float64(y)*a64)
}

// Fma returns a·b + c with a single rounding (GLSL fma). GLSL lets a device compute it as
// a multiply followed by an add, rounded twice.
func Fma(a, b, c float32) float32 {
	p := float64(a) * float64(b) // exact: 24 + 24 significant bits
	z := float64(c)
	s := p + z
	if math.IsInf(s, 0) || s != s {
		return float32(s)
	}
	// s rounds p + z once; rounding it again to float32 could round twice. Replace it by
	// p + z rounded to odd, which float32 then rounds correctly (53 >= 24 + 2 bits). The
	// error of s is exact (Knuth's two-sum).
	bb := s - p
	e := (p - (s - bb)) + (z - bb)
	if bits := math.Float64bits(s); e != 0 && bits&1 == 0 {
		if (e > 0) == (s > 0) {
			bits++ // away from zero
		} else {
			bits--
		}
		s = math.Float64frombits(bits)
	}
	return float32(s)
}

// Sign returns 1 for x > 0, -1 for x < 0 and x itself for ±0 and NaN (GLSL sign).
func Sign(x float32) float32 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

// Step returns 0 if x < edge, otherwise 1 (GLSL step): a NaN operand gives 1.
func Step(edge, x float32) float32 {
	if x < edge {
		return 0
	}
	return 1
}

// Smoothstep returns 0 for x <= e0, 1 for x >= e1 and the Hermite interpolation t·t·(3-2t)
// with t = (x-e0)/(e1-e0) in between (GLSL smoothstep), computed in float64 and rounded
// once. GLSL leaves e0 >= e1 undefined.
func Smoothstep(e0, e1, x float32) float32 {
	t := (float64(x) - float64(e0)) / (float64(e1) - float64(e0))
	t = min(max(t, 0), 1)
	return float32(t * t * (3 - 2*t))
}

// Mod returns x - y·Floor(x/y) (GLSL mod), the floored modulus: it has the sign of y (or
// is zero), where math.Mod's truncated remainder has the sign of x: Mod(-1, 3) is 2 and
// math.Mod(-1, 3) is -1. On the CPU it is the exact result, rounded once (so a tiny
// negative x can give y itself: Mod(-1e-30, 3) is 3). y = ±0, x = ±Inf and y = ±Inf give
// NaN, as the formula does. GLSL computes the formula with rounding at each step, so its
// result can be far from the exact one near multiples of y (mod(x, x) may give x): on a GPU
// it lies within 2 ULP of max(|x|, |y|) of the exact result, or of it ± y.
func Mod(x, y float32) float32 {
	x64, y64 := float64(x), float64(y)
	// With |x/y| < 2^24 the float64 quotient has the exact one's floor, y·n is exact, and
	// x - y·n is rounded once, correctly (see TestModExact).
	if q := x64 / y64; q > -1<<24 && q < 1<<24 {
		return float32(x64 - y64*math.Floor(q))
	}
	r := math.Mod(x64, y64) // exact
	if r != 0 && (r < 0) != (y64 < 0) {
		r += y64
	}
	return float32(r)
}

// IsNaN reports whether x is a NaN (GLSL isnan). A GPU may assume that no NaN occurs
// unless the shader declares SignedZeroInfNanPreserve, and then answer false.
func IsNaN(x float32) bool { return x != x }

// IsInf reports whether x is +Inf or -Inf (GLSL isinf), with IsNaN's caveat on the GPU.
func IsInf(x float32) bool { return x > maxFloat32 || x < -maxFloat32 }
