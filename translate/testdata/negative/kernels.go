// Package negative holds kernels that leave the kernel language, one construct each; the
// translator's tests check the file:line:col message each gives (errors.golden).
package negative

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

type out struct {
	V *arrayview.View[int32]
}

var table = [4]int32{1, 2, 3, 4}

type Map struct{ out }

func (k Map) Each(i runtime.Index) {
	m := map[int]int32{}
	k.V.Set(i, m[i[0]])
}

type Slice struct{ out }

func (k Slice) Each(i runtime.Index) {
	s := make([]int32, 4)
	k.V.Set(i, s[0])
}

type String struct{ out }

func (k String) Each(i runtime.Index) {
	k.V.Set(i, int32(len(strings.Repeat("x", i[0]))))
}

type Interface struct{ out }

func (k Interface) Each(i runtime.Index) {
	var x any = i[0]
	k.V.Set(i, int32(x.(int)))
}

type Closure struct{ out }

func (k Closure) Each(i runtime.Index) {
	f := func(x int32) int32 { return x + 1 }
	k.V.Set(i, f(1))
}

type Goroutine struct{ out }

func (k Goroutine) Each(i runtime.Index) {
	go k.V.Set(i, 1)
}

type Channel struct{ out }

func (k Channel) Each(i runtime.Index) {
	c := make(chan int32, 1)
	c <- 1
	k.V.Set(i, <-c)
}

type Defer struct{ out }

func (k Defer) Each(i runtime.Index) {
	defer k.V.Set(i, 1)
}

func fact(n int32) int32 {
	if n <= 1 {
		return 1
	}
	return n * fact(n-1)
}

type Recursion struct{ out }

func (k Recursion) Each(i runtime.Index) {
	k.V.Set(i, fact(int32(i[0])))
}

type Pointer struct{ out }

func (k Pointer) Each(i runtime.Index) {
	x := int32(1)
	p := &x
	k.V.Set(i, *p)
}

type OtherPackage struct{ out }

func (k OtherPackage) Each(i runtime.Index) {
	k.V.Set(i, int32(len(fmt.Sprint(i[0]))))
}

type GlobalVar struct{ out }

func (k GlobalVar) Each(i runtime.Index) {
	k.V.Set(i, table[i[0]%4])
}

type StaticInEach struct{ out }

func (k StaticInEach) Each(i runtime.Index) {
	s := runtime.TileStatic[int32](runtime.TiledIndex{}, 4)
	k.V.Set(i, s[0])
}

type DivergentBarrier struct{ out }

func (k DivergentBarrier) Tiled(t runtime.TiledIndex) {
	if t.Local[0] == 0 {
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, 1)
}

type BarrierAfterReturn struct{ out }

func (k BarrierAfterReturn) Tiled(t runtime.TiledIndex) {
	if t.Global[0] > 10 {
		return
	}
	t.Barrier.Wait()
	k.V.Set(t.Global, 1)
}

type BarrierInVaryingLoop struct{ out }

func (k BarrierInVaryingLoop) Tiled(t runtime.TiledIndex) {
	for j := 0; j < t.Local[0]; j++ {
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, 1)
}

// BarrierOnVaryingElement branches on an array element written at the thread's own
// index: the array varies although the value written does not.
type BarrierOnVaryingElement struct{ out }

func (k BarrierOnVaryingElement) Tiled(t runtime.TiledIndex) {
	var hist [2]int32
	hist[t.Local[0]&1]++
	if hist[0] == 1 {
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, 1)
}

// BarrierInRangeOfVaryingArray ranges over an array whose elements vary: the trip count
// does not, but a branch on the element does.
type BarrierInRangeOfVaryingArray struct{ out }

func (k BarrierInRangeOfVaryingArray) Tiled(t runtime.TiledIndex) {
	arr := [2]int{t.Local[0], 1}
	for _, v := range arr {
		if v == 0 {
			t.Barrier.Wait()
		}
	}
	k.V.Set(t.Global, 1)
}

type StaticSize struct {
	out
	N int32
}

func (k StaticSize) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, int(k.N))
	s[0] = 1
	k.V.Set(t.Global, s[0])
}

type StaticInLoop struct{ out }

func (k StaticInLoop) Tiled(t runtime.TiledIndex) {
	for j := 0; j < 2; j++ {
		s := runtime.TileStatic[int32](t, 4)
		s[j] = 1
	}
	k.V.Set(t.Global, 1)
}

