// Package fmath is float32 math for kernels, C++ AMP's fast_math for goamp: every function
// takes and returns float32, runs as Go on the CPU, and is written as GLSL (the built-in
// beside it, or goamp's own float32 code where a driver's built-in may be less accurate)
// when package translate turns a kernel into GLSL. Go's math package works on
// float64, which most GPUs run at a fraction of float32's speed and some not at all.
//
// # Accuracy
//
// Each function has an error bound that holds on every accelerator, the CPU's included:
// in ULP (units in the last place of the float32 result), or absolute where the result
// crosses zero. Where Vulkan lets a device's GLSL built-in be worse (its minimum: exp
// 3 + 2·|x| ULP, log an absolute 2^-21 near 1, sin and cos an absolute 2^-11 in [-π, π],
// atan 4096 ULP, sinh, cosh, tanh, asin, acos and pow only "inherited" from their formulas;
// lavapipe's tanh had a relative error of 1.7e-4 at 1e-4, its asin 3,831 ULP, SwiftShader's
// sin 1.9e-4 absolute), a kernel's GPU body runs goamp's own float32 implementation instead
// (written after Cephes): Exp, Exp2, Log, Log2, Pow, Sin, Cos, Tan, Asin, Acos, Atan, Atan2,
// Sinh, Cosh, Tanh and Fract. The others are GLSL built-ins whose Vulkan minimum, or
// every device measured, meets the bound. On the CPU, "≤ 1 ULP" is Go's float64 function
// rounded to float32 (nearly always the correctly rounded result) and "CR" is correctly
// rounded. Inputs and results below 2^-126 (subnormals) may be flushed to zero on a GPU.
// The tests measure every bound on every accelerator present, each function at every
// 4093rd float32 of its range with the special values.
//
//	Go                     GLSL on the GPU        bound, every device                     CPU
//	Sqrt(x)                sqrt                   3 ULP                                   CR
//	Rsqrt(x)               inversesqrt            2 ULP                                   ≤ 1 ULP
//	Exp(x)                 goamp's                2 ULP                                   ≤ 1 ULP
//	Exp2(x)                goamp's                2 ULP                                   ≤ 1 ULP
//	Log(x)                 goamp's                2 ULP                                   ≤ 1 ULP
//	Log2(x)                goamp's                2 ULP                                   ≤ 1 ULP
//	Pow(x, y), x > 0       goamp's exp2(y·log2 x) 2 + 2.5·|y·log2(x)| ULP                 ≤ 1 ULP
//	Sin(x), Cos(x)         goamp's                absolute 2^-21 for |x| <= 4096;         ≤ 1 ULP
//	                                              beyond, more (2^-5 at 2^20)
//	Tan(x)                 goamp's                inherited from Sin(x) / Cos(x): 2^-21   ≤ 1 ULP
//	                                              ·(1 + |tan x|) / |cos x| + 2.5 ULP
//	Asin(x)                goamp's                3 ULP                                   ≤ 1 ULP
//	Acos(x)                goamp's                2 ULP                                   ≤ 1 ULP
//	Atan(x)                goamp's                4 ULP                                   ≤ 1 ULP
//	Atan2(y, x)            goamp's                4 ULP                                   ≤ 1 ULP
//	Sinh(x), Cosh(x)       goamp's                3 ULP                                   ≤ 1 ULP
//	Tanh(x)                goamp's                2 ULP                                   ≤ 1 ULP
//	Floor, Ceil, Trunc,    the same names         exact                                   exact
//	RoundEven, Abs, Sign
//	Round(x)               goamp's (halves away   exact                                   exact
//	                       from zero)
//	Fract(x)               goamp's x - floor(x)   ½ ULP (1 for a tiny negative x)         CR
//	Min, Max, Clamp, Step  the same names         exact; NaN: see below                   exact; NaN: see below
//	Mod(x, y)              mod                    2 ULP of max(|x|, |y|) from the exact   CR
//	                                              floored modulus, or from it ± y
//	Fma(a, b, c)           fma                    a·b rounded, then + c rounded, or one   CR (one rounding)
//	                                              rounding (NVIDIA GPUs)
//	Mix(x, y, a)           mix                    inherited from x·(1 - a) + y·a          float64 formula, rounded
//	Smoothstep(e0, e1, x)  smoothstep             inherited from t·t·(3 - 2t),            float64 formula, rounded
//	                                              t = clamp((x-e0)/(e1-e0), 0, 1)
//	IsNaN(x), IsInf(x)     isnan, isinf           exact, but see below                    exact
//	x / y                  x / y                  2.5 ULP for |y| in [2^-126, 2^126]      CR
//	x + y, x - y, x * y    the same               CR                                      CR
//
// Fma may be a·b rounded, then + c (lavapipe does so); NVIDIA's GPUs fuse it, as the CPU
// does. Other float operations of a kernel ampgen writes are rounded on their own on the
// GPU, as on the CPU, but for a*b + c, which the device may fuse as Go allows (see
// docs/kernel-language.md). Pow's error grows with |y·log2(x)|, the size of the exponent
// it computes: near 2^±126 it can reach a few hundred ULP. Keep arguments of Sin and Cos
// within ±4096 for their bounds.
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
