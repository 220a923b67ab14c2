package algo

import (
	goruntime "runtime"
	"sync/atomic"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// The shape of a scan block: scanEPT elements per thread of the workgroup. The subgroup
// and single-pass programs (shaders/glsl/scan_sg.comp, scan_lookback.glsl) see a block as
// scanRows rows of 4*tile elements, each thread owning one vec4 of each row; the
// shared-memory block pass (scanKernel) loads it into tile_static memory instead.
const (
	scanRows = 4
	scanEPT  = 4 * scanRows
)

// scanTile is the workgroup size of the block pass (a variable so that the benchmarks can
// tune it).
var scanTile = 256

// InclusiveScan writes the running sums of in to out, out[i] = in[0] + ... + in[i] (like
// C++'s std::inclusive_scan and torch.cumsum), on accelerator view av (nil: the view in
// lives on, else the default accelerator's). ExclusiveScan is the same shifted by one.
//
// in and out must be non-nil rank-1 views (sections too) of one length (else a
// *ShapeError). out may be in itself, for an in-place scan; other overlapping views give
// unspecified results. out's old contents are not needed: call out.DiscardData first
// (when out is not in) so that they are not uploaded to a GPU. The work is queued: reading
// out waits for it.
//
// Integer sums wrap around like Go's; float32 sums are accumulated in float32 in a tree
// (over vec4s, threads, rows and blocks on a GPU; over blocks on the CPU), so they differ
// from a sequential float32 sum by rounding.
//
// On a GPU the scan is one pass over the data (read once, written once): a chained scan
// with decoupled look-back (shaders/glsl/scan_lookback.glsl). Each workgroup scans a block of
// 4096 elements, taking its vec4 of each of 4 rows of 1024 elements (coalesced vector loads
// and stores) and scanning the threads' row sums with subgroup operations (or in shared
// memory where the device has none); it publishes the block's sum, adds the sums of the
// blocks before it, published by the workgroups that scanned them (reducing a block from
// in itself when its workgroup is slow to publish: Vulkan does not promise that it runs),
// publishes its own running total and writes the block. An in-place scan (out is in), and
// every scan on the CPU, is reduce-then-scan instead: a pass of Reduce's kernel sums each
// block, the block sums are scanned by the same algorithm (recursively, in the scratch
// view), and a block pass scans each block with the sum of the blocks before it added (3
// memory passes over the data; on the CPU, loops over the host slices).
func InclusiveScan[T Number](av *accelerator.View, in, out *arrayview.View[T]) error {
	return runScan(av, in, out, false)
}

// ExclusiveScan writes the running sums of in before each element to out, out[0] = 0 and
// out[i] = in[0] + ... + in[i-1] (like C++'s std::exclusive_scan with 0). Everything else
// is as for InclusiveScan.
func ExclusiveScan[T Number](av *accelerator.View, in, out *arrayview.View[T]) error {
	return runScan(av, in, out, true)
}

// runScan is InclusiveScan (exclusive false) and ExclusiveScan.
func runScan[T Number](av *accelerator.View, in, out *arrayview.View[T], exclusive bool) error {
	op := "InclusiveScan"
	if exclusive {
		op = "ExclusiveScan"
	}
	n, err := famVector(op, "in", in)
	if err != nil {
		return err
	}
	m, err := famVector(op, "out", out)
	if err != nil {
		return err
	}
	if m != n {
		return shapeErr(op, "in has %d elements, out has %d; they must match", n, m)
	}
	av, err = chooseView("algo."+op, op, av, []string{"in", "out"}, in, out)
	if err != nil {
		return err
	}
	if w := splitLen(av, n, in, out); w > 0 {
		return scanWindows(av, in, out, n, w, exclusive)
	}
	if scanLookbackOn(av, in == out) {
		return scanLookback(av, in.ReadOnly(), out, n, exclusive)
	}
	s, err := takeScratch[T](av, runtime.Ext(scanScratch(n)), "")
	if err != nil {
		return err
	}
	defer s.release()
	sc := scanner[T]{av: av, s: s}
	return sc.scan(in.ReadOnly(), 0, out, 0, n, exclusive, 0)
}

// scanBlock is the number of elements a workgroup of the block pass scans.
func scanBlock() int { return scanTile * scanEPT }

// scanScratch is the scratch length a scan of n elements needs: the block sums of each
// level of the recursion (at least one element, which the block pass binds).
func scanScratch(n int) int {
	total := 1
	for b := scanBlock(); n > b; {
		n = ceilDiv(n, b)
		total += n
	}
	return total
}

// scanner runs the passes of one scan.
type scanner[T Number] struct {
	av *accelerator.View
	s  *scratchBuf[T]
}

// scan scans the n elements of in from element inOff into out from element outOff, using
// the scratch view from element at for the block sums.
func (c scanner[T]) scan(in *arrayview.ReadView[T], inOff int, out *arrayview.View[T], outOff, n int, exclusive bool, at int) error {
	b := scanBlock()
	blocks := ceilDiv(n, b)
	k := scanKernel[T]{In: in, Out: out, Pre: c.s.v.ReadOnly(), N: uint32(n), InOff: uint32(inOff),
		OutOff: uint32(outOff), PreOff: uint32(at), Exclusive: boolInt(exclusive), Type: typeCode[T]()}
	if blocks > 1 {
		// The block sums, then their exclusive scan in place: the sum before each block.
		g := reduceGrid{groups: blocks, chunk: b, tile: reduceTile}
		if _, err := reducePasses(c.av, in, inOff, n, Sum, []reduceGrid{g}, c.s, at); err != nil {
			return err
		}
		if err := c.scan(c.s.v.ReadOnly(), at, c.s.v, at, blocks, true, at+blocks); err != nil {
			return err
		}
		k.UsePre = 1
	}
	var kern runtime.TiledKernel = k
	if useSubgroups(c.av) {
		kern = scanSG[T]{k}
	}
	return dispatchTiled(c.av, runtime.Ext(blocks*scanTile).Tile(scanTile), kern)
}

func boolInt(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// scanKernel is the block pass of the scans, tiled 1-D: workgroup g scans the elements
// [g*B, min((g+1)*B, N)) of In (element i is In[InOff+i]; B = scanEPT * tile size) into
// Out (from Out[OutOff]), inclusive or Exclusive, starting from Pre[PreOff+g] when UsePre
// is set. A thread reads only elements of its own block before it writes any, so In and
// Out may be the same range (an in-place scan). Its GPU body, generated from Tiled by
// ampgen, scans in shared memory; scanSG runs the same kernel with the subgroup program.
type scanKernel[T Number] struct {
	In        *arrayview.ReadView[T]
	Out       *arrayview.View[T]
	Pre       *arrayview.ReadView[T]
	N         uint32
	InOff     uint32
	OutOff    uint32
	PreOff    uint32
	Exclusive int32
	Type      int32 // typeCode[T], for shaders/glsl/scan_sg.comp (raw words); the generated bodies are one per type
	UsePre    int32
}

// scanSG is scanKernel with the GPU body shaders/glsl/scan_sg.comp, which scans a workgroup's row
// sums with subgroup arithmetic (for devices that have it).
type scanSG[T Number] struct{ scanKernel[T] }

// Program is the GPU body: shaders/glsl/scan_sg.comp.
func (scanSG[T]) Program() *runtime.Program { return shaders.MustProgram("scan_sg", 1) }

// SharedBytes is the GPU bodies' shared memory: the row sums of each thread (a vec4 or
// [scanRows]T) and, for the subgroup body, one more.
func (scanKernel[T]) SharedBytes(tile [3]int) int { return 16 * (tile[0] + 1) }

// Tiled is the definition and the GPU body, the algorithm of scan_sg.comp with the
// workgroup scan in shared memory: the block is scanRows rows of 4*size elements, and
// thread l owns elements 4l..4l+3 of each row (one At4 and one Set4 per row: 16-byte
// accesses on a GPU), which stay in registers. Each thread sums its four elements of each
// row; the group scans the threads' row sums, all rows at once (Hillis-Steele, log2(size)
// steps); element c of thread l's four in row r gets the block's prefix, the sums of the
// rows before r, the sums of row r's threads before l and its own elements before c.
//
// On the H100 the block pass took 211 us for 2^26 float32 this way, 249 us with four
// 4-byte accesses in place of each At4 or Set4, and 240 us with the block going through
// tile_static memory for coalesced 4-byte accesses (RESULTS.md).
func (k scanKernel[T]) Tiled(t runtime.TiledIndex) {
	size, l := t.TileExtent.Dim(0), t.Local[0]
	n, first := int(k.N), t.Tile[0]*size*scanEPT
	var x [scanRows][4]T
	var total [scanRows]T
	for r := range scanRows {
		e := first + 4*(r*size+l)
		if e+3 < n {
			x[r] = k.In.At4(runtime.Idx(int(k.InOff) + e))
		} else {
			for c := range 4 {
				if e+c < n {
					x[r][c] = k.In.At(runtime.Idx(int(k.InOff) + e + c))
				}
			}
		}
		total[r] = (x[r][0] + x[r][1]) + (x[r][2] + x[r][3])
	}
	part := runtime.TileStatic[[scanRows]T](t, t.TileExtent.Size())
	before, sums := scanGroupRows(t, part, total)
	var run T
	if k.UsePre != 0 {
		run = k.Pre.At(runtime.Idx(int(k.PreOff) + t.Tile[0]))
	}
	for r := range scanRows {
		acc := run + before[r]
		for c := range 4 {
			v := x[r][c]
			if k.Exclusive != 0 {
				x[r][c] = acc
				acc += v
			} else {
				acc += v
				x[r][c] = acc
			}
		}
		e := first + 4*(r*size+l)
		if e+3 < n {
			k.Out.Set4(runtime.Idx(int(k.OutOff)+e), x[r])
		} else {
			for c := range 4 {
				if e+c < n {
					k.Out.Set(runtime.Idx(int(k.OutOff)+e+c), x[r][c])
				}
			}
		}
		run += sums[r]
	}
}

// EachTile is the fast CPU body: the block scanned left to right over the host slices.
// ampgen generates no body for this kernel: the loop of barriers reads a value
// assigned in one := with the thread's index, so the fission cannot run it once per tile
// (as reduceKernel's EachTile says).
func (k scanKernel[T]) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	b := d.Tile.Dim(0) * scanEPT
	lo := tile[0] * b
	hi := min(lo+b, int(k.N))
	var run T
	if k.UsePre != 0 {
		run = k.Pre.At(runtime.Idx(int(k.PreOff) + tile[0]))
	}
	in, err1 := k.In.ReadData()
	out, err2 := k.Out.Data()
	if err1 != nil || err2 != nil {
		for i := lo; i < hi; i++ {
			v := k.In.At(runtime.Idx(int(k.InOff) + i))
			if k.Exclusive == 0 {
				run += v
			}
			k.Out.Set(runtime.Idx(int(k.OutOff)+i), run)
			if k.Exclusive != 0 {
				run += v
			}
		}
		return
	}
	src := in[int(k.InOff)+lo : int(k.InOff)+hi]
	dst := out[int(k.OutOff)+lo : int(k.OutOff)+hi]
	dst = dst[:len(src)]
	if k.Exclusive != 0 {
		for i, v := range src { // v is read before dst[i] is written: in place is fine
			dst[i] = run
			run += v
		}
		return
	}
	for i, v := range src {
		run += v
		dst[i] = run
	}
}

// scanGroupRows is the workgroup scan of the block passes' shared-memory GPU bodies, all
// rows at once in part, a tile_static array of one element per thread (Hillis-Steele:
// log2(size) steps): it returns the sums of the row totals of the threads before t's, row
// by row, and the sums of every thread's.
func scanGroupRows[T Number](t runtime.TiledIndex, part [][scanRows]T, total [scanRows]T) ([scanRows]T, [scanRows]T) {
	size, l := t.TileExtent.Dim(0), t.Local[0]
	part[l] = total
	t.Barrier.WaitWithTileStaticMemoryFence()
	for d := 1; d < size; d *= 2 {
		var v [scanRows]T
		if l >= d {
			v = part[l-d]
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
		for r := range v {
			part[l][r] += v[r]
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	var before [scanRows]T
	if l > 0 {
		before = part[l-1]
	}
	return before, part[size-1]
}

// The choice of scan algorithm (hooks.scan).
const (
	scanAuto       = iota // single pass on wide accelerators (GPUs) unless in place, reduce-then-scan on the CPU
	scanMultiPass         // reduce-then-scan
	scanSinglePass        // decoupled look-back (not in place)
)

// scanLookbackOn reports whether a scan on av (in place or not) takes the single pass:
// not on a device that ends a thread's loops early (Limits.MaxLoopIterations), where a
// look-back that waits long could pass the cap.
func scanLookbackOn(av *accelerator.View, inPlace bool) bool {
	switch hooks.scan {
	case scanMultiPass:
		return false
	case scanSinglePass:
		return !inPlace
	}
	acc := av.Accelerator()
	return !inPlace && acc.Traits().Wide && acc.Limits().MaxLoopIterations == 0
}

// scanSpinLimit is how many times a workgroup of the single-pass scan reads the state of
// a block that is not published before it reduces the block itself (a variable so that the
// tests can force the fallback).
var scanSpinLimit = 256

// scanLBTile is the workgroup size of the single-pass scan (a variable so that the
// benchmarks can tune it): 256 threads, blocks of 4096 elements, scan 1 GiB of float32 in
// 1045 us on an H100 (512, benchmarked but not yet tested there: 997 us).
var scanLBTile = 256

// scanLookback is the single-pass scan of the n elements of in into out: the state (a
// ticket counter and 4 words per block) is zeroed in the scratch view, then one dispatch
// scans every block.
func scanLookback[T Number](av *accelerator.View, in *arrayview.ReadView[T], out *arrayview.View[T], n int,
	exclusive bool) error {
	tile := scanLBTile // halved to fit the device's workgroups (Vulkan promises 128 threads)
	for lim := av.Accelerator().Limits(); tile > 128 &&
		(tile > int(lim.MaxWorkgroupInvocations) || tile > int(lim.MaxWorkgroupSize[0])); {
		tile /= 2
	}
	blocks := ceilDiv(n, tile*scanEPT)
	words := 1 + 4*blocks
	s, err := takeScratch[T](av, runtime.Ext(words), "")
	if err != nil {
		return err
	}
	defer s.release()
	if err := dispatch(av, runtime.Ext(words), scanClearKernel[T]{State: s.v, Off: 0}); err != nil {
		return err
	}
	k := scanLBKernel[T]{In: in, Out: out, State: s.v, N: uint32(n), Exclusive: boolInt(exclusive),
		SpinLimit: uint32(scanSpinLimit), sg: useSubgroups(av), float: typeCode[T]() == 2}
	return runtime.ParallelForEachTiled(av, runtime.Ext(blocks*tile).Tile(tile), k)
}

// scanClearKernel zeroes State[Off+i] for each index i of its domain. Its GPU body is
// generated from Each by ampgen.
type scanClearKernel[T Number] struct {
	State *arrayview.View[T]
	Off   uint32
}

// Each is the definition and the GPU body.
func (k scanClearKernel[T]) Each(i runtime.Index) {
	var zero T
	k.State.Set(runtime.Idx(int(k.Off)+i[0]), zero)
}

// EachRange is the fast CPU body. It stays beside ampgen's generated body,
// which made zeroing 4 Mi words 80-113x slower (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine): the generated
// EachRange calls Each per index, through View.Set's coherence check, where this one
// clears the host slice.
func (k scanClearKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	if s, err := k.State.Data(); err == nil {
		clear(s[int(k.Off)+lo : int(k.Off)+hi])
		return
	}
	for i := lo; i < hi; i++ {
		k.Each(runtime.Idx(i))
	}
}

// scanLBKernel is the single-pass scan, tiled 1-D (shaders/glsl/scan_lookback.glsl): the
// workgroup with ticket g scans the elements [g*B, min((g+1)*B, N)) of In (element i is
// In[InOff+i]; B = scanEPT * tile size) into Out (from Out[OutOff]), inclusive or
// Exclusive, adding the sum of the blocks before it, found by looking back at their states
// in State (from State[StateOff], zeroed: the ticket counter, then 4 words per block) and
// by reducing a block itself when SpinLimit reads find its state unpublished. In and Out
// must not overlap. sg selects the GPU body with subgroup operations, float the float32
// one. It has no fast CPU body: the CPU scans with the multi-pass kernels.
type scanLBKernel[T Number] struct {
	In        *arrayview.ReadView[T]
	Out       *arrayview.View[T]
	State     *arrayview.View[T]
	N         uint32
	InOff     uint32
	OutOff    uint32
	StateOff  uint32
	Exclusive int32
	SpinLimit uint32
	sg        bool `amp:"-"`
	float     bool `amp:"-"`
}

// Program is the GPU body, a variant of shaders/glsl/scan_lookback.glsl: scan_lookback_sg_f
// (float32) or scan_lookback_sg_u (int32, uint32) with subgroup arithmetic, else
// scan_lookback_f or scan_lookback_u.
func (k scanLBKernel[T]) Program() *runtime.Program {
	name := "scan_lookback_"
	if k.sg {
		name += "sg_"
	}
	if k.float {
		return shaders.MustProgram(name+"f", 1)
	}
	return shaders.MustProgram(name+"u", 1)
}

// SharedBytes is the GPU body's shared memory: a uvec4 per thread and one more, and the
// look-back's 4 words.
func (scanLBKernel[T]) SharedBytes(tile [3]int) int { return 16*(tile[0]+1) + 16 }

// Tiled is the definition, the shared-memory GPU body: take a ticket, scan the block (as
// scanKernel.Tiled does), publish its sum, look back for the sum of the blocks before it,
// publish the running total and write the block.
func (k scanLBKernel[T]) Tiled(t runtime.TiledIndex) {
	size, l := t.TileExtent.Dim(0), t.Local[0]
	st, err := k.State.Data()
	if err != nil {
		panic(err) // the scratch view is contiguous
	}
	w := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(st))), len(st))
	s := int(k.StateOff)
	sh := runtime.TileStatic[uint32](t, 4) // ticket, prefix (raw bits), j, done
	if l == 0 {
		sh[0] = atomic.AddUint32(&w[s], 1) - 1
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	g := int(sh[0])
	first := g * size * scanEPT
	x, total := k.loadRows(first, size, l)
	part := runtime.TileStatic[[scanRows]T](t, size)
	before, sums := scanGroupRows(t, part, total)
	agg := scanBlockSum(sums)
	if l == 0 {
		if g == 0 {
			scanPublish(w, s+1, agg)
		} else {
			scanPublish(w, s+3+4*g, agg)
		}
	}
	var run T
	if g > 0 {
		run = k.lookBack(t, w, sh, part, g)
		if l == 0 {
			scanPublish(w, s+1+4*g, run+agg)
		}
	}
	n := int(k.N)
	scanWriteRows(k.Out, int(k.OutOff), k.Exclusive != 0, x[:], before[:], sums[:], run, first, size, l, n)
}

// loadRows returns thread l's vec4 of each row of the block from element first (zeros past
// N) and the row sums.
func (k scanLBKernel[T]) loadRows(first, size, l int) (x [scanRows][4]T, total [scanRows]T) {
	for r := range x {
		e := first + 4*(r*size+l)
		for c := range 4 {
			if e+c < int(k.N) {
				x[r][c] = k.In.At(runtime.Idx(int(k.InOff) + e + c))
			}
		}
		total[r] = (x[r][0] + x[r][1]) + (x[r][2] + x[r][3])
	}
	return x, total
}

// lookBack returns the sum of the blocks before block g > 0 (every thread of the tile
// calls it): thread 0 reads their states one at a time, adding aggregates up to the
// nearest inclusive prefix; when a block stays unpublished for SpinLimit reads, the
// tile reduces it from In (scanning in part).
func (k scanLBKernel[T]) lookBack(t runtime.TiledIndex, w []uint32, sh []uint32, part [][scanRows]T, g int) T {
	size, l := t.TileExtent.Dim(0), t.Local[0]
	s := int(k.StateOff)
	if l == 0 {
		sh[1], sh[2] = 0, uint32(g)
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	for {
		if l == 0 {
			j, prefix, done := int(sh[2]), famFromBits[T](sh[1]), uint32(0)
			for spins := 0; ; {
				if j == 0 { // after the fallback reduced block 0
					done = 1
					break
				}
				if spins >= int(k.SpinLimit) {
					break
				}
				b := j - 1
				if v, ok := scanPeek[T](w, s+1+4*b); ok {
					prefix += v
					done = 1
					break
				}
				if v, ok := scanPeek[T](w, s+3+4*b); ok {
					prefix += v
					j, spins = b, 0
				} else {
					spins++
					goruntime.Gosched()
				}
			}
			sh[1], sh[2], sh[3] = famBits(prefix), uint32(j), done
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
		if sh[3] != 0 {
			break
		}
		b := int(sh[2]) - 1 // the fallback: block b's sum from In
		_, total := k.loadRows(b*size*scanEPT, size, l)
		_, sums := scanGroupRows(t, part, total)
		if l == 0 {
			sh[1], sh[2] = famBits(famFromBits[T](sh[1])+scanBlockSum(sums)), uint32(b)
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	return famFromBits[T](sh[1])
}

// scanBlockSum is a block's sum from its row sums, added as the GPU bodies do.
func scanBlockSum[T Number](sums [scanRows]T) T { return ((sums[0] + sums[1]) + sums[2]) + sums[3] }

// scanPublish stores v in the state words w[i] and w[i+1]: 16 bits each, with bit 31 set.
func scanPublish[T Number](w []uint32, i int, v T) {
	b := famBits(v)
	atomic.StoreUint32(&w[i], 1<<31|b&0xffff)
	atomic.StoreUint32(&w[i+1], 1<<31|b>>16)
}

// scanPeek reads the value in the state words w[i] and w[i+1] and reports whether it is
// published (both flags set).
func scanPeek[T Number](w []uint32, i int) (T, bool) {
	a, b := atomic.LoadUint32(&w[i]), atomic.LoadUint32(&w[i+1])
	return famFromBits[T](a&0xffff | b<<16), a&b&(1<<31) != 0
}

// famBits is the raw bits of v.
func famBits[T Number](v T) uint32 { return *(*uint32)(unsafe.Pointer(&v)) }

// famFromBits is the T with raw bits b.
func famFromBits[T Number](b uint32) T { return *(*T)(unsafe.Pointer(&b)) }

// scanWriteRows is the last step of a scan tile's per-thread body, shared by both scan
// programs: thread l writes its four elements of each row r (at first + 4*(r*size+l)),
// offset by the tile's running total run, the row's prefix before[r] and, across rows, the
// row sums; only the elements below n are written.
func scanWriteRows[T Number](out *arrayview.View[T], outOff int, exclusive bool, x [][4]T, before, sums []T, run T, first, size, l, n int) {
	for r := range x {
		acc := run + before[r]
		e := first + 4*(r*size+l)
		for c := 0; c < 4 && e+c < n; c++ {
			v := x[r][c]
			if exclusive {
				out.Set(runtime.Idx(outOff+e+c), acc)
				acc += v
			} else {
				acc += v
				out.Set(runtime.Idx(outOff+e+c), acc)
			}
		}
		run += sums[r]
	}
}
