package algo

import (
	"errors"
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// sortTile is the bitonic local kernels' tile: 512 threads sort blocks of 1024 keys in
// shared memory (4 KiB), or fewer where the device's workgroups are smaller
// (bitonicTile).
const sortTile = 512

// bitonicTile is the bitonic local kernels' tile on av for p keys: sortTile threads, or
// fewer where p is smaller or the device's workgroups are (a power of two of threads
// within maxComputeWorkGroupInvocations, maxComputeWorkGroupSize[0] and, at 8 bytes a
// thread, maxComputeSharedMemorySize).
func bitonicTile(av *accelerator.View, p int) int {
	l := av.Accelerator().Limits()
	most := min(sortTile, p/2, int(l.MaxWorkgroupInvocations), int(l.MaxWorkgroupSize[0]), int(l.MaxSharedMemory)/8)
	tile := 1
	for 2*tile <= most {
		tile *= 2
	}
	return tile
}

// Sort sorts the view v in ascending order, in place, on accelerator view av (nil: the
// view the data lives on, else the default accelerator's): SortWith with zero options. v
// may have any length; a rank-2 view's rows are sorted independently (else a *ShapeError).
//
// Keys are ordered as follows: int32 and uint32 by value; float32 by IEEE 754 totalOrder,
// which is the numeric order with -0 before +0, and NaNs after +Inf (positive NaNs)
// or before -Inf (NaNs with the sign bit set; NaNs are ordered by their bits). Go's
// slices.Sort puts every NaN first and leaves -0 and +0 in input order; torch.sort puts
// every NaN last (first when descending).
//
// Both algorithms sort 32-bit keys whose unsigned order is the element order (sortKey).
// From sortRadixMin elements on, Sort is an LSD radix sort: four passes of 8-bit digits,
// each a per-block digit histogram (shaders/glsl/sort_radix_hist.comp), an exclusive scan of the
// histograms (shaders/glsl/sort_radix_scan.comp) and a stable scatter
// (shaders/glsl/sort_radix_scatter_sg.comp with subgroup ballots, its keys-only variant
// sort_radix_scatter_k for Sort, else sort_radix_scatter.comp),
// ping-ponging between two temporaries; the first pass maps the elements to keys as it
// reads them and the last maps the keys back as it writes v. Shorter inputs use a
// bitonic sort: a shared-memory sort of blocks of 1024 keys, then for each further stage
// k one dispatch per step j >= 1024 (shaders/glsl/sort_bitonic_step.comp) and one shared-memory
// dispatch for the steps j < 1024, shaders/glsl/sort_load.comp and sort_store.comp mapping the
// elements; a length that is not a power of two is padded, in a temporary buffer of the
// next power of two, with the largest key. The temporaries (the radix sort's n keys and
// histograms, the bitonic sort's padded keys) are scratch memory of the accelerator view,
// kept for the next call and freed when the view is closed.
func Sort[T Number](av *accelerator.View, v *arrayview.View[T]) error {
	return SortWith(av, v, SortOptions{})
}

// sortVector sorts the n >= 2 elements of the rank-1 view v (type code tc, with
// sortDescending for the reverse order) with the algorithm hooks.sort chooses.
func sortVector[T Number](av *accelerator.View, v *arrayview.View[T], n int, tc int32) error {
	if w := splitLen(av, n, v); w > 0 {
		return sortWindows(av, v, n, w, tc) // longer than one binding
	}
	algo := hooks.sort
	if algo == sortAuto {
		algo = sortBitonic
		if n >= sortRadixMin {
			algo = sortRadix
		}
	}
	if algo != sortBitonic {
		return radixRun(av, radixJob[T, uint32]{in: v, out: v, n: n, tc: tc, passes: 4, algo: hooks.sort})
	}
	return bitonicSort(av, v, n, tc)
}

// The algorithms Sort can be told to use (hooks.sort).
const (
	sortAuto = iota
	sortBitonic
	sortRadix         // the radix sort with the best scatter the device has
	sortRadixFallback // the radix sort with the scatter without subgroup operations
)

// sortRadixMin is the length from which Sort uses the radix sort.
const sortRadixMin = 1 << 13

// bitonicSort sorts the n >= 2 elements of v (type code tc) with the bitonic network.
func bitonicSort[T Number](av *accelerator.View, v *arrayview.View[T], n int, tc int32) (err error) {
	p := 1 << bits.Len(uint(n-1)) // the padded length, a power of two >= 2
	work := v
	if p != n {
		// The padded keys, in the view's scratch memory.
		var free func(*error)
		work, free, err = scratchSection[T](av, p)
		if err != nil {
			return err
		}
		defer free(&err)
	}
	load := sortLoadKernel[T]{Src: v.ReadOnly(), Dst: work, N: uint32(n), Type: tc}
	if err := dispatch(av, runtime.Ext(p), load); err != nil {
		return err
	}
	if err := sortNetwork(av, work, p); err != nil {
		if p == n {
			// v holds keys now: map them back so that v keeps its elements.
			err = errors.Join(err, dispatch(av, runtime.Ext(n), sortStoreKernel[T]{Src: v.ReadOnly(), Dst: v, Type: tc}))
		}
		return err
	}
	return dispatch(av, runtime.Ext(n), sortStoreKernel[T]{Src: work.ReadOnly(), Dst: v, Type: tc})
}

// sortNetwork runs the bitonic network over the p keys of work (p a power of two >= 2).
func sortNetwork[T Number](av *accelerator.View, work *arrayview.View[T], p int) error {
	tile := bitonicTile(av, p)
	block := 2 * tile
	local := runtime.Ext(p / 2).Tile(tile)
	if err := dispatchTiled(av, local, bitonicLocalKernel[T]{V: work}); err != nil {
		return err
	}
	for k := 2 * block; k <= p; k <<= 1 {
		for j := k / 2; j >= block; j >>= 1 {
			step := bitonicStepKernel[T]{V: work, K: uint32(k), J: uint32(j)}
			if err := dispatch(av, runtime.Ext(p/2), step); err != nil {
				return err
			}
		}
		if err := dispatchTiled(av, local, bitonicLocalKernel[T]{V: work, K: uint32(k)}); err != nil {
			return err
		}
	}
	return nil
}

// ewFromBits returns the element whose raw 32-bit word is u.
func ewFromBits[T Number](u uint32) T { return *(*T)(unsafe.Pointer(&u)) }

// sortDescending is the bit of a type code (typeCode) that reverses the keys' order:
// sortKey complements the key it maps, sortElem the key it maps back.
const sortDescending = 4

// sortKey maps an element's bits to a key whose unsigned order is the element order
// (tc: typeCode, with sortDescending for the reverse order).
func sortKey(x uint32, tc int32) uint32 {
	k := x
	switch tc &^ sortDescending {
	case 0:
		k = x ^ 0x80000000
	case 2:
		if x&0x80000000 != 0 {
			k = ^x
		} else {
			k = x | 0x80000000
		}
	}
	if tc&sortDescending != 0 {
		return ^k
	}
	return k
}

// sortElem is the inverse of sortKey.
func sortElem(k uint32, tc int32) uint32 {
	if tc&sortDescending != 0 {
		k = ^k
	}
	switch tc &^ sortDescending {
	case 0:
		return k ^ 0x80000000
	case 2:
		if k&0x80000000 != 0 {
			return k & 0x7FFFFFFF
		}
		return ^k
	}
	return k
}

// eachIndex runs each(i) for i = lo..hi-1: the host-slice fallback of the rank-1 EachRange
// bodies, for views whose data is not a host slice.
func eachIndex(lo, hi int, each func(runtime.Index)) {
	for i := lo; i < hi; i++ {
		each(runtime.Idx(i))
	}
}

// sortLoadKernel maps Src's N elements to keys in Dst and pads Dst with the largest key.
type sortLoadKernel[T Number] struct {
	Src  *arrayview.ReadView[T]
	Dst  *arrayview.View[T]
	N    uint32
	Type int32
}

// Program is the GPU body: shaders/glsl/sort_load.comp.
func (sortLoadKernel[T]) Program() *runtime.Program { return shaders.MustProgram("sort_load", 1) }

// Each is the definition.
func (k sortLoadKernel[T]) Each(i runtime.Index) {
	key := ^uint32(0)
	if i[0] < int(k.N) {
		key = sortKey(ewBitsOf(k.Src.At(i)), k.Type)
	}
	k.Dst.Set(i, ewFromBits[T](key))
}

// EachRange is the fast CPU body.
func (k sortLoadKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	d, s, ok := sortRangeBits(k.Src, k.Dst, lo, hi, k.Each)
	if !ok {
		return
	}
	m := max(0, min(hi, int(k.N))-lo) // keys in the range; the rest is padding
	sortMapBits(d, s[:m], k.Type, true)
	for i := m; i < len(d); i++ {
		d[i] = ^uint32(0)
	}
}

// sortStoreKernel maps Src's keys back to elements in Dst.
type sortStoreKernel[T Number] struct {
	Src  *arrayview.ReadView[T]
	Dst  *arrayview.View[T]
	Type int32
}

// Program is the GPU body: shaders/glsl/sort_store.comp.
func (sortStoreKernel[T]) Program() *runtime.Program { return shaders.MustProgram("sort_store", 1) }

// Each is the definition.
func (k sortStoreKernel[T]) Each(i runtime.Index) {
	k.Dst.Set(i, ewFromBits[T](sortElem(ewBitsOf(k.Src.At(i)), k.Type)))
}

// EachRange is the fast CPU body.
func (k sortStoreKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	if d, s, ok := sortRangeBits(k.Src, k.Dst, lo, hi, k.Each); ok {
		sortMapBits(d, s, k.Type, false)
	}
}

// sortRangeBits returns the words of dst's and src's elements [lo, hi) on the host (src's
// cut at its length), for the load and store kernels' fast CPU bodies; where either view
// has no host data it runs each over [lo, hi) instead and returns ok false.
func sortRangeBits[T Number](src *arrayview.ReadView[T], dst *arrayview.View[T], lo, hi int,
	each func(runtime.Index)) (d, s []uint32, ok bool) {
	sd, err1 := src.ReadData()
	dd, err2 := dst.Data()
	if err1 != nil || err2 != nil {
		eachIndex(lo, hi, each)
		return nil, nil, false
	}
	return ewBits(dd)[lo:hi], ewBits(sd)[min(lo, len(sd)):min(hi, len(sd))], true
}

// sortMapBits writes into d the words of s mapped to keys (toKey: sortKey) or back to
// elements (sortElem), for element type code tc, without a branch per word.
func sortMapBits(d, s []uint32, tc int32, toKey bool) {
	d = d[:len(s)]
	var flip uint32 // the descending order's complement
	if tc&sortDescending != 0 {
		flip = ^uint32(0)
	}
	switch {
	case tc&^sortDescending == 0:
		for i, x := range s {
			d[i] = x ^ 0x80000000 ^ flip
		}
	case tc&^sortDescending == 2 && toKey:
		for i, x := range s {
			d[i] = x ^ (uint32(int32(x)>>31) | 0x80000000) ^ flip
		}
	case tc&^sortDescending == 2:
		for i, x := range s {
			x ^= flip
			d[i] = x ^ (uint32(int32(^x)>>31) | 0x80000000)
		}
	case flip != 0:
		for i, x := range s {
			d[i] = ^x
		}
	default:
		copy(d, s)
	}
}

// bitonicLocalKernel sorts blocks of 2*tile keys of V in shared memory: all stages up
// to the block size when K is 0, else the steps j < block of stage K.
type bitonicLocalKernel[T Number] struct {
	V *arrayview.View[T]
	K uint32
}

// Program is the GPU body: shaders/glsl/sort_bitonic_local.comp.
func (bitonicLocalKernel[T]) Program() *runtime.Program {
	return shaders.MustProgram("sort_bitonic_local", 1)
}

// SharedBytes is the GPU body's shared block: two keys per thread.
func (bitonicLocalKernel[T]) SharedBytes(tile [3]int) int { return 8 * tile[0] }

// Tiled is the definition.
func (k bitonicLocalKernel[T]) Tiled(t runtime.TiledIndex) {
	tn := t.TileExtent.Dim(0)
	b := 2 * tn
	s := runtime.TileStatic[uint32](t, b)
	l := t.Local[0]
	base := t.Tile[0] * b
	s[l] = ewBitsOf(k.V.At(runtime.Idx(base + l)))
	s[l+tn] = ewBitsOf(k.V.At(runtime.Idx(base + l + tn)))
	t.Barrier.WaitWithTileStaticMemoryFence()
	kFirst, kLast := 2, b
	if k.K != 0 {
		kFirst, kLast = int(k.K), int(k.K)
	}
	for st := kFirst; st <= kLast; st <<= 1 {
		for j := min(st, b) >> 1; j > 0; j >>= 1 {
			i := (l&^(j-1))<<1 | l&(j-1)
			x, y := s[i], s[i+j]
			if up := (base+i)&st == 0; (x > y) == up {
				s[i], s[i+j] = y, x
			}
			t.Barrier.WaitWithTileStaticMemoryFence()
		}
	}
	k.V.Set(runtime.Idx(base+l), ewFromBits[T](s[l]))
	k.V.Set(runtime.Idx(base+l+tn), ewFromBits[T](s[l+tn]))
}

// EachTile is the fast CPU body: a full sort of the block is slices.Sort (reversed for a
// descending block); a merge runs the remaining steps over the block in place.
func (k bitonicLocalKernel[T]) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	b := 2 * d.Tile.Dim(0)
	base := tile[0] * b
	data, err := k.V.Data()
	if err != nil {
		panic(err) // Sort's keys are a contiguous view
	}
	u := ewBits(data)[base : base+b]
	if k.K == 0 {
		slices.Sort(u)
		if base&b != 0 {
			slices.Reverse(u)
		}
		return
	}
	up := base&int(k.K) == 0
	for j := b / 2; j > 0; j >>= 1 {
		bitonicPass(u, 0, b/2, j, up)
	}
}

