package algo

import (
	"github.com/goamp/goamp/internal/testprog"
	"github.com/goamp/goamp/runtime"
)

// Variants of package shaders' programs that only tests run (internal/testprog's
// variants.txt): production binaries do not embed them. The cooperative kernels with
// their matrices emulated in plain GLSL (matmul_coop.comp with AMP_COOP_EMULATE), so
// that devices without tensor cores test everything of them but the matrix
// instructions, and the hybrid sort's small local sorts.

// matMulCoopEmulated is the geometry of matmul_coop_emu, the default's with K steps of
// 16 (BK=16), so that its shared memory fits the 32 KiB of lavapipe.
var matMulCoopEmulated = matMulCoopGeom{tile: [2]int{4, 32}, bm: 128, bn: 128,
	shared: 2*(128*3+16*17)*16 + 4*16*16*4}

// matMulI8Emulated is matmul_coop_emu_i8's geometry: K steps of 32, so that its shared
// memory fits the 32 KiB of lavapipe.
var matMulI8Emulated = matMulCoopGeom{tile: [2]int{4, 32}, bm: 128, bn: 128,
	shared: 2*(128*3+32*9)*16 + 4*16*16*4}

// hybridSmall is the hybrid sort's small set (sort_local.glsl with buckets of 1,536 keys
// and room for subgroups of 8), which forced hybrid sorts run where hybridLarge does not
// fit: lavapipe.
func init() {
	hybridSmall = hybridSet{
		hybridProg{"sort_local_s", 6, 32, 256, false, testprog.MustProgram("sort_local_s", 1)},
		hybridProg{"sort_local_ps", 6, 32, 256, true, testprog.MustProgram("sort_local_ps", 1)}}
}

// emulatedCoop is matMulCoop running matmul_coop_emu (matmul_coop_emu_h for a float16 C).
type emulatedCoop[O MatMulF16Out] struct{ matMulCoop[O] }

// Program is the GPU body: the emulated program.
func (emulatedCoop[O]) Program() *runtime.Program {
	if matMulF16HalfOut[O]() {
		return testprog.MustProgram("matmul_coop_emu_h", 2)
	}
	return testprog.MustProgram("matmul_coop_emu", 2)
}

// emulatedI8Coop is matMulI8Coop running matmul_coop_emu_i8.
type emulatedI8Coop struct{ matMulI8Coop }

// Program is the GPU body: the emulated program.
func (emulatedI8Coop) Program() *runtime.Program {
	return testprog.MustProgram("matmul_coop_emu_i8", 2)
}
