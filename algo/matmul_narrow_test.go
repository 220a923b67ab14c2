package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// i8Random returns n random int8 values over the whole range, -128 included.
func i8Random(r *rand.Rand, n int) []int8 {
	s := make([]int8, n)
	for i := range s {
		s[i] = int8(r.Uint32())
	}
	return s
}

// i8Want is the product of a (m x k) and b (k x n), summed in int64 and checked to fit
// int32, so that every kernel must match it exactly.
func i8Want(t *testing.T, a, b []int8, m, n, k int) []int32 {
	t.Helper()
	want := make([]int32, m*n)
	row := make([]int64, n)
	for i := range m {
		clear(row)
		for p := range k {
			x := int64(a[i*k+p])
			for j, y := range b[p*n : (p+1)*n] {
				row[j] += x * int64(y)
			}
		}
		for j, v := range row {
			require.Equal(t, int64(int32(v)), v, "reference overflows int32")
			want[i*n+j] = int32(v)
		}
	}
	return want
}

// i8Multiply multiplies random m x k and k x n int8 matrices on av with opt and checks c
// against i8Want exactly.
func i8Multiply(t *testing.T, r *rand.Rand, av *accelerator.View, m, n, k int, opt MatMulI8Options) {
	a, b := i8Random(r, m*k), i8Random(r, k*n)
	got := make([]int32, m*n)
	for i := range got {
		got[i] = int32(r.Uint32()) // stale contents must not leak into the result
	}
	va, vb, vc := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), got)
	defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
	a0, b0 := slices.Clone(a), slices.Clone(b)
	err := MatMulI8With(av, va, vb, vc, opt)
	amptest.SkipUnsupported(t, err)
	require.NoError(t, err)
	require.NoError(t, vc.Synchronize())
	want := i8Want(t, a, b, m, n, k)
	for i := range want {
		if got[i] != want[i] {
			require.Failf(t, "wrong element", "c[%d][%d] = %d, want %d", i/n, i%n, got[i], want[i])
		}
	}
	require.Equal(t, a0, a, "a changed")
	require.Equal(t, b0, b, "b changed")
}

// TestMatMulI8 multiplies int8 matrices of odd and round sizes with every path each
// accelerator has, against an exact int64 reference.
func TestMatMulI8(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	sizes := [][3]int{{1, 1, 1}, {17, 17, 17}, {64, 48, 100}, {129, 130, 131}, {256, 256, 256}, {1100, 200, 64}}
	for _, av := range ewViews(t) {
		acc := av.Accelerator()
		paths := []MatMulPath{MatMulAuto, MatMulShared}
		if _, ok := MatMulI8Cooperative(acc); ok {
			paths = append(paths, MatMulCooperative)
		}
		sz := sizes
		if !acc.Traits().HostMemory {
			sz = append(slices.Clone(sizes), [3]int{1000, 1000, 1000}, [3]int{1023, 1025, 513})
		}
		for _, p := range paths {
			for _, s := range sz {
				t.Run(fmt.Sprintf("%s/%v/%dx%dx%d", acc.Path(), p, s[0], s[1], s[2]), func(t *testing.T) {
					i8Multiply(t, r, av, s[0], s[1], s[2], MatMulI8Options{Path: p})
				})
			}
		}
	}
}

// TestMatMulI8Definitions runs the int8 kernels' Go definitions (the Tiled methods, per
// thread) on the CPU, and checks them against the reference as the GPU bodies are.
func TestMatMulI8Definitions(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	av, err := accelerator.CPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer func() { assert.NoError(t, av.Close()) }()
	for _, coop := range []bool{false, true} {
		m, n, k := 37, 45, 70
		a, b := i8Random(r, m*k), i8Random(r, k*n)
		got := make([]int32, m*n)
		va, vb, vc := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), got)
		args := matMulI8Args{A: va.ReadOnly(), B: vb.ReadOnly(), C: vc, M: int32(m), N: int32(n), K: int32(k)}
		var kern runtime.TiledKernel = matMulI8Tiled{args}
		dom := runtime.Ext(ceilDiv(m, 16)*2, ceilDiv(n, 16)*2).Tile(2, 2)
		if coop {
			kern, dom = matMulI8Coop{args, "matmul_coop_k_i8", matMulI8Geom}, matMulI8Geom.domain(m, n)
		}
		restore := setHooks(perThreadHooks(true))
		require.NoError(t, dispatchTiled(av, dom, kern))
		restore()
		require.NoError(t, vc.Synchronize())
		assert.Equal(t, i8Want(t, a, b, m, n, k), got, "coop %v", coop)
		_, _, _ = va.Close(), vb.Close(), vc.Close()
	}
}

