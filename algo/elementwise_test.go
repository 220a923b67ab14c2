package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ewLengths are the conformance lengths: tiny, around tile and workgroup sizes, and one
// past a power of two.
var ewLengths = []int{1, 2, 3, 1000, 1023, 1025, 65537}

// ewBody is a CPU body to check: the fast one (EachRange, EachTile) or the per-thread
// definition (Each, Tiled), which a GPU-only run never uses.
type ewBody struct {
	name      string
	perThread bool
}

// ewViews returns a new view of every accelerator present, closed at the end of the test.
func ewViews(t testing.TB) []*accelerator.View {
	var views []*accelerator.View
	for _, a := range accelerator.All() {
		v, err := a.CreateView(accelerator.Automatic)
		require.NoError(t, err, a.Path())
		t.Cleanup(func() { assert.NoError(t, v.Close()) })
		views = append(views, v)
	}
	require.NotEmpty(t, views)
	return views
}

// requireShapeError checks that err is a *ShapeError of operation op (any, when op is "")
// whose message holds every string of want.
func requireShapeError(t *testing.T, err error, op string, want []string) {
	t.Helper()
	require.ErrorIs(t, err, ErrShape)
	var se *ShapeError
	require.ErrorAs(t, err, &se)
	if op != "" {
		assert.Equal(t, op, se.Op)
	}
	for _, w := range want {
		assert.Contains(t, err.Error(), w)
	}
}

// apartViews returns two views whose data must not meet in one kernel: views of two
// accelerators where there are two, else two views of the one there is.
func apartViews(t *testing.T) (home, other *accelerator.View) {
	views := ewViews(t)
	if len(views) >= 2 {
		return views[0], views[1]
	}
	v, err := views[0].Accelerator().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, v.Close()) })
	return views[0], v
}

// ewCases calls f for every accelerator view, CPU body and length (the per-thread body
// only on the CPU, and only up to maxPerThread elements).
func ewCases(t *testing.T, lengths []int, maxPerThread int, f func(t *testing.T, av *accelerator.View, perThread bool, n int)) {
	name := func(n int) string { return fmt.Sprintf("n=%d", n) }
	ewEach(t, lengths, name, func(n int) bool { return n <= maxPerThread }, f)
}

// ewEach calls f, in a subtest named by the view's accelerator, the body and name(c), for
// every accelerator view, CPU body and case c (the per-thread body only on the CPU, and
// only for the cases perThreadOK accepts).
func ewEach[C any](t *testing.T, cases []C, name func(C) string, perThreadOK func(C) bool,
	f func(t *testing.T, av *accelerator.View, perThread bool, c C)) {
	for _, av := range ewViews(t) {
		bodies := []ewBody{{"fast", false}}
		if av.Accelerator().Traits().HostMemory {
			bodies = append(bodies, ewBody{"perthread", true})
		}
		for _, b := range bodies {
			for _, c := range cases {
				if b.perThread && !perThreadOK(c) {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s/%s", av.Accelerator().Path(), b.name, name(c)), func(t *testing.T) {
					f(t, av, b.perThread, c)
				})
			}
		}
	}
}

// ewRandom returns n random elements of T; with dups, drawn from a small range so that
// values repeat. Float32 values include -0, +0 and both infinities.
func ewRandom[T Number](r *rand.Rand, n int, dups bool) []T {
	s := make([]T, n)
	var z T
	for i := range s {
		switch any(z).(type) {
		case float32:
			var f float32
			switch x := r.IntN(20); {
			case x == 0:
				f = float32(math.Copysign(0, -1))
			case x == 1:
				f = 0
			case x == 2:
				f = float32(math.Inf(1))
			case x == 3:
				f = float32(math.Inf(-1))
			case dups:
				f = float32(r.IntN(50)-25) / 4
			default:
				f = float32(r.NormFloat64() * 1e3)
			}
			s[i] = T(f)
		case int32:
			if dups {
				s[i] = T(int32(r.IntN(100) - 50))
			} else {
				s[i] = T(int32(r.Uint32()))
			}
		default:
			if dups {
				s[i] = T(uint32(r.IntN(100)))
			} else {
				s[i] = T(r.Uint32())
			}
		}
	}
	return s
}

