// Package corpus holds kernels that exercise the kernel language: the translator's tests
// compare their GLSL with golden files and run each on every accelerator against its CPU
// run.
package corpus

//go:generate go run github.com/goamp/goamp/cmd/ampgen -checked

import (
	"math"
	"math/bits"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/vec"
)

// Ints is one element of Arith's output: Go's integer semantics, operation by operation.
type Ints struct {
	Quo, Rem, Shl, Shr, UShr, AndNot, Xor, Neg int32
	FromF                                      int32
	UQuo, URem                                 uint32
	ToF                                        float32
}

// Arith checks integer division and remainder with negative operands, shifts by counts
// of 32 and more, &^, unary ^ and -, and conversions.
type Arith struct {
	A, B  *arrayview.ReadView[int32]
	F     *arrayview.ReadView[float32]
	Out   *arrayview.View[Ints]
	Shift uint32
}

// Each is the kernel.
func (k Arith) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	var r Ints
	r.Quo = a / b
	r.Rem = a % b
	s := uint32(b&63) + k.Shift
	r.Shl = a << s
	r.Shr = a >> s
	r.UShr = int32(uint32(a) >> s)
	r.AndNot = a &^ b
	r.Xor = ^a ^ b
	r.Neg = -a
	r.FromF = int32(k.F.At(i))
	ua, ub := uint32(a), uint32(b)|1
	r.UQuo, r.URem = ua/ub, ua%ub
	r.ToF = float32(a) * 0.25 // division is not correctly rounded on GPUs (2.5 ULP)
	k.Out.Set(i, r)
}

// Control checks loops with break and continue, a switch with and without a tag, an
// early return and nested ifs.
type Control struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
	N   int32
}

// Each is the kernel.
func (k Control) Each(i runtime.Index) {
	x := k.In.At(i)
	if x < -1000000 {
		k.Out.Set(i, -1)
		return
	}
	acc := int32(0)
	for j := int32(0); j < k.N; j++ {
		if j%3 == 0 {
			continue
		}
		if acc > 1000 {
			break
		}
		acc += j * (x & 7)
	}
	switch x & 3 {
	case 0:
		acc += 1
	case 1, 2:
		acc *= 2
	default:
		acc -= 5
	}
	switch {
	case x < 0:
		acc = -acc
	case x > 100:
		acc ^= 0x55
	}
	for range 2 {
		acc++
	}
	n := 0
	for n < 5 {
		n += 2
	}
	k.Out.Set(i, acc+int32(n))
}

// Pair is a small struct used as a local.
type Pair struct {
	Lo, Hi float32
}

// order returns p with Lo <= Hi.
func order(p Pair) Pair {
	if p.Lo > p.Hi {
		p.Lo, p.Hi = p.Hi, p.Lo
	}
	return p
}

// poly evaluates c[0] + c[1]x + c[2]x^2 + c[3]x^3.
func poly(c [4]float32, x float32) float32 {
	r := float32(0)
	for j := 3; j >= 0; j-- {
		r = r*x + c[j]
	}
	return r
}

// Funcs checks package functions, kernel methods, struct and array locals and
// multiple assignment.
type Funcs struct {
	X, Y *arrayview.ReadView[float32]
	Out  *arrayview.View[Pair]
	Bias float32
}

// shifted is a method of the kernel: it may read the kernel's fields.
func (k Funcs) shifted(v float32) float32 { return v + k.Bias }

// Each is the kernel.
func (k Funcs) Each(i runtime.Index) {
	p := order(Pair{Lo: k.X.At(i), Hi: k.Y.At(i)})
	c := [4]float32{1, 0.5, 0.25, 0.125}
	c[3] = k.shifted(c[3])
	p.Hi = poly(c, p.Hi)
	a, b := p.Lo, p.Hi
	a, b = b, a
	k.Out.Set(i, Pair{a, b})
}

// Math applies package fmath's functions, and the float32 bit conversions of package math.
type Math struct {
	X   *arrayview.ReadView[float32]
	Out *arrayview.View[[8]float32]
}

// Each is the kernel.
func (k Math) Each(i runtime.Index) {
	x := k.X.At(i)
	ax := fmath.Abs(x) + 0.5
	var r [8]float32
	r[0] = fmath.Sqrt(ax)
	r[1] = fmath.Exp(fmath.Clamp(x, -10, 10))
	r[2] = fmath.Log(ax)
	r[3] = fmath.Sin(fmath.Mod(x, 6.2831855))
	r[4] = fmath.Floor(x) + fmath.Round(x*3)
	r[5] = fmath.Pow(ax, 1.5)
	r[6] = fmath.Atan2(x, 1.25) + fmath.Tanh(x)
	r[7] = math.Float32frombits(math.Float32bits(x) ^ 0x80000000)
	k.Out.Set(i, r)
}

// Index3 writes a rank-3 domain's indices.
type Index3 struct {
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k Index3) Each(i runtime.Index) {
	k.Out.Set(i, int32(i[0]*10000+i[1]*100+i[2]))
}

// Number is the element type of the generic kernel.
type Number interface {
	~int32 | ~uint32 | ~float32
}

// Axpy is generic: ampgen translates one GPU body per type of Number.
type Axpy[T Number] struct {
	X     *arrayview.ReadView[T]
	Y     *arrayview.View[T]
	Alpha T
}

// Each is the kernel.
func (k Axpy[T]) Each(i runtime.Index) {
	k.Y.Set(i, k.Alpha*k.X.At(i)+k.Y.At(i))
}

// HiddenRank adds 1 to In into Out at the thread's index, which reaches the views
// through a function: ampgen does not follow an index's rank through calls, so a
// domain of higher rank than the views' is not refused at dispatch, and only the CPU
// and a bounds-checked build find such an index outside the views.
type HiddenRank struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[float32]
}

// Each is the kernel.
func (k HiddenRank) Each(i runtime.Index) {
	j := same(i)
	k.Out.Set(j, k.In.At(j)+1)
}

// same returns i.
func same(i runtime.Index) runtime.Index { return i }

// Vectors uses package vec.
type Vectors struct {
	A, B *arrayview.ReadView[vec.Float4]
	P    *arrayview.ReadView[vec.Float3]
	Out  *arrayview.View[vec.Float4]
	Dots *arrayview.View[float32]
}

// Each is the kernel.
func (k Vectors) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	s := a.Add(b).Scale(0.5).Sub(vec.F4(1, 2, 3, 4))
	s.W = s.X * s.Y
	k.Out.Set(i, s.Max(a))
	p := k.P.At(i)
	k.Dots.Set(i, a.Dot(b)+p.Dot(p))
}

// TileSum sums each tile of In in tile_static memory, a tree of barriers, and adds the
// tile's sum to Total[0] with an atomic; it also counts values above zero per tile.
type TileSum struct {
	In    *arrayview.ReadView[int32]
	Sums  *arrayview.View[int32]
	Total *arrayview.View[int32]
}

// Tiled is the kernel.
func (k TileSum) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	pos := runtime.TileStatic[uint32](t, 1)
	l := t.Local[0]
	v := k.In.At(t.Global)
	s[l] = v
	if l == 0 {
		pos[0] = 0
	}
	t.Barrier.Wait()
	if v > 0 {
		runtime.AtomicAdd(pos, 0, 1)
	}
	for stride := n / 2; stride > 0; stride /= 2 {
		if l < stride {
			s[l] += s[l+stride]
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	if l == 0 {
		k.Sums.Set(runtime.Idx(t.Tile[0]*2), s[0])
		k.Sums.Set(runtime.Idx(t.Tile[0]*2+1), int32(pos[0]))
		k.Total.AtomicAdd(runtime.Idx(0), s[0])
	}
}

// Stencil averages each point with its four neighbours (clamped at the edges), loading
// the tile and its halo into tile_static memory first.
type Stencil struct {
	In         *arrayview.ReadView[float32]
	Out        *arrayview.View[float32]
	Rows, Cols int32
}

// at reads In clamped to the domain.
func (k Stencil) at(r, c int) float32 {
	r = max(0, min(r, int(k.Rows)-1))
	c = max(0, min(c, int(k.Cols)-1))
	return k.In.At(runtime.Idx(r, c))
}

// Tiled is the kernel.
func (k Stencil) Tiled(t runtime.TiledIndex) {
	th, tw := t.TileExtent.Dim(0), t.TileExtent.Dim(1)
	w := tw + 2
	halo := runtime.TileStatic[float32](t, (th+2)*(tw+2))
	// Each thread loads the halo cells of its linear rank, in rounds of the tile's size.
	for j := t.Local[0]*tw + t.Local[1]; j < (th+2)*w; j += th * tw {
		halo[j] = k.at(t.TileOrigin[0]+j/w-1, t.TileOrigin[1]+j%w-1)
	}
	t.Barrier.Wait()
	r, c := t.Local[0]+1, t.Local[1]+1
	sum := halo[r*w+c] + halo[(r-1)*w+c] + halo[(r+1)*w+c] + halo[r*w+c-1] + halo[r*w+c+1]
	k.Out.Set(t.Global, sum/5)
}

// FloatAdd accumulates float32 values with atomics on a view and on tile_static memory.
type FloatAdd struct {
	In   *arrayview.ReadView[float32]
	Sum  *arrayview.View[float32]
	Maxi *arrayview.View[uint32]
}

// Tiled is the kernel.
func (k FloatAdd) Tiled(t runtime.TiledIndex) {
	acc := runtime.TileStatic[float32](t, 1)
	if t.Local[0] == 0 {
		acc[0] = 0
	}
	t.Barrier.Wait()
	v := k.In.At(t.Global)
	runtime.AtomicAdd(acc, 0, v)
	k.Maxi.AtomicMax(runtime.Idx(0), math.Float32bits(v)&0x7fffffff)
	t.Barrier.Wait()
	if t.Local[0] == 0 {
		k.Sum.AtomicAdd(runtime.Idx(0), acc[0])
	}
}

// Sample is an element type named like the view field that holds it.
type Sample struct {
	Value, Where int32
}

// Named is tiled but uses no tile_static memory, no tile extent and no barrier; its view
// field has its element type's name.
type Named struct {
	Sample *arrayview.View[Sample]
}

// Tiled is the kernel.
func (k Named) Tiled(t runtime.TiledIndex) {
	s := k.Sample.At(t.Global)
	s.Where = int32(t.Tile[0]*1000 + t.Local[0])
	k.Sample.Set(t.Global, s)
}

// Scaled is generic and calls a method of its own, which gets the instance's type.
type Scaled[T ~int32 | ~float32] struct {
	X   *arrayview.ReadView[T]
	Out *arrayview.View[T]
	By  T
}

// get reads X at i, scaled.
func (k Scaled[T]) get(i runtime.Index) T { return k.X.At(i) * k.By }

// Each is the kernel.
func (k Scaled[T]) Each(i runtime.Index) { k.Out.Set(i, k.get(i)+1) }

// Carried keeps per-thread values across a loop of barriers: a struct updated by a
// function, and an array whose element the thread chooses by a value it read
// (hist[y&3]++: the write is the thread's own although the value written, 1, is not).
type Carried struct {
	In     *arrayview.ReadView[int32]
	Out    *arrayview.View[int32]
	Rounds int32
}

// CarriedAcc is the struct Carried carries.
type CarriedAcc struct {
	Sum, Max int32
}

// carriedAdd adds v to a.
func carriedAdd(a CarriedAcc, v int32) CarriedAcc {
	a.Sum += v
	a.Max = max(a.Max, v)
	return a
}

// Tiled is the kernel.
func (k Carried) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	buf := runtime.TileStatic[int32](t, n)
	l := t.Local[0]
	var a CarriedAcc
	var hist [4]int32
	x := k.In.At(t.Global)
	step := 1
	for r := int32(0); r < k.Rounds; r++ {
		buf[l] = x
		t.Barrier.Wait()
		y := buf[(l+step)%n]
		a = carriedAdd(a, y)
		hist[y&3]++
		t.Barrier.Wait()
		if y > x {
			x = y - x
		} else {
			x = x - y + r
		}
		step = step*3%n + 1
	}
	k.Out.Set(t.Global, a.Sum*7+a.Max+hist[0]*1000+hist[1]*100+hist[2]*10+hist[3]+x)
}

