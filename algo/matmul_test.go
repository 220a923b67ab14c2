package algo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mmRandom returns n random elements: small integers, so that float32 sums are nearly exact.
func mmRandom[T MatMulElem](r *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(r.IntN(17) - 8)
		if _, ok := any(s[i]).(float32); ok {
			s[i] += T(r.Float32())
		}
	}
	return s
}

// mmReference is the plain Go C = A x B.
func mmReference[T MatMulElem](a, b []T, m, n, k int) []T {
	c := make([]T, m*n)
	for i := range m {
		for j := range n {
			var s T
			for p := range k {
				s += a[i*k+p] * b[p*n+j]
			}
			c[i*n+j] = s
		}
	}
	return c
}

// mmCheck compares got with want: int32 exactly, float32 to a relative tolerance.
func mmCheck[T MatMulElem](t *testing.T, want, got []T, k int) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		w, g := float64(want[i]), float64(got[i])
		if _, ok := any(want[i]).(int32); ok {
			require.Equal(t, want[i], got[i], "element %d", i)
			continue
		}
		require.LessOrEqual(t, math.Abs(w-g), 1e-5*float64(k)*(8+math.Abs(w)), "element %d: want %v, got %v", i, w, g)
	}
}

// mmSizes are M, N, K: edges of every kind, and blocks wholly inside (the GPU's unchecked
// path: aligned rows, K a multiple of the step) with the 4 x 4 tile (32 x 32) and the
// default one (64 x 128), and a grid of 11 x 3 default blocks (700 x 300).
var mmSizes = [][3]int{{1, 1, 1}, {3, 5, 7}, {4, 4, 4}, {65, 33, 17}, {129, 130, 131}, {17, 129, 4}, {32, 32, 32}, {130, 132, 64}, {700, 300, 40}}

// mmKernels are the kernel choices every size is tested with.
var mmKernels = []MatMulOptions{{Simple: true}, {}, {Tile: [2]int{16, 16}}, {Tile: [2]int{8, 8}}, {Tile: [2]int{4, 4}}}

func testMatMul[T MatMulElem](t *testing.T) { testMatMulOn[T](t, false) }

// testMatMulOn runs the conformance tests of T on every accelerator, or only the CPU's
// fast bodies (the blocked kernel).
func testMatMulOn[T MatMulElem](t *testing.T, cpuOnly bool) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, av := range ewViews(t) {
		if cpuOnly && !av.Accelerator().Traits().HostMemory {
			continue
		}
		for _, opt := range mmKernels {
			for _, perThread := range []bool{false, true} {
				if perThread && (cpuOnly || !av.Accelerator().Traits().HostMemory) {
					continue
				}
				for _, sz := range mmSizes {
					m, n, k := sz[0], sz[1], sz[2]
					if perThread && !opt.Simple && m*n*k > 40000 {
						continue // a goroutine per thread: keep -race fast
					}
					if m*n*k > 1e6 && opt.Tile != [2]int{} {
						continue // the largest size with the default tile only
					}
					name := av.Accelerator().Path() + "/" + opt.String()
					if perThread {
						name += "/perthread"
					}
					t.Run(name+"/"+runtime.Ext(m, n, k).String(), func(t *testing.T) {
						a, b := mmRandom[T](r, m*k), mmRandom[T](r, k*n)
						a0, b0 := append([]T(nil), a...), append([]T(nil), b...)
						c := make([]T, m*n)
						for i := range c {
							c[i] = 99
						}
						av1, bv, cv := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), c)
						require.NoError(t, matMulOp(av, av1, bv, cv, opt, perThread))
						require.NoError(t, cv.Synchronize())
						mmCheck(t, mmReference(a0, b0, m, n, k), c, k)
						assert.Equal(t, a0, a, "a is unchanged")
						assert.Equal(t, b0, b, "b is unchanged")
						for _, v := range []*arrayview.View[T]{av1, bv, cv} {
							require.NoError(t, v.Close())
						}
					})
				}
			}
		}
	}
}

func TestMatMulInt32(t *testing.T)   { testMatMul[int32](t) }
func TestMatMulFloat32(t *testing.T) { testMatMul[float32](t) }

// TestMatMulPortable runs the CPU's blocked kernel without the wide (AVX2) micro-kernels,
// where they are used.
func TestMatMulPortable(t *testing.T) {
	if !matMulWide {
		t.Skip("the portable kernel is the only one here")
	}
	matMulWide = false
	defer func() { matMulWide = true }()
	t.Run("int32", func(t *testing.T) { testMatMulOn[int32](t, true) })
	t.Run("float32", func(t *testing.T) { testMatMulOn[float32](t, true) })
}

// mmInt is a named element type: it gets int32's program and kernels.
type mmInt int32

