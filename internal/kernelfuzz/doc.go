// Package kernelfuzz generates random kernels of the kernel language and runs each four
// ways, with Go as the oracle: its Each method called in a plain loop over the domain (a
// tiled kernel's Tiled method on the CPU executor's threads, which hold its barriers and
// tile_static memory), the CPU accelerator per thread (internal/rtlink's PerThread), the CPU
// accelerator through the fast body ampgen writes, and each Vulkan device asked for
// (lavapipe here, the GPU on GPU machines), with the validation layer on where the
// environment asks for it. Any difference fails.
//
// # What a kernel holds
//
// Expressions of int8, int16, int32, uint8, uint16, uint32, int, float32, float64,
// half.Float16, bool and vec.Float2, Float4, Int3, Uint4 values: arithmetic, bit
// operations, shifts, conversions, comparisons, min and max, math/bits, fmath and math
// functions, vector methods, calls of the package's functions (one result or two, early
// returns); if/else, for loops of three clauses and over ranges, labeled break and
// continue, switch with and without a tag and fallthrough; views of rank 1 to 3 of int32,
// uint32, float32, int8, uint8, half.Float16, float64 and vec.Float4 elements, read at the
// thread's index and its neighbours', written at the thread's own; atomics on views and on
// tile_static memory; tile_static arrays written, a barrier, read, a barrier, at the top of
// a Tiled body or in a loop or if of uniform control; captures of every scalar kind, vectors,
// an array and a struct (push constants, within 128 bytes).
//
// # Defined by construction
//
// Each kernel is race-free and has one meaning: divisors go through nz_T (never 0), shift
// counts are masked (0 to 63, past every width), a float converts to an integer only
// through f2i_F_T (in range, else 0; NaN is 0), an int stays far inside 32 bits (the GPU's
// int), indices are clamped into views and tile_static arrays, a thread writes only its own
// element of a view and of tile_static memory between barriers, and atomics' results are
// not used (every order gives the same memory). Floats keep to what Go and the GPU
// compute alike: every product is written float32(a*b), which Go and ampgen keep rounded
// (the one freedom, a*b+c fusing, cannot arise), a product or quotient below 1e-30 (1e-290
// for float64) is flushed to 0 by ftz (a device may flush denormals), there is no float
// division but by powers of two and no transcendental function, and NaNs compare equal
// whatever their bits (a NaN's payload is the platform's). Float atomics add small
// integers, whose sum is exact in any order. Under Options.Finite (TestKernels' default;
// -ieee turns it off) no float is infinite or NaN and zeros compare without their sign:
// lavapipe differs from Go there although it says it keeps them.
//
// # Running
//
// TestKernels (make fuzz-kernels N=...) writes kernels in packages of -batch under
// testdata, translates each package as ampgen does (package translate; one glslc process
// a package, then spirv-opt per kernel, which gives glslc -O's SPIR-V), runs its harness
// with go test while it generates the next package, and minimizes a failing kernel
// (statements dropped while it fails the same way) into testdata/repro. Its first
// package also holds the kernels of found: differences found and fixed. FuzzKernels takes
// seeds from the fuzzing engine; TestBuildGPU (make fuzz-kernels-gpu) writes test binaries
// for a machine without Go.
package kernelfuzz
