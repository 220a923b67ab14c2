package algo

import (
	"slices"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// ConvolveMaxKernel is the longest row or column kernel Convolve2D accepts (radius 32:
// the GPU bodies' shared-memory apron is sized for it).
const ConvolveMaxKernel = 65

// The tiles (rows, columns of threads) of the two passes: on GPUs, rows of 64 for
// coalesced loads and 16 x 16 for the column pass; on the CPU, wider tiles, so that each
// goroutine task is larger.
var (
	convRowTileGPU = [2]int{4, 64}
	convColTileGPU = [2]int{16, 16}
	convRowTileCPU = [2]int{4, 256}
	convColTileCPU = [2]int{16, 64}
)

// Convolve2D computes out = in convolved with rowKernel along rows, then with colKernel
// along columns (a separable 2-D filter), with clamp-to-edge borders:
//
//	tmp(y, x) = sum over i of rowKernel[i] * in(y, clamp(x + i - r))   (r = len(rowKernel)/2)
//	out(y, x) = sum over j of colKernel[j] * tmp(clamp(y + j - r'), x) (r' = len(colKernel)/2)
//
// Kernels are applied as correlation (not flipped), like cuDNN and PyTorch's conv2d; a
// symmetric kernel gives the same result either way. in and out are rank-2 views of the
// same extent that must not share memory (arrayview.Overlap); kernel lengths must be odd and at most
// ConvolveMaxKernel (*ShapeError otherwise, reported before anything changes; so is a view
// living on another accelerator view than av, as *runtime.AcceleratorMismatchError).
//
// Each pass is a tiled kernel that loads its tile and an apron of r elements into
// shared memory (convRows, convCols: GPU bodies generated from their Go bodies). The
// intermediate image and the coefficients live in scratch memory of the accelerator view
// (scratch.go), reused by later calls, so that a call allocates nothing once warm; the
// intermediate is discarded, never copied to the host. out is output-only: Convolve2D calls
// out.DiscardData() first (C++ AMP's guideline A). On a GPU, Convolve2D returns with the
// two passes queued, like runtime.ParallelForEach; the result reaches the Go slice on
// out.Synchronize, out.Data or element access.
func Convolve2D(av *accelerator.View, in, out *arrayview.View[float32], rowKernel, colKernel []float32) error {
	const op = "Convolve2D"
	if err := convCheck(in, out, rowKernel, colKernel); err != nil {
		return err
	}
	rows, cols := in.Extent().Dim(0), in.Extent().Dim(1)
	av, err := chooseView("algo."+op, op, av, []string{"in", "out"}, in, out)
	if err != nil {
		return err
	}
	tmp, err := takeScratch[float32](av, runtime.Ext(rows, cols), "")
	if err != nil {
		return err
	}
	// The scratch goes back once both passes are queued: later work on av runs after them,
	// so the next call may reuse it at once.
	defer tmp.release()
	coef, err := takeScratch[float32](av, runtime.Ext(2*ConvolveMaxKernel), convCoefTag)
	if err != nil {
		return err
	}
	defer coef.release()
	convSetCoef(coef, rowKernel, colKernel)
	tmp.v.DiscardData() // guideline B: the intermediate's old contents are never uploaded

	rowTile, colTile := convRowTileGPU, convColTileGPU
	var h1, h2 *convHost
	if av.Accelerator().Traits().HostMemory { // the fast CPU bodies read and write host slices
		rowTile, colTile = convRowTileCPU, convColTileCPU
		inData, err := matMulRows(in)
		if err != nil {
			return err
		}
		h1 = &convHost{in: inData, out: tmp.data, coef: rowKernel}
		h2 = &convHost{in: tmp.data, coef: colKernel}
	}
	if err := out.Discard(); err != nil { // guideline A: out is output-only
		return err
	}
	if h2 != nil {
		if d, err := out.Data(); err == nil {
			h2.out = d
		}
	}
	ro := coef.v.ReadOnly()
	pass1 := convArgs{In: in.ReadOnly(), Out: tmp.v, Coef: ro, Rows: int32(rows), Cols: int32(cols),
		R: int32(len(rowKernel) / 2), CoefOff: 0, host: h1}
	pass2 := convArgs{In: tmp.v.ReadOnly(), Out: out, Coef: ro, Rows: int32(rows), Cols: int32(cols),
		R: int32(len(colKernel) / 2), CoefOff: int32(len(rowKernel)), host: h2}
	domain := func(tile [2]int) runtime.TiledExtent {
		return runtime.Ext(rows, cols).Tile(tile[0], tile[1]).Pad()
	}
	if err := dispatchTiled(av, domain(rowTile), convRows{pass1}); err != nil {
		return err
	}
	err = dispatchTiled(av, domain(colTile), convCols{pass2})
	tmp.v.DiscardData() // nothing of the intermediate is ever copied back
	return err
}

// convCheck returns Convolve2D's *ShapeError for its arguments, if any.
func convCheck(in, out *arrayview.View[float32], rowKernel, colKernel []float32) error {
	const op = "Convolve2D"
	if err := nilNames(op, []string{"in", "out"}, in == nil, out == nil); err != nil {
		return err
	}
	ie, oe := in.Extent(), out.Extent()
	if ie.Rank() != 2 || oe.Rank() != 2 || !ie.Equal(oe) {
		return shapeErr(op, "in %v and out %v must be rank 2 and of the same extent", ie, oe)
	}
	if err := apart(op, "out", out, "in", in); err != nil {
		return err
	}
	for _, k := range []struct {
		name string
		k    []float32
	}{{"row", rowKernel}, {"column", colKernel}} {
		if len(k.k)%2 == 0 || len(k.k) > ConvolveMaxKernel {
			return shapeErr(op, "%s kernel of length %d: the length must be odd and at most %d", k.name, len(k.k), ConvolveMaxKernel)
		}
	}
	return nil
}

// convCoefTag tags Convolve2D's coefficient buffers (scratch.go): rank 1, the row kernel
// then the column kernel, kept from call to call so that unchanged kernels are not
// uploaded again. The buffer's note is how many coefficients it holds (0: none yet).
const convCoefTag = "Convolve2D coefficients"

// convSetCoef stores the row kernel then the column kernel in the coefficient buffer b.
// When they differ from the last call's, the host copy is marked as the current one, so
// that the dispatch uploads it (in order with earlier work on the stream); else the device
// copy stands and nothing is uploaded.
func convSetCoef(b *scratchBuf[float32], rowKernel, colKernel []float32) {
	n := len(rowKernel) + len(colKernel)
	if n == b.note && slices.Equal(b.data[:len(rowKernel)], rowKernel) &&
		slices.Equal(b.data[len(rowKernel):n], colKernel) {
		return
	}
	copy(b.data, rowKernel)
	copy(b.data[len(rowKernel):], colKernel)
	b.note = n
	b.v.Refresh()
}

// convArgs are the captures of both passes: bindings In, Out, Coef (0, 1, 2) and push
// constants Rows, Cols, R (the radius) and CoefOff (where the pass's kernel starts in Coef).
type convArgs struct {
	In                     *arrayview.ReadView[float32]
	Out                    *arrayview.View[float32]
	Coef                   *arrayview.ReadView[float32]
	Rows, Cols, R, CoefOff int32
	host                   *convHost `amp:"-"` // host data for the fast CPU bodies
}

// convHost holds a pass's host data on the CPU: its input (rows x cols, row-major), its
// output (nil when not contiguous: results go through Out.Set) and its kernel.
type convHost struct {
	in, out, coef []float32
}

// convClamp clamps i to [0, n-1].
func convClamp(i, n int) int { return max(0, min(i, n-1)) }

// cpuTile is where a fast CPU body starts: the rows y0..y1 and columns x0..x1 of the
// image that tile covers (clipped to the image) and a line of x1-x0 elements to sum into.
func (k convArgs) cpuTile(d runtime.TiledExtent, tile runtime.Index) (y0, x0, y1, x1 int, line []float32) {
	y0, x0 = tile[0]*d.Tile.Dim(0), tile[1]*d.Tile.Dim(1)
	y1, x1 = min(y0+d.Tile.Dim(0), int(k.Rows)), min(x0+d.Tile.Dim(1), int(k.Cols))
	return y0, x0, y1, x1, make([]float32, x1-x0)
}

// convRows is the row pass. Its GPU body is generated from Tiled by ampgen.
type convRows struct{ convArgs }

// SharedBytes is the GPU body's shared memory: a row of the tile plus the largest
// apron per tile row.
func (convRows) SharedBytes(tile [3]int) int { return 4 * tile[0] * (tile[1] + ConvolveMaxKernel - 1) }

// Tiled is the definition and the GPU body: the tile's rows and an apron of R elements on
// each side (clamped to the edge) go to tile_static memory, then each thread computes one
// element; threads past the edge of the padded domain load but store nothing.
func (k convRows) Tiled(t runtime.TiledIndex) {
	wx := t.TileExtent.Dim(1)
	srow := wx + ConvolveMaxKernel - 1
	s := runtime.TileStatic[float32](t, t.TileExtent.Dim(0)*srow)
	r, rows, cols := int(k.R), int(k.Rows), int(k.Cols)
	y := min(t.Global[0], rows-1)
	for x := t.Local[1]; x < wx+2*r; x += wx {
		gx := convClamp(t.TileOrigin[1]-r+x, cols)
		s[t.Local[0]*srow+x] = k.In.At(runtime.Idx(y, gx))
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	if t.Global[0] >= rows || t.Global[1] >= cols {
		return
	}
	var sum float32
	for i := 0; i <= 2*r; i++ {
		sum += k.Coef.At(runtime.Idx(int(k.CoefOff)+i)) * s[t.Local[0]*srow+t.Local[1]+i]
	}
	k.Out.Set(t.Global, sum)
}

// EachTile is the fast CPU body: the tile's rows straight from the host slices, four
// outputs at a time in the interior, clamped indices only near the edges. It stays beside
// ampgen's generated body, which made Convolve2D 1024x1024 (k 9) 1.55-1.93x
// slower (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine): the generated body stages the rows through tile_static and clamps
// every index, where this one clamps only near the edges.
func (k convRows) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	h, c := k.host, k.host.coef
	r, cols := int(k.R), int(k.Cols)
	y0, x0, y1, x1, line := k.cpuTile(d, tile)
	for y := y0; y < y1; y++ {
		in := h.in[y*cols : (y+1)*cols]
		x := x0
		edge := func(x int) float32 {
			var sum float32
			for i, w := range c {
				sum += w * in[convClamp(x+i-r, cols)]
			}
			return sum
		}
		for ; x < x1 && x < r; x++ {
			line[x-x0] = edge(x)
		}
		for ; x+3 < x1 && x+3+r < cols; x += 4 {
			win := in[x-r : x+3+r+1]
			var s0, s1, s2, s3 float32
			for i, w := range c {
				v := win[i : i+4 : i+4]
				s0 += w * v[0]
				s1 += w * v[1]
				s2 += w * v[2]
				s3 += w * v[3]
			}
			line[x-x0], line[x-x0+1], line[x-x0+2], line[x-x0+3] = s0, s1, s2, s3
		}
		for ; x < x1; x++ {
			line[x-x0] = edge(x)
		}
		h.store(k.Out, y, x0, cols, line)
	}
}

// store writes line at (y, x0..) of the output.
func (h *convHost) store(out *arrayview.View[float32], y, x0, cols int, line []float32) {
	if h.out != nil {
		copy(h.out[y*cols+x0:], line)
		return
	}
	for i, v := range line {
		out.Set(runtime.Idx(y, x0+i), v)
	}
}

// convCols is the column pass. Its GPU body is generated from Tiled by ampgen.
type convCols struct{ convArgs }

// SharedBytes is the GPU body's shared memory: the tile's columns plus the largest
// apron above and below.
func (convCols) SharedBytes(tile [3]int) int { return 4 * (tile[0] + ConvolveMaxKernel - 1) * tile[1] }

// Tiled is the definition and the GPU body: the tile's columns and an apron of R rows
// above and below (clamped to the edge) go to tile_static memory, then each thread
// computes one element; threads past the edge of the padded domain load but store nothing.
func (k convCols) Tiled(t runtime.TiledIndex) {
	wy, wx := t.TileExtent.Dim(0), t.TileExtent.Dim(1)
	s := runtime.TileStatic[float32](t, (wy+ConvolveMaxKernel-1)*wx)
	r, rows, cols := int(k.R), int(k.Rows), int(k.Cols)
	x := min(t.Global[1], cols-1)
	for y := t.Local[0]; y < wy+2*r; y += wy {
		gy := convClamp(t.TileOrigin[0]-r+y, rows)
		s[y*wx+t.Local[1]] = k.In.At(runtime.Idx(gy, x))
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	if t.Global[0] >= rows || t.Global[1] >= cols {
		return
	}
	var sum float32
	for j := 0; j <= 2*r; j++ {
		sum += k.Coef.At(runtime.Idx(int(k.CoefOff)+j)) * s[(t.Local[0]+j)*wx+t.Local[1]]
	}
	k.Out.Set(t.Global, sum)
}

// EachTile is the fast CPU body: each output row of the tile accumulates the weighted
// input rows (clamped) across its width, four rows per sweep. It stays beside ampgen's
// generated body, which made Convolve2D 1024x1024 (k 9) 1.75-1.99x slower
// (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine): the generated body stages the columns through tile_static and
// reads every coefficient through a checked view read per output, where this one sweeps
// whole rows.
func (k convCols) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	h, c := k.host, k.host.coef
	r, rows, cols := int(k.R), int(k.Rows), int(k.Cols)
	y0, x0, y1, x1, line := k.cpuTile(d, tile)
	w := len(line)
	row := func(y int) []float32 {
		y = convClamp(y, rows)
		return h.in[y*cols+x0 : y*cols+x1 : y*cols+x1]
	}
	for y := y0; y < y1; y++ {
		clear(line)
		j := 0
		for ; j+3 < len(c); j += 4 {
			c0, c1, c2, c3 := c[j], c[j+1], c[j+2], c[j+3]
			r0, r1, r2, r3 := row(y+j-r), row(y+j+1-r), row(y+j+2-r), row(y+j+3-r)
			r0, r1, r2, r3 = r0[:w], r1[:w], r2[:w], r3[:w]
			for x := range line {
				line[x] += c0*r0[x] + c1*r1[x] + c2*r2[x] + c3*r3[x]
			}
		}
		for ; j < len(c); j++ {
			cj, rj := c[j], row(y + j - r)[:w]
			for x := range line {
				line[x] += cj * rj[x]
			}
		}
		h.store(k.Out, y, x0, cols, line)
	}
}
