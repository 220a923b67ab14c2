package demos

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/vec"
)

// MandelbrotKernel computes the escape count of every pixel of a Rows x Cols window of the
// complex plane centred on (CenterX, CenterY), Scale apart, and its colour. It computes in
// fixed point (Q4.27: int32 values in units of 2^-27, see FixedMul), not in floating point:
// a GPU may fuse or not fuse a multiply and an add, and the iteration is chaotic, so the
// counts of float32 arithmetic differ between devices near the set's boundary; integer
// arithmetic is exact, and the counts are the same on every accelerator.
type MandelbrotKernel struct {
	// Iter receives each pixel's escape count: MaxIter for a point that did not escape.
	Iter *arrayview.View[int32]
	// RGBA receives each pixel's colour, packed RGBA8 (see Palette).
	RGBA *arrayview.View[uint32]
	// CenterX and CenterY are the window's centre, Scale the distance between pixels, in
	// units of 2^-27.
	CenterX, CenterY, Scale int32
	// MaxIter is the most iterations per pixel.
	MaxIter int32
	// Rows and Cols are the window's size in pixels.
	Rows, Cols int32
}

// FixedOne is 1 in the Mandelbrot kernel's fixed point (Q4.27).
const FixedOne = 1 << 27

// Each is the kernel: one pixel, i = (row, column), row 0 at the top.
func (k MandelbrotKernel) Each(i runtime.Index) {
	cx := k.CenterX + int32(i[1]-int(k.Cols)/2)*k.Scale
	cy := k.CenterY + int32(int(k.Rows)/2-i[0])*k.Scale
	x, y := int32(0), int32(0)
	n := int32(0)
	for n < k.MaxIter {
		// |x| and |y| at most 2 keep every value below 16, inside Q4.27.
		if x > 2*FixedOne || x < -2*FixedOne || y > 2*FixedOne || y < -2*FixedOne {
			break
		}
		xx, yy := FixedMul(x, x), FixedMul(y, y)
		if xx+yy > 4*FixedOne {
			break
		}
		y = 2*FixedMul(x, y) + cy
		x = xx - yy + cx
		n++
	}
	k.Iter.Set(i, n)
	k.RGBA.Set(i, Palette(n, k.MaxIter))
}

// FixedMul returns a*b in Q4.27 fixed point, rounded toward zero: the 64-bit product of
// |a| and |b| made of 16-bit halves (the kernel language has no 64-bit integers), shifted
// right by 27, with the sign of a*b. The result must fit in an int32 (|a*b| < 16).
func FixedMul(a, b int32) int32 {
	ua, ub := absU(a), absU(b)
	al, ah := ua&0xffff, ua>>16
	bl, bh := ub&0xffff, ub>>16
	lo := al * bl
	hi := ah * bh
	m1 := ah * bl
	mid := m1 + al*bh
	if mid < m1 { // the middle sum carried into bit 32
		hi += 1 << 16
	}
	hi += mid >> 16
	sum := lo + mid<<16
	if sum < lo {
		hi++
	}
	r := int32(hi<<5 | sum>>27)
	if (a < 0) != (b < 0) {
		return -r
	}
	return r
}

// absU returns |a| as a uint32.
func absU(a int32) uint32 {
	if a < 0 {
		return uint32(-a)
	}
	return uint32(a)
}

// Palette is the Mandelbrot demo's colour of escape count n out of maxIter, packed RGBA8
// (red in the low byte): opaque black inside the set, three triangle waves outside.
func Palette(n, maxIter int32) uint32 {
	if n >= maxIter {
		return 0xff000000
	}
	t := uint32(n) * 6
	r := tri(t + 64)
	g := tri(t + 160)
	b := tri(t + 320)
	return r | g<<8 | b<<16 | 0xff000000
}

// tri is a triangle wave of period 512 with values 0 to 255.
func tri(t uint32) uint32 {
	t = t % 512
	if t < 256 {
		return t
	}
	return 511 - t
}

// HeatKernel is one explicit step of the heat equation on a Rows x Cols grid whose
// outside is held at 0: Out = max(In + Alpha * laplacian(In), Src). Each tile loads its
// cells and a one-cell halo into tile_static memory, waits at a barrier, and computes the
// five-point stencil from tile_static memory.
type HeatKernel struct {
	// In is the field before the step.
	In *arrayview.ReadView[float32]
	// Src holds the heat sources: no cell is cooler than its source after a step.
	Src *arrayview.ReadView[float32]
	// Out receives the field after the step.
	Out *arrayview.View[float32]
	// Alpha is the diffusion number (stable up to 0.25).
	Alpha float32
	// Rows and Cols are the grid's size.
	Rows, Cols int32
}

