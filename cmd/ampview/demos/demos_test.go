package demos

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/vec"
)

func TestMain(m *testing.M) { amptest.Main(m) }

// TestMandelbrot runs the zoom for a random number of frames at a random size on every
// accelerator and compares the last frame's escape counts and colours exactly with a plain
// Go loop in 64-bit fixed point (the kernel's arithmetic is integer: see MandelbrotKernel).
func TestMandelbrot(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	rows, cols, frames := 8+r.IntN(40), 8+r.IntN(40), 1+r.IntN(60)
	t.Logf("%dx%d, %d frames", rows, cols, frames)
	wantIter := refMandelbrot(frames-1, rows, cols)
	wantRGBA := make([]uint32, len(wantIter))
	for i, n := range wantIter {
		wantRGBA[i] = Palette(n, MandelbrotMaxIter)
	}
	for _, av := range amptest.Views(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			m, err := NewMandelbrot(Config{Rows: rows, Cols: cols})
			require.NoError(t, err)
			for range frames {
				require.NoError(t, m.Step(av))
			}
			assert.Equal(t, frames, m.Frames())
			iter, err := m.Iterations().Data()
			require.NoError(t, err)
			assert.Equal(t, wantIter, iter, "escape counts")
			px, err := m.Frame().Pixels()
			require.NoError(t, err)
			assert.Equal(t, wantRGBA, px, "colours")
			require.NoError(t, m.Close())
		})
	}
}

// refMandelbrot is frame f's escape counts, computed in Go with 64-bit products.
func refMandelbrot(f, rows, cols int) []int32 {
	const one = 1 << 27
	fx := func(v float64) int64 { return int64(math.Round(v * one)) }
	mul := func(a, b int64) int64 { // rounded toward zero, as the kernel's FixedMul
		p := a * b
		if p < 0 {
			return -(-p >> 27)
		}
		return p >> 27
	}
	scale := max(1, fx(MandelbrotWidth*math.Pow(MandelbrotZoom, float64(f))/float64(cols)))
	out := make([]int32, rows*cols)
	for row := range rows {
		for col := range cols {
			cx := fx(MandelbrotX) + int64(col-cols/2)*scale
			cy := fx(MandelbrotY) + int64(rows/2-row)*scale
			var x, y int64
			n := int32(0)
			for ; n < MandelbrotMaxIter; n++ {
				xx, yy := mul(x, x), mul(y, y)
				if xx+yy > 4*one {
					break
				}
				x, y = xx-yy+cx, 2*mul(x, y)+cy
			}
			out[row*cols+col] = n
		}
	}
	return out
}

// TestFixedMul compares FixedMul with 64-bit products on random operands whose product
// fits (|a*b| < 16), and on the edges.
func TestFixedMul(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 5))
	cases := [][2]int32{{0, 0}, {FixedOne, FixedOne}, {-FixedOne, 3 * FixedOne}, {4*FixedOne - 1, -4*FixedOne + 1}, {1, 1}, {-1, 1}}
	for range 10000 {
		a := r.Int32N(8*FixedOne) - 4*FixedOne
		b := r.Int32N(8*FixedOne) - 4*FixedOne
		cases = append(cases, [2]int32{a, b})
	}
	for _, c := range cases {
		p := int64(c[0]) * int64(c[1])
		want := p >> 27
		if p < 0 {
			want = -(-p >> 27)
		}
		require.Equal(t, int32(want), FixedMul(c[0], c[1]), "%d * %d", c[0], c[1])
	}
}

// heatTolerance is how far the heat field may lie from the Go reference after a step, per
// step: a step's result is one rounding (the fused multiply-add) of sums that each backend
// rounds the same way when its adds are correctly rounded, as Vulkan requires; a device may
// still compute fma as a multiply and an add (two roundings), or flush tiny values, which
// costs at most a few ulps of values below 1 (2^-24 each). Diffusion with Alpha <= 0.25
// averages with non-negative weights that sum to 1, so errors from earlier steps do not
// grow: after s steps the difference is at most about s * 4 * 2^-24 < s * 2.5e-7.
const heatTolerance = 2.5e-7

