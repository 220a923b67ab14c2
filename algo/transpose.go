package algo

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// The transpose kernel's tiling: a tile of transposeRows x transposeDim threads moves a
// transposeDim x transposeDim block, each thread transposeDim/transposeRows elements.
const (
	transposeDim  = 32
	transposeRows = 8
)

// Transpose writes the transpose of the rank-2 view in into out, out[c][r] = in[r][c], on
// accelerator view av (nil: the view the data lives on, else the default accelerator's),
// like C++ AMP's matrix-transpose sample. in may have any shape (sections included); out
// must have the transposed shape (else a *ShapeError) and must not overlap in: out is
// output only, so Transpose first calls out.DiscardData and its old contents are never
// uploaded to a GPU. The GPU body moves 32x32 blocks through shared memory (tiles of 8x32
// threads, the shared tile padded by one column against bank conflicts).
func Transpose[T Number](av *accelerator.View, in, out *arrayview.View[T]) error {
	const op = "Transpose"
	switch {
	case in == nil:
		return shapeErr(op, "in is nil")
	case out == nil:
		return shapeErr(op, "out is nil")
	case in.Rank() != 2:
		return shapeErr(op, "in has rank %d (extent %s); Transpose needs rank-2 views", in.Rank(), in.Extent())
	case out.Rank() != 2:
		return shapeErr(op, "out has rank %d (extent %s); Transpose needs rank-2 views", out.Rank(), out.Extent())
	}
	if err := apart(op, "out", out, "in", in); err != nil {
		return err
	}
	rows, cols := in.Extent().Dim(0), in.Extent().Dim(1)
	if out.Extent().Dim(0) != cols || out.Extent().Dim(1) != rows {
		return shapeErr(op, "in is %dx%d, so out must be %dx%d, not %s", rows, cols, cols, rows, out.Extent())
	}
	av, err := chooseView("algo."+op, op, av, []string{"in", "out"}, in, out)
	if err != nil {
		return err
	}
	if err := out.Discard(); err != nil {
		return err
	}
	br := (rows + transposeDim - 1) / transposeDim // blocks down
	bc := (cols + transposeDim - 1) / transposeDim // blocks across
	dom := runtime.Ext(br*transposeRows, bc*transposeDim).Tile(transposeRows, transposeDim)
	k := transposeKernel[T]{In: in.ReadOnly(), Out: out, Rows: int32(rows), Cols: int32(cols)}
	return dispatchTiled(av, dom, k)
}

// transposeKernel is Transpose's kernel, tiled transposeRows x transposeDim over the
// padded grid of blocks: Out[c][r] = In[r][c] for the Rows x Cols elements of In. Its GPU
// body is generated from Tiled by ampgen.
type transposeKernel[T Number] struct {
	In         *arrayview.ReadView[T]
	Out        *arrayview.View[T]
	Rows, Cols int32
}

// SharedBytes is the GPU body's shared tile.
func (transposeKernel[T]) SharedBytes([3]int) int { return 4 * transposeDim * (transposeDim + 1) }

// Tiled is the definition and the GPU body: each thread loads transposeDim/transposeRows
// elements of the block into the padded tile (consecutive threads read consecutive
// columns of In), waits, and stores as many of the transposed block (consecutive threads
// write consecutive columns of Out).
func (k transposeKernel[T]) Tiled(t runtime.TiledIndex) {
	const stride = transposeDim + 1
	tile := runtime.TileStatic[T](t, transposeDim*stride)
	ly, lx := t.Local[0], t.Local[1]
	r0, c0 := t.Tile[0]*transposeDim, t.Tile[1]*transposeDim
	rows, cols := int(k.Rows), int(k.Cols)
	for d := 0; d < transposeDim; d += transposeRows {
		if r, c := r0+ly+d, c0+lx; r < rows && c < cols {
			tile[(ly+d)*stride+lx] = k.In.At(runtime.Idx(r, c))
		}
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	for d := 0; d < transposeDim; d += transposeRows {
		if or, oc := c0+ly+d, r0+lx; or < cols && oc < rows {
			k.Out.Set(runtime.Idx(or, oc), tile[lx*stride+ly+d])
		}
	}
}

// EachTile is the fast CPU body: it transposes the tile's block directly, over the host
// slices when both views are contiguous. It stays beside ampgen's generated body (issue
// 16), which made Transpose of 2048x2048 float32 1.76-1.87x slower (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine):
// the generated body stages the block through tile_static with a checked read and write
// per element, where this one copies it directly.
func (k transposeKernel[T]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	rows, cols := int(k.Rows), int(k.Cols)
	r0, c0 := tile[0]*transposeDim, tile[1]*transposeDim
	r1, c1 := min(r0+transposeDim, rows), min(c0+transposeDim, cols)
	in, err1 := k.In.ReadData()
	out, err2 := k.Out.Data()
	if err1 != nil || err2 != nil {
		for r := r0; r < r1; r++ {
			for c := c0; c < c1; c++ {
				k.Out.Set(runtime.Idx(c, r), k.In.At(runtime.Idx(r, c)))
			}
		}
		return
	}
	for c := c0; c < c1; c++ {
		o := out[c*rows+r0 : c*rows+r1]
		i := r0*cols + c
		for j := range o {
			o[j] = in[i]
			i += cols
		}
	}
}
