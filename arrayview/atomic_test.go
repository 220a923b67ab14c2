package arrayview

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	hmr "github.com/goamp/goamp/internal/hammer"
	"github.com/goamp/goamp/runtime"
)

const (
	hammerWorkers = 16
	hammerRounds  = 1000
)

// hammer calls op(g, j) hammerRounds times from each of hammerWorkers goroutines and
// returns the results, indexed g*hammerRounds + j.
func hammer[T any](op func(g, j int) T) []T { return hmr.Run(hammerWorkers, hammerRounds, op) }

// steps returns start, start+step, ... (n values) in T's wrapping arithmetic, sorted.
func steps[T int32 | uint32 | float32](start, step T, n int) []T {
	return hmr.Sorted(hmr.Sequence(start, step, n))
}

// sortedCopy returns a sorted copy of s.
func sortedCopy[T int32 | uint32 | float32](s []T) []T { return hmr.Sorted(s) }

// TestViewAtomicsHammer: many goroutines update one element of a rank-2 view at once
// (the others stay as they were); the element ends at the exact total and the returned
// old values are the permutation each operation implies.
func TestViewAtomicsHammer(t *testing.T) {
	const n = hammerWorkers * hammerRounds
	r := rand.New(rand.NewPCG(1, 2))
	at := runtime.Idx(1, 2)
	t.Run("AtomicAdd int32", func(t *testing.T) {
		v, data := randomView(r, func(r *rand.Rand) int32 { return r.Int32N(1000) + 1 })
		s0 := v.At(at)
		olds := hammer(func(_, _ int) int32 { return v.AtomicAdd(at, 1) })
		assert.Equal(t, s0+n, v.At(at))
		assert.Equal(t, steps(s0, 1, n), sortedCopy(olds))
		assertOthersKept(t, v, data, at)
	})
	t.Run("AtomicSub uint32 wraps", func(t *testing.T) {
		v, data := randomView(r, func(r *rand.Rand) uint32 { return r.Uint32N(n/2) + 1 })
		s0 := v.At(at)
		olds := hammer(func(_, _ int) uint32 { return v.AtomicSub(at, 1) })
		assert.Equal(t, s0-n, v.At(at))
		assert.Equal(t, steps(s0-(n-1), 1, n), sortedCopy(olds))
		assertOthersKept(t, v, data, at)
	})
	t.Run("AtomicAdd float32", func(t *testing.T) {
		v, data := randomView(r, func(r *rand.Rand) float32 { return float32(r.IntN(1000) + 1) })
		s0 := v.At(at)
		olds := hammer(func(_, _ int) float32 { return v.AtomicAdd(at, 0.5) }) // exact sums
		assert.Equal(t, s0+n/2, v.At(at))
		assert.Equal(t, steps(s0, 0.5, n), sortedCopy(olds))
		assertOthersKept(t, v, data, at)
	})
	t.Run("AtomicSub float32", func(t *testing.T) {
		v, _ := randomView(r, func(r *rand.Rand) float32 { return float32(r.IntN(1000) + 1) })
		s0 := v.At(at)
		olds := hammer(func(_, _ int) float32 { return v.AtomicSub(at, 2) })
		assert.Equal(t, s0-2*n, v.At(at))
		assert.Equal(t, steps(s0-2*(n-1), 2, n), sortedCopy(olds))
	})
	t.Run("AtomicExchange", func(t *testing.T) {
		v, _ := randomView(r, func(r *rand.Rand) float32 { return -float32(r.IntN(1000) + 1) })
		s0 := v.At(at)
		olds := hammer(func(g, j int) float32 { return v.AtomicExchange(at, float32(g*hammerRounds+j)) })
		// Every stored value but the last comes back once, and so does the first.
		got := append(sortedCopy(olds), v.At(at))
		slices.Sort(got)
		assert.Equal(t, append([]float32{s0}, steps[float32](0, 1, n)...), got)
	})
	t.Run("AtomicCompareExchange", func(t *testing.T) {
		v, _ := randomView(r, func(r *rand.Rand) int32 { return r.Int32N(1000) + 1 })
		s0 := v.At(at)
		olds := hammer(func(_, _ int) int32 { // a compare-and-swap increment
			for guess := s0; ; {
				cur := v.AtomicCompareExchange(at, guess, guess+1)
				if cur == guess {
					return cur
				}
				guess = cur
			}
		})
		assert.Equal(t, s0+n, v.At(at))
		assert.Equal(t, steps(s0, 1, n), sortedCopy(olds))
	})
	t.Run("AtomicMin and AtomicMax", func(t *testing.T) {
		xs := make([]uint32, n)
		for i := range xs {
			xs[i] = r.Uint32() | 1
		}
		lo, _ := randomView(r, func(*rand.Rand) uint32 { return math.MaxUint32 })
		hi, _ := randomView(r, func(*rand.Rand) uint32 { return 0 })
		olo := hammer(func(g, j int) uint32 { return lo.AtomicMin(at, xs[g*hammerRounds+j]) })
		ohi := hammer(func(g, j int) uint32 { return hi.AtomicMax(at, xs[g*hammerRounds+j]) })
		assert.Equal(t, slices.Min(xs), lo.At(at))
		assert.Equal(t, slices.Max(xs), hi.At(at), "unsigned: above 2^31 is largest")
		assert.GreaterOrEqual(t, slices.Min(olo), lo.At(at))
		assert.LessOrEqual(t, slices.Max(ohi), hi.At(at))
	})
}