// TestHeat runs the heat demo from a random field with random sources for a random number
// of steps, in tiles of 4, 8 and 16, on every accelerator, and compares the field with a
// plain Go stencil within heatTolerance per step.
func TestHeat(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 1))
	for _, tile := range []int{4, 8, 16} {
		t.Run(fmt.Sprintf("tile%d", tile), func(t *testing.T) {
			rows, cols, steps := tile*(1+r.IntN(4)), tile*(1+r.IntN(4)), 1+r.IntN(12)
			u0 := make([]float32, rows*cols)
			for i := range u0 {
				u0[i] = r.Float32()
			}
			src := HeatSources(rows, cols, r)
			want := refHeat(rows, cols, steps, u0, src)
			for _, av := range amptest.Views(t) {
				t.Run(av.Accelerator().Path(), func(t *testing.T) {
					h, err := NewHeatFrom(rows, cols, tile, append([]float32(nil), u0...), src)
					require.NoError(t, err)
					for range steps {
						require.NoError(t, h.Step(av))
					}
					f := h.Frame()
					got, err := f.Field.Data()
					require.NoError(t, err)
					amptest.Near[float32](heatTolerance*float64(steps), 0)(t, want, got)
					assert.Equal(t, [2]float32{0, 1}, [2]float32{f.Lo, f.Hi})
					require.NoError(t, h.Close())
				})
			}
		})
	}
}

// refHeat is the heat demo's field after steps steps from u, in plain Go.
func refHeat(rows, cols, steps int, u, src []float32) []float32 {
	at := func(u []float32, r, c int) float32 {
		if r < 0 || r >= rows || c < 0 || c >= cols {
			return 0
		}
		return u[r*cols+c]
	}
	u = append([]float32(nil), u...)
	next := make([]float32, len(u))
	for range steps {
		for r := range rows {
			for c := range cols {
				v := u[r*cols+c]
				lap := (at(u, r-1, c) + at(u, r+1, c)) + (at(u, r, c-1) + at(u, r, c+1)) - 4*v
				next[r*cols+c] = max(fmath.Fma(HeatAlpha, lap, v), src[r*cols+c])
			}
		}
		u, next = next, u
	}
	return u
}

// nbodyPosTolerance and nbodyVelTolerance bound how far positions and velocities may lie
// from the float64 Go reference after nbodySteps steps. Bodies' masses sum to under 1 and
// the softening is 0.1, so one body's pull is at most 0.385/Eps2 times its mass and the
// pulls on a body sum (in absolute value) to at most 38.5. In float32 each interaction
// costs a few ulps (inversesqrt: 2 ulp, then three multiplies) and the running sum one
// rounding per term, so an acceleration is off by at most about (8 + N) * 2^-24 * 38.5:
// 1.3e-3 for N = 512; a velocity by Dt times that (1.3e-5) plus its own rounding, a
// position by Dt^2 times that plus its rounding (|x| < 2: 1.2e-7). A second step adds its
// own error again and the first step's carried through the forces (their gradient is at
// most about 0.385*3/Eps^3 ~ 1200 per unit of mass, so Dt * 1200 * 1.2e-7 ~ 1.4e-6 more on a
// velocity).
const (
	nbodySteps        = 2
	nbodyVelTolerance = 4e-5
	nbodyPosTolerance = 1e-6
)

// TestNBody runs the n-body demo for nbodySteps steps from a random disc, in tiles of 4,
// 64 and 256 bodies, and split among 4 rows of 16 and 2 rows of 8 (NBodySplitKernel), on
// every accelerator, and compares the positions and velocities with
// a float64 Go reference (see the tolerances), the pixel counts exactly with a Go splat of
// the positions the accelerator computed, and the colours exactly with Glow of the counts.
func TestNBody(t *testing.T) {
	seed := amptest.Seed(t)
	const rows, cols = 24, 40
	for i, c := range []struct{ tile, bodies, split int }{{4, 36, 1}, {64, 256, 1}, {256, 512, 1}, {16, 256, 4}, {8, 48, 2}} {
		t.Run(fmt.Sprintf("tile%d_split%d", c.tile, c.split), func(t *testing.T) {
			pos0, vel0 := Disc(c.bodies, seed+uint64(i))
			wantPos, wantVel := refNBody(pos0, vel0, nbodySteps)
			for _, av := range amptest.Views(t) {
				t.Run(av.Accelerator().Path(), func(t *testing.T) {
					b, err := NewNBodySplit(rows, cols, c.tile, c.split, clone(pos0), clone(vel0))
					require.NoError(t, err)
					for range nbodySteps {
						require.NoError(t, b.Step(av))
					}
					checkNBody(t, b, wantPos, wantVel, rows, cols)
					require.NoError(t, b.Close())
				})
			}
		})
	}
}

