package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// smallInts returns n random integers in [-3, 3] as T: their products' sums stay exact
// in float32 (and in float16 for the float16 inputs) at every K tested.
func smallInts[T any](r *rand.Rand, n int, conv func(int) T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = conv(r.IntN(7) - 3)
	}
	return s
}

// longKWant is the product of a (m x k) and b (k x n) of small integers, exactly.
func longKWant(a, b []int, m, n, k int) []int {
	want := make([]int, m*n)
	for i := range m {
		for p := range k {
			for j := range n {
				want[i*n+j] += a[i*k+p] * b[p*n+j]
			}
		}
	}
	return want
}

// longK is a product of small integers, a (m x k) by b (k x n), and its exact result.
type longK struct {
	m, n, k int
	a, b    []int
	want    []int
}

// wantOf is the exact result as T.
func wantOf[T any](p longK, conv func(int) T) []T { return smallIntsOf(p.want, conv) }

// TestMatMulLongK multiplies matrices with K past lavapipe's loop cap (65,535 iterations
// of a thread's loops in all: before, MatMul of ones 1 x 50000 x 1 gave 45,584 without an
// error) on every accelerator: each product is exact (small integers), split over K where
// the device has the cap; a float16 c, which cannot be split, is a FeatureError there and
// left as it was.
func TestMatMulLongK(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 65535))
	id := func(x int) int { return x }
	for _, av := range ewViews(t) {
		for _, k := range []int{50000, 65536 + r.IntN(4096), 140001} {
			p := longK{m: 2, n: 3, k: k, a: smallInts(r, 2*k, id), b: smallInts(r, k*3, id)}
			p.want = longKWant(p.a, p.b, p.m, p.n, k)
			name := fmt.Sprintf("%s/K=%d", av.Accelerator().Path(), k)
			t.Run(name+"/MatMul", func(t *testing.T) { longKFloat32(t, av, p) })
			t.Run(name+"/MatMulSimple_int32", func(t *testing.T) {
				i32 := func(x int) int32 { return int32(x) }
				c := make([]int32, p.m*p.n)
				cv := arrayview.MustNew(runtime.Ext(p.m, p.n), c)
				require.NoError(t, MatMulSimple(av, arrayview.MustNew(runtime.Ext(p.m, k), smallIntsOf(p.a, i32)),
					arrayview.MustNew(runtime.Ext(k, p.n), smallIntsOf(p.b, i32)), cv))
				require.NoError(t, cv.Synchronize())
				assert.Equal(t, wantOf(p, i32), c)
			})
			t.Run(name+"/MatMulI8", func(t *testing.T) {
				i8 := func(x int) int8 { return int8(x) }
				c := make([]int32, p.m*p.n)
				cv := arrayview.MustNew(runtime.Ext(p.m, p.n), c)
				require.NoError(t, MatMulI8(av, arrayview.MustNew(runtime.Ext(p.m, k), smallIntsOf(p.a, i8)),
					arrayview.MustNew(runtime.Ext(k, p.n), smallIntsOf(p.b, i8)), cv))
				require.NoError(t, cv.Synchronize())
				assert.Equal(t, wantOf(p, func(x int) int32 { return int32(x) }), c)
			})
			t.Run(name+"/MatMulF16", func(t *testing.T) { longKF16(t, av, p, r) })
		}
	}
}

// longKFloat32 checks p by MatMulWith's float32 kernels: tiled, simple, a small tile and
// b transposed.
func longKFloat32(t *testing.T, av *accelerator.View, p longK) {
	f32 := func(x int) float32 { return float32(x) }
	a, b := smallIntsOf(p.a, f32), smallIntsOf(p.b, f32)
	bt := make([]float32, p.n*p.k) // b transposed: N x K
	for q := range p.k {
		for j := range p.n {
			bt[j*p.k+q] = b[q*p.n+j]
		}
	}
	for _, opt := range []MatMulOptions{{}, {Simple: true}, {Tile: [2]int{4, 4}}, {TransB: true}} {
		c := make([]float32, p.m*p.n)
		cv := arrayview.MustNew(runtime.Ext(p.m, p.n), c)
		bv := arrayview.MustNew(runtime.Ext(p.k, p.n), b)
		if opt.TransB {
			bv = arrayview.MustNew(runtime.Ext(p.n, p.k), bt)
		}
		require.NoError(t, MatMulWith(av, arrayview.MustNew(runtime.Ext(p.m, p.k), a), bv, cv, opt))
		require.NoError(t, cv.Synchronize())
		assert.Equal(t, wantOf(p, f32), c, "%+v", opt)
	}
}

