package demos

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/present"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/vec"
)

// The n-body demo's constants: the time step, the softening length squared, and the
// height of the square of the plane z = 0 that the image shows (centred on the origin).
const (
	NBodyDt          = 0.01
	NBodyEps2        = 0.01
	NBodyFieldHeight = 2.5
)

// NBodyFlops is the floating-point operations counted per interaction (NBodyKernel's
// interact), as the C++ AMP and CUDA n-body samples count them.
const NBodyFlops = 20

// NBody is the gravitational n-body problem, all pairs: each Step advances the bodies by
// NBodyDt (NBodyKernel: tiles of bodies staged through tile_static memory), then splats
// them into an image (ClearKernel, SplatKernel, ToneKernel).
type NBody struct {
	tile, split int
	rows, cols  int
	pos, newPos *arrayview.View[vec.Float4]
	vel         *arrayview.View[vec.Float4]
	count       *arrayview.View[uint32]
	rgba        *arrayview.View[uint32]
}

// NewNBody returns c.Bodies bodies (default 4096) in a rotating disc of radius 1 made
// from c.Seed, staged in tiles of c.Tile (default 256), shown in c.Rows x c.Cols pixels.
func NewNBody(c Config) (*NBody, error) {
	n := c.Bodies
	if n == 0 {
		n = 4096
	}
	if n < 1 {
		return nil, &ConfigError{Demo: "nbody", Reason: fmt.Sprintf("%d bodies", n)}
	}
	pos, vel := Disc(n, c.Seed)
	return NewNBodySplit(c.Rows, c.Cols, c.Tile, c.Split, pos, vel)
}

// Disc returns n bodies in a disc of radius 1 (uniform density, thin in z) with masses
// that sum to about 0.75, turning about the z axis: positions with masses in W, and
// velocities.
func Disc(n int, seed uint64) (pos, vel []vec.Float4) {
	r := rand.New(rand.NewPCG(seed, 3))
	pos, vel = make([]vec.Float4, n), make([]vec.Float4, n)
	for i := range pos {
		rad := math.Sqrt(0.0025 + 0.9975*r.Float64())
		th := 2 * math.Pi * r.Float64()
		m := (0.5 + 0.5*r.Float64()) / float64(n)
		x, y, z := rad*math.Cos(th), rad*math.Sin(th), 0.02*(r.Float64()-0.5)
		v := math.Sqrt(0.75 * rad) // the circular speed inside a uniform disc of mass 0.75
		pos[i] = vec.F4(float32(x), float32(y), float32(z), float32(m))
		vel[i] = vec.F4(float32(-v*math.Sin(th)), float32(v*math.Cos(th)), 0, 0)
	}
	return pos, vel
}

// NewNBodyFrom returns the n-body demo over the bodies pos (positions, masses in W) and
// vel (velocities), which it keeps, in tiles of tile bodies (0: 256), shown in rows x cols
// pixels. The number of bodies must be a multiple of the tile, and the tile of 4.
func NewNBodyFrom(rows, cols, tile int, pos, vel []vec.Float4) (*NBody, error) {
	return NewNBodySplit(rows, cols, tile, 1, pos, vel)
}

// NewNBodySplit is NewNBodyFrom with each body's work split among split threads
// (NBodySplitKernel, in tiles of split x tile threads; split 0 or 1: NBodyKernel). The
// number of bodies must be a multiple of split*tile.
func NewNBodySplit(rows, cols, tile, split int, pos, vel []vec.Float4) (*NBody, error) {
	if tile == 0 {
		tile = 256
	}
	split = max(split, 1)
	n := len(pos)
	if tile < 4 || tile%4 != 0 || n < 1 || n%(tile*split) != 0 || len(vel) != n {
		return nil, &ConfigError{Demo: "nbody", Reason: fmt.Sprintf("%d bodies with %d velocities in tiles of %d, split %d: the bodies must be a positive multiple of the tile times the split, the tile a multiple of 4", n, len(vel), tile, split)}
	}
	if err := checkSize("nbody", rows, cols, 1, 1); err != nil {
		return nil, err
	}
	ext, img := runtime.Ext(n), runtime.Ext(rows, cols)
	return &NBody{
		tile: tile, split: split, rows: rows, cols: cols,
		pos:    arrayview.MustNew(ext, pos),
		newPos: arrayview.MustNew(ext, make([]vec.Float4, n)),
		vel:    arrayview.MustNew(ext, vel),
		count:  arrayview.MustNew(img, make([]uint32, rows*cols)),
		rgba:   arrayview.MustNew(img, make([]uint32, rows*cols)),
	}, nil
}

