//go:build amd64 && !purego

package gemm

// avx2 reports whether the CPU has AVX2 and the OS saves its registers: then the
// micro-kernels are the assembly of gemm_amd64.s.
var avx2 = hasAVX2()

// Wide reports whether MulAddF32 and MulAddI32 run the AVX2 assembly (four rows of C in
// eight 256-bit registers): on amd64, without the purego tag, when the CPU has AVX2 and
// the OS saves its registers.
func Wide() bool { return avx2 }

// hasAVX2 reports AVX2 support by CPUID and XGETBV.
func hasAVX2() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	if _, _, c, _ := cpuid(1, 0); c&(1<<27) == 0 || c&(1<<28) == 0 {
		return false // no OSXSAVE or no AVX
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false // the OS does not save the XMM and YMM registers
	}
	_, b, _, _ := cpuid(7, 0)
	return b&(1<<5) != 0
}

// mulAddF32 is MulAddF32 after its checks (d >= 1): the assembly where the CPU has AVX2.
func mulAddF32(a, b, c []float32, ldc, d int) {
	if avx2 {
		mulAddF32x16(&a[0], &b[0], &c[0], ldc, d)
		return
	}
	mulAddGo(a, b, c, ldc, d)
}

// mulAddI32 is MulAddI32 after its checks (d >= 1): the assembly where the CPU has AVX2.
func mulAddI32(a, b, c []int32, ldc, d int) {
	if avx2 {
		mulAddI32x16(&a[0], &b[0], &c[0], ldc, d)
		return
	}
	mulAddGo(a, b, c, ldc, d)
}

// cpuid executes CPUID with eax and ecx.
func cpuid(eax, ecx uint32) (a, b, c, d uint32)

// xgetbv reads XCR0.
func xgetbv() (lo, hi uint32)

// mulAddI32x16 is MulAddI32 on pointers to the panels' first elements, in wrapping int32
// arithmetic (VPMULLD, VPADDD); depth may be 0.
//
//go:noescape
func mulAddI32x16(a, b, c *int32, ldc, depth int)

// mulAddF32x16 is MulAddF32 on pointers to the panels' first elements, with a separate
// multiply and add per term (VMULPS, VADDPS, no fused multiply-add), in p order: the same
// rounding as mulAddGo.
//
//go:noescape
func mulAddF32x16(a, b, c *float32, ldc, depth int)