// RangeArr ranges over a per-thread array with barriers in the loop: the trip count is the
// array's length, the same in every thread, though the elements differ.
type RangeArr struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k RangeArr) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	buf := runtime.TileStatic[int32](t, n)
	l := t.Local[0]
	x := k.In.At(t.Global)
	arr := [4]int32{x, -x, x >> 2, 7}
	var acc int32
	for _, v := range arr {
		buf[n-1-l] = v ^ acc
		t.Barrier.Wait()
		acc = acc*5 + buf[l]
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, acc)
}

// RangeLen loops over a per-thread array's indices around barriers, len(arr) being a
// constant (the generated CPU body writes it as one: arr is per thread, the loop is not),
// and reads the element in the loop: the form of RangeArr's loop that gets a fast CPU body;
// and again as `for i := range arr`, whose trip count is the array type's length too.
type RangeLen struct {
	Src *arrayview.ReadView[int32]
	Dst *arrayview.View[int32]
}

// Tiled is the kernel.
func (k RangeLen) Tiled(t runtime.TiledIndex) {
	x := k.Src.At(t.Global)
	sum, arr := int32(0), [3]int32{x, x * 2, x - 5}
	shared := runtime.TileStatic[int32](t, t.TileExtent.Size())
	for i := range len(arr) {
		me := t.Local[0]
		shared[me] = arr[i] + int32(i)
		t.Barrier.Wait()
		sum += shared[(me+i+1)%t.TileExtent.Size()]
		t.Barrier.Wait()
	}
	for i := range arr {
		shared[t.Local[0]] = sum ^ arr[i]
		t.Barrier.Wait()
		arr[i] = shared[t.TileExtent.Size()-1-t.Local[0]]
		t.Barrier.Wait()
	}
	k.Dst.Set(t.Global, sum*3+arr[0]+arr[2])
}

// LoopReturn returns from inside a loop that begins the last region (after the barrier):
// the fast CPU body must leave the thread, not go on with the loop.
type LoopReturn struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
	Aux *arrayview.View[int32]
}

// Tiled is the kernel.
func (k LoopReturn) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	buf := runtime.TileStatic[int32](t, n)
	buf[t.Local[0]] = k.In.At(t.Global)
	t.Barrier.Wait()
	v := buf[(t.Local[0]+3)%n]
	for i := int32(0); i < 4; i++ {
		if (v+i)%7 == 0 {
			k.Aux.Set(t.Global, i+1)
			return
		}
		v += i
	}
	k.Out.Set(t.Global, v)
}

// MinMax takes Go's min and max of floats whose operands include NaNs, infinities and
// zeros of both signs: NaN if an operand is, and -0 below +0, on every device.
type MinMax struct {
	A, B   *arrayview.ReadView[float32]
	Lo, Hi *arrayview.View[uint32]
}

// Each is the kernel: the results' bits, so that NaNs and zeros compare exactly.
func (k MinMax) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	k.Lo.Set(i, math.Float32bits(min(a, b)))
	k.Hi.Set(i, math.Float32bits(max(a, b, 0)))
}

// Remat carries values computed from the thread's local index across barriers: the fast
// CPU body recomputes them in each region that reads them (a product, the min of a sum, a
// conversion with a field), and leaves them out of the first region, which reads none of
// them (base is read only by at's definition there).
type Remat struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
	Off int32
}

// Tiled is the kernel.
func (k Remat) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	buf := runtime.TileStatic[int32](t, n)
	w := t.TileExtent.Dim(1)
	r, c := t.Local[0], t.Local[1]
	base := r * w
	at := min(base+c, n-1)
	tag := int32(c)*3 + k.Off
	buf[t.Local[0]*w+t.Local[1]] = k.In.At(t.Global)
	t.Barrier.Wait()
	v := buf[(at+1)%n] + tag
	t.Barrier.Wait()
	buf[base+(w-1-c)] = v
	t.Barrier.Wait()
	k.Out.Set(t.Global, buf[at]*2+int32(r))
}

// Phases puts barriers under uniform control flow: in a loop whose trip count is a scalar
// field and that a uniform break may leave early, in both branches of an if on a scalar,
// with per-thread values carried across the barriers, a tile-level value updated in the
// loop, a uniform return before the barriers (Mode 2) and an early return after the last
// barrier.
type Phases struct {
	In     *arrayview.ReadView[int32]
	Out    *arrayview.View[int32]
	Rounds int32
	Mode   int32
	Stop   int32
}

// Tiled is the kernel.
func (k Phases) Tiled(t runtime.TiledIndex) {
	if k.Mode == 2 {
		k.Out.Set(t.Global, -7)
		return
	}
	n := t.TileExtent.Size()
	buf := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	var acc int32
	x := k.In.At(t.Global)
	shift := 1
	for r := int32(0); r < k.Rounds; r++ {
		if r == k.Stop {
			break
		}
		buf[l] = x
		t.Barrier.Wait()
		x = buf[(l+shift)%n] + x/2
		acc += x & 15
		shift = shift*2%n + 1
		t.Barrier.Wait()
	}
	if k.Mode == 1 {
		buf[n-1-l] = acc
		t.Barrier.WaitWithTileStaticMemoryFence()
		acc += buf[l]
	} else {
		runtime.TileStaticMemoryFence(t)
		t.Barrier.Wait()
		acc -= 3
	}
	if x < 0 {
		k.Out.Set(t.Global, acc)
		return
	}
	k.Out.Set(t.Global, acc*2+x)
}

// MatMulTS is MatMul's tile size.
const MatMulTS = 16

// MatMul multiplies A (M x K) by B (K x N) into C, staging 16x16 tiles of A and B in
// tile_static memory, as in the C++ AMP matrix-multiplication walkthrough. K is a
// multiple of the tile size and the tiles are 16x16.
type MatMul struct {
	A, B *arrayview.ReadView[float32]
	C    *arrayview.View[float32]
	K    int32
}

// Tiled is the kernel.
func (k MatMul) Tiled(t runtime.TiledIndex) {
	a := runtime.TileStatic[float32](t, MatMulTS*MatMulTS)
	b := runtime.TileStatic[float32](t, MatMulTS*MatMulTS)
	row, col := t.Local[0], t.Local[1]
	sum := float32(0)
	for i := 0; i < int(k.K); i += MatMulTS {
		a[row*MatMulTS+col] = k.A.At(runtime.Idx(t.Global[0], i+col))
		b[row*MatMulTS+col] = k.B.At(runtime.Idx(i+row, t.Global[1]))
		t.Barrier.Wait()
		for j := range MatMulTS {
			sum += a[row*MatMulTS+j] * b[j*MatMulTS+col]
		}
		t.Barrier.Wait()
	}
	k.C.Set(t.Global, sum)
}

// TileRev is generic and tiled: each thread adds to its value the value of the thread at
// the mirrored place of its tile, exchanged through tile_static memory of T.
type TileRev[T ~int32 | ~float32] struct {
	In  *arrayview.ReadView[T]
	Out *arrayview.View[T]
}