// TestViewAtomicBits: worker g owns bit g of one int32 and flips it with AtomicOr and
// AtomicAnd alternately, or with AtomicXor: every old value must show g's own last write
// to that bit, whatever the other workers did to theirs.
func TestViewAtomicBits(t *testing.T) {
	at := runtime.Idx(3)
	ops := []struct {
		name string
		op   func(v *View[int32], g, j int) int32
		want func(g, j int, s0 int32) bool // bit g of the old value
	}{
		{"AtomicOr/AtomicAnd", func(v *View[int32], g, j int) int32 {
			if j%2 == 0 {
				return v.AtomicOr(at, 1<<g)
			}
			return v.AtomicAnd(at, ^(1 << g))
		}, func(g, j int, s0 int32) bool { return j%2 == 1 || j == 0 && s0&(1<<g) != 0 }},
		{"AtomicXor", func(v *View[int32], g, j int) int32 { return v.AtomicXor(at, 1<<g) },
			func(g, j int, s0 int32) bool { return (s0&(1<<g) != 0) != (j%2 == 1) }},
	}
	for _, tt := range ops {
		t.Run(tt.name, func(t *testing.T) {
			s0 := rand.New(rand.NewPCG(3, 4)).Int32()
			v := MustNew(runtime.Ext(5), []int32{9, 9, 9, s0, 9})
			olds := hammer(func(g, j int) int32 { return tt.op(v, g, j) })
			for g := range hammerWorkers {
				for j := range hammerRounds {
					old := olds[g*hammerRounds+j]
					require.Equal(t, tt.want(g, j, s0), old&(1<<g) != 0, "worker %d, call %d: old %#x", g, j, old)
				}
			}
		})
	}
}

// randomView makes a 3x4 view of random values.
func randomView[T any](r *rand.Rand, gen func(*rand.Rand) T) (*View[T], []T) {
	data := make([]T, 12)
	for i := range data {
		data[i] = gen(r)
	}
	return MustNew(runtime.Ext(3, 4), data), slices.Clone(data)
}

// assertOthersKept checks that only the element at i changed.
func assertOthersKept[T comparable](t *testing.T, v *View[T], orig []T, i runtime.Index) {
	t.Helper()
	for k := range orig {
		if j := v.Extent().Delinearize(k); j != i {
			assert.Equal(t, orig[k], v.At(j), "element %v", j)
		}
	}
}

type hits uint32 // a named element type: the atomics accept it

// TestAtomicsOnEveryAccelerator: an atomic on the host sees what a device wrote, and a
// later device access sees the atomic's result; on an Array too.
func TestAtomicsOnEveryAccelerator(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		v := MustNew(runtime.Ext(2, 3), make([]int32, 6))
		deviceWrite(t, v, av, func(i runtime.Index) int32 { return int32(10*i[0] + i[1] + 1) })
		assert.Equal(t, int32(13), v.AtomicAdd(runtime.Idx(1, 2), 5), "the device's value")
		assert.Equal(t, int32(18), v.At(runtime.Idx(1, 2)))
		require.NoError(t, v.SynchronizeTo(av))
		assert.Equal(t, int32(18), v.AtomicExchange(runtime.Idx(1, 2), -1))

		a, err := NewArray(av, runtime.Ext(4), []hits{7, 8, 9, 10})
		require.NoError(t, err)
		defer a.Close()
		assert.Equal(t, hits(9), a.AtomicMax(runtime.Idx(2), 40))
		assert.Equal(t, hits(40), a.AtomicCompareExchange(runtime.Idx(2), 40, 41))
		out := make([]hits, 4)
		require.NoError(t, a.CopyTo(out))
		assert.Equal(t, []hits{7, 8, 41, 10}, out)
	})
}