func testAdd[T Number](t *testing.T, av *accelerator.View, perThread bool, n int) {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	a, b := ewRandom[T](r, n, false), ewRandom[T](r, n, false)
	var z T
	if _, ok := any(z).(float32); ok {
		// No infinities of opposite signs: their sum is a NaN, which == cannot compare.
		for i := range a {
			if math.IsInf(float64(a[i]), 0) {
				a[i] = 1
			}
		}
	}
	want := make([]T, n)
	for i := range want {
		want[i] = a[i] + b[i]
	}
	out := make([]T, n)
	va, vb, vo := arrayview.MustNew(runtime.Ext(n), a), arrayview.MustNew(runtime.Ext(n), b), arrayview.MustNew(runtime.Ext(n), out)
	aCopy, bCopy := append([]T(nil), a...), append([]T(nil), b...)
	require.NoError(t, addOp(av, va, vb, vo, perThread))
	require.NoError(t, vo.Synchronize())
	assert.Equal(t, want, out)
	require.NoError(t, va.Synchronize())
	require.NoError(t, vb.Synchronize())
	assert.Equal(t, aCopy, a, "a is read-only")
	assert.Equal(t, bCopy, b, "b is read-only")
	// In place: a += b.
	require.NoError(t, addOp(av, va, vb, va, perThread))
	require.NoError(t, va.Synchronize())
	assert.Equal(t, want, a)
}

func TestAdd(t *testing.T) {
	ewCases(t, ewLengths, 4097, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		t.Run("int32", func(t *testing.T) { testAdd[int32](t, av, perThread, n) })
		t.Run("uint32", func(t *testing.T) { testAdd[uint32](t, av, perThread, n) })
		t.Run("float32", func(t *testing.T) { testAdd[float32](t, av, perThread, n) })
	})
}

// ewCelsius is a named element type: its arithmetic is its underlying type's.
type ewCelsius int32

func TestAddNamedTypeAndSection(t *testing.T) {
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			a := []ewCelsius{-5, 7, 2147483647, 3, 4}
			b := []ewCelsius{5, -8, 1, 10, 20}
			out := make([]ewCelsius, 5)
			vo := arrayview.MustNew(runtime.Ext(5), out)
			require.NoError(t, Add(av, arrayview.MustNew(runtime.Ext(5), a), arrayview.MustNew(runtime.Ext(5), b), vo))
			require.NoError(t, vo.Synchronize())
			assert.Equal(t, []ewCelsius{0, -1, -2147483648, 13, 24}, out)

			// Sections with offsets: out[1:4] = a[2:5] + b[0:3].
			data := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
			whole := arrayview.MustNew(runtime.Ext(10), data)
			sa, err := whole.Section(runtime.Idx(2), runtime.Ext(3))
			require.NoError(t, err)
			sb, err := whole.Section(runtime.Idx(0), runtime.Ext(3))
			require.NoError(t, err)
			dst := make([]float32, 5)
			wdst := arrayview.MustNew(runtime.Ext(5), dst)
			so, err := wdst.Section(runtime.Idx(1), runtime.Ext(3))
			require.NoError(t, err)
			require.NoError(t, Add(av, sa, sb, so))
			require.NoError(t, wdst.Synchronize())
			assert.Equal(t, []float32{0, 4, 6, 8, 0}, dst)
		})
	}
}

func TestSaxpy(t *testing.T) {
	ewCases(t, ewLengths, 4097, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		r := rand.New(rand.NewPCG(uint64(n), 2))
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		const alpha = 2.5
		want := make([]float32, n)
		for i := range want {
			want[i] = float32(alpha*x[i]) + y[i]
		}
		vx, vy := arrayview.MustNew(runtime.Ext(n), x), arrayview.MustNew(runtime.Ext(n), y)
		require.NoError(t, saxpyOp(av, alpha, vx, vy, perThread))
		require.NoError(t, vy.Synchronize())
		for i := range want {
			// A GPU may fuse the multiply-add: allow one rounding of difference.
			require.InDelta(t, want[i], y[i], 1e-6*(1+math.Abs(float64(want[i]))), "y[%d]", i)
		}
	})
}

