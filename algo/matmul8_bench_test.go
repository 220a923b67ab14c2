package algo

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Benchmark flags: go test -bench MatMulI8 -matmul8.size 4096,8192 -matmul8.paths
// cooperative,shared -matmul8.accelerator vulkan:0.
var (
	mm8BenchSize  = flag.String("matmul8.size", "256", "BenchmarkMatMulI8 sizes: comma-separated N (N x N x N) or MxNxK")
	mm8BenchPaths = flag.String("matmul8.paths", "auto,shared", "BenchmarkMatMulI8 paths (auto, cooperative, shared), comma-separated; cooperative is skipped where the device has none")
	mm8BenchAcc   = flag.String("matmul8.accelerator", "", "BenchmarkMatMulI8: only the accelerator with this path (vulkan:0, cpu); empty: all")
)

// BenchmarkMatMulI8 multiplies int8 matrices (int32 sums and result) on every
// accelerator with each path. It reports TOP/s (2MNK integer operations per call) by wall
// time, each call waited for, and on GPUs dev-TOP/s by device timestamps; the log says
// whether the auto path uses the tensor cores. `scripts/torch_matmul16.py -int8` measures
// torch._int_mm, PyTorch's int8 matmul, for the ratio.
func BenchmarkMatMulI8(b *testing.B) {
	benchNarrowCases(b, *mm8BenchSize, *mm8BenchPaths, *mm8BenchAcc, MatMulI8Cooperative, func(name string, av *accelerator.View, sz []int, path MatMulPath) {
		b.Run(name, func(b *testing.B) {
			m, n, k := sz[0], sz[1], sz[2]
			r := rand.New(rand.NewPCG(7, 8))
			a := arrayview.MustNew(runtime.Ext(m, k), i8Random(r, m*k))
			bv := arrayview.MustNew(runtime.Ext(k, n), i8Random(r, k*n))
			c := arrayview.MustNew(runtime.Ext(m, n), make([]int32, m*n))
			benchProduct(b, av, sz, "OP", func(av *accelerator.View) error { return MatMulI8With(av, a, bv, c, MatMulI8Options{Path: path}) }, a, bv, c)
		})
	})
}
