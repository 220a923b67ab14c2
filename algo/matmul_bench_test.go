package algo

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Benchmark flags: go test -bench MatMul -matmul.size 4096 -matmul.tiles default,16x16 -matmul.int32=false.
var (
	mmBenchSize  = flag.String("matmul.size", "256", "BenchmarkMatMul sizes: comma-separated N (N x N x N) or MxNxK")
	mmBenchTiles = flag.String("matmul.tiles", "default", "BenchmarkMatMul tiles of the tiled kernel (rows x columns of threads, or default: the zero option), comma-separated")
	mmBenchSimpl = flag.Bool("matmul.simple", true, "BenchmarkMatMul: also run the simple kernel")
	mmBenchInt   = flag.Bool("matmul.int32", true, "BenchmarkMatMul: also run int32")
)

// mmParse parses "AxB" or "A" (A x A, or A x A x A with three wanted) into want ints.
func mmParse(s string, want int) ([]int, error) {
	parts := strings.Split(s, "x")
	if len(parts) == 1 {
		parts = make([]string, want)
		for i := range parts {
			parts[i] = s
		}
	}
	if len(parts) != want {
		return nil, fmt.Errorf("%q: want %d dimensions", s, want)
	}
	out := make([]int, want)
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q: bad dimension %q", s, p)
		}
		out[i] = v
	}
	return out, nil
}

// BenchmarkMatMul multiplies float32 and int32 matrices on every accelerator, with the
// simple kernel and the tiled kernel's tiles. It reports GFLOP/s (2MNK per operation) by
// wall time, each operation waited for, and on GPUs dev-GFLOP/s by device timestamps.
func BenchmarkMatMul(b *testing.B) {
	var opts []MatMulOptions
	if *mmBenchSimpl {
		opts = append(opts, MatMulOptions{Simple: true})
	}
	for _, ts := range strings.Split(*mmBenchTiles, ",") {
		if ts == "default" {
			opts = append(opts, MatMulOptions{})
			continue
		}
		t, err := mmParse(ts, 2)
		if err != nil {
			b.Fatal(err)
		}
		opts = append(opts, MatMulOptions{Tile: [2]int{t[0], t[1]}})
	}

	for _, ss := range strings.Split(*mmBenchSize, ",") {
		sz, err := mmParse(ss, 3)
		if err != nil {
			b.Fatal(err)
		}
		for _, av := range ewViews(b) {
			for _, opt := range opts {
				name := fmt.Sprintf("%s/%dx%dx%d/%s", av.Accelerator().Path(), sz[0], sz[1], sz[2], opt)
				b.Run(name+"/float32", func(b *testing.B) { benchMatMul[float32](b, av, sz, opt) })
				if *mmBenchInt {
					b.Run(name+"/int32", func(b *testing.B) { benchMatMul[int32](b, av, sz, opt) })
				}
			}
		}
	}
}

