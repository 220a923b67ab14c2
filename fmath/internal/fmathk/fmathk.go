// Package fmathk holds the kernel of fmath's accuracy tests: every function of package
// fmath applied to views, on each accelerator, so that the tests measure each device's
// error against the float64 functions of package math.
package fmathk

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/runtime"
)

//go:generate go run github.com/goamp/goamp/cmd/ampgen

// The functions Apply computes, by Fn.
const (
	Sqrt int32 = iota
	Rsqrt
	Exp
	Exp2
	Log
	Log2
	Sin
	Cos
	Tan
	Asin
	Acos
	Atan
	Sinh
	Cosh
	Tanh
	Pow
	Atan2
	Mod
	Fma
	Mix
	Smoothstep
	Fract
	Floor
	Ceil
	Trunc
	Round
	RoundEven
	Abs
	Sign
	Min
	Max
	Clamp
	Step
	NumFuncs // how many there are
)

// Apply sets Out[i] to function Fn of X[i] (and Y[i], Z[i] for the functions of two or
// three arguments, in fmath's order).
type Apply struct {
	X, Y, Z *arrayview.ReadView[float32]
	Out     *arrayview.View[float32]
	Fn      int32
}

// Each is the kernel.
func (k Apply) Each(i runtime.Index) {
	k.Out.Set(i, apply(k.Fn, k.X.At(i), k.Y.At(i), k.Z.At(i)))
}

// apply is function fn of x (y, z).
func apply(fn int32, x, y, z float32) float32 {
	switch fn {
	case Sqrt:
		return fmath.Sqrt(x)
	case Rsqrt:
		return fmath.Rsqrt(x)
	case Exp:
		return fmath.Exp(x)
	case Exp2:
		return fmath.Exp2(x)
	case Log:
		return fmath.Log(x)
	case Log2:
		return fmath.Log2(x)
	case Sin:
		return fmath.Sin(x)
	case Cos:
		return fmath.Cos(x)
	case Tan:
		return fmath.Tan(x)
	case Asin:
		return fmath.Asin(x)
	case Acos:
		return fmath.Acos(x)
	case Atan:
		return fmath.Atan(x)
	case Sinh:
		return fmath.Sinh(x)
	case Cosh:
		return fmath.Cosh(x)
	case Tanh:
		return fmath.Tanh(x)
	}
	return apply2(fn, x, y, z)
}

// apply2 is apply for the rest.
func apply2(fn int32, x, y, z float32) float32 {
	switch fn {
	case Pow:
		return fmath.Pow(x, y)
	case Atan2:
		return fmath.Atan2(x, y)
	case Mod:
		return fmath.Mod(x, y)
	case Fma:
		return fmath.Fma(x, y, z)
	case Mix:
		return fmath.Mix(x, y, z)
	case Smoothstep:
		return fmath.Smoothstep(x, y, z)
	case Fract:
		return fmath.Fract(x)
	case Floor:
		return fmath.Floor(x)
	case Ceil:
		return fmath.Ceil(x)
	case Trunc:
		return fmath.Trunc(x)
	case Round:
		return fmath.Round(x)
	case RoundEven:
		return fmath.RoundEven(x)
	case Abs:
		return fmath.Abs(x)
	case Sign:
		return fmath.Sign(x)
	case Min:
		return fmath.Min(x, y)
	case Max:
		return fmath.Max(x, y)
	case Clamp:
		return fmath.Clamp(x, y, z)
	case Step:
		return fmath.Step(x, y)
	}
	return 0
}
