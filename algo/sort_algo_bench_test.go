package algo

import (
	"flag"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

var benchSortAlgoKeys = flag.Int("algo.sortalgo.keys", 1<<20, "keys in BenchmarkSortAlgos")

// BenchmarkSortAlgos times the radix sorts of uint32 keys on each GPU that can run
// OneSweep: the multi-pass sort and OneSweep, forced (hooks.sort), so that the gain is
// measured in one run. Keys are refilled (not timed) before each sort; the last sort's
// result is checked.
func BenchmarkSortAlgos(b *testing.B) {
	n := *benchSortAlgoKeys
	r := rand.New(rand.NewPCG(uint64(n), 3))
	src := make([]uint32, n)
	for i := range src {
		src[i] = r.Uint32()
	}
	for _, av := range ewViews(b) {
		if !onesweepCapable(av) {
			continue
		}
		for _, algo := range []struct {
			name string
			id   int
		}{{"multipass", sortRadix}, {"onesweep", sortOneSweep}} {
			b.Run(av.Accelerator().Path()+"/"+algo.name, func(b *testing.B) {
				defer setHooks(testHooks{sort: algo.id})()
				v := arrayview.MustNew(runtime.Ext(n), make([]uint32, n))
				keys, zero := arrayview.MustNew(runtime.Ext(n), src), arrayview.MustNew(runtime.Ext(n), make([]uint32, n))
				refill := func() { // on the device, which then does not clock down (see benchSort)
					require.NoError(b, Add(av, keys, zero, v))
					require.NoError(b, av.Wait())
				}
				refill()
				require.NoError(b, Sort(av, v))
				require.NoError(b, av.Wait())
				b.ResetTimer()
				for b.Loop() {
					b.StopTimer()
					refill()
					b.StartTimer()
					require.NoError(b, Sort(av, v))
					require.NoError(b, av.Wait())
				}
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*1e3, "ms/sort")
				b.StopTimer()
				require.NoError(b, v.Synchronize())
				got, err := v.Data()
				require.NoError(b, err)
				require.True(b, slices.IsSorted(got), "the sorted keys")
			})
		}
	}
}