func benchMatMul[T MatMulElem](b *testing.B, av *accelerator.View, sz []int, opt MatMulOptions) {
	m, n, k := sz[0], sz[1], sz[2]
	r := rand.New(rand.NewPCG(5, 6))
	a := arrayview.MustNew(runtime.Ext(m, k), mmRandom[T](r, m*k))
	bv := arrayview.MustNew(runtime.Ext(k, n), mmRandom[T](r, k*n))
	c := arrayview.MustNew(runtime.Ext(m, n), make([]T, m*n))
	av, gpu := profiledView(b, av)
	// Warm up: uploads a and b, builds the pipeline.
	if err := MatMulWith(av, a, bv, c, opt); err != nil {
		var de *runtime.ComputeDomainError
		if errors.As(err, &de) {
			b.Skip(err) // a tile the device cannot run
		}
		b.Fatal(err)
	}
	if err := av.Wait(); err != nil {
		b.Fatal(err)
	}
	dev := timedCalls(b, av, gpu, func() error { return MatMulWith(av, a, bv, c, opt) })
	flops := 2 * float64(m) * float64(n) * float64(k)
	b.ReportMetric(flops*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
	if gpu && dev > 0 {
		b.ReportMetric(flops*float64(b.N)/dev, "dev-GFLOP/s")
	}
	b.SetBytes(int64(4 * (m*k + k*n + m*n)))
	for _, v := range []*arrayview.View[T]{a, bv, c} {
		v.DiscardData()
		if err := v.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// Benchmark flags: go test -bench Convolve2D -conv.size 4096 -conv.k 9.
var (
	convBenchSize = flag.String("conv.size", "1024", "BenchmarkConvolve2D image sizes: comma-separated N (N x N) or RxC")
	convBenchK    = flag.Int("conv.k", 9, "BenchmarkConvolve2D kernel length (rows and columns)")
)

// BenchmarkConvolve2D filters a float32 image with a separable kernel on every
// accelerator. It reports GB/s counting the image read and the result written once each
// (8 bytes per pixel), by wall time, and on GPUs dev-GB/s by device timestamps of the two
// passes.
func BenchmarkConvolve2D(b *testing.B) {
	for _, ss := range strings.Split(*convBenchSize, ",") {
		sz, err := mmParse(ss, 2)
		if err != nil {
			b.Fatal(err)
		}
		for _, av := range ewViews(b) {
			b.Run(fmt.Sprintf("%s/%dx%d/k%d", av.Accelerator().Path(), sz[0], sz[1], *convBenchK), func(b *testing.B) {
				benchConvolve(b, av, sz[0], sz[1], *convBenchK)
			})
		}
	}
}

func benchConvolve(b *testing.B, av *accelerator.View, rows, cols, ks int) {
	r := rand.New(rand.NewPCG(11, 12))
	av, gpu := profiledView(b, av)
	in := arrayview.MustNew(runtime.Ext(rows, cols), convRandom(r, rows*cols))
	out := arrayview.MustNew(runtime.Ext(rows, cols), make([]float32, rows*cols))
	rk, ck := convRandom(r, ks), convRandom(r, ks)
	if err := Convolve2D(av, in, out, rk, ck); err != nil {
		b.Fatal(err)
	}
	if err := av.Wait(); err != nil {
		b.Fatal(err)
	}
	dev := timedCalls(b, av, gpu, func() error { return Convolve2D(av, in, out, rk, ck) })
	bytes := 8 * float64(rows) * float64(cols)
	b.SetBytes(int64(bytes))
	b.ReportMetric(bytes*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GB/s")
	if gpu && dev > 0 {
		b.ReportMetric(bytes*float64(b.N)/dev, "dev-GB/s")
	}
	in.DiscardData()
	out.DiscardData()
	if err := in.Close(); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
}

// timedCalls times b.N calls of call, each waited for, and returns the summed device time
// of their dispatches (from the view's timestamps) when gpu is set.
// profiledView returns, on a device with timestamps, a fresh view of av's accelerator
// with profiling enabled (timestamps must be enabled before a view records anything),
// closed when b ends, and true; elsewhere av and false.
func profiledView(b *testing.B, av *accelerator.View) (*accelerator.View, bool) {
	if av.Accelerator().Limits().TimestampValidBits == 0 {
		return av, false
	}
	fresh, err := av.Accelerator().CreateView(accelerator.Automatic)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { fresh.Close() })
	if err := fresh.EnableProfiling(4); err != nil {
		b.Fatal(err)
	}
	return fresh, true
}

func timedCalls(b *testing.B, av *accelerator.View, gpu bool, call func() error) (dev float64) {
	b.ResetTimer()
	for range b.N {
		if err := call(); err != nil {
			b.Fatal(err)
		}
		if err := av.Wait(); err != nil {
			b.Fatal(err)
		}
		if gpu {
			ts, err := av.DispatchTimes()
			if err != nil {
				b.Fatal(err)
			}
			for _, t := range ts {
				dev += t
			}
		}
	}
	b.StopTimer()
	return dev
}