type Int64 struct{ out }

func (k Int64) Each(i runtime.Index) {
	x := int64(i[0])
	k.V.Set(i, int32(x))
}

type BadField struct {
	out
	Name string
}

func (k BadField) Each(i runtime.Index) {
	k.V.Set(i, 1)
}

type Label struct{ out }

func (k Label) Each(i runtime.Index) {
sw:
	switch i[0] {
	case 1:
		break sw
	}
	k.V.Set(i, 1)
}

type Goto struct{ out }

func (k Goto) Each(i runtime.Index) {
	if i[0] == 0 {
		goto done
	}
	k.V.Set(i, 1)
done:
}

type LabeledDivergent struct{ out }

func (k LabeledDivergent) Tiled(t runtime.TiledIndex) {
rounds:
	for r := 0; r < 4; r++ {
		for j := range 3 {
			if t.Local[0] == j {
				continue rounds // leaves rounds's barrier behind in some threads
			}
		}
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, 1)
}

type WriteField struct {
	out
	N int32
}

func (k WriteField) Each(i runtime.Index) {
	k.N = 2
	k.V.Set(i, k.N)
}

type BreakInSwitch struct{ out }

func (k BreakInSwitch) Tiled(t runtime.TiledIndex) {
	switch {
	case k.V.Extent().Dim(0) > 4:
		if t.Local[0] == 0 {
			break
		}
		t.Barrier.Wait() // the threads that left the switch skip it
	}
	k.V.Set(t.Global, 1)
}

type Overflow struct{ out }

func (k Overflow) Each(i runtime.Index) {
	x := 1 << 40
	k.V.Set(i, int32(x>>20))
}

type MultiResult struct{ out }

func two() (int32, int32) { return 1, 2 }

func add(a, b int32) int32 { return a + b }

func (k MultiResult) Each(i runtime.Index) {
	k.V.Set(i, add(two()))
}

type FloatMin struct {
	F *arrayview.View[float32]
}

func (k FloatMin) Each(i runtime.Index) {
	k.F.AtomicMin(i, 1)
}

type ExtentHeld struct{ out }

func (k ExtentHeld) Each(i runtime.Index) {
	e := k.V.Extent()
	k.V.Set(i, int32(e.Dim(0)))
}

type ExtentDims struct{ out }

func (k ExtentDims) Each(i runtime.Index) {
	k.V.Set(i, int32(k.V.Extent().Linear(i)))
}

type Frexp struct{ out }

func (k Frexp) Each(i runtime.Index) {
	f, e := math.Frexp(float64(i[0]))
	k.V.Set(i, int32(f)+int32(e))
}

type SliceArg struct{ out }

func first(s []int32) int32 { return s[0] }

func (k SliceArg) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, 8)
	k.V.Set(t.Global, first(s[1:]))
}

type SharedFloatAtomic struct {
	F *arrayview.View[float32]
}

func addTo(s []float32, x float32) { runtime.AtomicAdd(s, 0, x) }

func (k SharedFloatAtomic) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[float32](t, 8)
	addTo(s, 1)
	k.F.Set(t.Global, s[0])
}

type VaryingArg struct{ out }

func spin(t runtime.TiledIndex, rounds int) {
	for r := 0; r < rounds; r++ {
		t.Barrier.Wait()
	}
}

func (k VaryingArg) Tiled(t runtime.TiledIndex) {
	spin(t, t.Local[0])
	k.V.Set(t.Global, 1)
}

type UintBits struct{ out }

func (k UintBits) Each(i runtime.Index) {
	a := uint(i[0])
	k.V.Set(i, int32(bits.LeadingZeros(a)+bits.Len64(uint64(a))))
}

type CountedBreak struct{ out }

func (k CountedBreak) Tiled(t runtime.TiledIndex) {
	x := 0
	for i := 0; i < 10; i++ {
		if t.Local[0] == i {
			break
		}
		x++ // how far each thread got: varying, though 1 is not
	}
	if x > 3 {
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, int32(x))
}

type WriteCapture struct {
	out
	W [2]int32
	P point
	Q [2]int64
	R struct{ X, Y float32 }
}

type point struct{ X, Y float32 }