// Tiled is the kernel.
func (k TileRev[T]) Tiled(t runtime.TiledIndex) {
	const last = 1 // a local constant read on both sides of the barrier
	n := t.TileExtent.Size()
	s := runtime.TileStatic[T](t, n)
	v := k.In.At(t.Global)
	s[t.Local[0]*last] = v
	t.Barrier.Wait()
	k.Out.Set(t.Global, s[n-last-t.Local[0]]+v)
}

// Bitonic sorts each tile of Keys in place, ascending, with a bitonic network in
// tile_static memory: one thread per key, a barrier after each compare-exchange stage (55
// stages for tiles of 1024 keys). The tile's size is a power of two.
type Bitonic struct {
	Keys *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Bitonic) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	s[l] = k.Keys.At(t.Global)
	t.Barrier.Wait()
	for size := 2; size <= n; size *= 2 {
		for stride := size / 2; stride > 0; stride /= 2 {
			p := l ^ stride
			if p > l {
				a, b := s[l], s[p]
				if (a > b) == (l&size == 0) {
					s[l] = b
					s[p] = a
				}
			}
			t.Barrier.WaitWithTileStaticMemoryFence()
		}
	}
	k.Keys.Set(t.Global, s[l])
}

// Narrow checks Go's 8- and 16-bit integer semantics: every operation wraps in the
// operands' type, conversions truncate or extend, and views of int8 and uint8 load and
// store them. Out gets NarrowLen int32 results a thread.
type Narrow struct {
	A   *arrayview.ReadView[int8]
	B   *arrayview.ReadView[uint8]
	C   *arrayview.View[int8]  // written: a mix of A and B
	D   *arrayview.View[uint8] // read and written: incremented, wrapping at 255
	Out *arrayview.View[[NarrowLen]int32]
}

// NarrowLen is the number of results a Narrow thread writes.
const NarrowLen = 22

// Each is the kernel.
func (k Narrow) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	var r [NarrowLen]int32
	r[0] = int32(a + a + a)    // wraps at 8 bits
	r[1] = int32(a * int8(b))  // a product of two int8s
	r[2] = int32(-a)           // -(-128) is -128
	r[3] = int32(a / -1)       // so is -128 / -1
	nz := int8(b|1) & 0x7f     // never 0
	r[4] = int32(a / nz)       // division truncates toward zero
	r[5] = int32(a % nz)       // remainder with the dividend's sign
	r[6] = int32(a << (b & 7)) // shifts wrap too
	r[7] = int32(a >> (b & 7)) // and keep the sign
	r[8] = int32(b << 3)       // uint8 shifts lose the high bits
	r[9] = int32(^b)           // ^ of an unsigned value stays in 8 bits
	r[10] = int32(^a)          // and of a signed one keeps its sign
	r[11] = int32(b - 200)     // uint8 subtraction wraps
	r[12] = int32(uint8(a))    // int8 to uint8: the same bits
	r[13] = int32(int8(b))     // uint8 to int8: the sign bit
	w := int16(a) * int16(b)   // int16 holds the product exactly
	r[14] = int32(w * 3)       // and wraps at 16 bits
	r[15] = int32(uint16(w))   // uint16's view of it
	r[16] = int32(int8(w))     // truncated to 8 bits
	r[17] = int32(uint32(a))   // sign-extended into 32 bits
	x := a                     // compound assignments and ++ wrap
	x += 100
	x *= 3
	x++
	r[18] = int32(x)
	var acc uint8
	for j := uint8(0); j < 8; j++ {
		acc += b ^ j // a sum that wraps many times
	}
	r[19] = int32(acc)
	f := float32(a)*1.5 + float32(b)
	r[20] = int32(int8(int32(f))) // float to int8 through int32
	r[21] = int32(int16(b) - int16(a))
	k.C.Set(i, a^int8(b))
	k.D.Set(i, k.D.At(i)+1)
	k.Out.Set(i, r)
}

// HalfOps checks half.Float16 views and conversions: Wide gets X's values as float32
// (exact), Out gets F rounded to float16 (to nearest, ties to even), Flags X's IsNaN and
// IsInf and Bits, and Sum the float16 of a computed float32.
type HalfOps struct {
	X     *arrayview.ReadView[half.Float16]
	F     *arrayview.ReadView[float32]
	Wide  *arrayview.View[float32]
	Out   *arrayview.View[half.Float16]
	Flags *arrayview.View[int32]
}

// Each is the kernel.
func (k HalfOps) Each(i runtime.Index) {
	h := k.X.At(i)
	k.Wide.Set(i, h.Float32())
	k.Out.Set(i, half.FromFloat32(k.F.At(i)))
	flags := int32(h.Bits()) << 2
	if h.IsNaN() {
		flags |= 1
	}
	if h.IsInf() {
		flags |= 2
	}
	if h == half.One || h^half.SignBit == half.FromBits(0x3c00) {
		flags = -flags
	}
	k.Flags.Set(i, flags)
}

// Rounding checks that fmath's roundings of a product see the product rounded to float32,
// as Go computes it: Out gets Round, RoundEven, Floor, Ceil and Trunc of In times S.
type Rounding struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[[5]float32]
	S   float32
}

// Each is the kernel.
func (k Rounding) Each(i runtime.Index) {
	p := k.In.At(i) * k.S
	k.Out.Set(i, [5]float32{fmath.Round(p), fmath.RoundEven(p), fmath.Floor(p), fmath.Ceil(p), fmath.Trunc(p)})
}

// RangeForms checks the forms a generated EachRange rewrites (it runs Each's statements
// with the index's components as scalars): a return inside nested loops, the index passed
// whole to a kernel method that reads a view, its components read by constant and by
// variable, and an index of rank 2.
type RangeForms struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// left reads the element left of i in its row (wrapping), through the kernel's view.
func (k RangeForms) left(i runtime.Index, cols int) int32 {
	return k.In.At(runtime.Idx(i[0], (i[1]+cols-1)%cols))
}

// Each is the kernel.
func (k RangeForms) Each(i runtime.Index) {
	x := k.In.At(i)
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			if x%7 == int32(a*4+b) {
				k.Out.Set(i, int32(a*100+b)+k.left(i, 33))
				return
			}
		}
	}
	d := int(x & 1) // the index's component chosen at run time
	k.Out.Set(i, x+int32(i[d]*1000+i[1-d]))
}

// RangeMoved checks an Each that assigns to its index: the generated EachRange keeps it
// whole. Out gets 3 times In plus In's element in the next row (wrapping after Rows).
type RangeMoved struct {
	In   *arrayview.ReadView[int32]
	Out  *arrayview.View[int32]
	Rows int32
}

// Each is the kernel.
func (k RangeMoved) Each(i runtime.Index) {
	own, at := k.In.At(i), i
	i[0] = (i[0] + 1) % int(k.Rows)
	k.Out.Set(at, own*3+k.In.At(i))
}

// Extents reads its views' extents (C++ AMP's array_view::get_extent and
// extent::contains): In is a section of a larger array, so its extent is not its strides;
// dimensions past a view's rank and negative ones are 0, and Contains ignores an index's
// components past the rank, as on the CPU.
type Extents struct {
	In  *arrayview.ReadView[int32]
	Vec *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel: a mirrored element of In, an element of Vec chosen modulo its
// length, and the extents' values folded into the result.
func (k Extents) Each(i runtime.Index) {
	rows, cols := k.In.Extent().Dim(0), k.In.Extent().Dim(1)
	v := k.In.At(runtime.Idx(rows-1-i[0], cols-1-i[1]))
	n := k.Vec.Extent().Dim(0)
	v += k.Vec.At(runtime.Idx((i[0]*cols + i[1]) % n))
	d := 2
	info := k.In.Extent().Size()*1000 + k.In.Extent().Rank()*100 + k.Vec.Extent().Rank()*10 + k.In.Extent().Dim(d)
	info += k.Vec.Extent().Dim(i[1]%3-1) + k.Out.Extent().Dim(1)*k.Out.Extent().Rank()
	if j := runtime.Idx(i[0]-1, i[1]*2-cols/2); k.In.Extent().Contains(j) {
		v += k.In.At(j) // the neighbours that lie inside In, as C++ AMP's extent::contains tells
	}
	if k.Vec.Extent().Contains(runtime.Idx(i[1]*2-3, i[0])) {
		info++
	}
	k.Out.Set(i, v*7+int32(info))
}

// ExtentLoop sums the whole of In, whose length is not the domain's, in chunks of a tile
// through tile_static memory: its barriers sit in a loop bounded by In's extent, which is
// the same in every thread.
type ExtentLoop struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k ExtentLoop) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	buf := runtime.TileStatic[int32](t, n)
	var acc int32
	chunks := k.In.Extent().Dim(0) / n
	for c := 0; c < chunks; c++ {
		buf[t.Local[0]] = k.In.At(runtime.Idx(c*n + t.Local[0]))
		t.Barrier.Wait()
		acc += buf[(t.Local[0]+c)%n] * int32(c+1)
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, acc)
}

// Results calls functions and methods with several results in every form Go has: := and
// = (swapping through the call), a var declaration, a blank result, a call whose results
// are dropped, a return of another such call, and array and bool results.
type Results struct {
	A, B *arrayview.ReadView[int32]
	Out  *arrayview.View[int32]
	Aux  *arrayview.View[int32]
	Bias int32
}

// divmod returns Go's quotient and remainder, and whether b was 0 (then 0, 0).
func divmod(a, b int32) (int32, int32, bool) {
	if b == 0 {
		return 0, 0, true
	}
	return a / b, a % b, false
}