// TestMatMulNamedType multiplies matrices of a named int32 type, with values whose
// products wrap.
func TestMatMulNamedType(t *testing.T) {
	const m, n, k = 9, 21, 13
	a, b := make([]mmInt, m*k), make([]mmInt, k*n)
	for i := range a {
		a[i] = mmInt(int32(i*2654435761) | 1)
	}
	for i := range b {
		b[i] = mmInt(int32(i*40503) - 7)
	}
	want := mmReference(a, b, m, n, k)
	for _, av := range ewViews(t) {
		for _, opt := range mmKernels[:2] {
			t.Run(av.Accelerator().Path()+"/"+opt.String(), func(t *testing.T) {
				c := make([]mmInt, m*n)
				av1, bv, cv := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), c)
				require.NoError(t, MatMulWith(av, av1, bv, cv, opt))
				require.NoError(t, cv.Synchronize())
				assert.Equal(t, want, c)
				for _, v := range []*arrayview.View[mmInt]{av1, bv, cv} {
					require.NoError(t, v.Close())
				}
			})
		}
	}
}

// TestMatMulSections multiplies sections whose rows are not 16-byte aligned (the GPU's
// scalar path) into a section of a larger C, whose other elements must stay untouched.
func TestMatMulSections(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const m, n, k = 37, 21, 19
	for _, av := range ewViews(t) {
		for _, opt := range mmKernels[:2] {
			t.Run(av.Accelerator().Path()+"/"+opt.String(), func(t *testing.T) {
				abig, bbig := mmRandom[float32](r, (m+1)*(k+3)), mmRandom[float32](r, (k+2)*(n+1))
				cbig := make([]float32, (m+2)*(n+3))
				for i := range cbig {
					cbig[i] = -1
				}
				ab, bb, cb := arrayview.MustNew(runtime.Ext(m+1, k+3), abig), arrayview.MustNew(runtime.Ext(k+2, n+1), bbig), arrayview.MustNew(runtime.Ext(m+2, n+3), cbig)
				as, bs, cs := mmSections(t, ab, bb, cb, [3]runtime.Index{runtime.Idx(1, 3), runtime.Idx(1, 1), runtime.Idx(1, 2)}, m, n, k)
				require.NoError(t, MatMulWith(av, as, bs, cs, opt))
				require.NoError(t, cb.Synchronize())
				a, b := make([]float32, m*k), make([]float32, k*n)
				require.NoError(t, as.CopyTo(a))
				require.NoError(t, bs.CopyTo(b))
				want := mmReference(a, b, m, n, k)
				for i := range m + 2 {
					for j := range n + 3 {
						got := cbig[i*(n+3)+j]
						if i >= 1 && i <= m && j >= 2 && j < n+2 {
							require.InDelta(t, want[(i-1)*n+j-2], got, 1e-3, "C(%d, %d)", i, j)
						} else {
							require.Equal(t, float32(-1), got, "outside the section (%d, %d)", i, j)
						}
					}
				}
			})
		}
	}
}

func TestMatMulShapeErrors(t *testing.T) {
	v := func(r, c int) *arrayview.View[int32] { return arrayview.MustNew(runtime.Ext(r, c), make([]int32, r*c)) }
	for _, av := range ewViews(t) {
		for _, tt := range []struct {
			name    string
			a, b, c *arrayview.View[int32]
			opt     MatMulOptions
			want    []string
		}{
			{"inner", v(2, 3), v(4, 5), v(2, 5), MatMulOptions{}, []string{"(2, 3)", "(4, 5)", "(2, 5)"}},
			{"rows", v(2, 3), v(3, 5), v(3, 5), MatMulOptions{}, []string{"c (3, 5)"}},
			{"cols", v(2, 3), v(3, 5), v(2, 4), MatMulOptions{Simple: true}, []string{"(2, 4)"}},
			{"rank", arrayview.MustNew(runtime.Ext(6), make([]int32, 6)), v(3, 5), v(2, 5), MatMulOptions{}, []string{"rank 2", "(6)"}},
			{"nil", nil, v(3, 5), v(2, 5), MatMulOptions{}, []string{"nil"}},
			{"tile", v(2, 3), v(3, 5), v(2, 5), MatMulOptions{Tile: [2]int{64, 32}}, []string{"64x32"}},
		} {
			t.Run(av.Accelerator().Path()+"/"+tt.name, func(t *testing.T) {
				tt.c.Set(runtime.Idx(0, 0), 7)
				err := MatMulWith(av, tt.a, tt.b, tt.c, tt.opt)
				requireShapeError(t, err, "MatMul", tt.want)
				assert.Equal(t, int32(7), tt.c.At(runtime.Idx(0, 0)), "c is intact")
			})
		}
	}
}

// mmSections returns the m x k section of a, the k x n one of b and the m x n one of c at
// the origins at (a's, b's, c's).
func mmSections[T, O any](t *testing.T, a, b *arrayview.View[T], c *arrayview.View[O], at [3]runtime.Index, m, n, k int) (sa, sb *arrayview.View[T], sc *arrayview.View[O]) {
	t.Helper()
	sa, err := a.Section(at[0], runtime.Ext(m, k))
	require.NoError(t, err)
	sb, err = b.Section(at[1], runtime.Ext(k, n))
	require.NoError(t, err)
	sc, err = c.Section(at[2], runtime.Ext(m, n))
	require.NoError(t, err)
	return sa, sb, sc
}