// TestAtomicSemantics checks each method's stored and returned value on one goroutine.
func TestAtomicSemantics(t *testing.T) {
	i := runtime.Idx(1)
	ints := func(x int32) *View[int32] { return MustNew(runtime.Ext(2), []int32{-5, x}) }
	uints := func(x uint32) *View[uint32] { return MustNew(runtime.Ext(2), []uint32{5, x}) }
	floats := func(x float32) *View[float32] { return MustNew(runtime.Ext(2), []float32{5, x}) }
	tests := []struct {
		name           string
		run            func() (old, now any)
		wantOld, wantV any
	}{
		{"AtomicAdd int32", func() (any, any) { v := ints(7); return v.AtomicAdd(i, -9), v.At(i) }, int32(7), int32(-2)},
		{"AtomicSub int32", func() (any, any) { v := ints(7); return v.AtomicSub(i, 9), v.At(i) }, int32(7), int32(-2)},
		{"AtomicAdd float32", func() (any, any) { v := floats(1.5); return v.AtomicAdd(i, 0.25), v.At(i) }, float32(1.5), float32(1.75)},
		{"AtomicExchange uint32", func() (any, any) { v := uints(3); return v.AtomicExchange(i, 8), v.At(i) }, uint32(3), uint32(8)},
		{"AtomicMin int32 signed", func() (any, any) { v := ints(7); return v.AtomicMin(i, -9), v.At(i) }, int32(7), int32(-9)},
		{"AtomicMax int32 signed", func() (any, any) { v := ints(-7); return v.AtomicMax(i, -9), v.At(i) }, int32(-7), int32(-7)},
		{"AtomicMin uint32 unsigned", func() (any, any) { v := uints(7); return v.AtomicMin(i, 1<<31), v.At(i) }, uint32(7), uint32(7)},
		{"AtomicAnd", func() (any, any) { v := uints(0b1100); return v.AtomicAnd(i, 0b1010), v.At(i) }, uint32(0b1100), uint32(0b1000)},
		{"AtomicOr", func() (any, any) { v := ints(0b1100); return v.AtomicOr(i, 0b1010), v.At(i) }, int32(0b1100), int32(0b1110)},
		{"AtomicXor", func() (any, any) { v := ints(0b1100); return v.AtomicXor(i, 0b1010), v.At(i) }, int32(0b1100), int32(0b0110)},
		{"AtomicCompareExchange hit", func() (any, any) { v := ints(7); return v.AtomicCompareExchange(i, 7, 3), v.At(i) }, int32(7), int32(3)},
		{"AtomicCompareExchange miss", func() (any, any) { v := ints(7); return v.AtomicCompareExchange(i, 6, 3), v.At(i) }, int32(7), int32(7)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, now := tt.run()
			assert.Equal(t, tt.wantOld, old, "returned value")
			assert.Equal(t, tt.wantV, now, "stored value")
		})
	}
}

