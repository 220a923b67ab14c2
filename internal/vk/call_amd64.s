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

// vkcalls makes the calls of a callList (call_amd64.go) in order: n at 0, the address of
// the first callRec at 8; a callRec is fn, a0..a9 and the result, 96 bytes. BX, R12 and
// R13, which C preserves, hold the loop's state; they are saved and restored for the
// caller.
GLOBL ·vkcallsABI0(SB), NOPTR|RODATA, $8
DATA ·vkcallsABI0(SB)/8, $vkcalls<>(SB)
TEXT vkcalls<>(SB), NOSPLIT, $64
	MOVQ BX, 32(SP)
	MOVQ R12, 40(SP)
	MOVQ R13, 48(SP)
	MOVQ 0(DI), R12 // calls left
	MOVQ 8(DI), R13 // the next call
loop:
	TESTQ R12, R12
	JZ done
	MOVQ 56(R13), AX
	MOVQ AX, 0(SP) // a6
	MOVQ 64(R13), AX
	MOVQ AX, 8(SP) // a7
	MOVQ 72(R13), AX
	MOVQ AX, 16(SP) // a8
	MOVQ 80(R13), AX
	MOVQ AX, 24(SP) // a9
	MOVQ 8(R13), DI
	MOVQ 16(R13), SI
	MOVQ 24(R13), DX
	MOVQ 32(R13), CX
	MOVQ 40(R13), R8
	MOVQ 48(R13), R9
	MOVQ 0(R13), R10
	XORL AX, AX
	CALL R10
	MOVQ AX, 88(R13) // the result
	ADDQ $96, R13
	DECQ R12
	JMP loop
done:
	MOVQ 32(SP), BX
	MOVQ 40(SP), R12
	MOVQ 48(SP), R13
	RET
