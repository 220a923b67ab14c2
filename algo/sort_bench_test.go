package algo_test

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

// Benchmark sizes (small defaults for this machine; raise them on a GPU):
//
//	go test -run '^$' -bench 'Add|Saxpy|Fill|Transpose|Sort' ./algo/ \
//	    -algo.ew.mib 256 -algo.transpose.n 8192 -algo.sort.keys 16777216
var (
	benchEwMiB       = flag.Int("algo.ew.mib", 16, "MiB per vector in the Add/Saxpy/Fill benchmarks")
	benchTransposeN  = flag.Int("algo.transpose.n", 2048, "rows (and columns) of the Transpose benchmark's matrix")
	benchSortKeys    = flag.Int("algo.sort.keys", 1<<20, "keys in the Sort benchmarks")
	benchSortFloatMx = flag.Bool("algo.sort.float", true, "also run the float32 Sort benchmark")
)

// benchViews runs f on a new view of every accelerator present.
func benchViews(b *testing.B, f func(b *testing.B, av *accelerator.View)) {
	for _, a := range accelerator.All() {
		b.Run(a.Path(), func(b *testing.B) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(b, err)
			defer av.Close()
			f(b, av)
		})
	}
}

// benchLoop times op, waiting for the device after each call, and reports GB/s for
// bytes moved per call. The first call (uploads, pipeline creation) is not timed.
func benchLoop(b *testing.B, av *accelerator.View, bytes int, op func() error) {
	require.NoError(b, op())
	require.NoError(b, av.Wait())
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		if err := av.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

func benchVec(b *testing.B, n int, seed uint64) *arrayview.View[float32] {
	r := rand.New(rand.NewPCG(seed, 9))
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return arrayview.MustNew(runtime.Ext(n), s)
}

// BenchmarkAdd: out = a + b (float32); bytes: two reads and a write per element.
func BenchmarkAdd(b *testing.B) {
	n := *benchEwMiB << 20 / 4
	benchViews(b, func(b *testing.B, av *accelerator.View) {
		x, y, out := benchVec(b, n, 1), benchVec(b, n, 2), benchVec(b, n, 3)
		benchLoop(b, av, 12*n, func() error { return algo.Add(av, x, y, out) })
	})
}

// BenchmarkSaxpy: y = 2x + y; bytes: two reads and a write per element.
func BenchmarkSaxpy(b *testing.B) {
	n := *benchEwMiB << 20 / 4
	benchViews(b, func(b *testing.B, av *accelerator.View) {
		x, y := benchVec(b, n, 1), benchVec(b, n, 2)
		benchLoop(b, av, 12*n, func() error { return algo.Saxpy(av, 1e-3, x, y) })
	})
}

// BenchmarkFill: v = 1.5; bytes: one write per element.
func BenchmarkFill(b *testing.B) {
	n := *benchEwMiB << 20 / 4
	benchViews(b, func(b *testing.B, av *accelerator.View) {
		v := benchVec(b, n, 1)
		benchLoop(b, av, 4*n, func() error { return algo.Fill(av, v, 1.5) })
	})
}

// BenchmarkTranspose: an n x n float32 matrix; bytes: a read and a write per element.
func BenchmarkTranspose(b *testing.B) {
	n := *benchTransposeN
	benchViews(b, func(b *testing.B, av *accelerator.View) {
		s := make([]float32, n*n)
		for i := range s {
			s[i] = float32(i)
		}
		in := arrayview.MustNew(runtime.Ext(n, n), s)
		out := arrayview.MustNew(runtime.Ext(n, n), make([]float32, n*n))
		benchLoop(b, av, 8*n*n, func() error { return algo.Transpose(av, in, out) })
	})
}

// benchSort sorts fresh random keys each iteration: refilling and uploading them is not
// timed; sorting and waiting for the device is. It reports Mkeys/s and, through
// SetBytes, MB/s of keys.
func benchSort[T algo.Number](b *testing.B, gen func(r *rand.Rand) T) {
	n := *benchSortKeys
	benchViews(b, func(b *testing.B, av *accelerator.View) {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		src := make([]T, n)
		for i := range src {
			src[i] = gen(r)
		}
		v := arrayview.MustNew(runtime.Ext(n), make([]T, n))
		refill := func() {
			require.NoError(b, v.CopyFrom(src))
			require.NoError(b, v.SynchronizeTo(av))
			require.NoError(b, av.Wait())
		}
		refill()
		require.NoError(b, algo.Sort(av, v)) // pipelines, buffers
		require.NoError(b, av.Wait())
		b.SetBytes(int64(4 * n))
		var sorting float64
		b.ResetTimer()
		for b.Loop() {
			b.StopTimer()
			refill()
			b.StartTimer()
			if err := algo.Sort(av, v); err != nil {
				b.Fatal(err)
			}
			if err := av.Wait(); err != nil {
				b.Fatal(err)
			}
		}
		sorting = b.Elapsed().Seconds()
		b.ReportMetric(float64(n)*float64(b.N)/sorting/1e6, "Mkeys/s")
	})
}

func BenchmarkSortUint32(b *testing.B) {
	benchSort(b, func(r *rand.Rand) uint32 { return r.Uint32() })
}

func BenchmarkSortFloat32(b *testing.B) {
	if !*benchSortFloatMx {
		b.Skip("-algo.sort.float=false")
	}
	benchSort(b, func(r *rand.Rand) float32 { return float32(r.NormFloat64() * math.Pi) })
}
