package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// OneSweep (Adinets and Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort
// for GPUs", 2022) sorts 32-bit keys in five dispatches instead of the multi-pass sort's
// twelve: one histogram of all four digits over the input (onesweepHistKernel), then one
// dispatch per digit (onesweepKernel) in which each tile of keys finds where its keys of
// each digit go by decoupled look-back at the tiles before it, and scatters them. It reads
// the keys five times and writes them four (the multi-pass sort: twelve and four).
//
// A tile's look-back waits for the tiles before it, which is fast only on a device that
// keeps a started workgroup running while another spins: Vulkan does not promise it. A
// tile that waits too long counts the keys of the tile it waits for itself (the decoupled
// fallback), so the sort is right everywhere, but slow where the fallback is frequent.
// onesweepOn takes OneSweep only on devices known to keep workgroups running
// (onesweepVendors) and only after a self-test on the accelerator has sorted correctly
// (onesweepTrusted); elsewhere, lavapipe and the CPU included, the multi-pass sort runs.
// Tests force it (hooks.sort = sortOneSweep) on any GPU with subgroup ballots, lavapipe
// included, with and without the fallback forced (onesweepSpinLimit).

// onesweepVendors are the PCI vendor IDs of the GPUs on which sortAuto takes OneSweep. NVIDIA
// (independent thread scheduling; CUB's OneSweep relies on it) and AMD (rocPRIM's look-back
// scans do) keep workgroups running while others spin, but the list is empty: on the H100
// (2026-11-23, RESULTS.md) this OneSweep sorted 268,435,456 keys in 31 ms (7.4 ms a pass)
// against the multi-pass sort's 13.7 ms, whose scatter prefetches the next sub-tile's
// keys, so no device takes it until it is faster. Tests force it.
var onesweepVendors []uint32

// onesweepMaxKeys bounds OneSweep's length: the look-back's counts have 30 bits.
const onesweepMaxKeys = 1<<30 - 1

// onesweepSpinLimit is how many times a OneSweep tile reads the count of a tile before
// it that is not published before it counts that tile's keys itself (a variable so that
// the tests can force that fallback): on an H100 about a millisecond of waiting, which a
// tile that is running never needs.
var onesweepSpinLimit uint32 = 1 << 12

// onesweepMin is the length from which onesweepOn chooses OneSweep (below it the
// multi-pass sort, whose launches are as few for one block, is as fast).
const onesweepMin = 1 << 16

// onesweepCapable reports whether av's device has what OneSweep's programs need: a GPU
// with subgroup ballots and arithmetic, subgroups of 8 to 128 invocations and 32 KiB of
// shared memory.
func onesweepCapable(av *accelerator.View) bool {
	a := av.Accelerator()
	return !a.Traits().HostMemory && radixScatterSG(av) && a.Limits().MaxSharedMemory >= 32<<10
}

// onesweepOn reports whether a 4-pass radix sort of n keys on av, with hooks.sort algo,
// takes OneSweep: forced (sortOneSweep) where the device can run it, else (sortAuto) on
// the devices of onesweepVendors once the self-test passed there.
func onesweepOn(av *accelerator.View, n, algo int) bool {
	if n > onesweepMaxKeys || !onesweepCapable(av) {
		return false
	}
	switch algo {
	case sortOneSweep:
		return true
	case sortAuto:
		return n >= onesweepMin && slices.Contains(onesweepVendors, av.Accelerator().Properties().VendorID) &&
			onesweepTrusted(av)
	}
	return false
}

// onesweepTrust holds each accelerator's self-test result (*accelerator.Accelerator ->
// *onesweepCheck).
var onesweepTrust sync.Map

// onesweepCheck is one accelerator's self-test, run once.
type onesweepCheck struct {
	once sync.Once
	ok   bool
}

// onesweepTrusted runs the self-test on av's accelerator the first time it is asked: an
// Argsort of onesweepTestKeys random keys by OneSweep, checked against the host. A
// failure (a wrong order, an error) keeps the accelerator on the multi-pass sort.
func onesweepTrusted(av *accelerator.View) bool {
	c, _ := onesweepTrust.LoadOrStore(av.Accelerator(), &onesweepCheck{})
	check := c.(*onesweepCheck)
	check.once.Do(func() { check.ok = onesweepSelfTest(av) == nil })
	return check.ok
}

// onesweepTestKeys is the self-test's length: a few hundred tiles, several waves of
// workgroups on a large GPU, with duplicates.
const onesweepTestKeys = 1<<20 + 77

