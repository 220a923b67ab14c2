package fmath_test

import (
	"fmt"
	"math"

	"github.com/goamp/goamp/fmath"
)

func Example() {
	// A CPU kernel body calls these as any Go function; the translator writes the GLSL
	// built-ins (sqrt, inversesqrt, exp2, mix, ...).
	x := float32(2)
	fmt.Println(fmath.Sqrt(x), fmath.Rsqrt(4), fmath.Exp2(10), fmath.Log2(1024))
	fmt.Println(fmath.Mix(0, 10, 0.25), fmath.Clamp(7, 0, 5), fmath.Smoothstep(0, 1, 0.5), fmath.Fract(-1.25))
	fmt.Println(fmath.Sin(fmath.Pi/6), fmath.Atan2(1, -1), fmath.Fma(3, 4, -12))
	// Output:
	// 1.4142135 0.5 1024 10
	// 2.5 5 0.5 0.75
	// 0.5 2.3561945 0
}

// Mod is GLSL's floored modulus: the result has the sign of y, not of x as with math.Mod.
func ExampleMod() {
	fmt.Println(fmath.Mod(-1, 3), math.Mod(-1, 3))
	fmt.Println(fmath.Mod(7.5, -2), math.Mod(7.5, -2))
	// Output:
	// 2 -1
	// -0.5 1.5
}

// Round sends halves away from zero, as math.Round does; GLSL's round lets the device
// choose, so kernels that must agree on every backend use RoundEven.
func ExampleRound() {
	for _, x := range []float32{0.5, 1.5, 2.5, -2.5} {
		fmt.Println(x, fmath.Round(x), fmath.RoundEven(x))
	}
	// Output:
	// 0.5 1 0
	// 1.5 2 2
	// 2.5 3 2
	// -2.5 -3 -2
}

// Min is GLSL's y < x ? y : x: with a NaN operand it returns x, where Go's built-in min
// returns NaN.
func ExampleMin() {
	nan := float32(math.NaN())
	fmt.Println(fmath.Min(nan, 1), fmath.Min(1, nan), min(1, nan))
	// Output: NaN 1 NaN
}