func (k WriteCapture) Each(i runtime.Index) {
	k.W[1] = 3
	k.P.X = 2
	k.V.Set(i, k.W[1]+int32(k.P.X+k.R.Y)+int32(k.Q[0]))
}

type counter struct{ N int32 }

func (c *counter) inc() { c.N++ }

// PointerDivergent: a pointer method under a thread-dependent condition makes its
// receiver vary between threads, so the barrier under c.N > 0 is divergent.
type PointerDivergent struct {
	out
	C counter
}

func (k PointerDivergent) Tiled(t runtime.TiledIndex) {
	var c counter
	if t.Local[0] == 0 {
		c.inc()
	}
	if c.N > 0 {
		t.Barrier.Wait()
	}
	k.C.inc()
	p := &c
	k.V.Set(t.Global, c.N+(*p).N)
}

// SamePhase branches on a tile_static element that a thread writes in the same phase:
// threads may read it before or after the write.
type SamePhase struct{ out }

func (k SamePhase) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, 64)
	s[t.Local[0]] = int32(t.Local[0])
	t.Barrier.Wait()
	x := s[0]
	s[0] = 99
	if x > 3 {
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, x)
}

func localOf(t runtime.TiledIndex) int { return t.Local[0] }

// ThreadCalls branches on what functions return from the thread's index and from
// tile_static memory.
type ThreadCalls struct{ out }

func (k ThreadCalls) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, 64)
	s[t.Local[0]] = 1
	t.Barrier.Wait()
	if localOf(t) > 3 {
		t.Barrier.Wait()
	}
	if first(s) > 0 {
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, 1)
}

// ElemPost's loop post assigns an array element beside the loop variable.
type ElemPost struct{ out }

func (k ElemPost) Each(i runtime.Index) {
	var a [4]int32
	for j := 0; j < 3; a[j], j = int32(j), j+1 {
	}
	k.V.Set(i, a[1])
}

// RangeShared branches around a barrier on the elements of a tile_static array it ranges
// over, which another thread writes in the same phase.
type RangeShared struct{ out }

func (k RangeShared) Tiled(t runtime.TiledIndex) {
	flag := runtime.TileStatic[int32](t, 4)
	i := t.Local[0]
	flag[i&3] = int32(i)
	t.Barrier.Wait()
	for _, v := range flag {
		if v > 2 {
			t.Barrier.Wait()
		}
		flag[i&3] = int32(i)
	}
	k.V.Set(t.Global, 1)
}

// MethodView branches around a barrier on what a kernel method reads from a view.
type MethodView struct {
	out
	In *arrayview.ReadView[int32]
}

func (k MethodView) first() int32 { return k.In.At(runtime.Idx(0)) }

func (k MethodView) Tiled(t runtime.TiledIndex) {
	if k.first() > 0 {
		t.Barrier.Wait()
	}
	k.V.Set(t.Global, 1)
}

// countArgs and twiceOf are variadic: their ... parameter is a slice, which ampgen once
// took for a tile_static array and translated the calls as 0, without an error.
func countArgs(base int32, xs ...int32) int32 { return base + int32(len(xs)) }

func twiceOf(a int32, _ ...int32) int32 { return a * 2 }

// Tally's AddAll is a variadic method.
type Tally struct{ N int32 }

func (c *Tally) AddAll(xs ...int32) {
	for j := range len(xs) {
		c.N += xs[j]
	}
}

// Variadic calls variadic functions and a variadic method.
type Variadic struct{ out }

func (k Variadic) Each(i runtime.Index) {
	var c Tally
	c.AddAll(int32(i[0]), 5)
	d := twiceOf(1)
	k.V.Set(i, countArgs(int32(i[0]), 2, 3)+d+c.N)
}

// Doubler is a constraint with a method; Twice implements it.
type Doubler[T any] interface{ Double() T }

type Twice int32

func (d Twice) Double() Twice { return d * 2 }

func apply[T Doubler[T]](x T) T { return x.Double() }

// Count has a method that Forms calls as a method expression.
type Count int32

func (c Count) Next() Count { return c + 1 }

// Forms calls a function literal, a method through a constraint and a method expression.
type Forms struct{ out }

func (k Forms) Each(i runtime.Index) {
	x := int32(i[0])
	y := func() int32 { return x * 2 }()
	z := apply(Twice(x))
	k.V.Set(i, y+int32(z)+int32(Count.Next(Count(x))))
}