// bitonicPass runs compare-exchanges t = lo..hi-1 of one network step j over u, pair t
// being (i, i+j) with i the t-th index whose bit j is clear; up is their direction,
// which must be the same for all of them.
func bitonicPass(u []uint32, lo, hi, j int, up bool) {
	for t := lo; t < hi; {
		end := min(hi, t|(j-1)+1) // the run of t with the same t &^ (j-1)
		i := (t&^(j-1))<<1 | t&(j-1)
		n := end - t
		a, c := u[i:i+n], u[i+j:i+j+n]
		if up {
			for x, p := range a {
				q := c[x]
				a[x], c[x] = min(p, q), max(p, q)
			}
		} else {
			for x, p := range a {
				q := c[x]
				a[x], c[x] = max(p, q), min(p, q)
			}
		}
		t = end
	}
}

// bitonicStepKernel is one global step (K, J) of the bitonic network over V's keys,
// one thread per compared pair.
type bitonicStepKernel[T Number] struct {
	V    *arrayview.View[T]
	K, J uint32
}

// Program is the GPU body: shaders/glsl/sort_bitonic_step.comp.
func (bitonicStepKernel[T]) Program() *runtime.Program {
	return shaders.MustProgram("sort_bitonic_step", 1)
}

// Each is the definition.
func (k bitonicStepKernel[T]) Each(idx runtime.Index) {
	t, j := idx[0], int(k.J)
	i := (t&^(j-1))<<1 | t&(j-1)
	x, y := ewBitsOf(k.V.At(runtime.Idx(i))), ewBitsOf(k.V.At(runtime.Idx(i+j)))
	if up := i&int(k.K) == 0; (x > y) == up {
		k.V.Set(runtime.Idx(i), ewFromBits[T](y))
		k.V.Set(runtime.Idx(i+j), ewFromBits[T](x))
	}
}

