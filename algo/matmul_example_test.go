package algo_test

import (
	"errors"
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// ExampleMatMul multiplies a 2 x 3 by a 3 x 2 matrix on the CPU accelerator (any
// accelerator view works the same way).
func ExampleMatMul() {
	av, err := accelerator.CPU().DefaultView()
	if err != nil {
		panic(err)
	}
	a := arrayview.MustNew(runtime.Ext(2, 3), []float32{1, 2, 3, 4, 5, 6})
	b := arrayview.MustNew(runtime.Ext(3, 2), []float32{7, 8, 9, 10, 11, 12})
	cdata := make([]float32, 4)
	c := arrayview.MustNew(runtime.Ext(2, 2), cdata)
	if err := algo.MatMul(av, a, b, c); err != nil {
		panic(err)
	}
	if err := c.Synchronize(); err != nil { // the result reaches cdata here
		panic(err)
	}
	fmt.Println(cdata)

	// The simple kernel, int32, and a shape error.
	ai := arrayview.MustNew(runtime.Ext(1, 2), []int32{2, 3})
	bi := arrayview.MustNew(runtime.Ext(2, 1), []int32{4, 5})
	ci := arrayview.MustNew(runtime.Ext(1, 1), make([]int32, 1))
	if err := algo.MatMulSimple(av, ai, bi, ci); err != nil {
		panic(err)
	}
	fmt.Println(ci.At(runtime.Idx(0, 0)))
	fmt.Println(algo.MatMul(av, ai, ai, ci))
	// Output:
	// [58 64 139 154]
	// 23
	// goamp/algo: MatMul: a (1, 2) x b (1, 2) does not give c (1, 1) (want a M x K, b K x N, c M x N)
}

// ExampleConvolve2D blurs a 3 x 4 image with a separable box filter; the borders clamp
// to the edge.
func ExampleConvolve2D() {
	av, err := accelerator.CPU().DefaultView()
	if err != nil {
		panic(err)
	}
	in := arrayview.MustNew(runtime.Ext(3, 4), []float32{
		0, 0, 0, 0,
		0, 6, 0, 0,
		0, 0, 0, 3,
	})
	outData := make([]float32, 12)
	out := arrayview.MustNew(runtime.Ext(3, 4), outData)
	row := []float32{1, 1, 1} // sum of three neighbours in a row
	col := []float32{1, 1, 1} // then in a column
	if err := algo.Convolve2D(av, in, out, row, col); err != nil {
		panic(err)
	}
	if err := out.Synchronize(); err != nil {
		panic(err)
	}
	for r := range 3 {
		fmt.Println(outData[4*r : 4*r+4])
	}
	// Output:
	// [6 6 6 0]
	// [6 6 9 6]
	// [6 6 12 12]
}

// ExampleMatMulWith_transposed multiplies a 2 x 3 matrix by the transpose of another
// 2 x 3 matrix (b is N x K with TransB), as BLAS's transb does.
func ExampleMatMulWith_transposed() {
	av, err := accelerator.CPU().DefaultView()
	if err != nil {
		panic(err)
	}
	a := arrayview.MustNew(runtime.Ext(2, 3), []float32{1, 2, 3, 4, 5, 6})
	b := arrayview.MustNew(runtime.Ext(2, 3), []float32{1, 0, 1, 0, 1, 0})
	cdata := make([]float32, 4)
	c := arrayview.MustNew(runtime.Ext(2, 2), cdata)
	if err := algo.MatMulWith(av, a, b, c, algo.MatMulOptions{TransB: true}); err != nil {
		panic(err)
	}
	if err := c.Synchronize(); err != nil {
		panic(err)
	}
	fmt.Println(cdata)
	// Output: [4 2 10 5]
}

// ExampleMatMulI8 multiplies int8 matrices with int32 sums on the default accelerator:
// on the tensor cores where it has int8 cooperative matrices (an H100), else with the
// shared-memory kernel (lavapipe) or on the CPU; the result is the same exact integers. A
// device without 8-bit storage (SwiftShader) says so before anything runs, and the CPU
// computes the product instead.
func ExampleMatMulI8() {
	acc, err := accelerator.Default()
	if err != nil {
		panic(err)
	}
	av, err := acc.DefaultView()
	if err != nil {
		panic(err)
	}
	a := arrayview.MustNew(runtime.Ext(2, 3), []int8{1, -2, 3, 127, -128, 0})
	b := arrayview.MustNew(runtime.Ext(3, 2), []int8{-128, 1, 127, -1, 2, 3})
	cdata := make([]int32, 4)
	c := arrayview.MustNew(runtime.Ext(2, 2), cdata)
	err = algo.MatMulI8(av, a, b, c)
	if errors.Is(err, accelerator.ErrUnsupportedFeature) {
		if av, err = accelerator.CPU().DefaultView(); err == nil {
			err = algo.MatMulI8(av, a, b, c)
		}
	}
	if err != nil {
		panic(err)
	}
	if err := c.Synchronize(); err != nil {
		panic(err)
	}
	fmt.Println(cdata)
	// Output: [-376 12 -32512 255]
}
