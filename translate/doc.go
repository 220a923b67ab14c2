// Package translate is the kernel language: it loads a Go package (with
// golang.org/x/tools/go/packages), finds its kernels (struct types with an Each or Tiled
// method) and gives each
// its GPU body, the method and what it calls translated to GLSL and compiled to SPIR-V, and
// where it can its fast CPU body, Go source that runs a tile or a range of indices in plain
// loops. cmd/ampgen is its command; docs/kernel-language.md is the language's reference
// (what a body may use, where the GPU's semantics differ from Go's, every message).
//
// # Rooms
//
//   - Loading: load.go (Load, Options, Package, Kernel, the errors), types.go (Go types to
//     GLSL ones), narrow.go (8- and 16-bit values).
//   - The GPU body: kernel.go (a kernel's fields, its translation unit, the push-constant
//     block and the per-view functions, the bounds-checked build), stmt.go, expr.go,
//     call.go (calls, view access, extents, atomics), funcs.go (the package's functions:
//     several results, tile_static arguments, uniform parameters), foreign.go (other
//     packages' functions and struct types, loaded from source), uniform.go (which
//     values differ between a tile's threads, for the barrier rules), prelude.go (GLSL
//     helpers a body may need).
//   - The fast CPU bodies: fission.go (a Tiled body split at its barriers into regions),
//     goemit.go and gobody.go (the generated Go).
//   - Output: gofile.go (amp_gen.go and amp_gen_check.go), compile.go (glslc, spirv-val).
//
// # Imports
//
// The standard library's go/* packages, golang.org/x/tools/go/packages, and packages of
// goamp's ground that import nothing of goamp's: internal/ampabi (the dispatch contract),
// internal/spirv and internal/spvwords (SPIR-V's numbers and framing, its passes over
// compiled modules) and internal/srchash (the hash of the sources it records). It reads
// goamp's packages (runtime, arrayview, fmath, vec, half) as source through the type
// checker and never imports them, so it sits beside the runtime, not above it. The
// generated code imports runtime (as amprt) and what the kernels' package imports.
package translate
