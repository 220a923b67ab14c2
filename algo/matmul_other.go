//go:build !amd64 || purego

package algo

// matMulWide is false without the amd64 micro-kernels: the CPU's blocked matrix multiply
// uses its portable Go kernel.
var matMulWide = false

// matMulI32x16 is never called when matMulWide is false.
func matMulI32x16(a, b, c *int32, ldc, depth int) {
	panic("goamp/algo: no wide matrix-multiply kernel")
}

// matMulF32x16 is never called when matMulWide is false.
func matMulF32x16(a, b, c *float32, ldc, depth int) {
	panic("goamp/algo: no wide matrix-multiply kernel")
}
