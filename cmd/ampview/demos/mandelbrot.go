package demos

import (
	"fmt"
	"math"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/present"
	"github.com/goamp/goamp/runtime"
)

// The Mandelbrot zoom's path: it starts 3.5 units wide around (MandelbrotX, MandelbrotY)
// and shrinks by MandelbrotZoom each frame.
const (
	MandelbrotX     = -0.743643887037151
	MandelbrotY     = 0.131825904205330
	MandelbrotWidth = 3.5
	MandelbrotZoom  = 0.97
	// MandelbrotMaxIter is the most iterations per pixel.
	MandelbrotMaxIter = 512
)

// Mandelbrot is a zoom into the Mandelbrot set: each Step computes the next frame's escape
// counts (exact integers, the same on every accelerator) and colours.
type Mandelbrot struct {
	rows, cols int
	frame      int
	iter       *arrayview.View[int32]
	rgba       *arrayview.View[uint32]
}

// NewMandelbrot returns the zoom at its first frame, c.Rows x c.Cols pixels.
func NewMandelbrot(c Config) (*Mandelbrot, error) {
	if err := checkSize("mandelbrot", c.Rows, c.Cols, 1, 1); err != nil {
		return nil, err
	}
	if c.Rows > 4096 || c.Cols > 4096 {
		return nil, &ConfigError{Demo: "mandelbrot", Reason: fmt.Sprintf("a %dx%d frame: at most 4096x4096 (the fixed-point coordinates must fit in an int32)", c.Rows, c.Cols)}
	}
	n := c.Rows * c.Cols
	m := &Mandelbrot{rows: c.Rows, cols: c.Cols}
	m.iter = arrayview.MustNew(runtime.Ext(c.Rows, c.Cols), make([]int32, n))
	m.rgba = arrayview.MustNew(runtime.Ext(c.Rows, c.Cols), make([]uint32, n))
	return m, nil
}

// Name returns "mandelbrot".
func (m *Mandelbrot) Name() string { return "mandelbrot" }

// MandelbrotFrame returns the kernel that computes frame f of a rows x cols zoom (its
// views unset): frame f's pixels are MandelbrotWidth * MandelbrotZoom^f / cols apart,
// rounded to the kernel's fixed point (2^-27, about 7.5e-9), and never closer than that:
// on a 512-pixel frame the zoom stops deepening near frame 390.
func MandelbrotFrame(f, rows, cols int) MandelbrotKernel {
	scale := MandelbrotWidth * math.Pow(MandelbrotZoom, float64(f)) / float64(cols)
	return MandelbrotKernel{CenterX: fixed(MandelbrotX), CenterY: fixed(MandelbrotY),
		Scale: max(1, fixed(scale)), MaxIter: MandelbrotMaxIter, Rows: int32(rows), Cols: int32(cols)}
}

// fixed returns x in the Mandelbrot kernel's fixed point (Q4.27), rounded to nearest.
func fixed(x float64) int32 { return int32(math.Round(x * FixedOne)) }

// Step computes the next frame.
func (m *Mandelbrot) Step(av *accelerator.View) error {
	k := MandelbrotFrame(m.frame, m.rows, m.cols)
	k.Iter, k.RGBA = m.iter, m.rgba
	m.iter.DiscardData()
	m.rgba.DiscardData()
	if err := runtime.ParallelForEach(av, m.iter.Extent(), k); err != nil {
		return err
	}
	m.frame++
	return nil
}

// Frame returns the colours of the last frame.
func (m *Mandelbrot) Frame() present.Frame { return present.Frame{RGBA: m.rgba} }

// Iterations returns the escape counts of the last frame (a rank-2 view).
func (m *Mandelbrot) Iterations() *arrayview.View[int32] { return m.iter }

// Frames returns how many frames Step has computed.
func (m *Mandelbrot) Frames() int { return m.frame }

// Close frees the views.
func (m *Mandelbrot) Close() error { return closeAll(m.iter, m.rgba) }
