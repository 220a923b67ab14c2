package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// famLengths are the reduction family's conformance lengths: 1, small, around the vec4
// width, the workgroup and a pass's slice (256 threads, 4096-element scan blocks, 16384
// elements per GPU workgroup), primes, and 2^k±1.
var famLengths = []int{1, 2, 3, 4, 5, 7, 255, 1023, 1024, 1025, 4095, 4096, 4097, 16383, 16385, 65537, 100003}

// famPerThreadMax is the longest input the per-thread CPU bodies (a goroutine per thread)
// are checked on.
const famPerThreadMax = 5000

// famCase is one accelerator view and choice of bodies to check: on the CPU the fast
// bodies or the per-thread definitions, on a GPU with subgroup arithmetic the subgroup
// programs or the shared-memory ones.
type famCase struct {
	av *accelerator.View
	testHooks
}

func (c famCase) String() string {
	s := c.av.Accelerator().Path()
	if c.perThread {
		s += "/perthread"
	}
	if c.noSubgroups {
		s += "/shared"
	}
	switch c.scan {
	case scanMultiPass:
		s += "/multipass"
	case scanSinglePass:
		s += "/singlepass"
	}
	return s
}

// famCases returns the cases of every accelerator present (a new view each, closed at the
// end of the test).
func famCases(t testing.TB) []famCase {
	var cases []famCase
	for _, a := range accelerator.All() {
		v, err := a.CreateView(accelerator.Automatic)
		require.NoError(t, err, a.Path())
		t.Cleanup(func() { assert.NoError(t, v.Close()) })
		cases = append(cases, famCase{av: v})
		if a.Traits().HostMemory {
			cases = append(cases, famCase{av: v, testHooks: testHooks{perThread: true}})
		} else if useSubgroups(v) {
			cases = append(cases, famCase{av: v, testHooks: testHooks{noSubgroups: true}})
		}
	}
	require.NotEmpty(t, cases)
	return cases
}

// famData returns n values of T: integers over their whole range (so that sums wrap), or
// floats in [0, 1) (so that sums compare with a relative tolerance).
func famData[T Number](n int, seed uint64) []T {
	r := rand.New(rand.NewPCG(seed, 7))
	s := make([]T, n)
	for i := range s {
		switch typeCode[T]() {
		case 2:
			s[i] = T(r.Float32())
		default:
			s[i] = T(r.Uint32())
		}
	}
	return s
}

// refReduce is the reference: a left-to-right loop (float32 sums in float64).
func refReduce[T Number](op Op, s []T) (T, float64) {
	acc := identity[T](op)
	var f64 float64
	for _, x := range s {
		acc = combine(op, acc, x)
		f64 += float64(x)
	}
	return acc, f64
}

// checkReduce runs Reduce on view (of the values s) and compares with the reference.
func checkReduce[T Number](t *testing.T, c famCase, view *arrayview.View[T], s []T, op Op) {
	t.Helper()
	got, err := reduceOp(c.av, view, op, c.testHooks)
	require.NoError(t, err)
	want, f64 := refReduce(op, s)
	if typeCode[T]() == 2 && op == Sum {
		assert.InEpsilon(t, f64, float64(got), 1e-5, "n=%d", len(s))
	} else {
		assert.Equal(t, want, got, "n=%d", len(s))
	}
}

func testReduce[T Number](t *testing.T) {
	for _, c := range famCases(t) {
		for _, n := range famLengths {
			if c.perThread && n > famPerThreadMax {
				continue
			}
			s := famData[T](n, uint64(n))
			keep := append([]T(nil), s...)
			view := arrayview.MustNew(runtime.Ext(n), s)
			for _, op := range []Op{Sum, Min, Max} {
				t.Run(fmt.Sprintf("%s/%v/n=%d", c, op, n), func(t *testing.T) {
					checkReduce(t, c, view, s, op)
				})
			}
			require.NoError(t, view.Close())
			require.Equal(t, keep, s, "Reduce changed its input")
		}
	}
}

func TestReduceInt32(t *testing.T)   { testReduce[int32](t) }
func TestReduceUint32(t *testing.T)  { testReduce[uint32](t) }
func TestReduceFloat32(t *testing.T) { testReduce[float32](t) }

// TestReduceExtremes: the identities and the ends of each type's range.
func TestReduceExtremes(t *testing.T) {
	for _, c := range famCases(t) {
		t.Run(c.String(), func(t *testing.T) {
			i := []int32{5, math.MinInt32, 7, math.MaxInt32, -1}
			checkReduce(t, c, arrayview.MustNew(runtime.Ext(len(i)), i), i, Min)
			checkReduce(t, c, arrayview.MustNew(runtime.Ext(len(i)), i), i, Max)
			u := []uint32{5, 0, math.MaxUint32, 1 << 31}
			checkReduce(t, c, arrayview.MustNew(runtime.Ext(len(u)), u), u, Min)
			checkReduce(t, c, arrayview.MustNew(runtime.Ext(len(u)), u), u, Max)
			inf := float32(math.Inf(1))
			f := []float32{-3, inf, -inf, 2, -0.5}
			checkReduce(t, c, arrayview.MustNew(runtime.Ext(len(f)), f), f, Min)
			checkReduce(t, c, arrayview.MustNew(runtime.Ext(len(f)), f), f, Max)
			one := []float32{-inf}
			checkReduce(t, c, arrayview.MustNew(runtime.Ext(1), one), one, Max)
		})
	}
}