// ordered returns a and b in increasing order.
func ordered(a, b int32) (int32, int32) {
	if a > b {
		return b, a
	}
	return a, b
}

// lowHigh is ordered through another call's results.
func lowHigh(a, b int32) (int32, int32) { return ordered(b, a) }

// pair returns a two-element array and its sum's sign.
func pair(a, b int32) ([2]int32, bool) { return [2]int32{a, b}, a+b < 0 }

// note writes x to Aux and returns it and its double.
func (k Results) note(i runtime.Index, x int32) (int32, int32) {
	k.Aux.Set(i, x+k.Bias)
	return x, 2 * x
}

// Each is the kernel.
func (k Results) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	q, r, zero := divmod(a, b%1000)
	lo, hi := ordered(a, b)
	var l2, h2 = lowHigh(q, r)
	lo, hi = ordered(hi, lo) // the same pair again, through temporaries
	p, neg := pair(l2, h2)
	_, twice := k.note(i, r)
	k.note(i, q) // the results dropped, Aux written again
	v := lo ^ hi + p[0]*3 + p[1] + twice
	if neg {
		v = -v
	}
	if zero {
		v += 1000
	}
	k.Out.Set(i, v)
}

// ResultsTiled carries the results of a call with several results across a barrier.
type ResultsTiled struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k ResultsTiled) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	buf := runtime.TileStatic[int32](t, n)
	lo, hi := ordered(k.In.At(t.Global), int32(t.Local[0]*7))
	buf[t.Local[0]] = hi - lo
	t.Barrier.Wait()
	k.Out.Set(t.Global, buf[(t.Local[0]+1)%n]*lo+hi)
}

// SharedArgs passes tile_static arrays to functions by name (C++ AMP passes them by
// reference): a function that stores into one, one that reads another, and a scan of the
// tile with barriers and two results, each function translated once per array it is given.
type SharedArgs struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// put stores v at the thread's place of s.
func put(t runtime.TiledIndex, s []int32, v int32) { s[t.Local[0]] = v }

// around returns the sum of s's elements next to i, wrapping around.
func around(s []int32, i int) int32 { return s[(i+len(s)-1)%len(s)] + s[(i+1)%len(s)] }

// tileScan returns the inclusive scan of v over the tile (Hillis-Steele in s) and the
// tile's total.
func tileScan(t runtime.TiledIndex, s []int32, v int32) (int32, int32) {
	n, l := t.TileExtent.Size(), t.Local[0]
	s[l] = v
	t.Barrier.Wait()
	for d := 1; d < n; d *= 2 {
		var x int32
		if l >= d {
			x = s[l-d]
		}
		t.Barrier.Wait()
		s[l] += x
		t.Barrier.Wait()
	}
	return s[l], s[n-1]
}

// Tiled is the kernel.
func (k SharedArgs) Tiled(t runtime.TiledIndex) {
	n := t.TileExtent.Size()
	a := runtime.TileStatic[int32](t, n)
	b := runtime.TileStatic[int32](t, n)
	v := k.In.At(t.Global)
	put(t, a, v)
	put(t, b, v*3)
	t.Barrier.Wait()
	w := around(a, t.Local[0]) - around(b, t.Local[0])
	t.Barrier.Wait()
	incl, total := tileScan(t, a, w)
	k.Out.Set(t.Global, incl*5+total)
}

// UniformArgs calls a function with barriers whose loop is bounded by a parameter: the call
// passes a uniform value (a field, the tile's size), so every thread of the tile reaches
// the barriers, and the function is translated for that call.
type UniformArgs struct {
	In     *arrayview.ReadView[int32]
	Out    *arrayview.View[int32]
	Rounds int32
}

// rotate moves v around the tile through s, rounds times by step places, and returns
// what arrives at the thread.
func rotate(t runtime.TiledIndex, s []int32, v int32, rounds, step int) int32 {
	n, l := t.TileExtent.Size(), t.Local[0]
	for r := 0; r < rounds; r++ {
		s[(l+step)%n] = v
		t.Barrier.Wait()
		v = s[l] + int32(r)
		t.Barrier.Wait()
	}
	return v
}

// Tiled is the kernel.
func (k UniformArgs) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	v := rotate(t, s, k.In.At(t.Global), int(k.Rounds), 3)
	w := rotate(t, s, v, 2, t.TileExtent.Size()-1)
	k.Out.Set(t.Global, v*10+w)
}

// SharedLen bounds a loop of barriers by len of a tile_static array that the threads have
// written: the array's elements differ between threads, its length does not (this was
// refused as divergent before).
type SharedLen struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// groupMax returns the tile's maximum of v, reduced in s.
func groupMax(t runtime.TiledIndex, s []int32, v int32) int32 {
	l := t.Local[0]
	s[l] = v
	t.Barrier.Wait()
	for stride := len(s) / 2; stride > 0; stride /= 2 {
		if l < stride {
			s[l] = max(s[l], s[l+stride])
		}
		t.Barrier.Wait()
	}
	return s[0]
}

// Tiled is the kernel.
func (k SharedLen) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	s[l] = k.In.At(t.Global)
	t.Barrier.Wait()
	for stride := len(s) / 2; stride > 0; stride /= 2 {
		if l < stride {
			s[l] += s[l+stride]
		}
		t.Barrier.Wait()
	}
	sum := s[0]
	t.Barrier.Wait()
	k.Out.Set(t.Global, sum*3+s[(l+1)%len(s)])
}

// SharedConst reads and writes a tile_static array sized by the tile at constant indices
// past the first: glslc rejected s[3] of such an array, whose size is a specialization
// constant of one thread by default (found by the kernel fuzzer).
type SharedConst struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k SharedConst) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	s[t.Local[0]] = k.In.At(t.Global)
	t.Barrier.Wait()
	v := s[3] - s[63]
	t.Barrier.Wait()
	if t.Local[0] == 0 {
		s[1] = v
	}
	t.Barrier.Wait()
	k.Out.Set(t.Global, v*2+s[1])
}

// GroupMax does what SharedLen does in a function given the array.
type GroupMax struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k GroupMax) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	k.Out.Set(t.Global, groupMax(t, s, k.In.At(t.Global)))
}

// Outside reads In at i+Shift and writes Out at i, or with Write set reads In at i and
// writes Out at i+Shift: with Shift 0 every access is inside the views; otherwise some
// threads read or write outside them, which the CPU reports as a panic and a
// bounds-checked GPU build (-tags goampcheck) as a BoundsError.
type Outside struct {
	In    *arrayview.ReadView[int32]
	Out   *arrayview.View[int32]
	Shift int32
	Write int32
}

// Each is the kernel.
func (k Outside) Each(i runtime.Index) {
	r, w := i[0]+int(k.Shift), i[0]
	if k.Write != 0 {
		r, w = i[0], i[0]+int(k.Shift)
	}
	k.Out.Set(runtime.Idx(w), k.In.At(runtime.Idx(r))+1)
}

// Outside4 reads four elements of In at 4i+Shift and writes them to Out at 4i: with Shift
// 1 the last thread's fourth element lies outside In, which the bounds-checked build's
// check of At4 covers.
type Outside4 struct {
	In    *arrayview.ReadView[float32]
	Out   *arrayview.View[float32]
	Shift int32
}

// Each is the kernel.
func (k Outside4) Each(i runtime.Index) {
	k.Out.Set4(runtime.Idx(4*i[0]), k.In.At4(runtime.Idx(4*i[0]+int(k.Shift))))
}

// OutsideArrays indexes a tile_static array at the thread's place + Shift and a local array
// at Pick: out of range for some threads unless Shift is 0 and Pick below 4, which Go
// reports as a panic and a bounds-checked GPU build as a BoundsError.
type OutsideArrays struct {
	In    *arrayview.ReadView[int32]
	Out   *arrayview.View[int32]
	Shift int32
	Pick  int32
}

// Tiled is the kernel.
func (k OutsideArrays) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	s[l] = k.In.At(t.Global)
	t.Barrier.Wait()
	a := [4]int32{1, 2, 3, 4}
	v := s[(l+int(k.Shift))%(t.TileExtent.Size()+int(k.Shift))] + a[(int(k.Pick)+l)%(4+int(k.Pick))]
	k.Out.Set(t.Global, v)
}

// NestedCalls calls a kernel method holding barriers, in a loop whose trip count is a
// field, which calls a function holding barriers twice and drops one of its results: the
// fast CPU body expands them all in place (translate's inlineTiled).
type NestedCalls struct {
	In     *arrayview.ReadView[int32]
	Out    *arrayview.View[int32]
	Rounds int32
}

// exchange stores v at the thread's place of s and returns its right neighbour's value
// and the tile's first.
func exchange(t runtime.TiledIndex, s []int32, v int32) (int32, int32) {
	s[t.Local[0]] = v
	t.Barrier.Wait()
	right, first := s[(t.Local[0]+1)%len(s)], s[0]
	t.Barrier.Wait()
	return right, first
}

// stage exchanges v twice, the second time the sum of the first exchange's results.
func (k NestedCalls) stage(t runtime.TiledIndex, s []int32, v int32) int32 {
	a, b := exchange(t, s, v+k.Rounds)
	c, _ := exchange(t, s, a+b)
	return c
}

// Tiled is the kernel.
func (k NestedCalls) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	v := k.In.At(t.Global)
	for r := int32(0); r < k.Rounds; r++ {
		v = k.stage(t, s, v) - r
	}
	k.Out.Set(t.Global, v)
}

