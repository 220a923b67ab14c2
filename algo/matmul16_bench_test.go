package algo

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/internal/testprog"
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
	benchNarrowCases(b, *mm16BenchSize, *mm16BenchPaths, *mm16BenchAcc, MatMulF16Cooperative, func(name string, av *accelerator.View, sz []int, path MatMulPath) {
		b.Run(name+"/float32", func(b *testing.B) { benchMatMulF16[float32](b, av, sz, path) })
		if *mm16BenchHalf {
			b.Run(name+"/float16", func(b *testing.B) { benchMatMulF16[half.Float16](b, av, sz, path) })
		}
	})
}

// benchNarrowCases calls run for each size of sizes (comma-separated N or MxNxK), each
// accelerator (only the one whose path is acc, when not empty) and each path of paths
// (auto, cooperative, shared; cooperative only where coop says the device has it), with
// the case's name; it logs what coop says of each accelerator.
func benchNarrowCases(b *testing.B, sizes, paths, acc string, coop func(*accelerator.Accelerator) (accelerator.CoopMatrixShape, bool),
	run func(name string, av *accelerator.View, sz []int, path MatMulPath)) {
	names := map[string]MatMulPath{"auto": MatMulAuto, "cooperative": MatMulCooperative, "shared": MatMulShared}
	for _, ss := range strings.Split(sizes, ",") {
		sz, err := mmParse(ss, 3)
		if err != nil {
			b.Fatal(err)
		}
		for _, av := range ewViews(b) {
			if acc != "" && av.Accelerator().Path() != acc {
				continue
			}
			shape, has := coop(av.Accelerator())
			b.Logf("%s: cooperative %v %v", av.Accelerator().Path(), has, shape)
			for _, ps := range strings.Split(paths, ",") {
				path, ok := names[ps]
				if !ok {
					b.Fatalf("unknown path %q", ps)
				}
				if path == MatMulCooperative && !has {
					continue
				}
				run(fmt.Sprintf("%s/%dx%dx%d/%s", av.Accelerator().Path(), sz[0], sz[1], sz[2], path), av, sz, path)
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
	benchProduct(b, av, sz, "FLOP", func(av *accelerator.View) error { return MatMulF16With(av, a, bv, c, MatMulF16Options{Path: path}) }, a, bv, c)
}

// benchProduct times call, an M x N x K product (sz) on av, each call waited for, after
// one call that warms up (uploads, pipeline), and reports T<unit>/s of 2MNK operations by
// wall time and, on GPUs, dev-T<unit>/s by device timestamps; then it closes views.
func benchProduct(b *testing.B, av *accelerator.View, sz []int, unit string, call func(av *accelerator.View) error, views ...interface{ Close() error }) {
	av, gpu := profiledView(b, av)
	if err := call(av); err != nil {
		b.Fatal(err)
	}
	if err := av.Wait(); err != nil {
		b.Fatal(err)
	}
	dev := timedCalls(b, av, gpu, func() error { return call(av) })
	ops := 2 * float64(sz[0]) * float64(sz[1]) * float64(sz[2])
	b.ReportMetric(ops*float64(b.N)/float64(b.Elapsed().Nanoseconds())/1e3, "T"+unit+"/s")
	if gpu && dev > 0 {
		b.ReportMetric(ops*float64(b.N)/dev/1e3, "dev-T"+unit+"/s") // dev is in ns
	}
	for _, v := range views {
		if err := v.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// coopPeakK is internal/testprog's mma_peak (or mma_peak_k): every subgroup of 32
// multiply-adds 4 x 4 accumulators of 16 x 16 float16 fragments Iters times, with no
// global memory traffic, and writes element 0 of each accumulator (Iters / 16) to Out.
type coopPeakK struct {
	Out   *arrayview.View[float32]
	Iters int32
	Mode  int32  // 0: fragments in registers; loaded from shared memory: 1 padded rows, 2 unpadded, 3 B transposed
	prog  string `amp:"-"`
}

func (k coopPeakK) Program() *runtime.Program { return testprog.MustProgram(k.prog, 1) }
func (coopPeakK) SharedBytes([3]int) int      { return 8*256*4 + 2*128*5*16 }
func (k coopPeakK) Tiled(t runtime.TiledIndex) {
	if t.Local[0]%32 == 0 {
		for q := range 16 {
			k.Out.Set(runtime.Idx(t.Global[0]/32*16+q), float32(k.Iters)/16)
		}
	}
}

// BenchmarkCoopPeak measures the cooperative-matrix multiply-add rate of a device with no
// global memory traffic (the ceiling of MatMulF16's cooperative path), with the NV
// matrices (mma_peak) and the KHR ones (mma_peak_k) where the device has them, with the
// fragments in registers (mode 0) or loaded from shared memory (modes 1-3), in tiles of 4
// subgroups, 8 tiles per compute unit (the H100 has 132); it checks the kernel's result.
func BenchmarkCoopPeak(b *testing.B) {
	f16 := accelerator.CoopMatrixShape{M: 16, N: 16, K: 16, A: accelerator.CoopFloat16, B: accelerator.CoopFloat16,
		C: accelerator.CoopFloat32, D: accelerator.CoopFloat32}
	for _, av := range ewViews(b) {
		acc := av.Accelerator()
		for prog, shapes := range map[string][]accelerator.CoopMatrixShape{"mma_peak": acc.CooperativeMatrices(), "mma_peak_k": acc.CooperativeMatricesKHR()} {
			if acc.SubgroupSize() != 32 || !slices.Contains(shapes, f16) {
				continue
			}
			for mode := range int32(4) {
				b.Run(fmt.Sprintf("%s/%s/mode=%d", acc.Path(), prog, mode), func(b *testing.B) { benchCoopPeak(b, av, prog, mode) })
			}
		}
	}
}

// benchCoopPeak is BenchmarkCoopPeak of program prog in the given mode on av.
func benchCoopPeak(b *testing.B, av *accelerator.View, prog string, mode int32) {
	const tiles, iters = 132 * 8, 8192
	out := make([]float32, tiles*4*16)
	v := arrayview.MustNew(runtime.Ext(len(out)), out)
	defer v.Close()
	k := coopPeakK{Out: v, Iters: iters, Mode: mode, prog: prog}
	dom := runtime.Ext(tiles * 128).Tile(128)
	run := func() {
		if err := runtime.ParallelForEachTiled(av, dom, k); err != nil {
			b.Fatal(err)
		}
		if err := av.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	run() // the pipeline
	b.ResetTimer()
	for range b.N {
		run()
	}
	b.StopTimer()
	flops := float64(tiles*4) * iters * 16 * 2 * 16 * 16 * 16
	b.ReportMetric(flops*float64(b.N)/float64(b.Elapsed().Nanoseconds())/1e3, "TFLOP/s")
	if err := v.Synchronize(); err != nil {
		b.Fatal(err)
	}
	for i, x := range out {
		if x != iters/16 {
			b.Fatalf("out[%d] = %v, want %v", i, x, iters/16)
		}
	}
}
