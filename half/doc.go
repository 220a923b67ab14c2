// Package half is goamp's 16-bit floating-point element type: Float16, IEEE 754
// binary16 (1 sign bit, 5 exponent bits, 10 fraction bits), GLSL's float16_t. Go has no
// such type, so Float16 is a named type over the bits, with exact conversions: FromFloat32
// rounds to nearest, ties to even (subnormals, infinities and NaNs included; a NaN stays
// a quiet NaN with its sign and top payload bits), Float32 is exact. FromFloat32s and
// ToFloat32s convert slices, for the host side of float16 views.
//
// A View[half.Float16] or Array[half.Float16] binds to a GLSL float16_t buffer (or, as raw
// bits, a uint16_t one) on devices with 16-bit storage (VK_KHR_16bit_storage's
// storageBuffer16BitAccess, see accelerator.Accelerator.Supports16BitStorage); a program
// that declares 16-bit storage fails on other devices with an
// *accelerator.FeatureError before anything runs. On the CPU accelerator it is plain
// memory. Arithmetic is the kernels' business: on the host convert to float32 (the
// product of two Float16 values is exact in float32).
//
// half imports nothing of goamp, so that runtime and arrayview can recognize the type.
package half