// SharedClear is the tile histogram's pattern: each thread clears its own bin of a
// tile_static array (the value written, 0, is the same in every thread, the bin is not),
// the tile counts with atomics, and each thread adds its bin to the output.
type SharedClear struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k SharedClear) Tiled(t runtime.TiledIndex) {
	bins := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	bins[l] = 0
	t.Barrier.Wait()
	v := k.In.At(t.Global)
	runtime.AtomicAdd(bins, int(v&0x7fff)%len(bins), 1)
	t.Barrier.Wait()
	k.Out.AtomicAdd(runtime.Idx(l), bins[l])
}

// BitOps is one element of Bits's output: package math/bits's 32-bit functions.
type BitOps struct {
	Ones, Lead, Trail, Len       int32
	Rev, Bytes, RotL, RotR       uint32
	Hi, Lo, Sum, Carry, Diff, Br uint32
}

// Bits calls every math/bits function of the kernel language on each pair of inputs
// (zero and all-ones among them: GLSL's findMSB and findLSB give -1 there, Go 32).
type Bits struct {
	A, B *arrayview.ReadView[uint32]
	Out  *arrayview.View[BitOps]
}

// Each is the kernel.
func (k Bits) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	var o BitOps
	o.Ones, o.Lead = int32(bits.OnesCount32(a)), int32(bits.LeadingZeros32(a))
	o.Trail, o.Len = int32(bits.TrailingZeros32(a)), int32(bits.Len32(a))
	o.Rev, o.Bytes = bits.Reverse32(a), bits.ReverseBytes32(a)
	o.RotL, o.RotR = bits.RotateLeft32(a, int(b%70)), bits.RotateLeft32(a, -int(b%70))
	o.Hi, o.Lo = bits.Mul32(a, b)
	o.Sum, o.Carry = addCarry(a, b)
	o.Diff, o.Br = bits.Sub32(a, b, a&1)
	k.Out.Set(i, o)
}

// addCarry returns a+b+(b&1) and its carry: a function returning math/bits's two results.
func addCarry(a, b uint32) (uint32, uint32) {
	return bits.Add32(a, b, b&1)
}

// MaxConst branches on a remainder by a max of constants that reach it through functions:
// glslc -O's optimizer resolved the branch of the divisor's guard as if the max (GLSL's
// umax) were another value, a wrong answer on every device (found by the kernel fuzzer).
type MaxConst struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

func identU8(x uint8) uint8 { return x }

func nonzeroU8(x uint8) uint8 {
	if x == 0 {
		return 1
	}
	return x
}

// Each is the kernel.
func (k MaxConst) Each(i runtime.Index) {
	v := k.In.At(i)
	switch (uint8(241) % nonzeroU8(max(identU8(2), uint8(1)))) & 3 {
	case 0, 3:
		v = -v
	case 1:
		v += 7
	}
	k.Out.Set(i, v)
}

// MinSwitch keeps a value through a loop of a switch whose first case does nothing:
// where Go's min of integers was GLSL's min, glslc -O's optimizer stored the last case's
// constant after the loop in every thread, the loop's value starting at a min of
// constants (found by the kernel fuzzer, its K2197).
type MinSwitch struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// pickI32 returns a where c, else b.
func pickI32(c bool, a, b int32) int32 {
	if c {
		return a
	}
	return b
}

// Each is the kernel.
func (k MinSwitch) Each(i runtime.Index) {
	var v int32
	f := float32(k.In.At(i) & 3)
	v += min(v, pickI32(true, v, v))
	for j := 3; j >= 0; j-- {
		switch {
		case f != 2:
		case true:
			v = 124851409
		}
	}
	k.Out.Set(i, v)
}

// FoldChain computes float32 values from constants in operations Go does not fold
// (vector methods, a constant vector's field): glslang folded such a chain in double
// precision and rounded it once, one ulp from Go's float32 operation by operation
// (found by the kernel fuzzer). Out gets six values a thread, one chosen by In.
type FoldChain struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[float32]
}

// Each is the kernel.
func (k FoldChain) Each(i runtime.Index) {
	v := vec.F2(0.001, 1e6).Add(vec.F2(0.5, 100.125)).Sub(vec.F2(-1, -1))
	w := vec.F4(16777216, 0.5, 1, 2).Add(vec.F4(1, 0, 0, 0)).Add(vec.F4(1, 0, 0, 0))
	s := vec.F2(0.001, 0).X + 0.5 + 1
	f := fmath.Floor(vec.F2(8388607.5, 0).X + 0.25)
	d := vec.F4(0.1, 0.2, 0.3, 0.4).Dot(vec.F4(0.7, 0.11, 0.13, 1.7))
	all := [6]float32{v.X, v.Y, w.X, s, f, d}
	k.Out.Set(i, all[(k.In.At(i)&0x7fffffff)%6])
}

// VecMaxConst branches on a remainder by a vector's Max and Min of constants that reach
// them through functions: MaxConst's case, of vec.Uint4 and vec.Int3, which GLSL's max and
// min compute.
type VecMaxConst struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

func identV(x vec.Uint4) vec.Uint4 { return x }

func identI3(x vec.Int3) vec.Int3 { return x }

func nonzeroU32(x uint32) uint32 {
	if x == 0 {
		return 1
	}
	return x
}

// Each is the kernel.
func (k VecMaxConst) Each(i runtime.Index) {
	v := k.In.At(i)
	m := identV(vec.U4(2, 5, 0, 9)).Max(vec.U4(1, 7, 0, 3))
	n := identI3(vec.I3(-128, 4, 6)).Min(vec.I3(7, -3, 6))
	switch (uint32(241) % nonzeroU32(m.X)) & 3 {
	case 0, 3:
		v = -v
	case 1:
		v += 7
	}
	switch (int32(100) / n.X) & 3 {
	case 0:
		v += 1000
	case 3:
		v -= 1000
	}
	k.Out.Set(i, v+int32(m.Y)+n.Y)
}

// WidenConst widens float32 constants to float64 where the compiler folds the widening:
// GLSL read 3.0e+38 as the double 3e38, not as float32(3e38) (found by the kernel
// fuzzer).
type WidenConst struct {
	X   *arrayview.ReadView[float64]
	Out *arrayview.View[float64]
}

// Each is the kernel.
func (k WidenConst) Each(i runtime.Index) {
	w := float64(fmath.Abs(float32(3e38)))
	v := float64(fmath.Floor(float32(0.1)+1)) + float64(float32(1e-7))
	k.Out.Set(i, k.X.At(i)*0+w+v)
}

// Classify uses package math's float64 classification and float32(math.Inf(s)), which
// needs no float64 on the GPU.
type Classify struct {
	X   *arrayview.ReadView[float64]
	Out *arrayview.View[float64]
	Lim *arrayview.View[float32]
}

// Each is the kernel.
func (k Classify) Each(i runtime.Index) {
	x := k.X.At(i)
	r := math.Copysign(3, x)
	if math.IsNaN(x) {
		r = 10
	} else if math.IsInf(x, 1) {
		r = 20
	} else if math.IsInf(x, 0) {
		r = 30
	}
	if math.Signbit(x) {
		r += 0.5
	}
	if x == 0 {
		r = math.Inf(-1)
	}
	k.Out.Set(i, r)
	k.Lim.Set(i, min(float32(math.Inf(1)), float32(x)))
}

// RowMin is each row's minimum (NaN where it is above 1), written in float32 alone:
// float32(math.Inf(1)) needs no float64 on the GPU.
type RowMin struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[float32]
}

// Each is the kernel.
func (k RowMin) Each(i runtime.Index) {
	m := float32(math.Inf(1))
	for j := range k.In.Extent().Dim(1) {
		m = min(m, k.In.At(runtime.Idx(i[0], j)))
	}
	if m > 1 {
		m = float32(math.NaN())
	}
	k.Out.Set(i, m)
}

// Labeled searches with labeled break and continue: of the innermost loop from a switch,
// of an outer loop from two loops down, under conditions that vary between threads.
type Labeled struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k Labeled) Each(i runtime.Index) {
	x := k.In.At(i)
	found, steps := int32(-1), int32(0)
search:
	for a := int32(0); a < 16; a++ {
	next:
		for b := range int32(16) {
			for c := int32(0); c < 4; c++ {
				steps++
				switch (a*16 + b + c) % 7 {
				case x % 7:
					if (a*b+c)%5 == x%5 {
						found = a*256 + b*16 + c
						break search
					}
				case 3:
					continue next
				case 5:
					if c == 2 {
						break next
					}
				}
			}
		}
		if a > x%16 {
			continue search
		}
		steps += 1000
	}
	k.Out.Set(i, found*100000+steps)
}

// LabeledTiled has a labeled loop in a region between barriers (the fast CPU body keeps
// it whole), and a labeled continue of a loop that holds a barrier, under a uniform
// condition.
type LabeledTiled struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k LabeledTiled) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	s[l] = k.In.At(t.Global)
	t.Barrier.Wait()
	acc := int32(0)
rows:
	for r := range len(s) {
		for j := 0; j < 3; j++ {
			if s[(l+r+j)%len(s)] < 0 {
				continue rows
			}
			if s[(r+j)%len(s)] > 900 {
				break rows
			}
		}
		acc += s[(l+r)%len(s)]
	}
	t.Barrier.Wait()
	s[l] = acc
	t.Barrier.Wait()
	v := s[(l+1)%len(s)]
	t.Barrier.Wait()
	// The same for every thread: continue round from the inner loop on a uniform value.
round:
	for r := 0; r < 3; r++ {
		for j := range 2 {
			if r == j {
				continue round
			}
		}
		s[l] = v + int32(r)
		t.Barrier.Wait()
		v = s[(l+3)%len(s)]
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, v)
}

