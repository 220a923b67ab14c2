//go:build amd64 && !purego

package algo

// matMulWide reports whether the CPU's blocked matrix multiply uses the AVX2 micro-kernels
// of matmul_amd64.s (4 x 16 blocks of C in eight 256-bit registers): on amd64 when the CPU
// has AVX2 and the OS saves its registers. Tests turn it off to check the portable
// kernel too.
var matMulWide = matMulHasAVX2()

// matMulHasAVX2 reports AVX2 support by CPUID and XGETBV.
func matMulHasAVX2() bool {
	if maxLeaf, _, _, _ := matMulCPUID(0, 0); maxLeaf < 7 {
		return false
	}
	if _, _, c, _ := matMulCPUID(1, 0); c&(1<<27) == 0 || c&(1<<28) == 0 {
		return false // no OSXSAVE or no AVX
	}
	if xcr0, _ := matMulXGETBV(); xcr0&6 != 6 {
		return false // the OS does not save the XMM and YMM registers
	}
	_, b, _, _ := matMulCPUID(7, 0)
	return b&(1<<5) != 0
}

// matMulCPUID executes CPUID with eax and ecx.
func matMulCPUID(eax, ecx uint32) (a, b, c, d uint32)

// matMulXGETBV reads XCR0.
func matMulXGETBV() (lo, hi uint32)

// matMulI32x16 adds the product of a 4 x depth panel of A (packed by column: a[4p+r])
// and a depth x 16 panel of B (packed by row: b[16p+j]) to the 4 x 16 block of C at c
// (row stride ldc elements), in wrapping int32 arithmetic (VPMULLD, VPADDD). depth may be
// 0.
//
//go:noescape
func matMulI32x16(a, b, c *int32, ldc, depth int)

// matMulF32x16 is matMulI32x16 for float32, with a separate multiply and add per term
// (VMULPS, VADDPS, no fused multiply-add), in p order: the same rounding as the portable
// Go kernel.
//
//go:noescape
func matMulF32x16(a, b, c *float32, ldc, depth int)