// EachRange is the fast CPU body.
func (k bitonicStepKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	data, err := k.V.Data()
	if err != nil {
		panic(err) // Sort's keys are a contiguous view
	}
	u := ewBits(data)
	j, kk := int(k.J), int(k.K)
	// Split the range where the direction changes: every kk/2 pairs (kk > j).
	for t := lo; t < hi; {
		end := min(hi, (t/(kk/2)+1)*(kk/2))
		i := (t&^(j-1))<<1 | t&(j-1)
		bitonicPass(u, t, end, j, i&kk == 0)
		t = end
	}
}

// The radix sort's layout: 8-bit digits; workgroups of radixTile threads (one per digit);
// blocks of a multiple of radixBlockUnit keys per workgroup, at most radixMaxBlocks of
// them. The scatter moves radixSub = radixTile*radixKPT keys at a time (the Go bodies and
// sort_radix_scatter.comp), or radixSubSG (sort_radix_scatter_sg.comp, whose larger
// sub-tiles were faster on the H100); a block holds whole sub-tiles of either.
const (
	radixBins      = 256
	radixTile      = radixBins
	radixKPT       = 8
	radixSub       = radixTile * radixKPT
	radixSubSG     = radixTile * 12
	radixSubPairs  = radixTile * 20 // sort_radix_scatter_p's (blocks end in part of one)
	radixBlockUnit = 6144           // a multiple of radixSub and radixSubSG
)