// TestAtomicPanics: an element type an atomic does not support, and an index outside the
// extent, panic with a message that names them.
func TestAtomicPanics(t *testing.T) {
	f32 := MustNew(runtime.Ext(4), []float32{1, 2, 3, 4})
	f64 := MustNew(runtime.Ext(4), []float64{1, 2, 3, 4})
	st := MustNew(runtime.Ext(2), []Description{{}, {}})
	i32 := MustNew(runtime.Ext(4), []int32{1, 2, 3, 4})
	tests := []struct {
		name string
		call func()
		msg  string
	}{
		{"AtomicMin on float32", func() { f32.AtomicMin(runtime.Idx(0), 1) },
			"goamp/arrayview: AtomicMin on View[float32](4): the element type is float32; AtomicMin needs int32 or uint32 elements"},
		{"AtomicCompareExchange on float32", func() { f32.AtomicCompareExchange(runtime.Idx(0), 1, 2) },
			"AtomicCompareExchange needs int32 or uint32 elements"},
		{"AtomicAdd on float64", func() { f64.AtomicAdd(runtime.Idx(0), 1) },
			"goamp/arrayview: AtomicAdd on View[float64](4): the element type is float64; AtomicAdd needs int32, uint32 or float32 elements"},
		{"AtomicXor on a struct", func() { st.AtomicXor(runtime.Idx(0), Description{}) }, "arrayview.Description"},
		{"AtomicAdd out of range", func() { i32.AtomicAdd(runtime.Idx(4), 1) }, "index [4] is outside its extent (4)"},
		{"AtomicOr out of range", func() { i32.AtomicOr(runtime.Idx(-1), 1) }, "index [-1] is outside its extent (4)"},
		{"AtomicLoad on float64", func() { f64.AtomicLoad(runtime.Idx(0)) }, "AtomicLoad needs int32, uint32 or float32 elements"},
		{"AtomicLoad out of range", func() { i32.AtomicLoad(runtime.Idx(4)) }, "index [4] is outside its extent (4)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				require.NotNil(t, r, "no panic")
				assert.Contains(t, fmt.Sprint(r), tt.msg)
			}()
			tt.call()
		})
	}
	assert.Equal(t, []int32{1, 2, 3, 4}, i32.data, "nothing changed")
}

// TestAtomicsDoNotAllocate: like At and Set, the atomics run in every thread of a CPU
// kernel and allocate nothing.
func TestAtomicsDoNotAllocate(t *testing.T) {
	v := MustNew(runtime.Ext(2, 4), make([]int32, 8))
	f := MustNew(runtime.Ext(8), make([]float32, 8))
	i, j := runtime.Idx(1, 3), runtime.Idx(7)
	allocs := testing.AllocsPerRun(100, func() {
		v.AtomicAdd(i, 3)
		v.AtomicSub(i, 1)
		v.AtomicMin(i, 1000)
		v.AtomicMax(i, -1000)
		v.AtomicAnd(i, -1)
		v.AtomicOr(i, 0)
		v.AtomicXor(i, 0)
		v.AtomicExchange(i, v.AtomicCompareExchange(i, -1, 0))
		f.AtomicAdd(j, 1)
		f.AtomicSub(j, 0.5)
		f.AtomicExchange(j, f.At(j))
	})
	require.Zero(t, allocs)
	require.Equal(t, int32(202), v.At(i))
	require.Equal(t, float32(50.5), f.At(j))
}

// BenchmarkAtomicAdd times one uncontended AtomicAdd on a view element, next to At/Set.
func BenchmarkAtomicAdd(b *testing.B) {
	v := MustNew(runtime.Ext(64), make([]int32, 64))
	f := MustNew(runtime.Ext(64), make([]float32, 64))
	b.Run("int32", func(b *testing.B) {
		for k := 0; b.Loop(); k++ {
			v.AtomicAdd(runtime.Idx(k&63), 1)
		}
	})
	b.Run("float32", func(b *testing.B) {
		for k := 0; b.Loop(); k++ {
			f.AtomicAdd(runtime.Idx(k&63), 1)
		}
	})
	b.Run("Set(At+1)", func(b *testing.B) {
		for k := 0; b.Loop(); k++ {
			i := runtime.Idx(k & 63)
			v.Set(i, v.At(i)+1)
		}
	})
}

// TestAtomicLoad: AtomicLoad returns the element as it is (a float32's bits too, -0 and
// NaN payloads included) and changes nothing.
func TestAtomicLoad(t *testing.T) {
	negZero, nan := math.Float32frombits(0x80000000), math.Float32frombits(0x7fc00123)
	f := MustNew(runtime.Ext(3), []float32{1.5, negZero, nan})
	i := MustNew(runtime.Ext(2), []int32{-7, math.MaxInt32})
	u := MustNew(runtime.Ext(2), []uint32{0, math.MaxUint32})
	for k, want := range []uint32{math.Float32bits(1.5), 0x80000000, 0x7fc00123} {
		assert.Equal(t, want, math.Float32bits(f.AtomicLoad(runtime.Idx(k))), "float32 %d", k)
	}
	assert.Equal(t, int32(-7), i.AtomicLoad(runtime.Idx(0)))
	assert.Equal(t, int32(math.MaxInt32), i.AtomicLoad(runtime.Idx(1)))
	assert.Equal(t, uint32(math.MaxUint32), u.AtomicLoad(runtime.Idx(1)))
	assert.Equal(t, []int32{-7, math.MaxInt32}, i.data, "nothing changed")
}
