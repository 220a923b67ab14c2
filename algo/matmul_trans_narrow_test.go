package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// transCombos are the four combinations of transposed operands (TransA, TransB).
var transCombos = [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}}

// narrowTransSizes returns the sizes (m, n, k) the transposed float16 and int8 products
// are tested with on av: odd ones, and 1023 x 1025 x 513 on GPUs.
func narrowTransSizes(av *accelerator.View) [][3]int {
	sizes := [][3]int{{1, 1, 1}, {17, 17, 17}, {33, 70, 129}, {200, 65, 31}}
	if !av.Accelerator().Traits().HostMemory && !testing.Short() {
		sizes = append(sizes, [3]int{1023, 1025, 513})
	}
	return sizes
}

// asTransposed returns x (rows x cols, row-major) as the operand passed with trans: x
// itself, or its transpose with the transposed extent.
func asTransposed[T any](x []T, rows, cols int, trans bool) ([]T, runtime.Extent) {
	if trans {
		return transposeOf(x, rows, cols), runtime.Ext(cols, rows)
	}
	return slices.Clone(x), runtime.Ext(rows, cols)
}

// TestMatMulI8Transposed multiplies int8 matrices passed transposed in every combination,
// on every accelerator, exactly against the product of the untransposed ones.
func TestMatMulI8Transposed(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, av := range ewViews(t) {
		for _, s := range narrowTransSizes(av) {
			m, n, k := s[0], s[1], s[2]
			a0, b0 := i8Random(r, m*k), i8Random(r, k*n)
			want := i8Want(t, a0, b0, m, n, k)
			for _, tr := range transCombos {
				t.Run(fmt.Sprintf("%s/%dx%dx%d/transA=%v/transB=%v", av.Accelerator().Path(), m, n, k, tr[0], tr[1]), func(t *testing.T) {
					a, ea := asTransposed(a0, m, k, tr[0])
					b, eb := asTransposed(b0, k, n, tr[1])
					aIn, bIn := slices.Clone(a), slices.Clone(b)
					got := make([]int32, m*n)
					va, vb, vc := arrayview.MustNew(ea, a), arrayview.MustNew(eb, b), arrayview.MustNew(runtime.Ext(m, n), got)
					defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
					require.NoError(t, MatMulI8With(av, va, vb, vc, MatMulI8Options{TransA: tr[0], TransB: tr[1]}))
					require.NoError(t, vc.Synchronize())
					require.Equal(t, want, got)
					assert.Equal(t, aIn, a, "a is unchanged")
					assert.Equal(t, bIn, b, "b is unchanged")
				})
			}
		}
	}
}

// TestMatMulF16Transposed is TestMatMulI8Transposed for float16 operands (float32 sums),
// against a float64 reference with f16Check's tolerance.
func TestMatMulF16Transposed(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, av := range ewViews(t) {
		if !av.Accelerator().Supports16BitStorage() {
			continue
		}
		for _, s := range narrowTransSizes(av) {
			m, n, k := s[0], s[1], s[2]
			a0, b0 := f16Random(r, m*k), f16Random(r, k*n)
			for _, tr := range transCombos {
				t.Run(fmt.Sprintf("%s/%dx%dx%d/transA=%v/transB=%v", av.Accelerator().Path(), m, n, k, tr[0], tr[1]), func(t *testing.T) {
					a, ea := asTransposed(a0, m, k, tr[0])
					b, eb := asTransposed(b0, k, n, tr[1])
					got := make([]float32, m*n)
					va, vb, vc := arrayview.MustNew(ea, a), arrayview.MustNew(eb, b), arrayview.MustNew(runtime.Ext(m, n), got)
					defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
					require.NoError(t, MatMulF16With(av, va, vb, vc, MatMulF16Options{TransA: tr[0], TransB: tr[1]}))
					require.NoError(t, vc.Synchronize())
					f16Check(t, a0, b0, got, m, n, k)
				})
			}
		}
	}
}

// TestTransposeNarrow checks that the 16- and 8-bit transposes move every bit: random
// float16 bit patterns (NaN payloads and negative zeros included) and int8 values, of
// sizes that leave partial blocks, sections included, on every accelerator.
func TestTransposeNarrow(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, av := range ewViews(t) {
		for _, s := range [][2]int{{1, 1}, {37, 70}, {64, 32}, {100, 3}} {
			rows, cols := s[0], s[1]
			t.Run(fmt.Sprintf("%s/%dx%d", av.Accelerator().Path(), rows, cols), func(t *testing.T) {
				h := make([]half.Float16, rows*cols)
				for i := range h {
					h[i] = half.Float16(r.Uint32())
				}
				testTransposeNarrow(t, av, h, rows, cols)
				testTransposeNarrow(t, av, i8Random(r, rows*cols), rows, cols)
			})
		}
	}
}

// testTransposeNarrow transposes x (rows x cols) on av, as a section of a larger view,
// and compares the result exactly with transposeOf.
func testTransposeNarrow[T half.Float16 | int8](t *testing.T, av *accelerator.View, x []T, rows, cols int) {
	big := make([]T, (rows+1)*(cols+2))
	for i := range rows {
		copy(big[(i+1)*(cols+2)+2:], x[i*cols:(i+1)*cols])
	}
	out := make([]T, cols*rows)
	vbig, vout := arrayview.MustNew(runtime.Ext(rows+1, cols+2), big), arrayview.MustNew(runtime.Ext(cols, rows), out)
	defer func() { _, _ = vbig.Close(), vout.Close() }()
	in, err := vbig.Section(runtime.Idx(1, 2), runtime.Ext(rows, cols))
	require.NoError(t, err)
	require.NoError(t, transposeNarrow(av, in, vout))
	require.NoError(t, vout.Synchronize())
	require.Equal(t, transposeOf(x, rows, cols), out)
}

// TestMatMulNarrowTransposedErrors checks that transposed float16 and int8 operands are
// checked by their transposed extents, with c left intact.
func TestMatMulNarrowTransposedErrors(t *testing.T) {
	c := []int32{1, 2, 3, 4, 5, 6}
	va, vb, vc := arrayview.MustNew(runtime.Ext(2, 3), make([]int8, 6)), arrayview.MustNew(runtime.Ext(3, 3), make([]int8, 9)), arrayview.MustNew(runtime.Ext(2, 3), c)
	defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
	requireShapeError(t, MatMulI8With(nil, va, vb, vc, MatMulI8Options{TransA: true}), "MatMulI8 (a transposed)", []string{"a (3, 2)"})
	h := arrayview.MustNew(runtime.Ext(2, 3), make([]half.Float16, 6))
	cf := arrayview.MustNew(runtime.Ext(2, 3), []float32{7, 8, 9, 10, 11, 12}) // a x b^T is 2 x 2
	defer func() { _, _ = h.Close(), cf.Close() }()
	requireShapeError(t, MatMulF16With(nil, h, h, cf, MatMulF16Options{TransB: true}), "MatMulF16 (b transposed)", nil)
	require.NoError(t, vc.Synchronize())
	require.NoError(t, cf.Synchronize())
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 6}, c)
}
