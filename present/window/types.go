package window

import (
	"encoding/binary"
	"errors"
	"math"
)

// ErrNeedsCgo is what Init returns in a build without cgo, which cannot link GLFW, or
// with the build tag nowindow (a binary for a machine with no display and no X11
// libraries, such as make gpu-binaries builds).
var ErrNeedsCgo = errors.New("goamp/window: this build has no window: it needs cgo (GLFW is a C library) and no nowindow build tag; run headless with -png")

// Error is a window operation that failed: Op says what was being done.
type Error struct {
	// Op is the operation, such as "opening a window".
	Op string
	// Err is the cause.
	Err error
}

func (e *Error) Error() string { return "goamp/window: " + e.Op + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Key is a key that Poll reports (pressed or repeated).
type Key int

// The keys Poll reports.
const (
	// KeySpace is the space bar.
	KeySpace Key = iota + 1
	// KeyEscape is Esc.
	KeyEscape
	// KeyQ is Q.
	KeyQ
	// KeyLeft, KeyRight, KeyUp and KeyDown are the arrow keys.
	KeyLeft
	// KeyRight is the right arrow.
	KeyRight
	// KeyUp is the up arrow.
	KeyUp
	// KeyDown is the down arrow.
	KeyDown
	// KeyZoomIn is = or + (keypad).
	KeyZoomIn
	// KeyZoomOut is - or - (keypad).
	KeyZoomOut
	// KeyReset is 0.
	KeyReset
	// KeyNext is Tab or N.
	KeyNext
	// Key1, Key2 and Key3 are the digits 1 to 3.
	Key1
	// Key2 is the digit 2.
	Key2
	// Key3 is the digit 3.
	Key3
)

// Viewport is the part of the frame the window shows: Zoom times magnified (0 or 1: the
// whole frame, stretched to the window), its centre PanX frame widths right and PanY
// frame heights down of the frame's centre.
type Viewport struct {
	// Zoom is the magnification; 0 means 1.
	Zoom float64
	// PanX and PanY move the centre, in frame widths and heights.
	PanX, PanY float64
}

// place sets the frame pass's source placement for a width x height window.
func (vp Viewport) place(p *framePush, width, height int) {
	z := vp.Zoom
	if z <= 0 {
		z = 1
	}
	sx := float64(p.Cols) / float64(width) / z
	sy := float64(p.Rows) / float64(height) / z
	p.SX, p.SY = float32(sx), float32(sy)
	p.X0 = float32(float64(p.Cols)*(0.5+vp.PanX) - float64(width)*sx/2)
	p.Y0 = float32(float64(p.Rows)*(0.5+vp.PanY) - float64(height)*sy/2)
}

// pushSize is the frame pass's push constants in bytes (framePush).
const pushSize = 56

// framePush is frame.comp's push constants.
type framePush struct {
	Rows, Cols, Stride, Base   uint32
	Width, Height, Field, BGRA uint32
	Lo, Hi, X0, Y0             float32
	SX, SY                     float32
}

// bytes returns p as frame.comp reads it.
func (p *framePush) bytes() []byte {
	b := make([]byte, 0, pushSize)
	for _, u := range []uint32{p.Rows, p.Cols, p.Stride, p.Base, p.Width, p.Height, p.Field, p.BGRA} {
		b = binary.LittleEndian.AppendUint32(b, u)
	}
	for _, f := range []float32{p.Lo, p.Hi, p.X0, p.Y0, p.SX, p.SY} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}