// checkNBody compares b's bodies with the reference and its frame with a Go splat of its
// own bodies.
func checkNBody(t *testing.T, b *NBody, wantPos, wantVel []vec.Float4, rows, cols int) {
	pos, err := b.Bodies().Data()
	require.NoError(t, err)
	vel, err := b.Velocities().Data()
	require.NoError(t, err)
	amptest.Near[float32](nbodyPosTolerance, 0)(t, flat(wantPos), flat(pos))
	amptest.Near[float32](nbodyVelTolerance, 0)(t, flat(wantVel), flat(vel))
	wantCount := refSplat(pos, rows, cols)
	count, err := b.Counts().Data()
	require.NoError(t, err)
	assert.Equal(t, wantCount, count, "bodies per pixel")
	px, err := b.Frame().Pixels()
	require.NoError(t, err)
	for i, n := range wantCount {
		wantCount[i] = Glow(n)
	}
	assert.Equal(t, wantCount, px, "colours")
	total := 0
	for _, n := range count {
		total += int(n)
	}
	assert.Positive(t, total, "some bodies are in the picture")
}

// refNBody is nbody's bodies after steps steps, in float64.
func refNBody(pos0, vel0 []vec.Float4, steps int) (pos, vel []vec.Float4) {
	pos, vel = clone(pos0), clone(vel0)
	for range steps {
		next := make([]vec.Float4, len(pos))
		for i, p := range pos {
			var a [3]float64
			for _, q := range pos {
				d := [3]float64{float64(q.X) - float64(p.X), float64(q.Y) - float64(p.Y), float64(q.Z) - float64(p.Z)}
				r2 := d[0]*d[0] + d[1]*d[1] + d[2]*d[2] + NBodyEps2
				s := float64(q.W) / (r2 * math.Sqrt(r2))
				for k := range a {
					a[k] += d[k] * s
				}
			}
			v := vel[i]
			vx, vy, vz := float64(v.X)+a[0]*NBodyDt, float64(v.Y)+a[1]*NBodyDt, float64(v.Z)+a[2]*NBodyDt
			vel[i] = vec.F4(float32(vx), float32(vy), float32(vz), 0)
			next[i] = vec.F4(float32(float64(p.X)+vx*NBodyDt), float32(float64(p.Y)+vy*NBodyDt), float32(float64(p.Z)+vz*NBodyDt), p.W)
		}
		pos = next
	}
	return pos, vel
}

// refSplat counts the bodies at pos in each pixel of a rows x cols frame, in Go.
func refSplat(pos []vec.Float4, rows, cols int) []uint32 {
	scale := float32(float64(rows) / NBodyFieldHeight)
	x0, y0 := -float32(cols)/(2*scale), float32(NBodyFieldHeight/2)
	out := make([]uint32, rows*cols)
	for _, p := range pos {
		c := math.Floor(float64((p.X - x0) * scale))
		r := math.Floor(float64((y0 - p.Y) * scale))
		if c >= 0 && c < float64(cols) && r >= 0 && r < float64(rows) {
			out[int(r)*cols+int(c)]++
		}
	}
	return out
}

func clone(v []vec.Float4) []vec.Float4 { return append([]vec.Float4(nil), v...) }

// flat returns the components of v, four per vector.
func flat(v []vec.Float4) []float32 {
	out := make([]float32, 0, 4*len(v))
	for _, x := range v {
		out = append(out, x.X, x.Y, x.Z, x.W)
	}
	return out
}

// TestConfigErrors checks that sizes a demo cannot run with are *ConfigErrors naming the
// numbers, and an unknown name an *UnknownError listing the demos.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"mandelbrot", Config{Rows: 0, Cols: 8}, "a 0x8 frame"},
		{"heat", Config{Rows: 40, Cols: 32}, "a 40x32 frame: rows and columns must be positive multiples of the tile (16x16)"},
		{"nbody", Config{Rows: 8, Cols: 8, Bodies: 100}, "100 bodies with 100 velocities in tiles of 256"},
		{"nbody", Config{Rows: 8, Cols: 8, Bodies: 12, Tile: 6}, "in tiles of 6, split 1"},
		{"nbody", Config{Rows: 8, Cols: 8, Bodies: 48, Tile: 16, Split: 2}, "48 bodies with 48 velocities in tiles of 16, split 2"},
	} {
		_, err := New(c.name, c.cfg)
		var ce *ConfigError
		require.ErrorAs(t, err, &ce, c.name)
		assert.Contains(t, err.Error(), c.want)
		assert.Equal(t, c.name, ce.Demo)
	}
	_, err := New("julia", Config{Rows: 8, Cols: 8})
	var ue *UnknownError
	require.True(t, errors.As(err, &ue))
	assert.Equal(t, `goamp/ampview/demos: no demo "julia"; demos: heat, mandelbrot, nbody`, err.Error())
}
