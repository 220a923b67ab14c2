package main

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/cmd/ampview/demos"
)

func TestMain(m *testing.M) {
	if os.Getenv(windowChildEnv) != "" {
		os.Exit(windowChild()) // TestWindow's child, on the main thread (see main.go's init)
	}
	amptest.Main(m)
}

// TestHeadless runs every demo headless (-frames N -png FILE) on every accelerator with a
// random seed and frame count, and checks that the PNG holds exactly the frame that the
// demo makes when run directly on the same accelerator (package demos checks the frames
// themselves against Go references).
func TestHeadless(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	for _, av := range amptest.Views(t) {
		path := av.Accelerator().Path()
		for _, name := range demos.Names() {
			t.Run(path+"/"+name, func(t *testing.T) {
				o := options{accelerator: path, demo: name, frames: 1 + r.IntN(3), rows: 32, cols: 48,
					png: filepath.Join(t.TempDir(), name+".png"),
					cfg: demos.Config{Bodies: 512, Tile: 16, Seed: r.Uint64()}}
				var out bytes.Buffer
				require.NoError(t, run(&out, o))
				assert.Contains(t, out.String(), name+" on "+path)
				assert.Contains(t, out.String(), "wrote "+o.png)
				got := readPNG(t, o.png)

				cfg := o.cfg
				cfg.Rows, cfg.Cols = o.rows, o.cols
				d, err := demos.New(name, cfg)
				require.NoError(t, err)
				for range o.frames {
					require.NoError(t, d.Step(av))
				}
				want, err := d.Frame().Image()
				require.NoError(t, err)
				require.NoError(t, d.Close())
				assert.Equal(t, want.Rect, got.Bounds())
				assert.Equal(t, want.Pix, toRGBA(got).Pix, "the PNG's pixels")
			})
		}
	}
}

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// toRGBA returns img as an *image.RGBA (every demo's pixels are opaque, so nothing is lost).
func toRGBA(img image.Image) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// TestErrors checks what a headless run refuses: no -png, no frames,
// an unknown demo, an unknown accelerator, a size the demo cannot take.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	ok := options{demo: "heat", frames: 1, rows: 16, cols: 16, png: filepath.Join(dir, "x.png"), accelerator: "cpu"}
	for _, c := range []struct {
		name string
		edit func(o *options)
		want string
	}{
		{"no png", func(o *options) { o.png = "" }, ErrNoPNG.Error()},
		{"no frames", func(o *options) { o.frames = 0 }, "-frames 0: run at least one frame"},
		{"unknown demo", func(o *options) { o.demo = "julia" }, `no demo "julia"`},
		{"unknown accelerator", func(o *options) { o.accelerator = "vulkan:99" }, "vulkan:99"},
		{"bad size", func(o *options) { o.rows = 20 }, "a 20x16 frame"},
		{"bad png path", func(o *options) { o.png = filepath.Join(dir, "no", "dir.png") }, "no such file or directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := ok
			c.edit(&o)
			err := run(&bytes.Buffer{}, o)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	assert.Contains(t, ErrNoPNG.Error(), "-png")
}
