package algo

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// transposeOf returns the rows x cols row-major matrix x transposed (cols x rows).
func transposeOf[T any](x []T, rows, cols int) []T {
	t := make([]T, len(x))
	for i := range rows {
		for j := range cols {
			t[j*rows+i] = x[i*cols+j]
		}
	}
	return t
}

// TestMatMulTransposed checks MatMulWith with TransA and TransB, all four combinations,
// float32 and int32, odd sizes (1023 x 1025 x 513 as the issue asks, on GPUs), on every
// accelerator, against the plain Go product of the untransposed matrices.
func TestMatMulTransposed(t *testing.T) {
	sizes := [][3]int{{1, 1, 1}, {17, 17, 17}, {33, 70, 129}, {200, 65, 31}}
	for _, av := range ewViews(t) {
		sz := sizes
		if !av.Accelerator().Traits().HostMemory && !testing.Short() {
			sz = append(slices.Clone(sizes), [3]int{1023, 1025, 513})
		}
		for _, s := range sz {
			name := fmt.Sprintf("%s/%dx%dx%d", av.Accelerator().Path(), s[0], s[1], s[2])
			t.Run(name+"/float32", func(t *testing.T) { testMatMulTrans[float32](t, av, s) })
			if s[0] < 1000 { // the large size's int32 reference would double the test's time
				t.Run(name+"/int32", func(t *testing.T) { testMatMulTrans[int32](t, av, s) })
			}
		}
	}
}

// testMatMulTrans multiplies random m x k and k x n matrices (s: m, n, k) on av with each
// combination of transposed operands, against one reference product.
func testMatMulTrans[T MatMulElem](t *testing.T, av *accelerator.View, s [3]int) {
	m, n, k := s[0], s[1], s[2]
	r := rand.New(rand.NewPCG(uint64(m*n), uint64(k)))
	a0, b0 := mmRandom[T](r, m*k), mmRandom[T](r, k*n)
	want := mmReference(a0, b0, m, n, k)
	for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		t.Run(fmt.Sprintf("transA=%v/transB=%v", tr[0], tr[1]), func(t *testing.T) {
			a, b, ea, eb := slices.Clone(a0), slices.Clone(b0), runtime.Ext(m, k), runtime.Ext(k, n)
			if tr[0] {
				a, ea = transposeOf(a0, m, k), runtime.Ext(k, m)
			}
			if tr[1] {
				b, eb = transposeOf(b0, k, n), runtime.Ext(n, k)
			}
			aIn, bIn := slices.Clone(a), slices.Clone(b)
			got := mmRandom[T](r, m*n) // old contents, never zeros
			va, vb, vc := arrayview.MustNew(ea, a), arrayview.MustNew(eb, b), arrayview.MustNew(runtime.Ext(m, n), got)
			defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
			require.NoError(t, MatMulWith(av, va, vb, vc, MatMulOptions{TransA: tr[0], TransB: tr[1]}))
			require.NoError(t, vc.Synchronize())
			require.NoError(t, va.Synchronize())
			require.NoError(t, vb.Synchronize())
			mmCheck(t, want, got, k)
			assert.Equal(t, aIn, a, "a is unchanged")
			assert.Equal(t, bIn, b, "b is unchanged")
		})
	}
}

// TestMatMulTransposedShapeErrors checks that transposed operands are checked by their
// transposed extents, with a *ShapeError naming them, and c left intact.
func TestMatMulTransposedShapeErrors(t *testing.T) {
	cases := []struct {
		name string
		a, b runtime.Extent
		opt  MatMulOptions
		msg  string
	}{
		{"a not transposed to fit", runtime.Ext(3, 4), runtime.Ext(4, 5), MatMulOptions{TransA: true}, "(a transposed)"},
		{"b not transposed to fit", runtime.Ext(3, 4), runtime.Ext(4, 5), MatMulOptions{TransB: true}, "(b transposed)"},
		{"both", runtime.Ext(4, 3), runtime.Ext(4, 5), MatMulOptions{TransA: true, TransB: true}, "(a and b transposed)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
			va := arrayview.MustNew(c.a, make([]float32, c.a.Size()))
			vb := arrayview.MustNew(c.b, make([]float32, c.b.Size()))
			vc := arrayview.MustNew(runtime.Ext(3, 5), out)
			err := MatMulWith(nil, va, vb, vc, c.opt)
			require.ErrorIs(t, err, ErrShape)
			assert.Contains(t, err.Error(), c.msg)
			assert.Equal(t, float32(15), out[14], "c is intact")
		})
	}
}

var mmTransN = flag.Int("matmul.trans.n", 1024, "BenchmarkMatMulTransposed's matrix side")

// BenchmarkMatMulTransposed compares MatMulWith with both operands transposed against the
// plain product of the same sizes on every accelerator (-matmul.trans.n, default 1024):
// the ratio metric is the plain time over the transposed one.
func BenchmarkMatMulTransposed(b *testing.B) {
	n := *mmTransN
	for _, av := range ewViews(b) {
		r := rand.New(rand.NewPCG(1, 2))
		va := arrayview.MustNew(runtime.Ext(n, n), mmRandom[float32](r, n*n))
		vb := arrayview.MustNew(runtime.Ext(n, n), mmRandom[float32](r, n*n))
		vc := arrayview.MustNew(runtime.Ext(n, n), make([]float32, n*n))
		run := func(opt MatMulOptions, reps int) float64 {
			require.NoError(b, MatMulWith(av, va, vb, vc, opt))
			require.NoError(b, av.Wait())
			best := 0.0
			for range reps {
				start := time.Now()
				require.NoError(b, MatMulWith(av, va, vb, vc, opt))
				require.NoError(b, av.Wait())
				if d := float64(time.Since(start)); best == 0 || d < best {
					best = d
				}
			}
			return best
		}
		b.Run(av.Accelerator().Path(), func(b *testing.B) {
			var plain, trans float64
			for range b.N {
				plain += run(MatMulOptions{}, 3)
				trans += run(MatMulOptions{TransA: true, TransB: true}, 3)
			}
			b.ReportMetric(plain/trans, "plain/transposed")
			b.ReportMetric(trans/float64(b.N)/1e6, "ms/transposed")
		})
		_, _, _ = va.Close(), vb.Close(), vc.Close()
	}
}