// Body is a view element with a 3-vector member (std430 aligns the 4-vector after it to
// 16 bytes, where Go's 16-byte vec.Float3 puts it) and blank padding: the middle one
// places Mass where std430 would not, the last one pads the struct to its 16-byte
// alignment.
type Body struct {
	Pos  vec.Float3
	Vel  vec.Float4
	Kind int32
	_    [3]int32
	Mass float32
	_    [3]float32
}

// Bodies moves each body and reads and writes every field.
type Bodies struct {
	B  *arrayview.View[Body]
	Dt float32
}

// Each is the kernel.
func (k Bodies) Each(i runtime.Index) {
	b := k.B.At(i)
	v := vec.F3(b.Vel.X, b.Vel.Y, b.Vel.Z).Scale(k.Dt) // Dt is a power of two: exact, fused or not
	b.Pos = b.Pos.Add(v)
	b.Vel.W += float32(b.Kind)
	b.Kind++
	b.Mass *= 2
	var z Body
	z.Mass = b.Mass
	if b.Kind%2 == 0 {
		b = z
	}
	k.B.Set(i, b)
}

// Names uses identifiers GLSL cannot take as they are: non-ASCII letters, a gl_ prefix,
// double underscores, keywords and built-in functions (bitCount is a local where
// bits.OnesCount32, GLSL's bitCount, is called), and the names of GLSL's sized types for a
// type, a method and locals (float32_t, mat2x3, f16vec2).
type Names struct {
	In  *arrayview.ReadView[uint32]
	Out *arrayview.View[uint32]
}

// float32_t is named as GLSL's 32-bit float type, which glslang reserves.
type float32_t struct{ A, B uint32 }

// mat2x3 is a method named as a GLSL matrix type.
func (f float32_t) mat2x3(i8vec4 uint32) uint32 { return f.A*i8vec4 + f.B }

// Each is the kernel.
func (k Names) Each(i runtime.Index) {
	input := k.In.At(i)
	π, δ__x, gl_x := uint32(3), uint32(5), uint32(7)
	sample, texture, filter, output, transpose, any := uint32(1), uint32(2), uint32(4), uint32(8), uint32(16), uint32(32)
	bitCount := uint32(bits.OnesCount32(input))
	f16vec2 := float32_t{A: input & 7, B: 9}
	k.Out.Set(i, input*π+δ__x*gl_x+sample+texture+filter+output+transpose+any+bitCount*1000+f16vec2.mat2x3(11)*100000)
}

// ShiftBy shifts A by B, a signed count (int32 and int8 counts, << and >>, and <<=): a
// negative count panics on the CPU, and in a bounds-checked GPU build (a
// *runtime.ShiftError); counts of 32 and more give Go's results everywhere.
type ShiftBy struct {
	A, B *arrayview.ReadView[int32]
	Out  *arrayview.View[int32]
}

// Each is the kernel.
func (k ShiftBy) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	r := a<<b ^ a>>b
	u := uint32(a)
	u <<= int8(b)
	k.Out.Set(i, r+int32(u))
}

// CallArgs calls a helper in the arguments of another call of the same helper.
type CallArgs struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

func mix3(a, b int32) int32 { return a*3 - b }

// Each is the kernel.
func (k CallArgs) Each(i runtime.Index) {
	x := k.In.At(i)
	k.Out.Set(i, mix3(x, mix3(x+1, mix3(2, x))))
}

// Shifts shifts int32 and uint32 values by counts given at run time, 32 and more
// among them: Go shifts every bit out (>> of an int32 keeps the sign), where GLSL
// and SPIR-V leave the result undefined.
type Shifts struct {
	A    *arrayview.ReadView[int32]
	S    *arrayview.ReadView[uint32]
	Out  *arrayview.View[int32]
	UOut *arrayview.View[uint32]
}

// Each is the kernel.
func (k Shifts) Each(i runtime.Index) {
	a, s := k.A.At(i), k.S.At(i)
	u := uint32(a)
	k.Out.Set(i, a<<s^a>>s^a>>(s+7)^a<<3>>2)
	u <<= int32(s & 15)
	k.UOut.Set(i, u<<s^u>>s^u>>(s&31)^u)
}

// Divide divides A by B (int32 and uint32, / and %, and /=): where B holds a zero the CPU
// panics, and so does a bounds-checked GPU build (a *runtime.DivideError).
type Divide struct {
	A, B *arrayview.ReadView[int32]
	Out  *arrayview.View[int32]
}

// Each is the kernel.
func (k Divide) Each(i runtime.Index) {
	a, b := k.A.At(i), k.B.At(i)
	q := a/b + a%b
	u := uint32(a)
	u /= uint32(b)
	k.Out.Set(i, q+int32(u))
}

// SwitchBreak leaves switches with break: from a case, from an if inside a case, from a
// switch inside a switch; and continues and labeled breaks of loops through them.
type SwitchBreak struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k SwitchBreak) Each(i runtime.Index) {
	x := k.In.At(i)
	r := int32(0)
outer:
	for j := int32(0); j < 12; j++ {
		switch v := (x + j) % 6; v {
		case 0:
			if x > 50 {
				break
			}
			r += 3
		case 1:
			switch {
			case x%2 == 0:
				r += 100
				break
			default:
				continue
			}
			r += 7
		case 2:
			if j > 9 {
				break outer
			}
			continue
		case 3, 4:
			r -= j
			break
		default:
			r *= 2
		}
		r++
	}
	k.Out.Set(i, r)
}

// SwitchBreakTiled leaves a switch with a thread-dependent break inside a loop of
// barriers: the break leaves the switch, not the loop, so the loop stays uniform, and the
// fast CPU body keeps the switch whole in a region.
type SwitchBreakTiled struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k SwitchBreakTiled) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	v := k.In.At(t.Global)
	for r := 0; r < 3; r++ {
		s[l] = v
		t.Barrier.Wait()
		switch w := s[(l+r+1)%len(s)]; {
		case w > 500:
			v -= w / 2
		case w < 0:
			if w < -500 {
				break
			}
			v += w
		default:
			v++
		}
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, v)
}

// TupleOrder assigns several places in one statement where a later place's index reads a
// variable (or an array) that an earlier place assigns: Go evaluates every index on the
// left before the first assignment, so `j, a[j] = x, v` writes a[j] of j's old value.
type TupleOrder struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

func halves(v int32) (int32, int32) { return v & 7, v >> 3 }

// Each is the kernel.
func (k TupleOrder) Each(i runtime.Index) {
	v := k.In.At(i)
	var a [8]int32
	j := int(v & 7)
	j, a[j] = int(v>>3)&7, v
	a[j], j = v+1, (j+3)&7
	a[j], a[(j+1)&7], j = a[(j+1)&7], a[j], j^5
	var q [4][2]int32
	m := int(v) & 3
	m, q[m][m&1] = 3-m, v
	q[m][0], a[q[m][0]&7] = 9, 2
	w := int32(i[0])
	w, a[w&7] = halves(v)
	s := w + q[0][0] + 3*q[1][1] + 5*q[2][0] + 7*q[3][1]
	for x, e := range a {
		s += e * int32(x+1)
	}
	k.Out.Set(i, s)
}

// Fallthrough runs switches whose cases fall through: into the next case, into and out of
// a default in the middle, with a break and a continue of the loop around in a case.
type Fallthrough struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k Fallthrough) Each(i runtime.Index) {
	v := k.In.At(i)
	r := int32(0)
	for j := int32(0); j < 6; j++ {
		switch w := (v + j) & 7; {
		case w < 2:
			r += 1
			fallthrough
		default:
			r += 10
			if w == 7 {
				break
			}
			fallthrough
		case w == 4:
			r *= 3
			if v < 0 {
				continue
			}
			fallthrough
		case w > 5:
			r -= w
		}
		r ^= j
	}
	switch v % 3 {
	case 0:
		fallthrough
	case 1, -1:
		r++
	}
	k.Out.Set(i, r)
}

// Span is a Pair with a method of its own, embedded in Segment.
type Span struct{ Pair }

// Width is the span's width.
func (s Span) Width() float32 { return s.Hi - s.Lo }

// Mid is the span's middle.
func (p Pair) Mid() float32 { return (p.Lo + p.Hi) / 2 }

// Segment embeds a Span, which embeds a Pair: Pair's and Span's methods are promoted.
type Segment struct {
	Span
	Weight float32
}

// Promoted calls methods promoted through embedded fields (s.Mid() is s.Span.Pair.Mid())
// and walks an array from both ends with two loop variables (for i, j := 0, n-1; i < j;
// i, j = i+1, j-1), continuing past some steps; and a generic function, for float32 and int32.
type Promoted struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[float32]
}

// Each is the kernel.
func (k Promoted) Each(i runtime.Index) {
	var a [7]float32
	for j := range a {
		a[j] = k.In.At(runtime.Idx(i[0], j))
	}
	for lo, hi := 0, len(a)-1; lo < hi; lo, hi = lo+1, hi-1 {
		if a[lo] < 0 {
			continue
		}
		a[lo], a[hi] = a[hi], a[lo]
	}
	x, y := float32(1), float32(0)
	for n := 0; n < 5; x, y, n = x+y, x, n+1 {
		a[n] += y
	}
	s := Segment{Span{Pair{a[0], a[1]}}, a[2]}
	a[3] += s.Mid() + 2*s.Width() + 3*s.Span.Mid() + s.Weight*s.Pair.Width2()
	a[4] = clampG(a[4], -0.5, 0.5) + float32(clampG(int32(a[5]*10), -3, 3))
	for j := range a {
		k.Out.Set(runtime.Idx(i[0], j), a[j])
	}
}