func testFill[T Number](t *testing.T, av *accelerator.View, perThread bool, n int, value T) {
	r := rand.New(rand.NewPCG(uint64(n), 3))
	data := ewRandom[T](r, n, false)
	v := arrayview.MustNew(runtime.Ext(n), data)
	before := av.Stats()
	require.NoError(t, fillOp(av, v, value, perThread))
	require.NoError(t, v.Synchronize())
	if !av.Accelerator().Traits().HostMemory {
		assert.Equal(t, before.BytesUp, av.Stats().BytesUp, "Fill uploads nothing")
	}
	for i, x := range data {
		if ewBitsOf(x) != ewBitsOf(value) {
			require.Equal(t, value, x, "element %d", i)
		}
	}
}

func TestFill(t *testing.T) {
	ewCases(t, ewLengths, 4097, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		t.Run("int32", func(t *testing.T) { testFill(t, av, perThread, n, int32(-7)) })
		t.Run("uint32", func(t *testing.T) { testFill(t, av, perThread, n, uint32(0xdeadbeef)) })
		t.Run("float32", func(t *testing.T) { testFill(t, av, perThread, n, float32(-1.5)) })
		t.Run("-0", func(t *testing.T) { testFill(t, av, perThread, n, float32(math.Copysign(0, -1))) })
	})
}

func TestElementwiseShapeErrors(t *testing.T) {
	v3 := arrayview.MustNew(runtime.Ext(3), []float32{1, 2, 3})
	v4 := arrayview.MustNew(runtime.Ext(4), []float32{1, 2, 3, 4})
	m := arrayview.MustNew(runtime.Ext(2, 2), []float32{1, 2, 3, 4})
	for _, c := range []struct {
		name string
		err  error
		want []string
	}{
		{"Add lengths", Add(nil, v3, v4, v3), []string{"Add", "a has length 3", "b has length 4"}},
		{"Add out length", Add(nil, v3, v3, v4), []string{"out has length 4"}},
		{"Add rank", Add(nil, v3, v3, m), []string{"out has rank 2", "(2, 2)"}},
		{"Add nil", Add(nil, nil, v3, v3), []string{"a is nil"}},
		{"Saxpy lengths", Saxpy(nil, 2, v3, v4), []string{"Saxpy", "x has length 3", "y has length 4"}},
		{"Saxpy rank", Saxpy(nil, 2, m, v4), []string{"x has rank 2"}},
		{"Fill rank", Fill(nil, m, 1), []string{"Fill", "v has rank 2"}},
		{"Fill nil", Fill[int32](nil, nil, 1), []string{"v is nil"}},
	} {
		t.Run(c.name, func(t *testing.T) { requireShapeError(t, c.err, "", c.want) })
	}
	// The data stays intact.
	got := make([]float32, 4)
	require.NoError(t, v4.CopyTo(got))
	assert.Equal(t, []float32{1, 2, 3, 4}, got)
	require.NoError(t, m.CopyTo(got))
	assert.Equal(t, []float32{1, 2, 3, 4}, got)
}

// TestTypeCode checks the element type codes, named types included.
func TestTypeCode(t *testing.T) {
	assert.Equal(t, int32(0), typeCode[int32]())
	assert.Equal(t, int32(1), typeCode[uint32]())
	assert.Equal(t, int32(2), typeCode[float32]())
	assert.Equal(t, int32(0), typeCode[ewCelsius]())
}

