package present

import (
	"cmp"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// TestColor checks the colormap's ends, its clamping, NaN, a reversed range, and that its
// stops come out exactly at their places.
func TestColor(t *testing.T) {
	first, last := Pack(0, 0, 4, 255), Pack(252, 255, 164, 255)
	for _, c := range []struct {
		v, lo, hi float32
		want      uint32
	}{
		{0, 0, 1, first},
		{1, 0, 1, last},
		{-3, 0, 1, first},
		{7, 0, 1, last},
		{float32(math.NaN()), 0, 1, first},
		{float32(math.Inf(1)), 0, 1, last},
		{-2, -2, -1, first},
		{0.5, 1, 0, first},
		{1.5, 1, 0, last},
		{3.0 / 7, 0, 3, Pack(40, 11, 84, 255)},          // the second stop
		{10 + 6.0/7*2, 10, 12, Pack(250, 193, 39, 255)}, // the seventh
	} {
		assert.Equal(t, c.want, Color(c.v, c.lo, c.hi), "Color(%v, %v, %v)", c.v, c.lo, c.hi)
	}
}

// TestColormapBrightens checks that random values map to colours whose brightness (the sum
// of the channels) never falls as the value rises, but for rounding (each channel is
// rounded to nearest, so a sum may be off by 1.5 either way: 3 between two colours), and
// that every colour is opaque.
func TestColormapBrightens(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	lo, hi := -1+r.Float32(), 1+r.Float32()
	field := make([]float32, 1000)
	for i := range field {
		field[i] = lo - 0.5 + (hi-lo+1)*r.Float32()
	}
	px := Colormap(field, lo, hi)
	require.Len(t, px, len(field))
	bright := func(p uint32) int { return int(p&0xff) + int(p>>8&0xff) + int(p>>16&0xff) }
	order := make([]int, len(field))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return cmp.Compare(field[i], field[j]) })
	for k, i := range order {
		assert.Equal(t, uint32(0xff), px[i]>>24, "alpha of %v", field[i])
		if k > 0 {
			p := order[k-1]
			require.LessOrEqual(t, bright(px[p]), bright(px[i])+3, "%v and %v", field[p], field[i])
		}
	}
	assert.Less(t, bright(px[order[0]]), bright(px[order[len(order)-1]]), "the lowest value is darker than the highest")
}

// TestFrameImagePNG makes a random RGBA frame and a random field frame on the host, writes
// each as a PNG and reads it back pixel for pixel.
func TestFrameImagePNG(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	rows, cols := 1+r.IntN(30), 1+r.IntN(30)
	rgba := make([]uint32, rows*cols)
	field := make([]float32, rows*cols)
	for i := range rgba {
		rgba[i] = r.Uint32()
		field[i] = r.Float32()
	}
	want := map[string][]uint32{"rgba": rgba, "field": Colormap(field, 0.25, 0.75)}
	frames := map[string]Frame{
		"rgba":  {RGBA: arrayview.MustNew(runtime.Ext(rows, cols), append([]uint32(nil), rgba...))},
		"field": {Field: arrayview.MustNew(runtime.Ext(rows, cols), field), Lo: 0.25, Hi: 0.75},
	}
	for name, f := range frames {
		t.Run(name, func(t *testing.T) {
			img, err := f.Image()
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), name+".png")
			require.NoError(t, WritePNG(path, img))
			file, err := os.Open(path)
			require.NoError(t, err)
			defer file.Close()
			back, err := png.Decode(file)
			require.NoError(t, err)
			require.Equal(t, [2]int{cols, rows}, [2]int{back.Bounds().Dx(), back.Bounds().Dy()})
			for i, p := range want[name] {
				cr, cg, cb, ca := back.At(i%cols, i/cols).RGBA()
				// Non-premultiplied RGBA8 survives the PNG round trip only where alpha is 255.
				if p>>24 == 255 {
					require.Equal(t, p, Pack(uint8(cr>>8), uint8(cg>>8), uint8(cb>>8), uint8(ca>>8)), "pixel %d", i)
				}
			}
			assert.Equal(t, img.Pix[:4], []uint8{uint8(want[name][0]), uint8(want[name][0] >> 8), uint8(want[name][0] >> 16), uint8(want[name][0] >> 24)})
		})
	}
}

// TestFrameErrors checks the frames that cannot be shown.
func TestFrameErrors(t *testing.T) {
	v1 := arrayview.MustNew(runtime.Ext(6), make([]uint32, 6))
	f2 := arrayview.MustNew(runtime.Ext(2, 3), make([]float32, 6))
	for _, c := range []struct {
		f    Frame
		want string
	}{
		{Frame{}, "goamp/present: a frame has exactly one of Field and RGBA (Field set: false, RGBA set: false)"},
		{Frame{RGBA: v1, Field: f2}, "goamp/present: a frame has exactly one of Field and RGBA (Field set: true, RGBA set: true)"},
		{Frame{RGBA: v1}, "goamp/present: a frame is a rank-2 view, not rank 1"},
	} {
		_, err := c.f.Image()
		var fe *FrameError
		require.ErrorAs(t, err, &fe)
		assert.EqualError(t, err, c.want)
	}
	_, err := Unpack(make([]uint32, 5), 2, 3)
	assert.EqualError(t, err, "goamp/present: 5 pixels are not 2 rows of 3")
	assert.Error(t, WritePNG(filepath.Join(t.TempDir(), "no", "such", "dir.png"), nil))
}