// radixMaxBlocks is the radix sort's largest number of blocks (workgroups); a variable
// so that tests can make blocks of several sub-tiles with few keys.
var radixMaxBlocks = 1024

// radixCPUBlocks is the radix sort's number of blocks per worker on an accelerator that is
// not wide (the CPU; accelerator.Traits.Wide).
const radixCPUBlocks = 4

// radixBlocks returns the radix sort's block length (keys per workgroup, a multiple of
// radixBlockUnit) and number of blocks for n keys.
func radixBlocks(n, maxBlocks int) (blockLen, blocks int) {
	subs := (n + radixBlockUnit - 1) / radixBlockUnit
	per := (subs + maxBlocks - 1) / maxBlocks
	blockLen = per * radixBlockUnit
	return blockLen, (n + blockLen - 1) / blockLen
}

// radixScatterSG says whether the accelerator of av runs the ballot scatter
// (shaders/glsl/sort_radix_scatter_sg.comp): a GPU with subgroup ballots and arithmetic and
// subgroups of 8 to 128 invocations (at most 32 subgroups a workgroup, as it assumes). The
// CPU has no subgroup operations.
func radixScatterSG(av *accelerator.View) bool {
	a := av.Accelerator()
	ops, size := a.SubgroupOps(), a.SubgroupSize()
	return ops.Has("ballot") && ops.Has("arithmetic") && ops.Has("shuffle") && size >= 8 && size <= 128
}

// radixRange returns block b's keys lo..hi-1.
func radixRange(b, blockLen, n int) (lo, hi int) {
	lo = min(b*blockLen, n)
	return lo, min(lo+blockLen, n)
}

// radixHistKernel counts the digits (key >> Shift) & 255 of each block of BlockLen keys of
// Src (elements mapped to keys by Type, a typeCode) into Hist[digit*blocks + block]. Key
// i is Src's element i*Stride (Stride 1, or 2 where keys are interleaved with values).
type radixHistKernel[T Number] struct {
	Src                *arrayview.ReadView[T]
	Hist               *arrayview.View[uint32]
	N, Shift, BlockLen uint32
	Type               int32
	Stride             uint32
}

// Program is the GPU body: shaders/glsl/sort_radix_hist.comp.
func (radixHistKernel[T]) Program() *runtime.Program {
	return shaders.MustProgram("sort_radix_hist", 1)
}

// SharedBytes is the GPU body's shared histogram.
func (radixHistKernel[T]) SharedBytes([3]int) int { return 4 * radixBins }