// at reads In, 0 outside the grid.
func (k HeatKernel) at(r, c int) float32 {
	if r < 0 || r >= int(k.Rows) || c < 0 || c >= int(k.Cols) {
		return 0
	}
	return k.In.At(runtime.Idx(r, c))
}

// Tiled is the kernel.
func (k HeatKernel) Tiled(t runtime.TiledIndex) {
	th, tw := t.TileExtent.Dim(0), t.TileExtent.Dim(1)
	w := tw + 2
	halo := runtime.TileStatic[float32](t, (th+2)*(tw+2))
	// Each thread loads the cells of its linear rank, in rounds of the tile's size.
	for j := t.Local[0]*tw + t.Local[1]; j < (th+2)*w; j += th * tw {
		halo[j] = k.at(t.TileOrigin[0]+j/w-1, t.TileOrigin[1]+j%w-1)
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	c := (t.Local[0]+1)*w + t.Local[1] + 1
	u := halo[c]
	lap := (halo[c-w] + halo[c+w]) + (halo[c-1] + halo[c+1]) - 4*u
	k.Out.Set(t.Global, max(fmath.Fma(k.Alpha, lap, u), k.Src.At(t.Global)))
}

// NBodyKernel is one step of the gravitational n-body problem, all pairs, in the classic
// C++ AMP sample's shape: each thread owns a body; each tile stages tiles of bodies
// (position and mass as one vec.Float4) in tile_static memory behind a barrier, and every
// thread accumulates the accelerations from the staged bodies. Velocities are updated in
// place, positions into NewPos (semi-implicit Euler). The number of bodies must be a
// multiple of the tile's size, and the tile's size a multiple of 4 (the inner loop is
// unrolled four times).
type NBodyKernel struct {
	// Pos holds the bodies' positions (X, Y, Z) and masses (W).
	Pos *arrayview.ReadView[vec.Float4]
	// Vel holds the bodies' velocities (W unused), updated in place.
	Vel *arrayview.View[vec.Float4]
	// NewPos receives the positions after the step (masses copied).
	NewPos *arrayview.View[vec.Float4]
	// Dt is the time step; Eps2 the softening length squared.
	Dt, Eps2 float32
	// Bodies is the number of bodies.
	Bodies int32
}

// Tiled is the kernel.
func (k NBodyKernel) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	staged := runtime.TileStatic[vec.Float4](t, n)
	l := t.Local[0]
	p := k.Pos.At(t.Global)
	a := vec.F4(0, 0, 0, 0)
	for base := 0; base < int(k.Bodies); base += n {
		staged[l] = k.Pos.At(runtime.Idx(base + l))
		t.Barrier.WaitWithTileStaticMemoryFence()
		for j := 0; j < n; j += 4 {
			a = interact(a, p, staged[j], k.Eps2)
			a = interact(a, p, staged[j+1], k.Eps2)
			a = interact(a, p, staged[j+2], k.Eps2)
			a = interact(a, p, staged[j+3], k.Eps2)
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	v := k.Vel.At(t.Global)
	v = vec.F4(v.X+a.X*k.Dt, v.Y+a.Y*k.Dt, v.Z+a.Z*k.Dt, 0)
	k.Vel.Set(t.Global, v)
	k.NewPos.Set(t.Global, vec.F4(p.X+v.X*k.Dt, p.Y+v.Y*k.Dt, p.Z+v.Z*k.Dt, p.W))
}

// NBodySplitKernel is NBodyKernel with each body's work split among the rows of a 2-D
// tile, for GPUs with more threads than bodies: over the domain (rows, bodies) in tiles of
// (rows, T), the threads of row r sum the pulls of the r-th of rows equal parts of the
// bodies, staging T of them at a time in tile_static memory (the tile stages rows*T bodies
// per round), then row 0 adds the rows' partial sums and moves the body. Bodies/rows must
// be a multiple of T, and T a multiple of 4. Its fields are NBodyKernel's (convert one:
// NBodySplitKernel(k)).
type NBodySplitKernel NBodyKernel

// Tiled is the kernel.
func (k NBodySplitKernel) Tiled(t runtime.TiledIndex) {
	rows, tw := t.TileExtent.Dim(0), t.TileExtent.Dim(1)
	staged := runtime.TileStatic[vec.Float4](t, t.TileExtent.Size())
	part := runtime.TileStatic[vec.Float4](t, t.TileExtent.Size())
	r, l := t.Local[0], t.Local[1]
	body := runtime.Idx(t.Global[1])
	p := k.Pos.At(body)
	a := vec.F4(0, 0, 0, 0)
	chunk := int(k.Bodies) / rows
	row := r * tw
	for base := 0; base < chunk; base += tw {
		staged[row+l] = k.Pos.At(runtime.Idx(r*chunk + base + l))
		t.Barrier.WaitWithTileStaticMemoryFence()
		for j := row; j < row+tw; j += 4 {
			a = interact(a, p, staged[j], k.Eps2)
			a = interact(a, p, staged[j+1], k.Eps2)
			a = interact(a, p, staged[j+2], k.Eps2)
			a = interact(a, p, staged[j+3], k.Eps2)
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	part[row+l] = a
	t.Barrier.WaitWithTileStaticMemoryFence()
	if r == 0 {
		for i := 1; i < rows; i++ {
			a = a.Add(part[i*tw+l])
		}
		v := k.Vel.At(body)
		v = vec.F4(v.X+a.X*k.Dt, v.Y+a.Y*k.Dt, v.Z+a.Z*k.Dt, 0)
		k.Vel.Set(body, v)
		k.NewPos.Set(body, vec.F4(p.X+v.X*k.Dt, p.Y+v.Y*k.Dt, p.Z+v.Z*k.Dt, p.W))
	}
}

// interact returns a plus the acceleration of a body at p towards a body q of mass q.W,
// softened by eps2. It costs 3 subtractions, 6 multiply-adds (the distance with the
// softening, then the sum) and 3 multiplies, and a reciprocal square root: 12 instructions
// and an inversesqrt on a GPU, 18 operations counting a multiply-add as two; benchmarks
// count 20 per interaction (NBodyFlops), the convention of the CUDA and C++ AMP n-body
// samples. It is written with plain multiplies and adds, which the GPU compiler fuses
// (the results need not be exact: see TestNBody's tolerances) and the CPU computes fast;
// fmath.Fma would be exact but slow on the CPU.
func interact(a, p, q vec.Float4, eps2 float32) vec.Float4 {
	dx := q.X - p.X
	dy := q.Y - p.Y
	dz := q.Z - p.Z
	r2 := eps2 + dx*dx + dy*dy + dz*dz // three multiply-adds
	inv := fmath.Rsqrt(r2)
	s := (q.W * inv) * (inv * inv) // two independent multiplies, then one: a shorter chain
	return vec.F4(a.X+dx*s, a.Y+dy*s, a.Z+dz*s, 0)
}

// ClearKernel sets every element of Img to 0.
type ClearKernel struct {
	// Img is the image to clear.
	Img *arrayview.View[uint32]
}

// Each is the kernel.
func (k ClearKernel) Each(i runtime.Index) { k.Img.Set(i, 0) }

// SplatKernel counts the bodies that fall in each pixel of a Rows x Cols image of the
// plane z = 0 seen from above: the pixel of (x, y) is row floor((Y0 - y) * Scale), column
// floor((x - X0) * Scale). Bodies outside the image are not counted.
type SplatKernel struct {
	// Pos holds the bodies' positions.
	Pos *arrayview.ReadView[vec.Float4]
	// Count receives the number of bodies in each pixel, atomically.
	Count *arrayview.View[uint32]
	// X0 and Y0 are the image's top-left corner; Scale is pixels per unit of length.
	X0, Y0, Scale float32
	// Rows and Cols are the image's size.
	Rows, Cols int32
}

// Each is the kernel: one body.
func (k SplatKernel) Each(i runtime.Index) {
	p := k.Pos.At(i)
	fc := fmath.Floor((p.X - k.X0) * k.Scale)
	fr := fmath.Floor((k.Y0 - p.Y) * k.Scale)
	if fc >= 0 && fc < float32(k.Cols) && fr >= 0 && fr < float32(k.Rows) {
		k.Count.AtomicAdd(runtime.Idx(int(fr), int(fc)), 1)
	}
}

// ToneKernel turns body counts into packed RGBA8 (see Glow).
type ToneKernel struct {
	// Count holds the bodies in each pixel.
	Count *arrayview.ReadView[uint32]
	// RGBA receives each pixel's colour.
	RGBA *arrayview.View[uint32]
}

// Each is the kernel.
func (k ToneKernel) Each(i runtime.Index) { k.RGBA.Set(i, Glow(k.Count.At(i))) }

// Glow is the n-body demo's colour of a pixel holding n bodies, packed RGBA8 (red in the
// low byte): black for none, then brighter and whiter with more.
func Glow(n uint32) uint32 {
	if n == 0 {
		return 0xff000000
	}
	r := min(255, 96+n*40)
	g := min(255, 48+n*24)
	b := min(255, 24+n*12)
	return r | g<<8 | b<<16 | 0xff000000
}