// clampG is a generic function: translated once per type argument it is called with.
func clampG[T ~int32 | ~float32](x, lo, hi T) T {
	if x < lo {
		return lo
	}
	return min(x, hi)
}

// Width2 is the pair's width, through a Span.
func (p Pair) Width2() float32 { return Span{p}.Width() }

// Captures has fields of the types a Go programmer writes: int, uint, bool and narrow
// integers, each pushed as one 32-bit word, and an array and a struct of 32-bit values,
// pushed as they lie in memory; the body reads its view's size, which the push constants
// carry after them.
type Captures struct {
	In     *arrayview.ReadView[int32]
	Out    *arrayview.View[int32]
	Width  int
	Count  uint
	Invert bool
	Small  int8
	Mask   uint16
	Taps   [3]int32
	Clamp  Window
}

// Window is a struct field of Captures.
type Window struct {
	Lo, Hi int32
	Scale  [2]float32
}

// Each is the kernel.
func (k Captures) Each(i runtime.Index) {
	x := k.In.At(i)
	if k.Invert {
		x = -x
	}
	for j := uint(0); j < k.Count; j++ {
		x += int32(j) * int32(k.Small)
	}
	for j, w := range k.Taps {
		x += w * int32(j+1)
	}
	c := k.Clamp
	x = min(max(x, c.Lo), k.Clamp.Hi) + int32(float32(x)*c.Scale[1])
	k.Out.Set(i, x*int32(i[0]%k.Width)+int32(uint16(x)&k.Mask)+int32(k.In.Extent().Size()))
}

// Tally is a value that pointer-receiver methods update.
type Tally struct {
	N        int32
	Sum, Top int32
}

// Add counts x.
func (s *Tally) Add(x int32) {
	s.N++
	s.Sum += x
	if s.N == 1 || x > s.Top {
		s.Top = x
	}
}

// Merge adds o's counts to s's.
func (s *Tally) Merge(o Tally) {
	if o.N == 0 {
		return
	}
	if s.N == 0 || o.Top > s.Top {
		s.Top = o.Top
	}
	s.N += o.N
	s.Sum += o.Sum
}

// Reset zeroes s through *s.
func (s *Tally) Reset() { *s = Tally{} }

// Score reads s through a value receiver.
func (s Tally) Score() int32 { return s.Sum*3 + s.Top - s.N }

// PointerMethods calls pointer-receiver methods (GLSL inout parameters) on locals and
// array elements: each thread tallies a stretch of the input.
type PointerMethods struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k PointerMethods) Each(i runtime.Index) {
	var pos, neg Tally
	var parts [3]Tally
	n := k.In.Extent().Dim(0)
	for j := 0; j < 9; j++ {
		x := k.In.At(runtime.Idx((i[0] + j) % n))
		if x > 0 {
			pos.Add(x)
		} else {
			parts[j%3].Add(-x)
		}
	}
	for _, p := range parts {
		neg.Merge(p)
	}
	pos.Merge(neg)
	if pos.Top > 990 {
		pos.Reset()
	}
	k.Out.Set(i, pos.Score())
}

// PointerMethodsTiled updates a thread's Tally, declared at the top level (the same in
// every thread until a pointer method writes it), and tile_static Tallies through pointer
// methods, across barriers: the fast CPU body must keep a Tally per thread.
type PointerMethodsTiled struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k PointerMethodsTiled) Tiled(t runtime.TiledIndex) {
	sh := runtime.TileStatic[Tally](t, t.TileExtent.Size())
	var mine Tally
	mine.Add(k.In.At(t.Global))
	l := t.Local[0]
	sh[l] = mine
	t.Barrier.Wait()
	for h := len(sh) / 2; h > 0; h /= 2 {
		if l < h {
			sh[l].Merge(sh[l+h])
		}
		t.Barrier.Wait()
	}
	mine.Merge(sh[0])
	k.Out.Set(t.Global, mine.Score())
}

// Quad is an array type with a pointer-receiver method.
type Quad [4]int32

// Shift adds to each element its index and the element before it: ranging over a
// pointer to an array reads it as the loop writes it (no copy), as in Go.
func (q *Quad) Shift(d int32) {
	for i := range q {
		q[i] += d * int32(i)
	}
	for i, v := range q {
		if i+1 < len(q) {
			q[i+1] += v
		}
	}
}

func quadOf(x int32) Quad { return Quad{x, x + 1, x * 2, -x} }

// RangeCopy ranges over arrays that the loop writes, and over a call's result: Go ranges
// over a copy of the array (evaluated once), so the writes do not reach the loop's value.
type RangeCopy struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k RangeCopy) Each(i runtime.Index) {
	x := k.In.At(i)
	a := [4]int32{x, 2, 3, 4}
	for j, v := range a {
		if j+1 < len(a) {
			a[j+1] += v
		}
	}
	s := int32(0)
	for _, v := range quadOf(x) {
		s += v
	}
	q := quadOf(x)
	q.Shift(3)
	k.Out.Set(i, a[3]*1000+a[2]*100+s+q[3]*7+q[1])
}

// RangeKey writes a range loop's key in the body (the range still moves on by one) and
// ranges with = into variables declared before the loop (after it, the key holds the last
// index, not the count; after no pass it keeps its value).
type RangeKey struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k RangeKey) Each(i runtime.Index) {
	x := k.In.At(i)
	s := int32(0)
	for j := range 8 {
		if int32(j) == x&7 {
			j += 5
		}
		s += int32(j)
	}
	j, n := 7, -1
	var v int32
	a := [3]int32{x, x + 1, x + 2}
	for j, v = range a {
		s += v
	}
	for n = range int(x & 3) {
		s++
	}
	k.Out.Set(i, s*100+int32(j)*10+int32(n))
}

// Interval is Pair under another name: a conversion between them builds one GLSL struct
// from the other's fields.
type Interval Pair

// Padded and Padded2 have a blank field, which a conversion copies too.
type Padded struct {
	X float32
	_ int32
	Y float32
}

// Padded2 is Padded under another name.
type Padded2 Padded

// widen returns a wider interval.
func widen(p Pair, d float32) Pair { return Pair{p.Lo - d, p.Hi + d} }

// StructConv converts between struct types of one underlying type, from a variable and
// from a call's result.
type StructConv struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[float32]
}

// Each is the kernel.
func (k StructConv) Each(i runtime.Index) {
	x := k.In.At(i)
	p := Pair{x, x * x}
	v := Interval(p)
	v.Hi += 1
	w := Interval(widen(Pair(v), 0.25))
	q := Padded2(Padded{X: x, Y: -x})
	k.Out.Set(i, Pair(w).Mid()+v.Lo*2+w.Hi*3+q.X*q.Y)
}

// VecCaptures has vector and float64 fields among scalars: std430 aligns a vec2 to 8
// bytes, a vec3 and a vec4 to 16, a double to 8, and the runtime pushes each there.
type VecCaptures struct {
	In     *arrayview.ReadView[float32]
	Out    *arrayview.View[float32]
	Bias   float32
	Center vec.Float2
	Color  vec.Float4
	Dir    vec.Float3
	Steps  vec.Int3
	Tail   int32
	Big    float64
	Last   float32
}

// Each is the kernel.
func (k VecCaptures) Each(i runtime.Index) {
	x := k.In.At(i)
	p := vec.F2(x, 1).Sub(k.Center)
	c := k.Color.Scale(x)
	r := p.Dot(p) + c.X + c.W + k.Dir.Dot(vec.F3(x, x, 1)) + float32(k.Steps.Y+k.Steps.Z*k.Tail)
	k.Out.Set(i, r+k.Bias+float32(k.Big*2-2e9)+k.Last)
}

// Duo is a generic struct type: a GLSL struct per type argument (Duo_int32).
type Duo[T ~int32 | ~float32] struct{ A, B T }

// Sum is a method of the generic struct, translated per instance.
func (d Duo[T]) Sum() T { return d.A + d.B }

// Grow is a pointer method of the generic struct.
func (d *Duo[T]) Grow(by T) { d.A, d.B = d.A+by, d.B*by }

func swapDuo[T ~int32 | ~float32](d Duo[T]) Duo[T] { return Duo[T]{d.B, d.A} }

// GenericStruct is a generic kernel over a view of a generic struct, with two type
// parameters; it calls a generic function and the struct's methods.
type GenericStruct[T ~int32 | ~float32, U ~int32 | ~float32] struct {
	In  *arrayview.ReadView[Duo[T]]
	Out *arrayview.View[U]
	F   U
}

// Each is the kernel.
func (k GenericStruct[T, U]) Each(i runtime.Index) {
	d := swapDuo(k.In.At(i))
	d.Grow(2)
	e := Duo[U]{U(d.A), U(d.B) * k.F}
	k.Out.Set(i, e.Sum()+U(d.Sum()))
}

// Record is a view element that FieldOnly never names.
type Record struct {
	W    float32
	Tags [2]int32
}

// FieldOnly reads one field of a struct view element and never names its type: the GPU
// body must still declare the struct, before the buffer that holds it.
type FieldOnly struct {
	In  *arrayview.ReadView[Record]
	Out *arrayview.View[float32]
}

// Each is the kernel.
func (k FieldOnly) Each(i runtime.Index) { k.Out.Set(i, k.In.At(i).W*2+float32(k.In.At(i).Tags[1])) }