// Tiled is the definition: thread t counts keys t, t+radixTile, ... of the block in runs
// of equal digits, adding each run to the shared count of its digit, then writes the
// count of digit t.
func (k radixHistKernel[T]) Tiled(t runtime.TiledIndex) {
	h := runtime.TileStatic[uint32](t, radixBins)
	l, b := t.Local[0], t.Tile[0]
	t.Barrier.WaitWithTileStaticMemoryFence() // h is zeroed; the GPU body zeroes it
	lo, hi := radixRange(b, int(k.BlockLen), int(k.N))
	var cur, run uint32
	for i := lo + l; i < hi; i += radixTile {
		d := sortKey(ewBitsOf(k.Src.At(runtime.Idx(i*int(k.Stride)))), k.Type) >> k.Shift & (radixBins - 1)
		if d != cur {
			if run != 0 {
				atomic.AddUint32(&h[cur], run)
			}
			cur, run = d, 0
		}
		run++
	}
	if run != 0 {
		atomic.AddUint32(&h[cur], run)
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	blocks := (int(k.N) + int(k.BlockLen) - 1) / int(k.BlockLen)
	k.Hist.Set(runtime.Idx(l*blocks+b), h[l])
}

// EachTile is the fast CPU body.
func (k radixHistKernel[T]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	n, blockLen := int(k.N), int(k.BlockLen)
	lo, hi := radixRange(tile[0], blockLen, n)
	var h [radixBins]uint32
	if src, err := k.Src.ReadData(); err == nil && k.Stride == 2 {
		s := ewBits(src)[2*lo : 2*hi]
		for i := 0; i < len(s); i += 2 {
			h[sortKey(s[i], k.Type)>>k.Shift&(radixBins-1)]++
		}
	} else if err == nil {
		s := ewBits(src)[lo:hi]
		if k.Type == 1 {
			for _, x := range s {
				h[x>>k.Shift&(radixBins-1)]++
			}
		} else {
			for _, x := range s {
				h[sortKey(x, k.Type)>>k.Shift&(radixBins-1)]++
			}
		}
	} else {
		for i := lo; i < hi; i++ {
			h[sortKey(ewBitsOf(k.Src.At(runtime.Idx(i*int(k.Stride)))), k.Type)>>k.Shift&(radixBins-1)]++
		}
	}
	blocks := (n + blockLen - 1) / blockLen
	hist, err := k.Hist.Data()
	if err != nil {
		panic(err) // Sort's histogram is a contiguous temporary
	}
	for d, c := range h {
		hist[d*blocks+tile[0]] = c
	}
}

// radixScanKernel replaces each row of Hist (radixBins rows of Blocks counts,
// digit-major) with its exclusive scan and writes the row's total to
// Hist[radixBins*Blocks + row]. A team of Team threads (a power of two up to radixTile)
// scans a row; a tile of radixTile threads holds radixTile/Team teams.
type radixScanKernel struct {
	Hist         *arrayview.View[uint32]
	Blocks, Team uint32
}

// radixScanTeam returns the scan's team size for blocks blocks: about blocks/4, a power
// of two from 1 to radixTile.
func radixScanTeam(blocks int) int {
	return min(radixTile, 1<<bits.Len(uint(blocks/4)))
}

// Program is the GPU body: shaders/glsl/sort_radix_scan.comp.
func (radixScanKernel) Program() *runtime.Program { return shaders.MustProgram("sort_radix_scan", 1) }

// SharedBytes is the GPU body's scan buffer.
func (radixScanKernel) SharedBytes([3]int) int { return 8 * radixTile }

// radixTileScan is the definition of the GLSL bodies' workgroup scan (Hillis-Steele over
// a ping-pong buffer sc of 2*radixTile values) in teams of width threads (a power of two
// dividing radixTile; radixTile for the whole tile): thread l's exclusive prefix of x over
// its team, and the team's total.
func radixTileScan(t runtime.TiledIndex, sc []uint32, x uint32, width int) (excl, total uint32) {
	l := t.Local[0]
	lt := l & (width - 1)
	cur := 0
	sc[l] = x
	t.Barrier.WaitWithTileStaticMemoryFence()
	for off := 1; off < width; off <<= 1 {
		v := sc[cur+l]
		if lt >= off {
			v += sc[cur+l-off]
		}
		sc[cur^radixTile+l] = v
		t.Barrier.WaitWithTileStaticMemoryFence()
		cur ^= radixTile
	}
	incl, total := sc[cur+l], sc[cur+l-lt+width-1]
	t.Barrier.WaitWithTileStaticMemoryFence()
	return incl - x, total
}

// Tiled is the definition: thread i of its team scans its run of at most
// ceil(Blocks/Team) counts of the team's row, starting from the team's scan of the runs'
// sums.
func (k radixScanKernel) Tiled(t runtime.TiledIndex) {
	sc := runtime.TileStatic[uint32](t, 2*radixTile)
	l, blocks, team := t.Local[0], int(k.Blocks), int(k.Team)
	d := t.Tile[0]*(radixTile/team) + l/team
	lt := l & (team - 1)
	per := (blocks + team - 1) / team
	first := min(lt*per, blocks)
	last := min(first+per, blocks)
	var s uint32
	for i := first; i < last; i++ {
		s += k.Hist.At(runtime.Idx(d*blocks + i))
	}
	run, _ := radixTileScan(t, sc, s, team)
	incl := run + s
	for i := first; i < last; i++ {
		at := runtime.Idx(d*blocks + i)
		c := k.Hist.At(at)
		k.Hist.Set(at, run)
		run += c
	}
	if lt == team-1 {
		k.Hist.Set(runtime.Idx(radixBins*blocks+d), incl)
	}
}

// EachTile is the fast CPU body: the tile's rows, serially.
func (k radixScanKernel) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	h, err := k.Hist.Data()
	if err != nil {
		panic(err) // Sort's histogram is a contiguous temporary
	}
	blocks, rows := int(k.Blocks), radixTile/int(k.Team)
	for d := tile[0] * rows; d < (tile[0]+1)*rows; d++ {
		var run uint32
		for i, c := range h[d*blocks : (d+1)*blocks] {
			h[d*blocks+i] = run
			run += c
		}
		h[radixBins*blocks+d] = run
	}
}

