package algo_test

import (
	"fmt"

	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Vector addition on the default accelerator.
func ExampleAdd() {
	a := []int32{1, 2, 3, 4, 5}
	b := []int32{10, 20, 30, 40, 50}
	sum := make([]int32, 5)
	out := arrayview.MustNew(runtime.Ext(5), sum)
	if err := algo.Add(nil, arrayview.MustNew(runtime.Ext(5), a), arrayview.MustNew(runtime.Ext(5), b), out); err != nil {
		fmt.Println(err)
		return
	}
	if err := out.Synchronize(); err != nil { // wait for the device and copy back
		fmt.Println(err)
		return
	}
	fmt.Println(sum)
	// Output: [11 22 33 44 55]
}

// y = 2x + y, the C++ AMP "transform" sample.
func ExampleSaxpy() {
	x := []float32{1, 2, 3, 4}
	y := []float32{0.5, 0.5, 0.5, 0.5}
	vy := arrayview.MustNew(runtime.Ext(4), y)
	if err := algo.Saxpy(nil, 2, arrayview.MustNew(runtime.Ext(4), x), vy); err != nil {
		fmt.Println(err)
		return
	}
	if err := vy.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y)
	// Output: [2.5 4.5 6.5 8.5]
}

// Fill only writes: the view's old contents are discarded, never uploaded.
func ExampleFill() {
	data := make([]float32, 6)
	v := arrayview.MustNew(runtime.Ext(6), data)
	if err := algo.Fill(nil, v, float32(1.5)); err != nil {
		fmt.Println(err)
		return
	}
	if err := v.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(data)
	// Output: [1.5 1.5 1.5 1.5 1.5 1.5]
}

// The transpose of a 2x3 matrix is 3x2.
func ExampleTranspose() {
	in := arrayview.MustNew(runtime.Ext(2, 3), []int32{
		1, 2, 3,
		4, 5, 6,
	})
	t := make([]int32, 6)
	out := arrayview.MustNew(runtime.Ext(3, 2), t)
	if err := algo.Transpose(nil, in, out); err != nil {
		fmt.Println(err)
		return
	}
	if err := out.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	for r := range 3 {
		fmt.Println(t[2*r : 2*r+2])
	}
	// Output:
	// [1 4]
	// [2 5]
	// [3 6]
}
