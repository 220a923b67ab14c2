package algo

import (
	"flag"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

// The reduction family's benchmarks (Reduce, InclusiveScan, ExclusiveScan, Histogram) on
// every accelerator, over float32 inputs of -reduce.bytes bytes (and int32 for one Reduce);
// GB/s counts the input's bytes once per call (as scripts/torch_reduce.py does for
// torch.sum, torch.min, torch.max, torch.cumsum and torch.histc). Each call's wall time
// includes waiting for the result (Reduce and Histogram read it back; the scan benchmark
// waits for the view). On Vulkan devices with timestamps, dev-GB/s and dev-us are the
// device time of the kernels alone (the best of a few profiled calls; pass1-us is the first
// dispatch's, -reduce.passes logs them all). On a GPU:
//
//	algo.test -test.run '^$' -test.bench 'Reduce|Scan|Histogram' -reduce.bytes 1073741824
//
// -reduce.tile, -reduce.perthread and -reduce.groups override Reduce's tiling,
// -reduce.scantile the single-pass scan's workgroup size; -reduce.nosubgroups runs the
// shared-memory programs instead of the subgroup ones; -reduce.accel vulkan skips the
// CPU. The timed loop runs the GPU back to back, so that its clocks are up: an H100 idles
// at a 345 MHz SM clock and a few milliseconds of work do not raise it, which halves
// Reduce's bandwidth.
var (
	famBenchBytes     = flag.Int("reduce.bytes", 64<<20, "input bytes of the Reduce, scan and Histogram benchmarks")
	famBenchTile      = flag.Int("reduce.tile", 0, "Reduce benchmarks: workgroup size of a pass (0: the default)")
	famBenchPerThread = flag.Int("reduce.perthread", 0, "Reduce benchmarks: elements per thread of a GPU pass (0: the default)")
	famBenchGroups    = flag.Int("reduce.groups", 0, "Reduce benchmarks: most workgroups of a GPU pass (0: the default)")
	famBenchProfiled  = flag.Int("reduce.profiled", 5, "calls profiled with device timestamps after each benchmark (0: none)")
	famBenchAccel     = flag.String("reduce.accel", "", "run the benchmarks only on accelerators whose path contains this")
	famBenchScanTile  = flag.Int("reduce.scantile", 0, "scan benchmarks: workgroup size of the single pass (0: the default)")
	famBenchPasses    = flag.Bool("reduce.passes", false, "log the device time of every dispatch of the best profiled call")
	famBenchNoSG      = flag.Bool("reduce.nosubgroups", false, "Reduce and multi-pass scan benchmarks: the shared-memory GPU programs even where the device has subgroup arithmetic")
)

// famBench runs f on a new view of every accelerator present (those -reduce.accel
// selects).
func famBench(b *testing.B, f func(b *testing.B, av *accelerator.View)) {
	for _, a := range accelerator.All() {
		if !strings.Contains(a.Path(), *famBenchAccel) {
			continue
		}
		b.Run(a.Path(), func(b *testing.B) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(b, err)
			defer av.Close()
			f(b, av)
		})
	}
}

