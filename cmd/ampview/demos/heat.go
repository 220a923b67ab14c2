package demos

import (
	"fmt"
	"math/rand/v2"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/present"
	"github.com/goamp/goamp/runtime"
)

// HeatAlpha is the heat demo's diffusion number (stable up to 0.25).
const HeatAlpha = 0.2

// Heat is heat diffusion on a grid whose outside is cold (0), with hot sources that never
// cool below their temperature: each Step is one explicit step of the five-point stencil
// (HeatKernel), tiles loading a halo into tile_static memory.
type Heat struct {
	tile     int
	cur, nxt *arrayview.View[float32]
	src      *arrayview.View[float32]
}

// NewHeat returns the heat demo on a c.Rows x c.Cols grid in square tiles of side c.Tile
// (default 16): a random initial field in [0, 0.5) and a few random hot discs (sources at
// 1), both from c.Seed.
func NewHeat(c Config) (*Heat, error) {
	tile := c.Tile
	if tile == 0 {
		tile = 16
	}
	if err := checkSize("heat", c.Rows, c.Cols, tile, tile); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(c.Seed, 2))
	u := make([]float32, c.Rows*c.Cols)
	for i := range u {
		u[i] = 0.5 * r.Float32()
	}
	return NewHeatFrom(c.Rows, c.Cols, tile, u, HeatSources(c.Rows, c.Cols, r))
}

// HeatSources returns rows x cols heat sources: 1 in a few random discs, 0 elsewhere.
func HeatSources(rows, cols int, r *rand.Rand) []float32 {
	src := make([]float32, rows*cols)
	rad := max(1, min(rows, cols)/12)
	for range 3 + r.IntN(4) {
		cr, cc := r.IntN(rows), r.IntN(cols)
		for y := max(0, cr-rad); y < min(rows, cr+rad+1); y++ {
			for x := max(0, cc-rad); x < min(cols, cc+rad+1); x++ {
				if (y-cr)*(y-cr)+(x-cc)*(x-cc) <= rad*rad {
					src[y*cols+x] = 1
				}
			}
		}
	}
	return src
}

// NewHeatFrom returns the heat demo on a rows x cols grid in tiles of tile x tile threads,
// starting from field u with sources src (both row by row; the demo keeps them).
func NewHeatFrom(rows, cols, tile int, u, src []float32) (*Heat, error) {
	if tile < 1 {
		return nil, &ConfigError{Demo: "heat", Reason: fmt.Sprintf("tile side %d", tile)}
	}
	if err := checkSize("heat", rows, cols, tile, tile); err != nil {
		return nil, err
	}
	if len(u) != rows*cols || len(src) != rows*cols {
		return nil, &ConfigError{Demo: "heat", Reason: fmt.Sprintf("%d field values and %d sources for a %dx%d grid", len(u), len(src), rows, cols)}
	}
	ext := runtime.Ext(rows, cols)
	h := &Heat{tile: tile, cur: arrayview.MustNew(ext, u), src: arrayview.MustNew(ext, src)}
	h.nxt = arrayview.MustNew(ext, make([]float32, rows*cols))
	return h, nil
}

// Name returns "heat".
func (h *Heat) Name() string { return "heat" }

// Step runs one step of the stencil.
func (h *Heat) Step(av *accelerator.View) error {
	ext := h.cur.Extent()
	k := HeatKernel{In: h.cur.ReadOnly(), Src: h.src.ReadOnly(), Out: h.nxt, Alpha: HeatAlpha,
		Rows: int32(ext.Dim(0)), Cols: int32(ext.Dim(1))}
	h.nxt.DiscardData()
	if err := runtime.ParallelForEachTiled(av, ext.Tile(h.tile, h.tile), k); err != nil {
		return err
	}
	h.cur, h.nxt = h.nxt, h.cur
	return nil
}

// Frame returns the field, its range 0 to 1.
func (h *Heat) Frame() present.Frame { return present.Frame{Field: h.cur, Lo: 0, Hi: 1} }

// Close frees the views.
func (h *Heat) Close() error { return closeAll(h.cur, h.nxt, h.src) }