// onesweepSelfTest sorts random uint32 keys with their indices by OneSweep on av and
// compares them with a stable sort on the host.
func onesweepSelfTest(av *accelerator.View) (err error) {
	r := rand.New(rand.NewPCG(0x05ee9, 12))
	n := onesweepTestKeys
	keys := make([]uint32, n)
	for i := range keys {
		keys[i] = r.Uint32() >> (r.IntN(4) * 8) // short keys too: runs of equal digits
	}
	kv := arrayview.MustNew(runtime.Ext(n), slices.Clone(keys))
	iv := arrayview.MustNew(runtime.Ext(n), make([]int32, n))
	defer func() {
		kv.Close()
		iv.Close()
	}()
	if err := onesweepRun(av, radixJob[uint32, int32]{in: kv, out: kv, vOut: iv, vals: radixIota, n: n, tc: 1,
		passes: 4}); err != nil {
		return err
	}
	if err := kv.Synchronize(); err != nil {
		return err
	}
	if err := iv.Synchronize(); err != nil {
		return err
	}
	got, _ := kv.Data()
	idx, _ := iv.Data()
	want := stableOrder(keys)
	for i, p := range want {
		if idx[i] != p || got[i] != keys[p] {
			return fmt.Errorf("goamp/algo: OneSweep self-test on %s: element %d is key %d (index %d), want %d (index %d)",
				av.Accelerator().Path(), i, got[i], idx[i], keys[p], p)
		}
	}
	return nil
}

// stableOrder returns the permutation that sorts keys stably.
func stableOrder(keys []uint32) []int32 {
	p := make([]int32, len(keys))
	for i := range p {
		p[i] = int32(i)
	}
	slices.SortStableFunc(p, func(a, b int32) int { return int(int64(keys[a]) - int64(keys[b])) })
	return p
}

// onesweepRun runs job (4 passes, n <= onesweepMaxKeys) by OneSweep: the state (the four
// digit histograms, then a tile counter and 256 counts per tile) is zeroed, the histogram
// counted, and each pass zeroes the tiles' part before it runs.
func onesweepRun[T, V Number](av *accelerator.View, job radixJob[T, V]) (err error) {
	n := job.n
	k8 := av.Accelerator().SubgroupSize() < 16
	tile := radixTile * 16
	if k8 {
		tile = radixTile * 8
	}
	tiles := ceilDiv(n, tile)
	st, freeSt, err := scratchSection[uint32](av, 1025+256*tiles)
	if err != nil {
		return err
	}
	defer freeSt(&err)
	tmp, freeTmp, err := scratchSection[T](av, n)
	if err != nil {
		return err
	}
	defer freeTmp(&err)
	vt, err := radixValTemps(av, &job, false)
	if err != nil {
		return err
	}
	defer vt.free(&err)
	if err = dispatch(av, runtime.Ext(1025+256*tiles), scanClearKernel[uint32]{State: st}); err != nil {
		return err
	}
	groups := min(1024, (n+radixTile*16-1)/(radixTile*16))
	h := onesweepHistKernel[T]{Src: job.in.ReadOnly(), State: st, N: uint32(n), Type: job.tc, tiles: groups}
	if err = dispatchTiled(av, runtime.Ext(groups*radixTile).Tile(radixTile), h); err != nil {
		return err
	}
	src, srcV := job.in, vt.in
	for pass := range 4 {
		dst, dstV := tmp, vt.tmp
		if pass%2 == 1 {
			dst, dstV = job.out, vt.out
		}
		in, out := int32(1), int32(1)
		if pass == 0 {
			in = job.tc
		}
		if pass == 3 {
			out = job.tc
		}
		vals := job.vals
		if vals == radixIota && pass > 0 {
			vals = radixPairs
		}
		if pass > 0 {
			if err = dispatch(av, runtime.Ext(1+256*tiles), scanClearKernel[uint32]{State: st, Off: 1024}); err != nil {
				return err
			}
		}
		k := onesweepKernel[T, V]{Src: src.ReadOnly(), Dst: dst, SrcVal: srcV.ReadOnly(), DstVal: dstV, State: st,
			N: uint32(n), Shift: uint32(8 * pass), InType: in, OutType: out, Vals: vals, SpinLimit: onesweepSpinLimit, k8: k8}
		if err = dispatchTiled(av, runtime.Ext(tiles*radixTile).Tile(radixTile), k); err != nil {
			return err
		}
		src, srcV = dst, dstV
	}
	return nil
}

// countDigit counts the keys of digit d among Src's keys lo..hi-1 (sc: the pass as a
// radixScatterKernel).
func (k onesweepKernel[T, V]) countDigit(sc radixScatterKernel[T, V], lo, hi int, d uint32) uint32 {
	var c uint32
	for i := lo; i < hi; i++ {
		if sc.digit(i) == d {
			c++
		}
	}
	return c
}

// onesweepHistKernel adds the counts of the four 8-bit digits of Src's N keys (elements
// mapped by Type, a typeCode) to State[256*digit + value], the tiles striding over the keys.
type onesweepHistKernel[T Number] struct {
	Src   *arrayview.ReadView[T]
	State *arrayview.View[uint32]
	N     uint32
	Type  int32
	tiles int `amp:"-"` // the domain's tiles
}

// Program is the GPU body: shaders/glsl/sort_onesweep_hist.comp.
func (onesweepHistKernel[T]) Program() *runtime.Program {
	return shaders.MustProgram("sort_onesweep_hist", 1)
}