// Name returns "nbody".
func (b *NBody) Name() string { return "nbody" }

// Step advances the bodies by one time step, then draws them.
func (b *NBody) Step(av *accelerator.View) error {
	if err := b.Advance(av); err != nil {
		return err
	}
	return b.Draw(av)
}

// Advance runs NBodyKernel (or NBodySplitKernel) once: the bodies move by one time step.
func (b *NBody) Advance(av *accelerator.View) error {
	n := b.pos.Extent().Size()
	k := NBodyKernel{Pos: b.pos.ReadOnly(), Vel: b.vel, NewPos: b.newPos, Dt: NBodyDt, Eps2: NBodyEps2, Bodies: int32(n)}
	b.newPos.DiscardData()
	var err error
	if b.split > 1 {
		err = runtime.ParallelForEachTiled(av, runtime.Ext(b.split, n).Tile(b.split, b.tile), NBodySplitKernel(k))
	} else {
		err = runtime.ParallelForEachTiled(av, b.pos.Extent().Tile(b.tile), k)
	}
	if err != nil {
		return err
	}
	b.pos, b.newPos = b.newPos, b.pos
	return nil
}

// Draw splats the bodies into the frame: each pixel's count of bodies, then its colour.
func (b *NBody) Draw(av *accelerator.View) error {
	b.count.DiscardData()
	if err := runtime.ParallelForEach(av, b.count.Extent(), ClearKernel{Img: b.count}); err != nil {
		return err
	}
	if err := runtime.ParallelForEach(av, b.pos.Extent(), NBodySplat(b.rows, b.cols, b.pos.ReadOnly(), b.count)); err != nil {
		return err
	}
	b.rgba.DiscardData()
	return runtime.ParallelForEach(av, b.count.Extent(), ToneKernel{Count: b.count.ReadOnly(), RGBA: b.rgba})
}

// NBodySplat returns the splat of pos into count, a rows x cols image of the square of
// height NBodyFieldHeight centred on the origin.
func NBodySplat(rows, cols int, pos *arrayview.ReadView[vec.Float4], count *arrayview.View[uint32]) SplatKernel {
	scale := float32(float64(rows) / NBodyFieldHeight)
	return SplatKernel{Pos: pos, Count: count, X0: -float32(cols) / (2 * scale), Y0: float32(NBodyFieldHeight / 2),
		Scale: scale, Rows: int32(rows), Cols: int32(cols)}
}

// Frame returns the image of the bodies.
func (b *NBody) Frame() present.Frame { return present.Frame{RGBA: b.rgba} }

// Bodies returns the bodies' positions (masses in W), Velocities their velocities, and
// Counts the number of bodies in each pixel of the frame.
func (b *NBody) Bodies() *arrayview.View[vec.Float4] { return b.pos }

// Velocities returns the bodies' velocities.
func (b *NBody) Velocities() *arrayview.View[vec.Float4] { return b.vel }

// Counts returns the number of bodies in each pixel of the last frame.
func (b *NBody) Counts() *arrayview.View[uint32] { return b.count }

// Close frees the views.
func (b *NBody) Close() error { return closeAll(b.pos, b.newPos, b.vel, b.count, b.rgba) }
