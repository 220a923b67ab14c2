//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 micro-kernels of the CPU's blocked matrix multiply (see gemm.go): C's
// 4 x 16 block lives in Y0..Y7 (two registers per row), each step p loads 16 elements of
// B (Y8, Y9), broadcasts each of A's 4 elements (Y10) and adds the products.

// MULADD_ROW adds A's element at off(SI), broadcast to Y10, times B's 16 elements (Y8,
// Y9) to C's row in lo, hi, with the multiply MUL and the add ADD.
#define MULADD_ROW(MUL, ADD, off, lo, hi) \
	VPBROADCASTD off(SI), Y10; \
	MUL Y8, Y10, Y11; \
	MUL Y9, Y10, Y12; \
	ADD Y11, lo, lo; \
	ADD Y12, hi, hi

// The macros stand before the first TEXT so that go vet's asmdecl, which does not expand
// them, checks them against no function; each micro-kernel's frame is $0-40 with the
// arguments a, b, c, ldc, depth that MULADD_4x16 loads by name.

// MULADD_4x16 is the body of a micro-kernel func(a, b, c *T, ldc, depth int) for 32-bit
// elements that MUL multiplies and ADD adds: it loads C's block (rows at DX, R9, R10,
// R11), adds depth steps (SI walks A by 4 elements, DI walks B by 16) and stores it.
#define MULADD_4x16(MUL, ADD) \
	MOVQ a+0(FP), SI; \
	MOVQ b+8(FP), DI; \
	MOVQ c+16(FP), DX; \
	MOVQ ldc+24(FP), R8; \
	SHLQ $2, R8; \
	MOVQ depth+32(FP), CX; \
	LEAQ (DX)(R8*1), R9; \
	LEAQ (R9)(R8*1), R10; \
	LEAQ (R10)(R8*1), R11; \
	VMOVDQU (DX), Y0; \
	VMOVDQU 32(DX), Y1; \
	VMOVDQU (R9), Y2; \
	VMOVDQU 32(R9), Y3; \
	VMOVDQU (R10), Y4; \
	VMOVDQU 32(R10), Y5; \
	VMOVDQU (R11), Y6; \
	VMOVDQU 32(R11), Y7; \
	TESTQ CX, CX; \
	JEQ store; \
loop: \
	VMOVDQU (DI), Y8; \
	VMOVDQU 32(DI), Y9; \
	MULADD_ROW(MUL, ADD, 0, Y0, Y1); \
	MULADD_ROW(MUL, ADD, 4, Y2, Y3); \
	MULADD_ROW(MUL, ADD, 8, Y4, Y5); \
	MULADD_ROW(MUL, ADD, 12, Y6, Y7); \
	ADDQ $16, SI; \
	ADDQ $64, DI; \
	DECQ CX; \
	JNE loop; \
store: \
	VMOVDQU Y0, (DX); \
	VMOVDQU Y1, 32(DX); \
	VMOVDQU Y2, (R9); \
	VMOVDQU Y3, 32(R9); \
	VMOVDQU Y4, (R10); \
	VMOVDQU Y5, 32(R10); \
	VMOVDQU Y6, (R11); \
	VMOVDQU Y7, 32(R11); \
	VZEROUPPER; \
	RET

// func cpuid(eax, ecx uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eax+0(FP), AX
	MOVL ecx+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func xgetbv() (lo, hi uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, lo+0(FP)
	MOVL DX, hi+4(FP)
	RET

// func mulAddI32x16(a, b, c *int32, ldc, depth int)
TEXT ·mulAddI32x16(SB), NOSPLIT, $0-40
	MULADD_4x16(VPMULLD, VPADDD)

// func mulAddF32x16(a, b, c *float32, ldc, depth int)
TEXT ·mulAddF32x16(SB), NOSPLIT, $0-40
	MULADD_4x16(VMULPS, VADDPS)