// TestReduceSections reduces sections at every alignment (the GPU body's vector loads
// need 16-byte alignment) and a named element type.
func TestReduceSections(t *testing.T) {
	type celsius float32
	const n = 40000
	s := famData[int32](n, 1)
	f := famData[celsius](n, 2)
	for _, c := range famCases(t) {
		whole := arrayview.MustNew(runtime.Ext(n), s)
		wholeF := arrayview.MustNew(runtime.Ext(n), f)
		for _, off := range []int{0, 1, 2, 3, 4, 5} {
			m := n - 2*off - 1
			if c.perThread {
				m = famPerThreadMax - off
			}
			t.Run(fmt.Sprintf("%s/off=%d", c, off), func(t *testing.T) {
				sec, err := whole.Section(runtime.Idx(off), runtime.Ext(m))
				require.NoError(t, err)
				checkReduce(t, c, sec, s[off:off+m], Sum)
				checkReduce(t, c, sec, s[off:off+m], Max)
				require.NoError(t, sec.Close())
				secF, err := wholeF.Section(runtime.Idx(off), runtime.Ext(m))
				require.NoError(t, err)
				checkReduce(t, c, secF, f[off:off+m], Sum)
				checkReduce(t, c, secF, f[off:off+m], Min)
				require.NoError(t, secF.Close())
			})
		}
		require.NoError(t, whole.Close())
		require.NoError(t, wholeF.Close())
	}
}

// TestReduceManyPasses shrinks the passes so that a reduction takes three or more, and
// runs small workgroups.
func TestReduceManyPasses(t *testing.T) {
	defer func(tile, per, maxG, cpuMin int) {
		reduceTile, reducePerThread, reduceMaxGroups, cpuMinChunk = tile, per, maxG, cpuMin
	}(reduceTile, reducePerThread, reduceMaxGroups, cpuMinChunk)
	const n = 100003
	s := famData[uint32](n, 3)
	f := famData[float32](n, 4)
	for _, tile := range []int{32, 128} {
		reduceTile, reducePerThread, reduceMaxGroups, cpuMinChunk = tile, 1, 1000, 64
		for _, c := range famCases(t) {
			if c.perThread {
				continue
			}
			t.Run(fmt.Sprintf("%s/tile=%d", c, tile), func(t *testing.T) {
				if c.av.Accelerator().Traits().Wide {
					require.GreaterOrEqual(t, len(reducePlan(c.av.Accelerator(), n)), 2)
				}
				checkReduce(t, c, arrayview.MustNew(runtime.Ext(n), s), s, Sum)
				checkReduce(t, c, arrayview.MustNew(runtime.Ext(n), s), s, Min)
				checkReduce(t, c, arrayview.MustNew(runtime.Ext(n), f), f, Sum)
			})
		}
	}
}

// TestReduceArray reduces an Array, with no view given: it runs where the array lives.
func TestReduceArray(t *testing.T) {
	for _, c := range famCases(t) {
		if c.perThread {
			continue
		}
		s := famData[int32](3000, 5)
		a, err := arrayview.NewArray(c.av, runtime.Ext(len(s)), s)
		require.NoError(t, err)
		got, err := Reduce(nil, a.View, Max)
		require.NoError(t, err)
		want, _ := refReduce(Max, s)
		assert.Equal(t, want, got, c.String())
		require.NoError(t, a.Close())
	}
}

func TestReduceErrors(t *testing.T) {
	av := accelerator.CPU()
	v, err := av.DefaultView()
	require.NoError(t, err)
	_, err = Reduce[float32](v, nil, Sum)
	var se *ShapeError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), "in is nil")
	m := arrayview.MustNew(runtime.Ext(2, 3), make([]float32, 6))
	_, err = Reduce(v, m, Sum)
	require.ErrorIs(t, err, ErrShape)
	assert.Contains(t, err.Error(), "rank 2")
	one := arrayview.MustNew(runtime.Ext(1), []float32{1})
	_, err = Reduce(v, one, Op(7))
	require.ErrorIs(t, err, ErrUnknownOp)
	assert.Contains(t, err.Error(), "Op(7)")
	assert.Equal(t, "Sum Min Max Op(-1)", fmt.Sprint(Sum, Min, Max, Op(-1)))
}
