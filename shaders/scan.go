package shaders

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// The block pass's shape (ROWS in glsl/scan.comp): a block is scanRows rows of
// 4*tile elements, each thread owning one vec4 of each row, scanEPT elements in all.
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
// On a GPU the scan is reduce-then-scan: a pass of Reduce's kernel sums each block of
// 4096 elements, the block sums are scanned by the same algorithm (recursively, in the
// scratch view), and a block pass scans each block with the sum of the blocks before it
// added: 3 memory passes over the data. Within a block, each thread takes a vec4 of each
// of 4 rows of 1024 elements (coalesced vector loads and stores), and the threads' row
// sums are scanned with subgroup operations, or in shared memory where the device has
// none.
func InclusiveScan[T Number](av *accelerator.View, in, out *arrayview.View[T]) error {
	return scanOp(av, in, out, false, famOpts{})
}

// ExclusiveScan writes the running sums of in before each element to out, out[0] = 0 and
// out[i] = in[0] + ... + in[i-1] (like C++'s std::exclusive_scan with 0). Everything else
// is as for InclusiveScan.
func ExclusiveScan[T Number](av *accelerator.View, in, out *arrayview.View[T]) error {
	return scanOp(av, in, out, true, famOpts{})
}

func scanOp[T Number](av *accelerator.View, in, out *arrayview.View[T], exclusive bool, o famOpts) error {
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
	av, err = famView(av, in)
	if err != nil {
		return err
	}
	s, err := getScratch[T](av, scanScratch(n))
	if err != nil {
		return err
	}
	defer putScratch(av, s)
	sc := scanner[T]{av: av, s: s, o: o}
	return sc.scan(in.ReadOnly(), 0, out, 0, n, exclusive, 0)
}

// scanBlock is the number of elements a workgroup of the block pass scans.
func scanBlock() int { return scanTile * scanEPT }

// scanScratch is the scratch length a scan of n elements needs: the block sums of each
// level of the recursion (at least one element, which the block pass binds).
func scanScratch(n int) int {
	total := 1
	for b := scanBlock(); n > b; {
		n = famCeilDiv(n, b)
		total += n
	}
	return total
}

// scanner runs the passes of one scan.
type scanner[T Number] struct {
	av *accelerator.View
	s  *scratch[T]
	o  famOpts
}

// scan scans the n elements of in from element inOff into out from element outOff, using
// the scratch view from element at for the block sums.
func (c scanner[T]) scan(in *arrayview.ReadView[T], inOff int, out *arrayview.View[T], outOff, n int, exclusive bool, at int) error {
	b := scanBlock()
	blocks := famCeilDiv(n, b)
	k := scanKernel[T]{In: in, Out: out, Pre: c.s.v.ReadOnly(), N: uint32(n), InOff: uint32(inOff),
		OutOff: uint32(outOff), PreOff: uint32(at), Exclusive: boolInt(exclusive), Type: famType[T](), sg: c.o.subgroups(c.av)}
	if blocks > 1 {
		// The block sums, then their exclusive scan in place: the sum before each block.
		g := reduceGrid{groups: blocks, chunk: b, tile: reduceTile}
		if _, err := reducePasses(c.av, in, inOff, n, Sum, []reduceGrid{g}, c.s, at, c.o); err != nil {
			return err
		}
		if err := c.scan(c.s.v.ReadOnly(), at, c.s.v, at, blocks, true, at+blocks); err != nil {
			return err
		}
		k.UsePre = 1
	}
	return famTiled(c.av, runtime.Ext(blocks*scanTile).Tile(scanTile), k, c.o)
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
// is set. sg selects the GPU body with subgroup operations.
type scanKernel[T Number] struct {
	In        *arrayview.ReadView[T]
	Out       *arrayview.View[T]
	Pre       *arrayview.ReadView[T]
	N         uint32
	InOff     uint32
	OutOff    uint32
	PreOff    uint32
	Exclusive int32
	Type      int32 // famType[T]
	UsePre    int32
	sg        bool `amp:"-"`
}

// Program is the GPU body: glsl/scan_sg.comp with subgroup arithmetic, else
// glsl/scan.comp.
func (k scanKernel[T]) Program() *runtime.Program {
	if k.sg {
		return MustProgram("scan_sg", 1)
	}
	return MustProgram("scan", 1)
}

// SharedBytes is the GPU body's shared memory: a uvec4 per thread and one more.
func (scanKernel[T]) SharedBytes(tile [3]int) int { return 16 * (tile[0] + 1) }

// Tiled is the definition, the shared-memory GPU body: the block is scanRows rows of
// size vec4s and thread l owns the vec4 l of each row (coalesced loads and stores on a
// GPU). The thread sums each of its vec4s, the group scans these row sums in shared
// memory, all rows at once (Hillis-Steele: log2(size) steps), and the thread writes the
// running sums of its vec4s, each starting from the block's prefix, the rows before it
// and the row's threads before l.
func (k scanKernel[T]) Tiled(t runtime.TiledIndex) {
	size, l := t.TileExtent.Dim(0), t.Local[0]
	n, first := int(k.N), t.Tile[0]*size*scanEPT
	var x [scanRows][4]T
	var total [scanRows]T
	for r := range x {
		e := first + 4*(r*size+l)
		for c := range 4 {
			if e+c < n {
				x[r][c] = k.In.At(runtime.Idx(int(k.InOff) + e + c))
			}
		}
		total[r] = (x[r][0] + x[r][1]) + (x[r][2] + x[r][3])
	}
	part := runtime.TileStatic[[scanRows]T](t, size)
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
	sums := part[size-1]
	var before [scanRows]T
	if l > 0 {
		before = part[l-1]
	}
	var run T
	if k.UsePre != 0 {
		run = k.Pre.At(runtime.Idx(int(k.PreOff) + t.Tile[0]))
	}
	for r := range x {
		acc := run + before[r]
		e := first + 4*(r*size+l)
		for c := 0; c < 4 && e+c < n; c++ {
			v := x[r][c]
			if k.Exclusive != 0 {
				k.Out.Set(runtime.Idx(int(k.OutOff)+e+c), acc)
				acc += v
			} else {
				acc += v
				k.Out.Set(runtime.Idx(int(k.OutOff)+e+c), acc)
			}
		}
		run += sums[r]
	}
}

// EachTile is the fast CPU body: the block scanned left to right over the host slices.
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
