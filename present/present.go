// Package present turns what kernels compute into pictures: a rank-2 view of float32
// through a colormap with a range, or of packed RGBA8 in uint32, becomes an image.RGBA,
// and a PNG file. It is the presentation side of cmd/ampview; it does not open windows
// (the windowed viewer is still to come) and needs no display.
//
// Packed RGBA8 is four bytes in memory order R, G, B, A: red in the low byte of the
// uint32 on little-endian machines, as Vulkan's VK_FORMAT_R8G8B8A8_UNORM.
package present

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/goamp/goamp/arrayview"
)

// Frame is one picture: a rank-2 view (rows, columns), either Field (float32 values shown
// through the colormap, Lo to Hi) or RGBA (packed RGBA8). Exactly one of them is set.
type Frame struct {
	// Field is a float32 field, shown through Colormap with the range Lo to Hi.
	Field *arrayview.View[float32]
	// Lo and Hi are Field's range: Lo maps to the colormap's first colour, Hi to its last.
	Lo, Hi float32
	// RGBA is packed RGBA8, shown as it is.
	RGBA *arrayview.View[uint32]
}

// FrameError is a Frame that cannot be shown: Reason says why.
type FrameError struct {
	// Reason says what is wrong.
	Reason string
}

func (e *FrameError) Error() string { return "goamp/present: " + e.Reason }

// Size returns the frame's rows and columns, or an error when the frame is not exactly
// one rank-2 view.
func (f Frame) Size() (rows, cols int, err error) {
	var rank int
	switch {
	case (f.Field == nil) == (f.RGBA == nil):
		return 0, 0, &FrameError{Reason: fmt.Sprintf("a frame has exactly one of Field and RGBA (Field set: %t, RGBA set: %t)", f.Field != nil, f.RGBA != nil)}
	case f.Field != nil:
		rank, rows, cols = f.Field.Rank(), f.Field.Extent().Dim(0), f.Field.Extent().Dim(1)
	default:
		rank, rows, cols = f.RGBA.Rank(), f.RGBA.Extent().Dim(0), f.RGBA.Extent().Dim(1)
	}
	if rank != 2 {
		return 0, 0, &FrameError{Reason: fmt.Sprintf("a frame is a rank-2 view, not rank %d", rank)}
	}
	return rows, cols, nil
}

// Pixels returns the frame as packed RGBA8, row by row: the field through Colormap, or
// the RGBA view's data. It brings the view's data to the host (View.Data).
func (f Frame) Pixels() ([]uint32, error) {
	if _, _, err := f.Size(); err != nil {
		return nil, err
	}
	if f.RGBA != nil {
		d, err := f.RGBA.Data()
		if err != nil {
			return nil, err
		}
		return append([]uint32(nil), d...), nil
	}
	d, err := f.Field.Data()
	if err != nil {
		return nil, err
	}
	return Colormap(d, f.Lo, f.Hi), nil
}

// Image returns the frame as an image.RGBA.
func (f Frame) Image() (*image.RGBA, error) {
	rows, cols, err := f.Size()
	if err != nil {
		return nil, err
	}
	px, err := f.Pixels()
	if err != nil {
		return nil, err
	}
	return Unpack(px, rows, cols)
}

// Unpack returns rows x cols pixels of packed RGBA8 as an image.RGBA.
func Unpack(px []uint32, rows, cols int) (*image.RGBA, error) {
	if rows < 1 || cols < 1 || len(px) != rows*cols {
		return nil, &FrameError{Reason: fmt.Sprintf("%d pixels are not %d rows of %d", len(px), rows, cols)}
	}
	img := image.NewRGBA(image.Rect(0, 0, cols, rows))
	for i, p := range px {
		img.Pix[4*i] = uint8(p)
		img.Pix[4*i+1] = uint8(p >> 8)
		img.Pix[4*i+2] = uint8(p >> 16)
		img.Pix[4*i+3] = uint8(p >> 24)
	}
	return img, nil
}

// Pack returns the packed RGBA8 value of a colour.
func Pack(r, g, b, a uint8) uint32 {
	return uint32(r) | uint32(g)<<8 | uint32(b)<<16 | uint32(a)<<24
}

// WritePNG writes img to the file path as a PNG.
func WritePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("goamp/present: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("goamp/present: encoding %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("goamp/present: %w", err)
	}
	return nil
}
