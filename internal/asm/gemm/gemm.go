// Package gemm holds the register micro-kernels of the CPU's blocked matrix multiply
// (algo.MatMul's fast CPU body): a 4 x d panel of A times a d x 16 panel of B added to a
// 4 x 16 block of C, for float32 and int32. On amd64 they are AVX2 assembly (C's block in
// eight 256-bit registers), chosen at run time by CPUID; elsewhere, under the purego
// build tag, or on a CPU without AVX2 they are portable Go with the same results (float32:
// a separate multiply and add per term, in p order; int32: wrapping arithmetic). Wide says
// which runs.
//
// It imports only the standard library, and only package algo imports it.
package gemm

import "fmt"

// MulAddF32 adds the product of a 4 x d panel of A (packed by column: a[4p+r], d =
// len(a)/4) and a d x 16 panel of B (packed by row: b[16p+j]) to the 4 x 16 block of C at
// c (row stride ldc >= 16): c[r*ldc+j] += a[4p+r] * b[16p+j] for p = 0..d-1, each product
// rounded to float32 before it is added. It panics when b or c is too short.
func MulAddF32(a, b, c []float32, ldc int) {
	if d := check(len(a), len(b), len(c), ldc); d > 0 {
		mulAddF32(a, b, c, ldc, d)
	}
}

// MulAddI32 is MulAddF32 for int32, whose arithmetic wraps around like Go's.
func MulAddI32(a, b, c []int32, ldc int) {
	if d := check(len(a), len(b), len(c), ldc); d > 0 {
		mulAddI32(a, b, c, ldc, d)
	}
}

// check returns the depth d of panels of lengths na (A) and nb (B) and panics unless B
// has 16*d elements and the block of C, of na, 3*ldc+16: the assembly reads and writes
// that much.
func check(na, nb, nc, ldc int) int {
	d := na / 4
	if d == 0 {
		return 0
	}
	if ldc < 16 || nb < 16*d || nc < 3*ldc+16 {
		panic(&ShortError{Depth: d, B: nb, C: nc, Ldc: ldc})
	}
	return d
}

// ShortError is the panic value of MulAddF32 and MulAddI32 given panels too short for
// their depth, or a row stride under 16.
type ShortError struct {
	Depth int // the depth d, len(a)/4
	B, C  int // the lengths of b (16*d needed) and c (3*Ldc+16 needed)
	Ldc   int // C's row stride (16 or more needed)
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("goamp/gemm: panels too short: depth %d needs b of %d elements (has %d) and, with row stride %d (at least 16), c of %d (has %d)",
		e.Depth, 16*e.Depth, e.B, e.Ldc, 3*e.Ldc+16, e.C)
}

// mulAddGo is the portable kernel: MulAddF32 and MulAddI32 in Go, one row of C at a time
// over p, each product converted to T (rounded, never fused with the sum).
func mulAddGo[T int32 | float32](a, b, c []T, ldc, d int) {
	for r := range 4 {
		row := c[r*ldc : r*ldc+16 : r*ldc+16]
		for p := range d {
			x, bp := a[4*p+r], b[16*p:16*p+16:16*p+16]
			for j := range row {
				row[j] += T(x * bp[j])
			}
		}
	}
}