// The values a radix scatter moves with the keys (radixScatterKernel.Vals).
const (
	radixKeysOnly = iota // no values
	radixPairs           // SrcVal's values, moved as their keys are
	radixIota            // the input index of each key (Argsort's first pass): SrcVal is not read
)

// radixScatterKernel moves each block of BlockLen keys of Src, in order, to Dst at the
// positions of its scanned digit histogram Hist: a stable scatter by digit
// (key >> Shift) & 255. InType maps Src's elements to keys and OutType the keys to Dst's
// elements (typeCodes; 1 is the identity). With Vals radixPairs, SrcVal's value i goes
// where key i goes, into DstVal; with radixIota the value is i itself; with radixKeysOnly
// SrcVal and DstVal are not used (any views). Interleave (with values) has bit
// radixSrcPairs where Src holds keys and values interleaved (key i at element 2i, its
// value's bits at 2i+1; SrcVal is not read) and bit radixDstPairs where Dst gets them so
// (DstVal is not written).
type radixScatterKernel[T, V Number] struct {
	Src                *arrayview.ReadView[T]
	Dst                *arrayview.View[T]
	Hist               *arrayview.ReadView[uint32]
	SrcVal             *arrayview.ReadView[V]
	DstVal             *arrayview.View[V]
	N, Shift, BlockLen uint32
	InType, OutType    int32
	Vals               uint32
	Interleave         uint32
	blocks             int `amp:"-"`
}

// The bits of radixScatterKernel.Interleave.
const (
	radixSrcPairs = 1 << iota // Src interleaves keys and values
	radixDstPairs             // Dst gets them interleaved
)

// Program is the GPU body: shaders/glsl/sort_radix_scatter.comp.
func (radixScatterKernel[T, V]) Program() *runtime.Program {
	return shaders.MustProgram("sort_radix_scatter", 1)
}

// SharedBytes is the GPU body's shared memory: two sub-tiles, the scan buffer and three
// digit tables.
func (radixScatterKernel[T, V]) SharedBytes([3]int) int {
	return 4 * (2*radixSub + 2*radixTile + 3*radixBins)
}

// Tiled is the definition, as shaders/glsl/sort_radix_scatter.comp does it: radixSub keys at a
// time, their digits and sub-tile positions packed as digit<<16 | position into tile_static
// memory, sorted there stably by digit with eight one-bit splits; the i-th packed word,
// for the key at position p of digit d, moves key p (and its value) to
// base[digit] + (i - start[digit]).
func (k radixScatterKernel[T, V]) Tiled(t runtime.TiledIndex) {
	sk := runtime.TileStatic[uint32](t, 2*radixSub)
	sc := runtime.TileStatic[uint32](t, 2*radixTile)
	gBase := runtime.TileStatic[uint32](t, radixBins)
	tCnt := runtime.TileStatic[uint32](t, radixBins)
	tStart := runtime.TileStatic[uint32](t, radixBins)
	wait := t.Barrier.WaitWithTileStaticMemoryFence
	scan := func(x uint32) (excl, total uint32) { return radixTileScan(t, sc, x, radixTile) }
	l, b := t.Local[0], t.Tile[0]
	start, _ := scan(k.Hist.At(runtime.Idx(radixBins*k.blocks + l)))
	gBase[l] = k.Hist.At(runtime.Idx(l*k.blocks+b)) + start
	lo, hi := radixRange(b, int(k.BlockLen), int(k.N))
	for sub := lo; sub < hi; sub += radixSub {
		n := min(radixSub, hi-sub)
		tCnt[l] = 0
		wait()
		for j := range radixKPT {
			i := l + radixTile*j
			d := uint32(radixBins - 1) // past the end: the last digit, after every key
			if i < n {
				d = k.digit(sub + i)
				atomic.AddUint32(&tCnt[d], 1)
			}
			sk[i] = d<<16 | uint32(i)
		}
		wait()
		cur := 0
		for bit := 16; bit < 24; bit++ {
			var zeros uint32
			for j := range radixKPT {
				zeros += 1 - sk[cur+l*radixKPT+j]>>bit&1
			}
			zp, z := scan(zeros)
			op := z + uint32(l*radixKPT) - zp
			other := cur ^ radixSub
			for j := range radixKPT {
				e := sk[cur+l*radixKPT+j]
				if e>>bit&1 == 0 {
					sk[other+int(zp)] = e
					zp++
				} else {
					sk[other+int(op)] = e
					op++
				}
			}
			wait()
			cur = other
		}
		tStart[l], _ = scan(tCnt[l])
		wait()
		for i := l; i < n; i += radixTile {
			e := sk[i]
			d := e >> 16
			k.move(sub+int(e&0xFFFF), int(gBase[d]+uint32(i)-tStart[d]))
		}
		wait()
		gBase[l] += tCnt[l]
	}
}

