package algo

import (
	"cmp"
	"slices"
	"sync/atomic"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// The hybrid radix sort: the multi-pass LSD sort's passes for the high digits
// only, then one local sort of each bucket of keys with the same high bits.
//
// Each pass of the multi-pass sort reads and writes every key (and value) once, and reads
// the keys once more for its histogram. Once the keys are in order of their top 32-bits
// bits (bits 16, after two global passes; or 24, after one, which only tests choose),
// they form buckets of equal key >> bits, each a run of the array in its final place:
// sorting each bucket by its low bits in shared memory
// (shaders/glsl/sort_local.glsl) finishes the sort with one read and one coalesced write,
// where the multi-pass sort would take bits/8 more passes. For 268,435,456 keys, two global
// passes on bits 16..31 leave 65,536 buckets of 4,096 keys on average, which one
// workgroup holds (sort_local_p: 5,120 keys' low halves and their indices in the bucket,
// one word each, in 30 KB of shared memory, 512 threads of 10 keys; the values are
// gathered from the bucket as it is written out). On the H200 a sort of 2^28 pairs took
// 11.0 ms, against 13.7 for the four passes: two global passes of 3.1 ms (histogram,
// scan, scatter) and a local sort of 4.2 (RESULTS.md).
//
// That holds only when the keys' high bits spread them evenly: keys drawn from a narrow
// range (normally distributed float32s share a few exponents) make buckets far larger
// than a workgroup. So the sort first counts the keys of up to 1,024 coarse buckets
// (sortCoarseKernel, a strided sample of 4M to 8M keys) and takes the hybrid path only
// when the worst coarse bucket, spread over its fine buckets, fits a workgroup with a
// tenth to spare.
// A fine bucket that is still too large (the coarse counts cannot see inside a coarse
// bucket) is counted by the local sort, which leaves it; the whole sort then runs again
// with the multi-pass sort from the keys in the order of their high bits, which keeps it
// stable. So the result never depends on the distribution, only the time does.
//
// hybridBits chooses the path (sorts with values only: keys alone gained nothing); tests
// force it on every accelerator (hooks.hybrid), with the small programs (hybridSmall,
// test programs) on GPUs the large ones do not fit and the Go bodies on the CPU.

// The choices of hooks.hybrid.
const (
	hybridAuto  = iota // where hybridBits finds it fits (the default)
	hybridOff          // never
	hybridForce        // wherever it can run, without the coarse check
)

// hybridProg is a program of the local sort: sort_local.glsl compiled with KPT keys a
// thread of workgroups of threads (buckets of up to threads*KPT keys) and room for the
// digit counts of maxSG subgroups; packed marks a PACK16 program, which sorts 16 low bits
// only (one word an element in shared memory and registers instead of two). prog, when
// not nil, is the program (a test's), else it is package shaders' program name.
type hybridProg struct {
	name                string
	kpt, maxSG, threads int
	packed              bool
	prog                *runtime.Program
}

// hybridSet is the local sort's programs on a device: wide for any low bits, packed (if
// named) for 16 low bits.
type hybridSet struct{ wide, packed hybridProg }

// The local sort's programs (shaders/glsl/variants.txt). The large set's packed program
// has workgroups of 512 threads: with one word an element its 5,120 keys take 30 KB, and
// spreading a bucket over 16 subgroups halves each lane's ranking chain (RESULTS.md).
var hybridLarge = hybridSet{hybridProg{"sort_local", 20, 8, 256, false, nil},
	hybridProg{"sort_local_p", 10, 16, 512, true, nil}}

// hybridSmall is the set that forced hybrid sorts (hooks.hybrid) run on GPUs that
// hybridLarge does not fit: the tests' (none in production binaries).
var hybridSmall hybridSet

// forBits is s's program for a sort of the keys' low bits bits.
func (s hybridSet) forBits(bits int) hybridProg {
	if bits == 16 && s.packed.name != "" {
		return s.packed
	}
	return s.wide
}

// sharedBytes is the most shared memory a program of s takes.
func (s hybridSet) sharedBytes() int { return max(s.wide.sharedBytes(), s.packed.sharedBytes()) }

// capacity is the largest bucket p holds.
func (p hybridProg) capacity() int { return p.threads * p.kpt }

// sharedBytes is p's shared memory: a bucket of elements, the subgroups' digit counts,
// the partial sums of their scan, their sums and two digit tables.
func (p hybridProg) sharedBytes() int {
	elem := 8
	if p.packed {
		elem = 4
	}
	return elem*p.capacity() + 4*(p.maxSG*128+p.threads+32+2*radixBins)
}

// hybridMaxGroups is the most workgroups of a local sort; they stride over the buckets.
const hybridMaxGroups = 8192

// hybridCap returns the local sort's programs on av, and whether they run there: the
// large set on GPUs with subgroups of 32 or more and its shared memory; where forced,
// the small set on other GPUs with the ballot scatter, and the Go body (with the large
// set's capacities) on the CPU.
func hybridCap(av *accelerator.View, sg, forced bool) (s hybridSet, ok bool) {
	a := av.Accelerator()
	shared := int(a.Limits().MaxSharedMemory)
	switch {
	case sg && a.SubgroupSize() >= 32 && shared >= hybridLarge.sharedBytes() &&
		int(a.Limits().MaxWorkgroupInvocations) >= hybridLarge.packed.threads:
		return hybridLarge, true
	case forced && sg && hybridSmall.wide.name != "" && shared >= hybridSmall.sharedBytes():
		return hybridSmall, true
	case forced && a.Traits().HostMemory:
		return hybridLarge, true
	}
	return hybridSet{}, false
}

// hybridBits returns the low bits that job's hybrid sort would sort in workgroups, or 0
// where it does not run: 16, for a sort of 32-bit keys with values (or indices),
// interleaved with the keys between the passes (radixInterleaved), whose average bucket
// of equal high half is between 3/8 and 9/10 of a workgroup's (126M to 302M keys on GPUs
// with subgroups of 32). hooks.hybridBits may fix the bits (24 too, which the tests use).
// On the H200 (RESULTS.md) the hybrid sort lost outside that: 2^26 pairs (buckets of
// 1,024, a fifth of a workgroup) took 4.17 ms against 3.77 for the four passes; with 24
// low bits, 2^20 pairs took 0.31 ms against 0.22, the two waits costing more than the
// passes saved; and keys alone took as long as with the four passes (9.6 ms against 9.9
// for 2^28), before the coarse check's wait.
func hybridBits[T, V Number](av *accelerator.View, job *radixJob[T, V], sg bool) int {
	forced := hooks.hybrid == hybridForce
	if hooks.hybrid == hybridOff || job.passes != 4 {
		return 0
	}
	set, ok := hybridCap(av, sg, forced)
	if !ok || job.vals == radixKeysOnly && !forced || job.vals != radixKeysOnly && !radixInterleaved(av, job, sg) {
		return 0
	}
	if hooks.hybridBits != 0 {
		return hooks.hybridBits
	}
	return hybridAutoBits(job.n, set.forBits(16).capacity())
}

// hybridAutoBits is hybridBits' choice for n keys and a local sort of capacity keys: 16
// where the average bucket of equal high half fills 3/8 to 9/10 of it, else 0.
func hybridAutoBits(n, capacity int) int {
	if mean := n >> 16; mean*10 <= 9*capacity && mean*8 >= 3*capacity {
		return 16
	}
	return 0
}

// hybridRun runs job's hybrid sort in e (the passes' histogram and grids), the keys'
// low bits sorted in workgroups; done is false, with nothing done, where the coarse
// check finds the keys too unevenly spread (unless hooks.hybrid forces the path).
func hybridRun[T, V Number](av *accelerator.View, job radixJob[T, V], e *radixEnv, bits int) (done bool, err error) {
	set, _ := hybridCap(av, e.sg, hooks.hybrid == hybridForce)
	prog := set.forBits(bits)
	if hooks.hybrid != hybridForce {
		fits, err := hybridFits(av, job, bits, prog.capacity())
		if err != nil || !fits {
			return err != nil, err
		}
	}
	var frees []func(*error)
	defer func() {
		for i := len(frees) - 1; i >= 0; i-- {
			frees[i](&err)
		}
	}()
	vt, err := radixValTemps(av, &job, true)
	if err != nil {
		return true, err
	}
	frees = append(frees, vt.free)
	words := job.n // a temporary's elements: keys, or keys and values interleaved
	if job.vals != radixKeysOnly {
		words *= 2
	}
	var tmp [2]*arrayview.View[T]
	for i := range tmp {
		t, free, err := scratchSection[T](av, words)
		if err != nil {
			return true, err
		}
		tmp[i], frees = t, append(frees, free)
	}
	global := (32 - bits) / 8
	plan := hybridPlan(job, tmp, vt, global)
	for i, p := range plan[:global] {
		in, vals := int32(1), job.vals
		if i == 0 {
			in = job.tc
		} else if vals == radixIota {
			vals = radixPairs
		}
		if err = radixPassRun(av, e, p, uint32(bits+8*i), in, 1, vals); err != nil {
			return true, err
		}
	}
	over, err := hybridLocal(av, job, plan[global].src, vt, bits, &frees, prog)
	if err != nil || !over {
		return true, err
	}
	// A bucket was too large: sort the keys again, all four passes, from their order by
	// the high bits (stable, as that order kept equal keys in input order).
	for i, p := range plan[global:] {
		out, vals := int32(1), job.vals
		if i == 3 {
			out = job.tc
		}
		if vals == radixIota {
			vals = radixPairs
		}
		if err = radixPassRun(av, e, p, uint32(8*i), 1, out, vals); err != nil {
			return true, err
		}
	}
	return true, nil
}

// hybridPlan returns the hybrid sort's passes: global passes from job's input through the
// temporaries tmp, then the four passes of its fallback, from the last of them to job's
// output (keys and values interleaved in the temporaries where job has values).
func hybridPlan[T, V Number](job radixJob[T, V], tmp [2]*arrayview.View[T], vt *radixVals[V], global int) []radixPass[T, V] {
	ilv := uint32(0)
	if job.vals != radixKeysOnly {
		ilv = radixSrcPairs | radixDstPairs
	}
	plan := make([]radixPass[T, V], 0, global+4)
	for i := range global {
		p := radixPass[T, V]{src: tmp[(i+1)%2], srcV: vt.tmp, dst: tmp[i%2], dstV: vt.tmp, interleave: ilv}
		if i == 0 {
			p.src, p.srcV, p.interleave = job.in, vt.in, ilv&^radixSrcPairs
		}
		plan = append(plan, p)
	}
	for i := range 4 {
		p := radixPass[T, V]{src: tmp[(global+1+i)%2], srcV: vt.tmp, dst: tmp[(global+i)%2], dstV: vt.tmp, interleave: ilv}
		if i == 3 {
			p.dst, p.dstV, p.interleave = job.out, vt.out, ilv&^radixDstPairs
		}
		plan = append(plan, p)
	}
	return plan
}

// hybridLocal finds the buckets of the keys in src (sorted by their bits bits..31) and
// sorts each in a workgroup into job's outputs; over reports a bucket too large for one.
func hybridLocal[T, V Number](av *accelerator.View, job radixJob[T, V], src *arrayview.View[T], vt *radixVals[V],
	bits int, frees *[]func(*error), prog hybridProg) (over bool, err error) {
	buckets := 1 << (32 - bits)
	bounds, free, err := scratchSection[uint32](av, buckets+1)
	if err != nil {
		return false, err
	}
	*frees = append(*frees, free)
	overView, free, err := scratchSection[uint32](av, 1) // the buckets too large
	if err != nil {
		return false, err
	}
	*frees = append(*frees, free)
	stride := uint32(1)
	if job.vals != radixKeysOnly {
		stride = 2
	}
	b := sortBoundsKernel[T]{Src: src.ReadOnly(), Bounds: bounds, N: uint32(job.n), Bits: uint32(bits), Stride: stride}
	if err = dispatch(av, runtime.Ext(buckets+1), b); err != nil {
		return false, err
	}
	if err = dispatch(av, runtime.Ext(1), scanClearKernel[uint32]{State: overView}); err != nil {
		return false, err
	}
	vals := uint32(0)
	if job.vals != radixKeysOnly {
		vals = 1
	}
	groups := min(buckets, hybridMaxGroups)
	k := sortLocalKernel[T, V]{Src: src.ReadOnly(), Dst: job.out, DstVal: vt.out, Bounds: bounds.ReadOnly(), Over: overView,
		Buckets: uint32(buckets), Bits: uint32(bits), OutType: job.tc, Vals: vals, prog: prog, groups: groups}
	if err = dispatchTiled(av, runtime.Ext(groups*prog.threads).Tile(prog.threads), k); err != nil {
		return false, err
	}
	n, err := overView.ReadData()
	if err != nil {
		return false, err
	}
	return n[0] != 0, nil
}

// hybridFits counts a sample of job's keys (every step-th, 4M to 8M keys) in coarse
// buckets (sortCoarseKernel) and reports whether the largest, scaled up by step and spread
// evenly over its buckets of equal key >> bits, fills at most nine tenths of a
// workgroup's capacity. (Counting every key read them all once more and cost 0.3 ms of
// 2^28 keys on the H100, where the sample's strided reads take a tenth of the bytes.)
func hybridFits[T, V Number](av *accelerator.View, job radixJob[T, V], bits, capacity int) (fits bool, err error) {
	cb := max(bits, 22) // at most 1024 coarse buckets
	step := max(1, job.n>>22)
	counts, free, err := scratchSection[uint32](av, 1024)
	if err != nil {
		return false, err
	}
	defer free(&err)
	if err = dispatch(av, runtime.Ext(1024), scanClearKernel[uint32]{State: counts}); err != nil {
		return false, err
	}
	samples := ceilDiv(job.n, step)
	groups := min(1024, ceilDiv(samples, radixTile*16))
	c := sortCoarseKernel[T]{Src: job.in.ReadOnly(), Counts: counts, N: uint32(job.n), Bits: uint32(cb), Type: job.tc,
		Step: uint32(step), groups: groups}
	if err = dispatchTiled(av, runtime.Ext(groups*radixTile).Tile(radixTile), c); err != nil {
		return false, err
	}
	got, err := counts.ReadData()
	if err != nil {
		return false, err
	}
	worst := int(slices.Max(got)) * step >> (cb - bits)
	return worst*10 <= 9*capacity, nil
}

// sortCoarseKernel adds the count of each coarse bucket sortKey(key, Type) >> Bits of every
// Step-th of Src's N keys (at most 1024 buckets) to Counts, the tiles striding over the
// sample.
type sortCoarseKernel[T Number] struct {
	Src     *arrayview.ReadView[T]
	Counts  *arrayview.View[uint32]
	N, Bits uint32
	Type    int32
	Step    uint32
	groups  int `amp:"-"` // the domain's tiles
}

// Program is the GPU body: shaders/glsl/sort_coarse.comp.
func (sortCoarseKernel[T]) Program() *runtime.Program { return shaders.MustProgram("sort_coarse", 1) }

// SharedBytes is the GPU body's shared counts.
func (sortCoarseKernel[T]) SharedBytes([3]int) int { return 4 * 1024 }

// Tiled is the definition: thread l of tile b counts sampled keys b*size + l, then every
// size*groups samples on, and adds the tile's counts to Counts.
func (k sortCoarseKernel[T]) Tiled(t runtime.TiledIndex) {
	c := runtime.TileStatic[uint32](t, 1024)
	t.Barrier.WaitWithTileStaticMemoryFence() // c is zeroed; the GPU body zeroes it
	size := t.TileExtent.Dim(0)
	samples := (int(k.N) + int(k.Step) - 1) / int(k.Step)
	for i := t.Tile[0]*size + t.Local[0]; i < samples; i += size * k.groups {
		atomic.AddUint32(&c[sortKey(ewBitsOf(k.Src.At(runtime.Idx(i*int(k.Step)))), k.Type)>>k.Bits], 1)
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	counts, err := k.Counts.Data()
	if err != nil {
		panic(err) // the counts are a contiguous scratch view
	}
	for i := t.Local[0]; i < 1024; i += size {
		atomic.AddUint32(&counts[i], c[i])
	}
}

// sortBoundsKernel writes to Bounds[h] the first i whose key (Src's element i*Stride) has
// key >> Bits >= h, or N, for the keys sorted by key >> Bits.
type sortBoundsKernel[T Number] struct {
	Src             *arrayview.ReadView[T]
	Bounds          *arrayview.View[uint32]
	N, Bits, Stride uint32
}

// Program is the GPU body: shaders/glsl/sort_bounds.comp.
func (sortBoundsKernel[T]) Program() *runtime.Program { return shaders.MustProgram("sort_bounds", 1) }

// Each is the definition: a binary search.
func (k sortBoundsKernel[T]) Each(i runtime.Index) {
	h := uint32(i[0])
	lo, hi := uint32(0), k.N
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ewBitsOf(k.Src.At(runtime.Idx(int(mid*k.Stride))))>>k.Bits < h {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	k.Bounds.Set(i, lo)
}

// sortLocalKernel sorts each bucket h of Src's keys, Bounds[h] .. Bounds[h+1]-1, by the
// keys' low Bits bits, stably, into the same positions of Dst (as elements of type code
// OutType) and, with Vals 1, their values (interleaved with the keys in Src) into DstVal;
// a bucket longer than the program holds adds 1 to Over[0] and is left.
type sortLocalKernel[T, V Number] struct {
	Src           *arrayview.ReadView[T]
	Dst           *arrayview.View[T]
	DstVal        *arrayview.View[V]
	Bounds        *arrayview.ReadView[uint32]
	Over          *arrayview.View[uint32]
	Buckets, Bits uint32
	OutType       int32
	Vals          uint32
	prog          hybridProg `amp:"-"`
	groups        int        `amp:"-"` // the domain's tiles
}

// Program is the GPU body: shaders/glsl/sort_local.glsl, compiled as k.prog.
func (k sortLocalKernel[T, V]) Program() *runtime.Program {
	if k.prog.prog != nil {
		return k.prog.prog
	}
	return shaders.MustProgram(k.prog.name, 1)
}

// SharedBytes is the GPU body's shared memory.
func (k sortLocalKernel[T, V]) SharedBytes([3]int) int { return k.prog.sharedBytes() }

// Tiled is the definition, serial in the tile's thread 0: EachTile.
func (k sortLocalKernel[T, V]) Tiled(t runtime.TiledIndex) {
	if t.Local[0] == 0 {
		k.EachTile(runtime.TiledExtent{}, t.Tile)
	}
}

// EachTile is the fast CPU body: tile b sorts buckets b, b+groups, ... with a stable
// sort.
func (k sortLocalKernel[T, V]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	type kv struct{ k, v uint32 }
	var buf []kv
	for h := tile[0]; h < int(k.Buckets); h += k.groups {
		lo, hi := int(k.Bounds.At(runtime.Idx(h))), int(k.Bounds.At(runtime.Idx(h+1)))
		if hi-lo > k.prog.capacity() {
			over, err := k.Over.Data()
			if err != nil {
				panic(err) // the count is a contiguous scratch view
			}
			atomic.AddUint32(&over[0], 1)
			continue
		}
		buf = buf[:0]
		for i := lo; i < hi; i++ {
			if k.Vals != 0 {
				buf = append(buf, kv{ewBitsOf(k.Src.At(runtime.Idx(2 * i))), ewBitsOf(k.Src.At(runtime.Idx(2*i + 1)))})
			} else {
				buf = append(buf, kv{ewBitsOf(k.Src.At(runtime.Idx(i))), 0})
			}
		}
		slices.SortStableFunc(buf, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
		for j, e := range buf {
			k.Dst.Set(runtime.Idx(lo+j), ewFromBits[T](sortElem(e.k, k.OutType)))
			if k.Vals != 0 {
				k.DstVal.Set(runtime.Idx(lo+j), ewFromBits[V](e.v))
			}
		}
	}
}
