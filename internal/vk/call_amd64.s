//go:build linux || darwin

#include "textflag.h"

// vkcall calls the C function of a callArgs (call_amd64.go) with its ten arguments by
// the System V AMD64 convention and stores the result in it. runtime.cgocall runs it on
// the system stack, the args pointer in DI.
//
// callArgs: fn at 0, a0..a9 at 8..80, r at 88.
GLOBL ·vkcallABI0(SB), NOPTR|RODATA, $8
DATA ·vkcallABI0(SB)/8, $vkcall<>(SB)
TEXT vkcall<>(SB), NOSPLIT, $48
	MOVQ DI, 32(SP) // the args, kept across the call
	MOVQ DI, R11
	MOVQ 56(R11), R12
	MOVQ R12, 0(SP) // a6
	MOVQ 64(R11), R12
	MOVQ R12, 8(SP) // a7
	MOVQ 72(R11), R12
	MOVQ R12, 16(SP) // a8
	MOVQ 80(R11), R12
	MOVQ R12, 24(SP) // a9
	MOVQ 8(R11), DI
	MOVQ 16(R11), SI
	MOVQ 24(R11), DX
	MOVQ 32(R11), CX
	MOVQ 40(R11), R8
	MOVQ 48(R11), R9
	MOVQ 0(R11), R10
	XORL AX, AX // no vector registers used (variadic callees read AL)
	CALL R10
	MOVQ 32(SP), R11
	MOVQ AX, 88(R11)
	RET