// famBenchLoop times call on av (each call waits for its result), after one untimed call
// (uploads, pipeline creation), and reports GB/s for bytes per call. Then, on a Vulkan
// device with timestamps, it profiles a few calls on a second view (profiling must be
// enabled before a view records anything) and reports the best one's device time:
// dev-GB/s and dev-us for all its dispatches, pass1-us for the first.
func famBenchLoop(b *testing.B, av *accelerator.View, bytes int, call func(av *accelerator.View) error) {
	require.NoError(b, call(av))
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for b.Loop() {
		if err := call(av); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
	if av.Accelerator().Limits().TimestampValidBits == 0 || *famBenchProfiled <= 0 {
		return
	}
	pv, err := av.Accelerator().CreateView(accelerator.Automatic)
	require.NoError(b, err)
	defer pv.Close()
	if pv.EnableProfiling(64) != nil {
		return // no timestamps on this device
	}
	require.NoError(b, call(pv)) // uploads to pv
	var best, first float64
	for range *famBenchProfiled {
		require.NoError(b, call(pv))
		require.NoError(b, pv.Wait())
		times, err := pv.DispatchTimes()
		require.NoError(b, err)
		var ns float64
		for _, t := range times {
			ns += t
		}
		if ns > 0 && (best == 0 || ns < best) {
			best, first = ns, times[0]
			if *famBenchPasses {
				b.Logf("dispatch times (us): %.1f", slices.Collect(func(yield func(float64) bool) {
					for _, t := range times {
						if !yield(t / 1e3) {
							return
						}
					}
				}))
			}
		}
	}
	if best > 0 {
		b.ReportMetric(float64(bytes)/best, "dev-GB/s")
		b.ReportMetric(best/1e3, "dev-us")
		b.ReportMetric(first/1e3, "pass1-us")
	}
}

// famBenchData returns a view of bytes/4 float32 values in [0, 1).
func famBenchData(bytes int) (*arrayview.View[float32], int) {
	n := bytes / 4
	s := make([]float32, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range s {
		s[i] = r.Float32()
	}
	return arrayview.MustNew(runtime.Ext(n), s), n
}

// famBenchDataInt32 returns a view of bytes/4 int32 values in [-1000, 1000).
func famBenchDataInt32(bytes int) *arrayview.View[int32] {
	s := make([]int32, bytes/4)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range s {
		s[i] = r.Int32N(2000) - 1000
	}
	return arrayview.MustNew(runtime.Ext(len(s)), s)
}

// famBenchTiling applies the -reduce.* tiling flags for the benchmark's duration.
func famBenchTiling(b *testing.B) {
	tile, per, groups, lb := reduceTile, reducePerThread, reduceMaxGroups, scanLBTile
	b.Cleanup(func() { reduceTile, reducePerThread, reduceMaxGroups, scanLBTile = tile, per, groups, lb })
	if *famBenchScanTile > 0 {
		scanLBTile = *famBenchScanTile
	}
	if *famBenchTile > 0 {
		reduceTile = *famBenchTile
	}
	if *famBenchPerThread > 0 {
		reducePerThread = *famBenchPerThread
	}
	if *famBenchGroups > 0 {
		reduceMaxGroups = *famBenchGroups
	}

}

// BenchmarkReduce: the float32 Sum, Min and Max and the int32 Sum of -reduce.bytes bytes.
func BenchmarkReduce(b *testing.B) {
	in, _ := famBenchData(*famBenchBytes)
	for _, op := range []Op{Sum, Min, Max} {
		b.Run(op.String(), func(b *testing.B) {
			famBenchTiling(b)
			famBench(b, func(b *testing.B, av *accelerator.View) {
				famBenchLoop(b, av, *famBenchBytes, func(av *accelerator.View) error {
					_, err := reduceOp(av, in, op, testHooks{noSubgroups: *famBenchNoSG})
					return err
				})
			})
		})
	}
	_ = in.Close() // before the int32 data, to keep the memory of one input
	ii := famBenchDataInt32(*famBenchBytes)
	defer ii.Close()
	b.Run("SumInt32", func(b *testing.B) {
		famBenchTiling(b)
		famBench(b, func(b *testing.B, av *accelerator.View) {
			famBenchLoop(b, av, *famBenchBytes, func(av *accelerator.View) error {
				_, err := reduceOp(av, ii, Sum, testHooks{noSubgroups: *famBenchNoSG})
				return err
			})
		})
	})
}

// BenchmarkInclusiveScan: the float32 running sums of -reduce.bytes bytes (read once,
// written once; GB/s counts the input), by the default algorithm (Auto: the single pass on
// a GPU), and by each.
func BenchmarkInclusiveScan(b *testing.B) {
	in, n := famBenchData(*famBenchBytes)
	defer in.Close()
	out := arrayview.MustNew(runtime.Ext(n), make([]float32, n))
	defer out.Close()
	for _, alg := range []struct {
		name string
		scan int
	}{{"Auto", scanAuto}, {"MultiPass", scanMultiPass}, {"SinglePass", scanSinglePass}} {
		b.Run(alg.name, func(b *testing.B) {
			famBenchTiling(b)
			famBench(b, func(b *testing.B, av *accelerator.View) {
				if alg.scan == scanSinglePass && av.Accelerator().Traits().HostMemory {
					b.Skip("the single pass has no fast CPU body")
				}
				out.DiscardData()
				famBenchLoop(b, av, *famBenchBytes, func(av *accelerator.View) error {
					if err := scanOp(av, in, out, false, testHooks{scan: alg.scan, noSubgroups: *famBenchNoSG}); err != nil {
						return err
					}
					return av.Wait()
				})
			})
		})
	}
}

// BenchmarkHistogram: 100 bins over [0, 1] (torch.histc's default bins) of -reduce.bytes
// bytes of float32 in [0, 1).
func BenchmarkHistogram(b *testing.B) {
	in, _ := famBenchData(*famBenchBytes)
	defer in.Close()
	famBench(b, func(b *testing.B, av *accelerator.View) {
		famBenchLoop(b, av, *famBenchBytes, func(av *accelerator.View) error {
			_, err := Histogram(av, in, 100, 0, 1)
			return err
		})
	})
}
