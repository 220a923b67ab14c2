package algo_test

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"
	"time"

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
	benchEwMiB          = flag.Int("algo.ew.mib", 16, "MiB per vector in the Add/Saxpy/Fill benchmarks")
	benchTransposeN     = flag.Int("algo.transpose.n", 2048, "rows (and columns) of the Transpose benchmark's matrix")
	benchSortKeys       = flag.Int("algo.sort.keys", 1<<20, "keys in the Sort benchmarks")
	benchSortRefillVals = flag.Bool("algo.sort.refillvals", true, "the SortPairs benchmarks refill the values before each sort (else they sort the last sort's)")
	benchSortFloatMx    = flag.Bool("algo.sort.float", true, "also run the float32 Sort benchmark")
)

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

// sortBenchOp is what a sort benchmark times: Sort, SortPairs (int32 values) or Argsort.
type sortBenchOp int

const (
	benchKeys sortBenchOp = iota
	benchPairs
	benchArgsort
)

// benchSort sorts fresh random keys each iteration (with op): refilling and uploading them
// (and the values) is not timed; sorting and waiting for the device is. It reports
// Mkeys/s and, through SetBytes, MB/s of keys.
func benchSort[T algo.Number](b *testing.B, op sortBenchOp, gen func(r *rand.Rand) T) {
	n := *benchSortKeys
	defer algo.SortBenchHooks()()
	benchViews(b, func(b *testing.B, av *accelerator.View) {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		src := make([]T, n)
		for i := range src {
			src[i] = gen(r)
		}
		iota := make([]int32, n)
		for i := range iota {
			iota[i] = int32(i)
		}
		v := arrayview.MustNew(runtime.Ext(n), make([]T, n))
		vals := arrayview.MustNew(runtime.Ext(n), make([]int32, n))
		keys, zero := arrayview.MustNew(runtime.Ext(n), src), arrayview.MustNew(runtime.Ext(n), make([]T, n))
		ids, zeroIDs := arrayview.MustNew(runtime.Ext(n), iota), arrayview.MustNew(runtime.Ext(n), make([]int32, n))
		// The fresh keys (and values) are copied on the device (v = keys + 0), so that the
		// GPU is not idle between sorts: an idle GPU clocks down (to 345 MHz seen on the
		// H100) and the next sort runs slow, by as much as 2x and never twice the same.
		refill := func() {
			require.NoError(b, algo.Add(av, keys, zero, v))
			if op == benchPairs && *benchSortRefillVals {
				require.NoError(b, algo.Add(av, ids, zeroIDs, vals))
			}
			require.NoError(b, av.Wait())
		}
		sort := func() error {
			switch op {
			case benchPairs:
				return algo.SortPairs(av, v, vals, algo.SortOptions{})
			case benchArgsort:
				return algo.Argsort(av, v, vals, algo.SortOptions{})
			}
			return algo.Sort(av, v)
		}
		algo.WarmUpSorts(func() {
			refill()
			require.NoError(b, sort())
			require.NoError(b, av.Wait())
		})
		b.SetBytes(int64(4 * n))
		b.ResetTimer()
		var each []float64 // ms per sort
		for b.Loop() {
			b.StopTimer()
			refill()
			b.StartTimer()
			t0 := time.Now()
			if err := sort(); err != nil {
				b.Fatal(err)
			}
			if err := av.Wait(); err != nil {
				b.Fatal(err)
			}
			each = append(each, time.Since(t0).Seconds()*1e3)
		}
		sorting := b.Elapsed().Seconds()
		b.ReportMetric(float64(n)*float64(b.N)/sorting/1e6, "Mkeys/s")
		b.ReportMetric(sorting/float64(b.N)*1e3, "ms/sort")
		// The median too: on the H100 single pairs sorts take up to twice the others.
		if testing.Verbose() {
			b.Logf("each sort (ms): %.2f", each)
		}
		b.ReportMetric(algo.Median(each), "median-ms/sort")
	})
}

func genUint32(r *rand.Rand) uint32 { return r.Uint32() }

func genInt32(r *rand.Rand) int32 { return int32(r.Uint32()) }

func genFloat32(r *rand.Rand) float32 { return float32(r.NormFloat64() * math.Pi) }

func BenchmarkSortUint32(b *testing.B) { benchSort(b, benchKeys, genUint32) }

func BenchmarkSortInt32(b *testing.B) { benchSort(b, benchKeys, genInt32) }

func BenchmarkSortFloat32(b *testing.B) {
	if !*benchSortFloatMx {
		b.Skip("-algo.sort.float=false")
	}
	benchSort(b, benchKeys, genFloat32)
}

func BenchmarkSortPairsInt32(b *testing.B) { benchSort(b, benchPairs, genInt32) }

func BenchmarkSortPairsFloat32(b *testing.B) { benchSort(b, benchPairs, genFloat32) }

func BenchmarkArgsortInt32(b *testing.B) { benchSort(b, benchArgsort, genInt32) }

func BenchmarkArgsortFloat32(b *testing.B) { benchSort(b, benchArgsort, genFloat32) }
