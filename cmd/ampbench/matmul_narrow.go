package main

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// matmulF16 is MatMulF16 of two -mat square float16 matrices into a float32 one (the
// tensor cores where the device has cooperative matrices); torch_bench.py's counterpart is
// torch.mm of float16 matrices with a float32 result.
func matmulF16(av *accelerator.View, sz sizes) (*instance, error) {
	n := sz.Mat
	af, bf := randF32(n*n, 7), randF32(n*n, 8)
	a, b := make([]half.Float16, n*n), make([]half.Float16, n*n)
	half.FromFloat32s(a, af)
	half.FromFloat32s(b, bf)
	half.ToFloat32s(af, a) // the reference multiplies the values a and b hold
	half.ToFloat32s(bf, b)
	c := make([]float32, n*n)
	va, vb, vc := arrayview.MustNew(runtime.Ext(n, n), a), arrayview.MustNew(runtime.Ext(n, n), b), arrayview.MustNew(runtime.Ext(n, n), c)
	return narrowMatMul(n, 8, func() error { return algo.MatMulF16(av, va, vb, vc) }, func() error {
		return checkRows(vc, "c", n, func(r, col int) (got, want float64) {
			for k := range n {
				want += float64(af[r*n+k]) * float64(bf[k*n+col])
			}
			return float64(c[r*n+col]), want
		})
	}, closeAll(va, vb, vc)), nil
}

// matmulI8 is MatMulI8 of two -mat square int8 matrices into an int32 one, checked
// exactly; torch_bench.py's counterpart is torch._int_mm.
func matmulI8(av *accelerator.View, sz sizes) (*instance, error) {
	n := sz.Mat
	ai, bi := randI32(n*n, 7, -128, 128), randI32(n*n, 8, -128, 128)
	a, b := make([]int8, n*n), make([]int8, n*n)
	for i := range a {
		a[i], b[i] = int8(ai[i]), int8(bi[i])
	}
	c := make([]int32, n*n)
	va, vb, vc := arrayview.MustNew(runtime.Ext(n, n), a), arrayview.MustNew(runtime.Ext(n, n), b), arrayview.MustNew(runtime.Ext(n, n), c)
	return narrowMatMul(n, 6, func() error { return algo.MatMulI8(av, va, vb, vc) }, func() error {
		if err := vc.Synchronize(); err != nil {
			return err
		}
		for _, r := range []int{0, n / 2, n - 1} {
			for col := range n {
				var want int32
				for k := range n {
					want += int32(a[r*n+k]) * int32(b[k*n+col])
				}
				if c[r*n+col] != want {
					return fmt.Errorf("c[%d][%d] = %d, want %d", r, col, c[r*n+col], want)
				}
			}
		}
		return nil
	}, closeAll(va, vb, vc)), nil
}

// narrowMatMul is the instance of an n x n x n product of elements that move
// bytesPerElem bytes per element of A, B and C together (float16 in and float32 out: 8;
// int8 in and int32 out: 6), counted as 2n^3 operations.
func narrowMatMul(n, bytesPerElem int, run, check func() error, cleanup func()) *instance {
	ops := 2 * float64(n) * float64(n) * float64(n)
	return &instance{size: fmt.Sprintf("%d^3", n), work: ops, unit: "GFLOP/s", flops: ops, bytes: float64(bytesPerElem * n * n),
		run: run, check: check, cleanup: cleanup}
}