// digit returns the digit of Src's key i.
func (k radixScatterKernel[T, V]) digit(i int) uint32 {
	return sortKey(k.keyBits(i), k.InType) >> k.Shift & (radixBins - 1)
}

// keyBits returns the bits of Src's key i.
func (k radixScatterKernel[T, V]) keyBits(i int) uint32 {
	if k.Interleave&radixSrcPairs != 0 {
		i *= 2
	}
	return ewBitsOf(k.Src.At(runtime.Idx(i)))
}

// move moves Src's key i (and its value) to position o of Dst (and DstVal).
func (k radixScatterKernel[T, V]) move(i, o int) {
	key := ewFromBits[T](sortElem(sortKey(k.keyBits(i), k.InType), k.OutType))
	if k.Vals == radixKeysOnly {
		k.Dst.Set(runtime.Idx(o), key)
		return
	}
	v := uint32(i) // radixIota
	switch {
	case k.Vals == radixPairs && k.Interleave&radixSrcPairs != 0:
		v = ewBitsOf(k.Src.At(runtime.Idx(2*i + 1)))
	case k.Vals == radixPairs:
		v = ewBitsOf(k.SrcVal.At(runtime.Idx(i)))
	}
	if k.Interleave&radixDstPairs != 0 {
		k.Dst.Set(runtime.Idx(2*o), key)
		k.Dst.Set(runtime.Idx(2*o+1), ewFromBits[T](v))
		return
	}
	k.Dst.Set(runtime.Idx(o), key)
	k.DstVal.Set(runtime.Idx(o), ewFromBits[V](v))
}

// EachTile is the fast CPU body: a counting scatter of the block in order.
func (k radixScatterKernel[T, V]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	b := tile[0]
	hist, err1 := k.Hist.ReadData()
	src, err2 := k.Src.ReadData()
	dst, err3 := k.Dst.Data()
	if err1 != nil || err2 != nil || err3 != nil {
		panic(errors.Join(err1, err2, err3)) // Sort's views are contiguous rank-1 views
	}
	var base [radixBins]uint32
	var start uint32
	for d := range base {
		base[d] = hist[d*k.blocks+b] + start
		start += hist[radixBins*k.blocks+d]
	}
	lo, hi := radixRange(b, int(k.BlockLen), int(k.N))
	if k.Interleave != 0 {
		k.scatterInterleaved(&base, lo, hi, ewBits(src), ewBits(dst))
		return
	}
	s, o := ewBits(src)[lo:hi], ewBits(dst)
	shift := k.Shift
	if k.Vals != radixKeysOnly {
		k.scatterPairs(&base, lo, s, o)
		return
	}
	if k.InType == 1 && k.OutType == 1 {
		for _, key := range s {
			d := key >> shift & (radixBins - 1)
			o[base[d]] = key
			base[d]++
		}
		return
	}
	for _, x := range s {
		key := sortKey(x, k.InType)
		d := key >> shift & (radixBins - 1)
		o[base[d]] = sortElem(key, k.OutType)
		base[d]++
	}
}

// scatterPairs is EachTile's loop with values: the keys s (from lo) go to o and their
// values with them, from the block's positions base.
func (k radixScatterKernel[T, V]) scatterPairs(base *[radixBins]uint32, lo int, s, o []uint32) {
	dv, err := k.DstVal.Data()
	var sv []V
	if err == nil && k.Vals == radixPairs {
		sv, err = k.SrcVal.ReadData()
	}
	if err != nil {
		panic(err) // the values are contiguous rank-1 views
	}
	dvb := ewBits(dv)
	for i, x := range s {
		key := sortKey(x, k.InType)
		d := key >> k.Shift & (radixBins - 1)
		p := base[d]
		o[p] = sortElem(key, k.OutType)
		if k.Vals == radixPairs {
			dvb[p] = ewBitsOf(sv[lo+i])
		} else {
			dvb[p] = uint32(lo + i)
		}
		base[d]++
	}
}

