package algo

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
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
// whether the auto path uses the tensor cores. scripts/torch_matmul8.py measures
// torch._int_mm, PyTorch's int8 matmul, for the ratio.
func BenchmarkMatMulI8(b *testing.B) {
	paths := map[string]MatMulPath{"auto": MatMulAuto, "cooperative": MatMulCooperative, "shared": MatMulShared}
	for _, ss := range strings.Split(*mm8BenchSize, ",") {
		sz, err := mmParse(ss, 3)
		if err != nil {
			b.Fatal(err)
		}
		for _, av := range ewViews(b) {
			if *mm8BenchAcc != "" && av.Accelerator().Path() != *mm8BenchAcc {
				continue
			}
			shape, coop := MatMulI8Cooperative(av.Accelerator())
			b.Logf("%s: cooperative %v %v", av.Accelerator().Path(), coop, shape)
			for _, ps := range strings.Split(*mm8BenchPaths, ",") {
				path, ok := paths[ps]
				if !ok {
					b.Fatalf("unknown path %q", ps)
				}
				if path == MatMulCooperative && !coop {
					continue
				}
				b.Run(fmt.Sprintf("%s/%dx%dx%d/%s", av.Accelerator().Path(), sz[0], sz[1], sz[2], path), func(b *testing.B) {
					benchMatMulI8(b, av, sz, path)
				})
			}
		}
	}
}

// benchMatMulI8 is one case of BenchmarkMatMulI8: random int8 matrices of sz (M, N, K).
func benchMatMulI8(b *testing.B, av *accelerator.View, sz []int, path MatMulPath) {
	m, n, k := sz[0], sz[1], sz[2]
	r := rand.New(rand.NewPCG(7, 8))
	a := arrayview.MustNew(runtime.Ext(m, k), i8Random(r, m*k))
	bv := arrayview.MustNew(runtime.Ext(k, n), i8Random(r, k*n))
	c := arrayview.MustNew(runtime.Ext(m, n), make([]int32, m*n))
	defer func() { _, _, _ = a.Close(), bv.Close(), c.Close() }()
	av, gpu := profiledView(b, av)
	opt := MatMulI8Options{Path: path}
	if err := MatMulI8With(av, a, bv, c, opt); err != nil { // warm up: uploads, pipeline
		b.Fatal(err)
	}
	if err := av.Wait(); err != nil {
		b.Fatal(err)
	}
	dev := timedCalls(b, av, gpu, func() error { return MatMulI8With(av, a, bv, c, opt) })
	ops := 2 * float64(m) * float64(n) * float64(k)
	b.ReportMetric(ops*float64(b.N)/float64(b.Elapsed().Nanoseconds())/1e3, "TOP/s")
	if gpu && dev > 0 {
		b.ReportMetric(ops*float64(b.N)/dev/1e3, "dev-TOP/s") // dev is in ns
	}
}
