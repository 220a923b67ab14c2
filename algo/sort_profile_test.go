package algo

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

var (
	// An idle GPU clocks down (345 MHz seen on the H100) and takes a while to clock up again.
	benchSortWarm      = flag.Duration("algo.sort.warm", 0, "time spent sorting before a sort benchmark times (BenchmarkSort*, BenchmarkSortPairs*, BenchmarkArgsort*, BenchmarkSortProfile)")
	benchSortAlgoKeys  = flag.Int("algo.sortalgo.keys", 1<<20, "keys in BenchmarkSortProfile")
	benchSortBlocks    = flag.String("algo.sort.blocks", "", "comma-separated radixMaxBlocks values BenchmarkSortProfile also tries (multi-pass)")
	benchSortSeparate  = flag.Bool("algo.sort.separate", false, "the sort benchmarks keep the keys and values of pairs separate between passes (hooks.separatePairs) instead of interleaving them")
	benchSortHybrid    = flag.Int("algo.sort.hybrid", 0, "the sort benchmarks' hybrid radix sort (hooks.hybrid): 0 where it fits (the default), 1 never, 2 forced")
	benchSortNarrow    = flag.Bool("algo.sort.narrow", false, "the sort benchmarks' pairs scatter runs in tiles of 256 threads (sort_radix_scatter_p, hooks.narrowScatter) where the one of 512 would")
	benchSortTwoRounds = flag.Bool("algo.sort.tworounds", false, "the sort benchmarks' pairs scatter places keys, then values, in shared memory (hooks.twoRounds) instead of both in one round")
)

// BenchmarkSortProfile sorts fresh uint32 keys (and, in the pairs cases, int32 values)
// with the multi-pass radix sort (forced by hooks.sort) on each GPU with device
// timestamps, after -algo.sort.warm of sorting, and logs the median device time of every dispatch of a sort: where the time
// goes. The wall time per sort (the wait included) and the device time summed are its
// metrics; the last result is checked.
func BenchmarkSortProfile(b *testing.B) {
	n := *benchSortAlgoKeys
	r := rand.New(rand.NewPCG(uint64(n), 5))
	src := make([]uint32, n)
	for i := range src {
		src[i] = r.Uint32()
	}
	for _, av := range ewViews(b) {
		if av.Accelerator().Limits().TimestampValidBits == 0 {
			continue
		}
		for _, c := range []struct {
			name  string
			algo  int
			pairs bool
		}{{"multipass", sortRadix, false}, {"multipass-pairs", sortRadix, true}} {
			b.Run(av.Accelerator().Path()+"/"+c.name, func(b *testing.B) {
				defer setHooks(testHooks{sort: c.algo, separatePairs: *benchSortSeparate, twoRounds: *benchSortTwoRounds,
					hybrid: *benchSortHybrid, narrowScatter: *benchSortNarrow})()
				profileSort(b, av, src, c.pairs)
			})
		}
		for _, f := range flagList(*benchSortBlocks) {
			blocks, err := strconv.Atoi(f)
			require.NoError(b, err, "-algo.sort.blocks")
			for _, pairs := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/multipass-blocks%d-pairs=%v", av.Accelerator().Path(), blocks, pairs), func(b *testing.B) {
					defer setHooks(testHooks{sort: sortRadix})()
					saved := radixMaxBlocks
					radixMaxBlocks = blocks
					defer func() { radixMaxBlocks = saved }()
					profileSort(b, av, src, pairs)
				})
			}
		}
	}
}

func profileSort(b *testing.B, av *accelerator.View, src []uint32, pairs bool) {
	n := len(src)
	v := arrayview.MustNew(runtime.Ext(n), make([]uint32, n))
	keys, zero := arrayview.MustNew(runtime.Ext(n), src), arrayview.MustNew(runtime.Ext(n), make([]uint32, n))
	vals := arrayview.MustNew(runtime.Ext(n), make([]int32, n))
	sort := func() error {
		if pairs {
			return SortPairs(av, v, vals, SortOptions{})
		}
		return Sort(av, v)
	}
	refill := func() {
		require.NoError(b, Add(av, keys, zero, v))
		require.NoError(b, av.Wait())
	}
	warmUp(func() {
		refill()
		require.NoError(b, sort())
		require.NoError(b, av.Wait())
	})
	require.NoError(b, av.EnableProfiling(64))
	var per [][]float64
	var walls []float64
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		refill()
		b.StartTimer()
		t0 := time.Now()
		require.NoError(b, sort())
		require.NoError(b, av.Wait())
		walls = append(walls, time.Since(t0).Seconds()*1e3)
		b.StopTimer()
		ns, err := av.DispatchTimes()
		require.NoError(b, err)
		for i, x := range ns {
			if i >= len(per) {
				per = append(per, nil)
			}
			per[i] = append(per[i], x/1e6)
		}
		b.StartTimer()
	}
	b.StopTimer()
	var sum float64
	var line strings.Builder
	for i, xs := range per {
		m := median(xs)
		sum += m
		fmt.Fprintf(&line, " %d:%.3f", i, m)
	}
	b.Logf("n=%d wall %.3f ms (min %.3f), device %.3f ms; dispatches (ms):%s", n, median(walls), slices.Min(walls), sum, line.String())
	b.ReportMetric(median(walls), "ms/sort")
	b.ReportMetric(sum, "device-ms")
	require.NoError(b, v.Synchronize())
	got, err := v.Data()
	require.NoError(b, err)
	require.True(b, slices.IsSorted(got), "the sorted keys")
}

// warmUp runs sortOnce (a refill, a sort and a wait) once, then again until -algo.sort.warm
// has passed: the first run builds the pipelines and buffers, the
// others keep the GPU from being timed at an idle GPU's clocks.
func warmUp(sortOnce func()) {
	for t0 := time.Now(); ; {
		sortOnce()
		if time.Since(t0) >= *benchSortWarm {
			return
		}
	}
}

// flagList splits a comma-separated flag value (none for "").
func flagList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' })
}

// median returns the median of xs (not empty), which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