// TestMatMulI8CoopEmulated runs the int8 cooperative kernel's GLSL with the matrices
// emulated (matmul_coop_emu_i8) on every Vulkan device: everything of matmul_coop_k_i8
// but the matrix instructions (16 int8 a uvec4, packing at the edges, K steps of 32).
func TestMatMulI8CoopEmulated(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	sizes := [][3]int{{1, 1, 1}, {128, 128, 64}, {129, 130, 131}, {200, 33, 70}, {17, 300, 45}}
	for _, av := range ewViews(t) {
		acc := av.Accelerator()
		if acc.Traits().HostMemory || !acc.Supports8BitStorage() {
			continue
		}
		for _, s := range sizes {
			m, n, k := s[0], s[1], s[2]
			t.Run(fmt.Sprintf("%s/%dx%dx%d", acc.Path(), m, n, k), func(t *testing.T) {
				a, b := i8Random(r, m*k), i8Random(r, k*n)
				got := make([]int32, m*n)
				va, vb, vc := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), got)
				defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
				args := matMulI8Args{A: va.ReadOnly(), B: vb.ReadOnly(), C: vc, M: int32(m), N: int32(n), K: int32(k)}
				vc.DiscardData()
				require.NoError(t, dispatchTiled(av, matMulI8Emulated.domain(m, n), emulatedI8Coop{matMulI8Coop{args, "", matMulI8Emulated}}))
				require.NoError(t, vc.Synchronize())
				assert.Equal(t, i8Want(t, a, b, m, n, k), got)
			})
		}
	}
}

// TestMatMulI8Sections multiplies sections of larger int8 arrays (unaligned bases and
// strides, which take the kernels' element-by-element loads) into a section of c.
func TestMatMulI8Sections(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			m, n, k := 33, 35, 67
			ad, bd := i8Random(r, (m+3)*(k+5)), i8Random(r, (k+1)*(n+7))
			cd := make([]int32, (m+2)*(n+1))
			va, vb, vc := arrayview.MustNew(runtime.Ext(m+3, k+5), ad), arrayview.MustNew(runtime.Ext(k+1, n+7), bd), arrayview.MustNew(runtime.Ext(m+2, n+1), cd)
			defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
			sa, sb, sc := mmSections(t, va, vb, vc, [3]runtime.Index{runtime.Idx(1, 3), runtime.Idx(1, 5), runtime.Idx(2, 1)}, m, n, k)
			err := MatMulI8(av, sa, sb, sc)
			amptest.SkipUnsupported(t, err)
			require.NoError(t, err)
			require.NoError(t, vc.Synchronize())
			a, b := make([]int8, m*k), make([]int8, k*n)
			require.NoError(t, sa.CopyTo(a))
			require.NoError(t, sb.CopyTo(b))
			want := i8Want(t, a, b, m, n, k)
			for i := range m {
				assert.Equal(t, want[i*n:(i+1)*n], cd[(i+2)*(n+1)+1:(i+2)*(n+1)+1+n], "row %d", i)
			}
			for j := range n + 1 {
				assert.Zero(t, cd[j], "row 0 outside the section")
			}
		})
	}
}

// TestMatMulI8Errors checks the typed errors, and that no view is touched by a call that
// fails.
func TestMatMulI8Errors(t *testing.T) {
	for _, av := range ewViews(t) {
		acc := av.Accelerator()
		t.Run(acc.Path(), func(t *testing.T) {
			a, b, c := []int8{1, 2, 3, 4, 5, 6}, []int8{7, 8, 9, 10, 11, 12}, []int32{-1, -2, -3, -4}
			va, vb, vc := arrayview.MustNew(runtime.Ext(2, 3), a), arrayview.MustNew(runtime.Ext(3, 2), b), arrayview.MustNew(runtime.Ext(2, 2), c)
			defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
			bad := arrayview.MustNew(runtime.Ext(2, 2), []int8{1, 2, 3, 4})
			defer func() { _ = bad.Close() }()
			requireShapeError(t, MatMulI8(av, bad, vb, vc), "MatMulI8", []string{"a (2, 2) x b (3, 2)"})
			requireShapeError(t, MatMulI8(av, va, vb, nil), "MatMulI8", []string{"c is nil"})
			requireShapeError(t, MatMulI8With(av, va, vb, vc, MatMulI8Options{Path: MatMulPath(7)}), "MatMulI8", []string{"unknown path"})
			requireShapeError(t, MatMulI8With(av, va, vb, vc, MatMulI8Options{Path: MatMulShared, Tile: [2]int{64, 64}}), "MatMulI8", []string{"tile 64x64"})
			if _, ok := MatMulI8Cooperative(acc); !ok && acc.Supports8BitStorage() {
				var fe *accelerator.FeatureError
				require.ErrorAs(t, MatMulI8With(av, va, vb, vc, MatMulI8Options{Path: MatMulCooperative}), &fe)
				assert.Contains(t, fe.Error(), "16x16x32 int8")
			}
			require.NoError(t, vc.Synchronize())
			assert.Equal(t, []int32{-1, -2, -3, -4}, c, "c changed by failed calls")
			err := MatMulI8(av, va, vb, vc)
			amptest.SkipUnsupported(t, err)
			require.NoError(t, err)
			require.NoError(t, vc.Synchronize())
			assert.Equal(t, []int32{58, 64, 139, 154}, c)
		})
	}
}

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
					err := MatMulI8With(av, va, vb, vc, MatMulI8Options{TransA: tr[0], TransB: tr[1]})
					amptest.SkipUnsupported(t, err)
					require.NoError(t, err)
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
	err = transposeNarrow(av, in, vout)
	amptest.SkipUnsupported(t, err)
	require.NoError(t, err)
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