// scatterInterleaved is EachTile's loop where Src or Dst interleaves keys and values: keys
// lo..hi-1 of the bits s go to the bits o with their values, from the block's positions
// base.
func (k radixScatterKernel[T, V]) scatterInterleaved(base *[radixBins]uint32, lo, hi int, s, o []uint32) {
	var sv, dv []uint32
	if k.Interleave&radixSrcPairs == 0 && k.Vals == radixPairs {
		v, err := k.SrcVal.ReadData()
		if err != nil {
			panic(err) // the values are contiguous rank-1 views
		}
		sv = ewBits(v)
	}
	if k.Interleave&radixDstPairs == 0 {
		v, err := k.DstVal.Data()
		if err != nil {
			panic(err)
		}
		dv = ewBits(v)
	}
	for i := lo; i < hi; i++ {
		var key, v uint32
		switch {
		case k.Interleave&radixSrcPairs != 0:
			key, v = s[2*i], s[2*i+1]
		case sv != nil:
			key, v = s[i], sv[i]
		default:
			key, v = s[i], uint32(i)
		}
		key = sortKey(key, k.InType)
		d := key >> k.Shift & (radixBins - 1)
		p := base[d]
		if dv == nil {
			o[2*p], o[2*p+1] = sortElem(key, k.OutType), v
		} else {
			o[p], dv[p] = sortElem(key, k.OutType), v
		}
		base[d]++
	}
}

// radixScatterSGKernel is radixScatterKernel with the GPU body that ranks keys with
// subgroup operations (shaders/glsl/sort_radix_scatter_sg.comp); its CPU bodies are the
// same.
type radixScatterSGKernel[T, V Number] struct {
	radixScatterKernel[T, V]
	// oneRound selects, for keys with values, sort_radix_scatter_p: keys and values placed in
	// shared memory together (radixOneRound); wide, with oneRound, its program in tiles of
	// radixWideTile threads, sort_radix_scatter_p512 (radixWide).
	oneRound, wide bool `amp:"-"`
}

// radixWideTile is the threads of a tile of sort_radix_scatter_p512, the pairs' one-round
// scatter in tiles of 512 threads of 8 keys (sub-tiles of 4,096 pairs), where
// sort_radix_scatter_p has 256 of 20: each subgroup ranks its keys in a chain of 8 steps
// instead of 20, and the subgroups' digit counts are scanned 4 invocations a word.
const radixWideTile = 512

// radixWideBytes is sort_radix_scatter_p512's shared memory: a sub-tile of pairs, 16
// subgroups' digit counts, the scan's partial sums, their sums and three digit tables.
const radixWideBytes = 4 * (2*radixWideTile*8 + 16*128 + radixWideTile + 32 + 3*radixBins)

// radixWide says whether av runs the pairs' one-round scatter in tiles of radixWideTile
// (sort_radix_scatter_p512): where it runs the one-round scatter (radixOneRound) and
// tiles of 512 threads with 16 subgroups or fewer and radixWideBytes of shared memory,
// unless hooks.narrowScatter says not to.
func radixWide(av *accelerator.View) bool {
	l := av.Accelerator().Limits()
	return !hooks.narrowScatter && radixOneRound(av) && av.Accelerator().SubgroupSize() >= radixWideTile/16 &&
		l.MaxWorkgroupInvocations >= radixWideTile && int(l.MaxSharedMemory) >= radixWideBytes
}

// radixOneRound says whether the pairs' ballot scatter on av may place keys and values in
// one round (sort_radix_scatter_p): its digit counts have room for 8 subgroups, so the
// device's subgroups must have 32 invocations or more, and its shared memory must hold
// radixOneRoundBytes.
func radixOneRound(av *accelerator.View) bool {
	a := av.Accelerator()
	return !hooks.twoRounds && a.SubgroupSize() >= radixTile/8 && int(a.Limits().MaxSharedMemory) >= radixOneRoundBytes
}

// radixOneRoundBytes is sort_radix_scatter_p's shared memory: a sub-tile of pairs, 8
// subgroups' digit counts, their sums and three digit tables.
const radixOneRoundBytes = 4 * (2*radixSubPairs + 1024 + 32 + 3*radixBins)

// Program is the GPU body: shaders/glsl/sort_radix_scatter_sg.comp, compiled with its
// values' code left out (sort_radix_scatter_k) for a sort of keys alone.
func (k radixScatterSGKernel[T, V]) Program() *runtime.Program {
	switch {
	case k.Vals == radixKeysOnly:
		return shaders.MustProgram("sort_radix_scatter_k", 1)
	case k.oneRound && k.wide:
		return shaders.MustProgram("sort_radix_scatter_p512", 1)
	case k.oneRound:
		return shaders.MustProgram("sort_radix_scatter_p", 1)
	}
	return shaders.MustProgram("sort_radix_scatter_sg", 1)
}

// SharedBytes is the GPU body's shared memory: a sub-tile (of keys, or of keys and values
// in one round), the subgroups' digit counts, their sums and three digit tables.
func (k radixScatterSGKernel[T, V]) SharedBytes([3]int) int {
	if k.oneRound && k.wide && k.Vals != radixKeysOnly {
		return radixWideBytes
	}
	if k.oneRound && k.Vals != radixKeysOnly {
		return radixOneRoundBytes
	}
	return 4 * (radixSubSG + 4096 + 32 + 3*radixBins)
}
