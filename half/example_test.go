package half_test

import (
	"fmt"

	"github.com/goamp/goamp/half"
)

func ExampleFromFloat32() {
	for _, f := range []float32{1, 0.1, 65504, 65520, 1e-8} {
		h := half.FromFloat32(f)
		fmt.Printf("%g -> %#04x = %v\n", f, h.Bits(), h)
	}
	// Output:
	// 1 -> 0x3c00 = 1
	// 0.1 -> 0x2e66 = 0.099975586
	// 65504 -> 0x7bff = 65504
	// 65520 -> 0x7c00 = +Inf
	// 1e-08 -> 0x0000 = 0
}