// TestElementwiseSections runs Add, Saxpy and Fill on sections that start at several
// offsets (views' bases that are not multiples of 4 elements included) and lengths around
// the four strides of a thread's round and the tile.
func TestElementwiseSections(t *testing.T) {
	ewCases(t, []int{1, 4, 7, 1029, 4100}, 1029, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		for _, offs := range [][3]int{{0, 0, 0}, {1, 1, 1}, {0, 4, 8}, {3, 0, 2}, {2, 2, 0}} {
			t.Run(fmt.Sprint(offs), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(n), uint64(offs[0]+4*offs[1]+16*offs[2])))
				sec := func(off int) ([]float32, *arrayview.View[float32]) {
					back := make([]float32, n+11)
					for i := range back {
						back[i] = float32(r.IntN(1000))
					}
					v, err := arrayview.MustNew(runtime.Ext(len(back)), back).Section(runtime.Idx(off), runtime.Ext(n))
					require.NoError(t, err)
					return back, v
				}
				a, va := sec(offs[0])
				b, vb := sec(offs[1])
				o, vo := sec(offs[2])
				wantO := slices.Clone(o)
				wantB := slices.Clone(b)
				for i := range n {
					wantO[offs[2]+i] = a[offs[0]+i] + b[offs[1]+i]
					wantB[offs[1]+i] = float32(2*a[offs[0]+i]) + b[offs[1]+i]
				}
				require.NoError(t, addOp(av, va, vb, vo, perThread))
				require.NoError(t, vo.Synchronize())
				require.Equal(t, wantO, o, "Add")
				require.NoError(t, saxpyOp(av, 2, va, vb, perThread))
				require.NoError(t, vb.Synchronize())
				require.Equal(t, wantB, b, "Saxpy (exact: small integers)")
				wantA := slices.Clone(a)
				for i := range n {
					wantA[offs[0]+i] = -3
				}
				require.NoError(t, fillOp(av, va, -3, perThread))
				require.NoError(t, va.Synchronize())
				require.Equal(t, wantA, a, "Fill")
			})
		}
	})
}

// TestElementwiseGridStride runs Add, Saxpy and Fill with one tile of ewTile threads (the
// grid of a GPU with few multiprocessors would be larger), so that each thread loops over
// many rounds of four strides and a remainder of fewer.
func TestElementwiseGridStride(t *testing.T) {
	saved := ewMaxGroups
	ewMaxGroups = 1
	t.Cleanup(func() { ewMaxGroups = saved })
	ewCases(t, []int{ewTile - 1, 4 * ewTile, 4*ewTile + 1, 11*ewTile + 7}, 4096, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		r := rand.New(rand.NewPCG(uint64(n), 3))
		a, b := ewRandom[int32](r, n, false), ewRandom[int32](r, n, false)
		x, y := make([]float32, n), make([]float32, n)
		for i := range n {
			x[i], y[i] = float32(r.IntN(200)-100)/4, float32(r.IntN(200)-100)/4
		}
		wantSum, wantY := make([]int32, n), make([]float32, n)
		for i := range n {
			wantSum[i] = a[i] + b[i]
			wantY[i] = float32(0.5*x[i]) + y[i]
		}
		out := make([]int32, n)
		va, vb, vo := arrayview.MustNew(runtime.Ext(n), a), arrayview.MustNew(runtime.Ext(n), b), arrayview.MustNew(runtime.Ext(n), out)
		require.NoError(t, addOp(av, va, vb, vo, perThread))
		require.NoError(t, vo.Synchronize())
		require.Equal(t, wantSum, out, "Add")
		vx, vy := arrayview.MustNew(runtime.Ext(n), x), arrayview.MustNew(runtime.Ext(n), y)
		require.NoError(t, saxpyOp(av, 0.5, vx, vy, perThread))
		require.NoError(t, vy.Synchronize())
		require.Equal(t, wantY, y, "Saxpy (exact: quarters times a half)")
		require.NoError(t, fillOp(av, vo, 7, perThread))
		require.NoError(t, vo.Synchronize())
		require.Equal(t, slices.Repeat([]int32{7}, n), out, "Fill")
	})
}
