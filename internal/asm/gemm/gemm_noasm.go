//go:build !amd64 || purego

package gemm

// Wide reports whether MulAddF32 and MulAddI32 run assembly: never without the amd64
// kernels (another architecture, or the purego tag).
func Wide() bool { return false }

// mulAddF32 is MulAddF32 after its checks: the portable Go kernel.
func mulAddF32(a, b, c []float32, ldc, d int) { mulAddGo(a, b, c, ldc, d) }

// mulAddI32 is MulAddI32 after its checks: the portable Go kernel.
func mulAddI32(a, b, c []int32, ldc, d int) { mulAddGo(a, b, c, ldc, d) }
