// Package fmath is float32 math for kernels, C++ AMP's fast_math for goamp: every function
// takes and returns float32, runs as Go on the CPU, and is written as the GLSL built-in
// beside it when package translate turns a kernel into GLSL. Go's math package works on
// float64, which most GPUs run at a fraction of float32's speed and some not at all.
//
// # Accuracy
//
// The GPU column is the least a conforming Vulkan device must deliver, from the Vulkan
// specification's "Precision and Operation of SPIR-V Instructions" (appendix "Vulkan
// Environment for SPIR-V"); devices are often better. "Inherited from f" means as accurate
// as computing the formula f with the precision of each of its operations. "CR" is
// correctly rounded: the exact result, rounded to a neighbouring float32. The CPU column
// is what this package's Go code gives: "CR" there is round-to-nearest-even, and "≤ 1 ULP"
// is Go's float64 function rounded to float32 (its float64 error is far below half a
// float32 ULP, so the result is nearly always the correctly rounded one).
//
//	Go                     GLSL                   GPU (Vulkan, float32)                   CPU
//	Sqrt(x)                sqrt(x)                inherited from 1.0 / inversesqrt(x)     CR
//	Rsqrt(x)               inversesqrt(x)         2 ULP                                   ≤ 1 ULP
//	Exp(x)                 exp(x)                 3 + 2·|x| ULP                           ≤ 1 ULP
//	Exp2(x)                exp2(x)                3 + 2·|x| ULP                           ≤ 1 ULP
//	Log(x)                 log(x)                 3 ULP outside [0.5, 2],                 ≤ 1 ULP
//	                                              absolute error < 2^-21 inside
//	Log2(x)                log2(x)                as log                                  ≤ 1 ULP
//	Pow(x, y)              pow(x, y)              inherited from exp2(y·log2(x))          ≤ 1 ULP
//	Sin(x)                 sin(x)                 absolute error ≤ 2^-11 in [-π, π],      ≤ 1 ULP
//	                                              unspecified outside
//	Cos(x)                 cos(x)                 as sin                                  ≤ 1 ULP
//	Tan(x)                 tan(x)                 inherited from sin(x) / cos(x)          ≤ 1 ULP
//	Asin(x)                asin(x)                inherited from atan2(x, sqrt(1 - x·x))  ≤ 1 ULP
//	Acos(x)                acos(x)                inherited from atan2(sqrt(1 - x·x), x)  ≤ 1 ULP
//	Atan(x)                atan(x)                4096 ULP                                ≤ 1 ULP
//	Atan2(y, x)            atan(y, x)             4096 ULP                                ≤ 1 ULP
//	Sinh(x)                sinh(x)                inherited from (exp(x) - exp(-x))·0.5   ≤ 1 ULP
//	Cosh(x)                cosh(x)                inherited from (exp(x) + exp(-x))·0.5   ≤ 1 ULP
//	Tanh(x)                tanh(x)                inherited from sinh(x) / cosh(x)        ≤ 1 ULP
//	Floor(x)               floor(x)               CR (exact)                              exact
//	Ceil(x)                ceil(x)                CR (exact)                              exact
//	Trunc(x)               trunc(x)               CR (exact)                              exact
//	Round(x)               round(x)               CR; halves go either way                exact, halves away from 0
//	RoundEven(x)           roundEven(x)           CR (exact)                              exact, halves to even
//	Fract(x)               fract(x)               CR                                      CR
//	Abs(x)                 abs(x)                 CR (exact)                              exact
//	Sign(x)                sign(x)                CR (exact)                              exact
//	Min(x, y)              min(x, y)              CR (exact); NaN: either operand         exact; NaN: see below
//	Max(x, y)              max(x, y)              CR (exact); NaN: either operand         exact; NaN: see below
//	Clamp(x, lo, hi)       clamp(x, lo, hi)       CR (exact); NaN: undefined              exact; NaN: see below
//	Mix(x, y, a)           mix(x, y, a)           inherited from x·(1 - a) + y·a          float64 formula, rounded
//	Fma(a, b, c)           fma(a, b, c)           inherited from a·b, then + c            CR (one rounding)
//	Step(edge, x)          step(edge, x)          CR (exact)                              exact
//	Smoothstep(e0, e1, x)  smoothstep(e0, e1, x)  inherited from t·t·(3 - 2t),            float64 formula, rounded
//	                                              t = clamp((x-e0)/(e1-e0), 0, 1)
//	Mod(x, y)              mod(x, y)              inherited from x - y·floor(x/y)         CR
//	IsNaN(x)               isnan(x)               exact, but see below                    exact
//	IsInf(x)               isinf(x)               exact, but see below                    exact
//	x / y                  x / y                  2.5 ULP for |y| in [2^-126, 2^126]      CR
//	x + y, x - y, x * y    the same               CR                                      CR
//
// Fma's GPU column is Vulkan's minimum: a device may compute it as a·b rounded, then + c
// (lavapipe does); NVIDIA's GPUs fuse it, as the CPU does. Other float operations of a
// kernel ampgen writes are rounded on their own on the GPU, as on the CPU, but for a*b + c,
// which the device may fuse as Go allows (see docs/kernel-language.md).
//
// "Inherited" errors compound: asin(x) near ±1, pow(x, y) for large |y·log2(x)|, sinh(x),
// tanh(x) and smoothstep on the GPU can be far less accurate than the CPU column. Kernels
// whose results must agree closely on every backend should prefer Sqrt, Rsqrt, Exp2, Log2,
// Fma and the exact functions, and keep arguments of Sin and Cos within [-π, π].
//
// # NaN and infinity
//
// The CPU follows IEEE 754 and Go's math package throughout: NaN in, NaN out (except Min,
// Max, Clamp and Step, whose GLSL definitions below pick an operand), and the special cases
// documented on each function. A GPU may, unless the shader declares
// SignedZeroInfNanPreserve, assume that no value is NaN or infinite, ignore the sign of
// zero, and flush denormals to zero (ampgen's kernels declare it, and a device that keeps
// it, as accelerator.Accelerator.KeepsSignedZeroInfNaN reports, keeps zeros' signs, NaNs
// and infinities; denormals may still be flushed); GLSL leaves the results of sqrt, inversesqrt, log and
// log2 undefined for x <= 0 (x < 0 for sqrt), pow for x < 0 or x = 0 with y <= 0, asin
// and acos for |x| > 1, and atan(y, x) for x = y = 0.
//
// Min(x, y) is GLSL's definition, y < x ? y : x, and Max(x, y) is x < y ? y : x: with a
// NaN operand they return x (so Min(NaN, 1) is NaN and Min(1, NaN) is 1), where Go's
// built-in min and max return NaN and a GPU may return either operand. Clamp(x, lo, hi)
// is Min(Max(x, lo), hi), so a NaN x stays NaN on the CPU.
//
// Mod is GLSL's floored modulus, not math.Mod's truncated remainder: its result has the
// sign of y.
package fmath