// Converge loops while a flag that one thread sets says so: the flag is a broadcast
// through tile_static memory, read in phases in which no thread writes it, so the loop
// and its barriers are uniform.
type Converge struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Converge) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	flag := runtime.TileStatic[int32](t, 1)
	l := t.Local[0]
	v := k.In.At(t.Global)&255 + 20
	if l == 0 {
		flag[0] = 1
	}
	t.Barrier.Wait()
	more := flag[0]
	for round := 0; more != 0 && round < 30; round++ {
		s[l] = v
		t.Barrier.Wait()
		v = (v + s[(l+1)%len(s)]) / 2
		t.Barrier.Wait()
		if l == 0 {
			flag[0] = 0
			if v > 25 {
				flag[0] = 1
			}
		}
		t.Barrier.Wait()
		more = flag[0]
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, v)
}

// halfTile is half the tile's size: the same in every thread, though it is given the
// TiledIndex (it reads only the tile's shape).
func halfTile(t runtime.TiledIndex) int { return t.TileExtent.Size() / 2 }

// ShapeHelper bounds a loop with barriers by a function of the tile's shape: the call's
// result is uniform, so the loop may hold barriers.
type ShapeHelper struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k ShapeHelper) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	s[l] = k.In.At(t.Global)
	t.Barrier.Wait()
	for h := halfTile(t); h > 0; h /= 2 {
		if l < h {
			s[l] = max(s[l], s[l+h])
		}
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, s[0]-s[l])
}

// CASMax keeps each row's largest float32 in a uint32 view of its bits with a
// compare-and-swap loop that starts from an atomic load (a plain At would race with the
// other threads' exchanges), and reads a float32 and an int32 element atomically too.
type CASMax struct {
	In    *arrayview.ReadView[float32]
	Max   *arrayview.View[uint32]
	Probe *arrayview.View[float32]
	Count *arrayview.View[int32]
}

// Each is the kernel.
func (k CASMax) Each(i runtime.Index) {
	x := k.In.At(i)
	row := runtime.Idx(i[0])
	for {
		old := k.Max.AtomicLoad(row)
		if math.Float32frombits(old) >= x {
			break
		}
		if k.Max.AtomicCompareExchange(row, old, math.Float32bits(x)) == old {
			break
		}
	}
	if i[1] == 0 {
		k.Count.AtomicAdd(row, int32(k.Probe.AtomicLoad(row)))
		k.Count.AtomicAdd(row, k.Count.AtomicLoad(row)&0)
	}
}

// Ticker counts its calls: an index with a side effect.
type Ticker struct{ N int32 }

// Next advances the count and returns it.
func (c *Ticker) Next() int32 { c.N++; return c.N }

// IndexOnce writes array elements whose index calls a pointer method: an operator
// assignment or ++ reads and writes one element, so the call runs once (GLSL's
// a[i] = a[i] + v would run it twice), and in a tuple assignment the left side's calls
// run before the right side's. Local arrays, struct fields of them, 8-bit elements and
// tile_static arrays.
type IndexOnce struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k IndexOnce) Tiled(t runtime.TiledIndex) {
	sh := runtime.TileStatic[int32](t, 4*t.TileExtent.Size())
	l := t.Local[0]
	v := k.In.At(t.Global)
	c := Ticker{N: v & 1}
	var a [8]int32
	var b [8]int8
	var ps [4]Tally
	sh[4*l], sh[4*l+1], sh[4*l+2], sh[4*l+3] = 0, 0, 0, 0
	a[c.Next()] += v
	a[c.Next()]++
	b[c.Next()] -= int8(v)
	b[c.Next()&7] <<= 1
	ps[c.Next()&3].Sum += v
	ps[c.Next()&3].Top--
	sh[4*l+int(c.Next()&3)] += 5
	sh[4*l+int(c.Next()&3)]++
	var d int32
	a[c.Next()&7], d = c.Next(), c.Next()
	t.Barrier.Wait()
	s := d + c.N*1000
	for j := range 8 {
		s += a[j]*int32(j+1) + int32(b[j])*int32(j+3)
	}
	for j := range 4 {
		s += ps[j].Sum*7 + ps[j].Top*11 + sh[4*l+j]*int32(13+j)
	}
	k.Out.Set(t.Global, s)
}

// special is one of the floats compilers like to fold away, by v's low bits, or a value
// near v otherwise (scaled by a power of two: exact everywhere, where a GPU's division is
// not).
func special(v int32) float32 {
	switch v & 15 {
	case 0:
		return 0
	case 1:
		return float32(math.Copysign(0, -1))
	case 2:
		return float32(math.Inf(1))
	case 3:
		return float32(math.Inf(-1))
	case 4:
		return float32(math.NaN())
	}
	return float32(v) * (1.0 / 128)
}

// nanless is f's bits, every NaN as one value: Go leaves a NaN's bits to the platform.
func nanless(f float32) uint32 {
	if f != f {
		return 0x7fc00000
	}
	return math.Float32bits(f)
}

// FloatRules computes what compilers fold unless told to keep IEEE's rules, each result's
// bits compared exactly with Go's: 0 - x of a zero (+0 in Go: the sign of atan2 of it
// tells), x + 0 of -0, x * 0 of Inf (NaN) and of negatives (-0), x - x of Inf,
// int32(float32(i)) for i that float32 rounds, a compensated (Kahan) sum whose correction
// a regrouping compiler drops, constants added one at a time, math.Max and math.Min, whose
// infinities win over NaNs, and float32(a*b) - c, whose explicit conversion keeps the
// product from fusing with the subtraction (which Go allows without it).
type FloatRules struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[uint32]
}

// Each is the kernel.
func (k FloatRules) Each(i runtime.Index) {
	v := k.In.At(i)
	x, y := special(v), special(v>>4)
	big := v | 1<<24
	var r [FloatRulesN]uint32
	r[0] = nanless(0 - x)
	r[1] = math.Float32bits(fmath.Atan2(0-(x-x), -1)) >> 31
	r[2] = nanless(x + 0)
	r[3] = nanless(x * 0)
	r[4] = nanless(0 * (y - 1))
	r[5] = nanless(x - x)
	r[6] = uint32(int32(float32(big)))
	f := float32(big)
	r[7] = uint32(int32(f) - big)
	var sum, comp float32
	for j := range 64 {
		term := 1 + float32(float32(j+int(v&7))*1e-7)
		yj := term - comp
		t := sum + yj
		comp = (t - sum) - yj
		sum = t
	}
	r[8] = nanless(sum)
	r[9] = nanless((x + 4194306.5) + 1)
	r[10] = nanless(float32(math.Max(float64(x), float64(y))))
	r[11] = nanless(float32(math.Min(float64(x), float64(y))))
	s := v&1 + 1
	p, q := 1+float32(s)*(1.0/8192), 1+float32(2*s)*(1.0/8192) // p*p = q + 2^-26 or 2^-24
	r[12] = nanless(float32(p*p) - q)
	for j, b := range r {
		k.Out.Set(runtime.Idx(i[0]*FloatRulesN+j), b)
	}
}

// FloatRulesN is the number of FloatRules's results per thread.
const FloatRulesN = 13

// FieldMethod waits at barriers under conditions on kernel methods that compute from the
// kernel's push-constant fields alone (the same in every thread), one calling another.
type FieldMethod struct {
	In     *arrayview.ReadView[int32]
	Out    *arrayview.View[int32]
	Rounds int32
}

func (k FieldMethod) rounds() int     { return int(k.Rounds) % 3 }
func (k FieldMethod) more(j int) bool { return j < k.rounds() }

// Tiled is the kernel.
func (k FieldMethod) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l, n := t.Local[0], t.TileExtent.Size()
	acc := k.In.At(t.Global)
	for j := 0; k.more(j); j++ {
		s[l] = acc
		t.Barrier.Wait()
		acc += s[(l+j+1)%n]
		t.Barrier.Wait()
	}
	if k.rounds() > 0 {
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, acc)
}

// ZeroOpsN is how many results a ZeroOps thread writes.
const ZeroOpsN = 5

// ZeroOps applies Go's float rules for a constant zero operand (x + 0, 0 + x, 0 - x,
// x * 0, 0 * x) to zeros of both signs, infinities, NaN and other values: compilers fold
// them to x, -x and 0, which loses a zero's sign (0 - +0 is +0) and Inf * 0's NaN.
type ZeroOps struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[uint32]
}

// Each is the kernel.
func (k ZeroOps) Each(i runtime.Index) {
	x := k.In.At(i)
	r := [ZeroOpsN]uint32{nanless(x + 0), nanless(0 + x), nanless(0 - x), nanless(x * 0), nanless(0 * x)}
	for j, b := range r {
		k.Out.Set(runtime.Idx(i[0]*ZeroOpsN+j), b)
	}
}

// ZeroOps64 is ZeroOps for float64: each result, NaN as 7, and its sign as math.Copysign's
// 1 or -1 (which tells the zeros apart).
type ZeroOps64 struct {
	In  *arrayview.ReadView[float64]
	Out *arrayview.View[float64]
}

// signed returns r, NaN as 7, and its sign.
func signed(r float64) (float64, float64) {
	if r != r {
		return 7, 7
	}
	return r, math.Copysign(1, r)
}

// Each is the kernel.
func (k ZeroOps64) Each(i runtime.Index) {
	x := k.In.At(i)
	r := [ZeroOpsN]float64{x + 0, 0 + x, 0 - x, x * 0, 0 * x}
	for j, v := range r {
		a, s := signed(v)
		k.Out.Set(runtime.Idx(i[0]*2*ZeroOpsN+2*j), a)
		k.Out.Set(runtime.Idx(i[0]*2*ZeroOpsN+2*j+1), s)
	}
}
