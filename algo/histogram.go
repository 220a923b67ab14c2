package algo

import (
	"math"
	"sync/atomic"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// The histogram kernel's tiling (variables so that the benchmarks can tune them).
var (
	// histTile is the smallest workgroup of the GPU body; more bins take more threads,
	// since the shared histogram has histBinsPerThread bins per thread.
	histTile = 256
	// histPerThread and histMaxGroups set the GPU workgroups as reducePerThread and
	// reduceMaxGroups do for Reduce; fewer groups mean fewer global atomics.
	histPerThread  = 64
	histMaxGroups  = 4096
	histMaxThreads = 1024
)

// histBinsPerThread is the size of the GPU body's shared histogram per thread of the
// workgroup.
const histBinsPerThread = 16

// Histogram counts the elements of the rank-1 float32 view in (a section too) in bins
// equal-width bins over [lo, hi], like torch.histc, on accelerator view av (nil: the view
// in lives on, else the default accelerator's), and returns the counts. It waits for
// them.
//
// An element x with lo <= x <= hi goes to bin floor((x - lo) * s) with s = bins/(hi - lo)
// (computed in float64 and rounded to float32; the product is rounded to float32), capped
// at bins-1, so that hi falls in the last bin; elements outside [lo, hi] and NaNs are not
// counted. As in torch.histc, lo == hi == 0 means the range of the data (its Min and Max),
// and an empty range lo == hi is widened to [lo-1, hi+1].
//
// bins must be between 1 and MaxHistogramBins(av), lo and hi finite with lo <= hi (and
// with lo == hi == 0, the data's range finite), in a non-nil rank-1 view; else Histogram
// returns a *ShapeError. in is only read.
//
// On a GPU each workgroup counts a contiguous slice of in (coalesced loads) into a histogram
// in shared memory with atomic adds, then adds its non-zero bins to the result with
// global atomics; on the CPU each tile counts into a local slice and merges the same way.
// Histogram takes float32 data only, like torch.histc: for integer data the bin of a
// value would need 64-bit arithmetic to be exact.
func Histogram(av *accelerator.View, in *arrayview.View[float32], bins int, lo, hi float32) ([]uint32, error) {
	const op = "Histogram"
	n, err := famVector(op, "in", in)
	if err != nil {
		return nil, err
	}
	av, err = chooseView("algo."+op, op, av, []string{"in"}, in)
	if err != nil {
		return nil, err
	}
	if maxBins := MaxHistogramBins(av); bins < 1 || bins > maxBins {
		return nil, shapeErr(op, "bins is %d; it must be between 1 and %d on %s", bins, maxBins, av.Accelerator().Path())
	}
	if lo, hi, err = histRange(av, in, lo, hi); err != nil {
		return nil, err
	}
	return histCount(av, in, n, bins, lo, hi)
}

// MaxHistogramBins is the most bins Histogram takes on av (nil: the default
// accelerator's view): one 4-byte counter per bin must fit the device's shared memory
// (8192 on lavapipe, 12288 on NVIDIA GPUs), and at most 16 bins per thread of a workgroup.
func MaxHistogramBins(av *accelerator.View) int {
	var lim accelerator.Limits
	if av != nil {
		lim = av.Accelerator().Limits()
	} else if acc, err := accelerator.Default(); err == nil {
		lim = acc.Limits()
	}
	return min(int(lim.MaxSharedMemory)/4, histBinsPerThread*histThreads(lim))
}

// histThreads is the largest workgroup of the histogram kernel on a device with limits lim.
func histThreads(lim accelerator.Limits) int {
	return min(histMaxThreads, int(lim.MaxWorkgroupInvocations), int(lim.MaxWorkgroupSize[0]))
}

// histRange checks Histogram's range [lo, hi] and returns the one it counts over: the
// data's (its Min and Max) for lo == hi == 0, widened by 1 on each side when empty.
func histRange(av *accelerator.View, in *arrayview.View[float32], lo, hi float32) (float32, float32, error) {
	const op = "Histogram"
	finite := func(what string) error {
		for _, b := range []float32{lo, hi} {
			if math.IsNaN(float64(b)) || math.IsInf(float64(b), 0) {
				return shapeErr(op, "%s [%v, %v] must be finite", what, lo, hi)
			}
		}
		return nil
	}
	if err := finite("the range"); err != nil {
		return 0, 0, err
	}
	if lo > hi {
		return 0, 0, shapeErr(op, "lo %v is greater than hi %v", lo, hi)
	}
	if lo == 0 && hi == 0 {
		var err error
		if lo, err = Reduce(av, in, Min); err != nil {
			return 0, 0, err
		}
		if hi, err = Reduce(av, in, Max); err != nil {
			return 0, 0, err
		}
		if err := finite("the data's range"); err != nil {
			return 0, 0, err
		}
	}
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	return lo, hi, nil
}

// histCount counts the n elements of in into bins bins over [lo, hi] (lo < hi) on av.
func histCount(av *accelerator.View, in *arrayview.View[float32], n, bins int, lo, hi float32) ([]uint32, error) {
	scale := float32(min(float64(bins)/(float64(hi)-float64(lo)), math.MaxFloat32))
	// Enough threads for 16 bins each, in multiples of 64.
	tile := max(histTile, ceilDiv(ceilDiv(bins, histBinsPerThread), 64)*64)
	tile = min(tile, histThreads(av.Accelerator().Limits()))
	g := reduceGridFor(av.Accelerator(), n, tile, histPerThread, histMaxGroups)

	// The counters live in a scratch buffer (no device allocation per call): zeroed by
	// an upload, read back by a download of bins words.
	s, err := takeScratch[uint32](av, runtime.Ext(bins), "")
	if err != nil {
		return nil, err
	}
	defer s.release()
	cv, err := s.v.Section(runtime.Idx(0), runtime.Ext(bins))
	if err != nil {
		return nil, err
	}
	counts := make([]uint32, bins)
	err = cv.CopyFrom(counts)
	if err == nil {
		k := histogramKernel{In: in.ReadOnly(), Out: cv, N: uint32(n), Chunk: uint32(g.chunk),
			Bins: uint32(bins), Lo: lo, Hi: hi, Scale: scale}
		err = dispatchTiled(av, runtime.Ext(g.groups*g.tile).Tile(g.tile), k)
	}
	if err == nil {
		err = cv.CopyTo(counts)
	}
	if cerr := cv.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return counts, nil
}

// histogramKernel is Histogram's kernel, tiled 1-D: workgroup g counts the elements
// [g*Chunk, min((g+1)*Chunk, N)) of In into the Bins counters of Out, which start at
// zero. Its GPU body is generated from Tiled by ampgen.
type histogramKernel struct {
	In    *arrayview.ReadView[float32]
	Out   *arrayview.View[uint32]
	N     uint32
	Chunk uint32
	Bins  uint32
	Lo    float32
	Hi    float32
	Scale float32 // Bins / (Hi - Lo)
}

// SharedBytes is the GPU body's shared histogram: histBinsPerThread counters per thread.
func (histogramKernel) SharedBytes(tile [3]int) int { return 4 * histBinsPerThread * tile[0] }

// bin returns the bin of x, or -1 when x is outside [Lo, Hi] or NaN. The arithmetic is
// float32 on every accelerator, rounding included, so that all count alike (a difference
// then a product: nothing for a GPU to fuse).
func (k histogramKernel) bin(x float32) int {
	if !(x >= k.Lo && x <= k.Hi) {
		return -1
	}
	d := float32(x-k.Lo) * k.Scale
	if d < float32(k.Bins) {
		return int(d)
	}
	return int(k.Bins) - 1
}

// Tiled is the definition and the GPU body: the tile zeroes its histogram in tile_static
// memory (histBinsPerThread counters per thread, Bins of them used), thread l counts the
// elements l, l+size, ... of its group's slice into it with atomic adds (four loads in
// flight, consecutive threads reading consecutive elements), then adds the bins l,
// l+size, ... that are not zero to Out with atomic adds.
func (k histogramKernel) Tiled(t runtime.TiledIndex) {
	size, l := t.TileExtent.Dim(0), t.Local[0]
	hist := runtime.TileStatic[uint32](t, t.TileExtent.Size()*histBinsPerThread)
	bins := int(k.Bins)
	for b := l; b < bins; b += size {
		hist[b] = 0
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	lo := t.Tile[0] * int(k.Chunk)
	hi := min(lo+int(k.Chunk), int(k.N))
	i := lo + l
	for ; i+3*size < hi; i += 4 * size {
		x0, x1 := k.In.At(runtime.Idx(i)), k.In.At(runtime.Idx(i+size))
		x2, x3 := k.In.At(runtime.Idx(i+2*size)), k.In.At(runtime.Idx(i+3*size))
		b0, b1, b2, b3 := k.bin(x0), k.bin(x1), k.bin(x2), k.bin(x3)
		if b0 >= 0 {
			runtime.AtomicAdd(hist, b0, 1)
		}
		if b1 >= 0 {
			runtime.AtomicAdd(hist, b1, 1)
		}
		if b2 >= 0 {
			runtime.AtomicAdd(hist, b2, 1)
		}
		if b3 >= 0 {
			runtime.AtomicAdd(hist, b3, 1)
		}
	}
	for ; i < hi; i += size {
		if b := k.bin(k.In.At(runtime.Idx(i))); b >= 0 {
			runtime.AtomicAdd(hist, b, 1)
		}
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	for b := l; b < bins; b += size {
		if c := hist[b]; c != 0 {
			k.Out.AtomicAdd(runtime.Idx(b), c)
		}
	}
}

// EachTile is the fast CPU body: the group's slice counted into a local histogram, which
// is then added to Out. It stays beside ampgen's generated body, which made
// Histogram of 4 Mi float32 into 256 bins 1.4-2.1x slower (BenchmarkHandVsGenerated,
// CPU accelerator, this 2-core machine): the generated body keeps the
// GPU's shape (each thread strides through the group's chunk by the tile's size), where
// this one counts the chunk in order.
func (k histogramKernel) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	hist := make([]uint32, k.Bins)
	lo := tile[0] * int(k.Chunk)
	hi := min(lo+int(k.Chunk), int(k.N))
	if in, err := k.In.ReadData(); err == nil {
		for _, x := range in[lo:hi] {
			if b := k.bin(x); b >= 0 {
				hist[b]++
			}
		}
	} else {
		for i := lo; i < hi; i++ {
			if b := k.bin(k.In.At(runtime.Idx(i))); b >= 0 {
				hist[b]++
			}
		}
	}
	for b, c := range hist {
		if c != 0 {
			histAdd(k.Out, b, c)
		}
	}
}

// histAdd adds c to element i of the counts v with an atomic add (GLSL's atomicAdd on a
// buffer): the tiles of a CPU dispatch run on several goroutines at once.
func histAdd(v *arrayview.View[uint32], i int, c uint32) {
	data, err := v.Data()
	if err != nil {
		panic(err) // v is a rank-1 view made by Histogram: always contiguous
	}
	atomic.AddUint32(&data[i], c)
}