// SharedBytes is the GPU body's four shared histograms.
func (onesweepHistKernel[T]) SharedBytes([3]int) int { return 4 * 1024 }

// Tiled is the definition: thread l of tile b counts keys b*size + l, then every
// size*tiles keys on, and adds them to State.
func (k onesweepHistKernel[T]) Tiled(t runtime.TiledIndex) {
	h := runtime.TileStatic[uint32](t, 1024)
	t.Barrier.WaitWithTileStaticMemoryFence() // h is zeroed; the GPU body zeroes it
	size := t.TileExtent.Dim(0)
	stride := size * k.tiles
	st, err := k.State.Data()
	if err != nil {
		panic(err) // the state is a contiguous scratch view
	}
	for i := t.Tile[0]*size + t.Local[0]; i < int(k.N); i += stride {
		key := sortKey(ewBitsOf(k.Src.At(runtime.Idx(i))), k.Type)
		for d := range 4 {
			atomic.AddUint32(&h[256*d+int(key>>(8*d)&255)], 1)
		}
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	for i := t.Local[0]; i < 1024; i += size {
		atomic.AddUint32(&st[i], h[i])
	}
}

// onesweepKernel is one OneSweep pass (shaders/glsl/sort_onesweep.glsl): the stable scatter
// of Src's N keys to Dst by digit (key >> Shift) & 255, with values as
// radixScatterKernel's Vals says, each tile of keys finding its digits' places by
// decoupled look-back in State. k8 selects the program for subgroups of 8 invocations.
type onesweepKernel[T, V Number] struct {
	Src             *arrayview.ReadView[T]
	Dst             *arrayview.View[T]
	SrcVal          *arrayview.ReadView[V]
	DstVal          *arrayview.View[V]
	State           *arrayview.View[uint32]
	N, Shift        uint32
	InType, OutType int32
	Vals            uint32
	SpinLimit       uint32
	k8              bool `amp:"-"`
}

// Program is the GPU body: sort_onesweep (tiles of 4096 keys) or, for subgroups of 8,
// sort_onesweep_k8 (2048).
func (k onesweepKernel[T, V]) Program() *runtime.Program {
	if k.k8 {
		return shaders.MustProgram("sort_onesweep_k8", 1)
	}
	return shaders.MustProgram("sort_onesweep", 1)
}

// SharedBytes is the GPU body's shared memory: a tile, the subgroups' digit counts, the
// scans' sums, three digit tables and the tile number.
func (k onesweepKernel[T, V]) SharedBytes([3]int) int {
	if k.k8 {
		return 4 * (2048 + 32*128 + 128 + 3*256 + 1)
	}
	return 4 * (4096 + 16*128 + 128 + 3*256 + 1)
}

// Tiled is the definition, serial in the tile's thread 0: take a tile number, count the
// tile's digits, publish them, look back for the digits' counts before the tile (spinning
// on State), publish the inclusive counts and scatter the tile in order.
func (k onesweepKernel[T, V]) Tiled(t runtime.TiledIndex) {
	if t.Local[0] != 0 {
		return
	}
	st, err := k.State.Data()
	if err != nil {
		panic(err) // the state is a contiguous scratch view
	}
	tile := t.TileExtent.Dim(0) * 16
	if k.k8 {
		tile = t.TileExtent.Dim(0) * 8
	}
	p := int(atomic.AddUint32(&st[1024], 1) - 1)
	lo, hi := p*tile, min(p*tile+tile, int(k.N))
	sc := radixScatterKernel[T, V]{Src: k.Src, Dst: k.Dst, SrcVal: k.SrcVal, DstVal: k.DstVal, Shift: k.Shift,
		InType: k.InType, OutType: k.OutType, Vals: k.Vals}
	var cnt, pos [radixBins]uint32
	for i := lo; i < hi; i++ {
		cnt[sc.digit(i)]++
	}
	const agg, inc = 1 << 30, 1 << 31
	flags := st[1025+256*p : 1025+256*p+256]
	first := uint32(agg)
	if p == 0 {
		first = inc
	}
	for d, c := range cnt {
		atomic.StoreUint32(&flags[d], first|c)
	}
	var start uint32
	for d := range pos {
		before := uint32(0)
		for j, spins := p-1, uint32(0); j >= 0; {
			s := atomic.LoadUint32(&st[1025+256*j+d])
			if s == 0 {
				if spins++; spins < k.SpinLimit {
					continue
				}
				s = agg | k.countDigit(sc, j*tile, min(j*tile+tile, int(k.N)), uint32(d))
			}
			spins = 0
			before += s & (agg - 1)
			if s&inc != 0 {
				break
			}
			j--
		}
		atomic.StoreUint32(&flags[d], inc|(before+cnt[d]))
		pos[d] = start + before
		start += st[int(k.Shift/8)*256+d]
	}
	for i := lo; i < hi; i++ {
		d := sc.digit(i)
		sc.move(i, int(pos[d]))
		pos[d]++
	}
}