// longKF16 checks p by MatMulF16 with a float32 c, then a float16 c: exact where the
// device runs long loops, a FeatureError naming K and c as it was where it does not.
func longKF16(t *testing.T, av *accelerator.View, p longK, r *rand.Rand) {
	f16 := func(x int) half.Float16 { return half.FromFloat32(float32(x)) }
	av16 := arrayview.MustNew(runtime.Ext(p.m, p.k), smallIntsOf(p.a, f16))
	bv16 := arrayview.MustNew(runtime.Ext(p.k, p.n), smallIntsOf(p.b, f16))
	c := make([]float32, p.m*p.n)
	cv := arrayview.MustNew(runtime.Ext(p.m, p.n), c)
	require.NoError(t, MatMulF16(av, av16, bv16, cv))
	require.NoError(t, cv.Synchronize())
	assert.Equal(t, wantOf(p, func(x int) float32 { return float32(x) }), c)

	h := smallInts(r, p.m*p.n, f16)
	orig := slices.Clone(h)
	hv := arrayview.MustNew(runtime.Ext(p.m, p.n), h)
	err := MatMulF16(av, av16, bv16, hv)
	if av.Accelerator().Limits().MaxLoopIterations == 0 {
		require.NoError(t, err)
		require.NoError(t, hv.Synchronize())
		assert.Equal(t, wantOf(p, f16), h)
		return
	}
	var fe *accelerator.FeatureError
	require.ErrorAs(t, err, &fe)
	assert.ErrorIs(t, err, accelerator.ErrUnsupportedFeature)
	assert.Contains(t, err.Error(), fmt.Sprintf("K = %d", p.k))
	require.NoError(t, hv.Synchronize())
	assert.Equal(t, orig, h, "c as it was")
}

// smallIntsOf converts the integers s with conv.
func smallIntsOf[T any](s []int, conv func(int) T) []T {
	out := make([]T, len(s))
	for i, x := range s {
		out[i] = conv(x)
	}
	return out
}

// TestLongLoopBuiltins runs the built-ins whose threads loop over their input (grid
// strides, look-backs, bins) at a length where a thread of a naive grid would pass
// lavapipe's loop cap, on every accelerator, against Go: Reduce, the scans, Histogram,
// Fill and Sort.
func TestLongLoopBuiltins(t *testing.T) {
	if testing.Short() {
		t.Skip("4 Mi elements per call")
	}
	r := rand.New(rand.NewPCG(amptest.Seed(t), 65536))
	n := 1<<22 + r.IntN(1000)
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(r.IntN(2001) - 1000)
	}
	var sum int32
	scan := make([]int32, n)
	for i, x := range in {
		sum += x
		scan[i] = sum
	}
	f := make([]float32, n)
	hist := make([]uint32, 10)
	for i, x := range in {
		f[i] = float32(x)
		hist[min(int(x+1000)*10/2000, 9)]++
	}
	sorted := slices.Clone(in)
	slices.Sort(sorted)
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			iv := arrayview.MustNew(runtime.Ext(n), slices.Clone(in))
			got, err := Reduce(av, iv, Sum)
			require.NoError(t, err)
			assert.Equal(t, sum, got, "Reduce")
			out := make([]int32, n)
			ov := arrayview.MustNew(runtime.Ext(n), out)
			require.NoError(t, InclusiveScan(av, iv, ov))
			require.NoError(t, ov.Synchronize())
			assert.True(t, slices.Equal(scan, out), "InclusiveScan")
			h, err := Histogram(av, arrayview.MustNew(runtime.Ext(n), f), 10, -1000, 1000)
			require.NoError(t, err)
			assert.Equal(t, hist, h, "Histogram")
			require.NoError(t, Fill(av, ov, 7))
			require.NoError(t, ov.Synchronize())
			assert.Equal(t, -1, slices.IndexFunc(out, func(x int32) bool { return x != 7 }), "Fill")
			require.NoError(t, Sort(av, iv))
			require.NoError(t, iv.Synchronize())
			d, err := iv.Data()
			require.NoError(t, err)
			assert.True(t, slices.Equal(sorted, d), "Sort")
		})
	}
}
