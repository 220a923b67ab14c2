package algo

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// Benchmark flags: go test -bench MatMulF16 -matmul16.size 4096,8192 -matmul16.paths
// cooperative,shared -matmul16.accelerator vulkan:0.
var (
	mm16BenchSize  = flag.String("matmul16.size", "256", "BenchmarkMatMulF16 sizes: comma-separated N (N x N x N) or MxNxK")
	mm16BenchPaths = flag.String("matmul16.paths", "auto,shared", "BenchmarkMatMulF16 paths (auto, cooperative, shared), comma-separated; cooperative is skipped where the device has none")
	mm16BenchHalf  = flag.Bool("matmul16.f16out", false, "BenchmarkMatMulF16: also run with a float16 result")
	mm16BenchAcc   = flag.String("matmul16.accelerator", "", "BenchmarkMatMulF16: only the accelerator with this path (vulkan:0, cpu); empty: all")
)

// BenchmarkMatMulF16 multiplies float16 matrices (float32 accumulation and result) on
// every accelerator with each path. It reports TFLOP/s (2MNK per operation) by wall time,
// each operation waited for, and on GPUs dev-TFLOP/s by device timestamps; the log says
// which cooperative-matrix shape the auto path uses.
func BenchmarkMatMulF16(b *testing.B) {
	paths := map[string]MatMulPath{"auto": MatMulAuto, "cooperative": MatMulCooperative, "shared": MatMulShared}
	for _, ss := range strings.Split(*mm16BenchSize, ",") {
		sz, err := mmParse(ss, 3)
		if err != nil {
			b.Fatal(err)
		}
		for _, av := range ewViews(b) {
			if *mm16BenchAcc != "" && av.Accelerator().Path() != *mm16BenchAcc {
				continue
			}
			shape, coop := MatMulF16Cooperative(av.Accelerator())
			b.Logf("%s: cooperative %v %v", av.Accelerator().Path(), coop, shape)
			for _, ps := range strings.Split(*mm16BenchPaths, ",") {
				path, ok := paths[ps]
				if !ok {
					b.Fatalf("unknown path %q", ps)
				}
				name := fmt.Sprintf("%s/%dx%dx%d/%s", av.Accelerator().Path(), sz[0], sz[1], sz[2], path)
				if path == MatMulCooperative && !coop {
					continue
				}
				b.Run(name+"/float32", func(b *testing.B) { benchMatMulF16[float32](b, av, sz, path) })
				if *mm16BenchHalf {
					b.Run(name+"/float16", func(b *testing.B) { benchMatMulF16[half.Float16](b, av, sz, path) })
				}
			}
		}
	}
}

// mm16Data caches f16Fast's matrices by slot and length, so that the large benchmarks make
// theirs once.
var mm16Data = map[[2]int][]half.Float16{}

// f16Fast returns n random float16 values in [-1, 1) for matrix slot (0 for a, 1 for b),
// made quickly for large benchmarks and cached: the benchmarks only read them.
func f16Fast(r *rand.Rand, n, slot int) []half.Float16 {
	key := [2]int{slot, n}
	if h, ok := mm16Data[key]; ok {
		return h
	}
	f := make([]float32, n)
	for i := range f {
		f[i] = r.Float32()*2 - 1
	}
	h := make([]half.Float16, n)
	half.FromFloat32s(h, f)
	for k := range mm16Data {
		if k[0] == slot {
			delete(mm16Data, k) // one size per slot at a time
		}
	}
	mm16Data[key] = h
	return h
}

func benchMatMulF16[O MatMulF16Out](b *testing.B, av *accelerator.View, sz []int, path MatMulPath) {
	m, n, k := sz[0], sz[1], sz[2]
	r := rand.New(rand.NewPCG(7, 8))
	a := arrayview.MustNew(runtime.Ext(m, k), f16Fast(r, m*k, 0))
	bv := arrayview.MustNew(runtime.Ext(k, n), f16Fast(r, k*n, 1))
	c := arrayview.MustNew(runtime.Ext(m, n), make([]O, m*n))
	gpu := av.Accelerator().Limits().TimestampValidBits != 0
	if gpu {
		fresh, err := av.Accelerator().CreateView(accelerator.Automatic)
		if err != nil {
			b.Fatal(err)
		}
		defer fresh.Close()
		if err := fresh.EnableProfiling(4); err != nil {
			b.Fatal(err)
		}
		av = fresh
	}
	opt := MatMulF16Options{Path: path}
	if err := MatMulF16With(av, a, bv, c, opt); err != nil { // warm up: uploads, pipeline
		b.Fatal(err)
	}
	if err := av.Wait(); err != nil {
		b.Fatal(err)
	}
	dev := timedCalls(b, av, gpu, func() error { return MatMulF16With(av, a, bv, c, opt) })
	flops := 2 * float64(m) * float64(n) * float64(k)
	b.ReportMetric(flops*float64(b.N)/float64(b.Elapsed().Nanoseconds())/1e3, "TFLOP/s")
	if gpu && dev > 0 {
		b.ReportMetric(flops*float64(b.N)/dev/1e3, "dev-TFLOP/s") // dev is in ns
	}
	for _, v := range []interface{ Close() error }{a, bv, c} {
		if err := v.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
