package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// f16Random returns n random float16 values, normally distributed (so that sums cancel
// and the relative tolerance is tested where it is hardest).
func f16Random(r *rand.Rand, n int) []half.Float16 {
	s := make([]half.Float16, n)
	for i := range s {
		s[i] = half.FromFloat64(r.NormFloat64())
	}
	return s
}

// f16Check compares got (M x N, float32 or float16) with the float64 product of a and b:
// each element within K * 2^-22 of the sum of |a||b| (float32 accumulation in any order,
// with a factor 2 of margin), plus 2^-11 of the value for a float16 result (one rounding).
func f16Check[O MatMulF16Out](t *testing.T, a, b []half.Float16, got []O, m, n, k int) {
	t.Helper()
	require.Len(t, got, m*n)
	af, bf := make([]float32, len(a)), make([]float32, len(b))
	half.ToFloat32s(af, a)
	half.ToFloat32s(bf, b)
	want, abs := make([]float64, n), make([]float64, n)
	for i := range m {
		clear(want)
		clear(abs)
		for p := range k {
			x := float64(af[i*k+p])
			for j, y := range bf[p*n : (p+1)*n] {
				want[j] += x * float64(y)
				abs[j] += math.Abs(x * float64(y))
			}
		}
		for j := range n {
			tol := float64(k)*math.Ldexp(abs[j], -22) + 1e-30
			var gv float64
			switch v := any(got[i*n+j]).(type) {
			case float32:
				gv = float64(v)
			case half.Float16:
				gv = v.Float64()
				tol += math.Ldexp(math.Abs(want[j]), -11) + math.Ldexp(1, -24)
			}
			if math.Abs(gv-want[j]) > tol {
				require.Failf(t, "wrong element", "C(%d, %d) of %dx%dx%d: want %v, got %v (tolerance %v)", i, j, m, n, k, want[j], gv, tol)
			}
		}
	}
}

// f16Sizes are M, N, K: edges of every kind for both kernels (the cooperative one's
// 128 x 128 blocks and 32-deep steps, the shared one's 64 x 128 blocks), unaligned rows
// (odd K and N: element loads) and aligned ones (vector loads).
var f16Sizes = [][3]int{{1, 1, 1}, {17, 17, 17}, {3, 200, 9}, {129, 130, 131}, {128, 128, 64}, {64, 256, 40}, {1000, 33, 70}}

// f16Paths are the paths every size is tested with; MatMulCooperative fails on devices
// without cooperative matrices (checked in TestMatMulF16Errors) and is skipped there.
var f16Paths = []MatMulPath{MatMulAuto, MatMulShared, MatMulCooperative}

// TestMatMulF16 checks MatMulF16With on every accelerator, every path the device has,
// float32 and float16 results, against a float64 reference.
func TestMatMulF16(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	sizes := f16Sizes
	if !testing.Short() {
		sizes = append(sizes, [3]int{1023, 1025, 513})
	}
	for _, av := range ewViews(t) {
		shape, coop := MatMulF16Cooperative(av.Accelerator())
		t.Logf("%s: cooperative matrices %v (%v); device reports %v", av.Accelerator().Path(), coop, shape,
			av.Accelerator().CooperativeMatrices())
		for _, path := range f16Paths {
			if path == MatMulCooperative && !coop {
				continue
			}
			for _, sz := range sizes {
				m, n, k := sz[0], sz[1], sz[2]
				if sz[0] > 1000 && (av.Accelerator().Traits().HostMemory || path == MatMulAuto) {
					// The GPU kernels' edges at a large size; the CPU's kernel is MatMul's,
					// and the auto path one of the others.
					continue
				}
				name := fmt.Sprintf("%s/%v/%dx%dx%d", av.Accelerator().Path(), path, m, n, k)
				t.Run(name+"/f32", func(t *testing.T) { f16Run[float32](t, r, av, path, m, n, k) })
				if m <= 1000 {
					t.Run(name+"/f16", func(t *testing.T) { f16Run[half.Float16](t, r, av, path, m, n, k) })
				}
			}
		}
	}
}

// f16Run multiplies random m x k and k x n float16 matrices on av and checks the result.
func f16Run[O MatMulF16Out](t *testing.T, r *rand.Rand, av *accelerator.View, path MatMulPath, m, n, k int) {
	a, b := f16Random(r, m*k), f16Random(r, k*n)
	got := make([]O, m*n)
	for i := range got {
		got[i] = matMulF16Round[O](float32(r.NormFloat64())) // stale contents: discarded
	}
	va, vb, vc := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), got)
	defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
	err := MatMulF16With(av, va, vb, vc, MatMulF16Options{Path: path})
	amptest.SkipUnsupported(t, err)
	require.NoError(t, err)
	require.NoError(t, vc.Synchronize())
	f16Check(t, a, b, got, m, n, k)
}

// TestMatMulF16Sections: views that are sections of larger matrices (rows not 16-byte
// aligned, a base offset) go through the element-by-element loads.
func TestMatMulF16Sections(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	const m, n, k = 70, 45, 37
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			big := f16Random(r, (m+3)*(k+5))
			vbig := arrayview.MustNew(runtime.Ext(m+3, k+5), big)
			defer vbig.Close()
			va, err := vbig.Section(runtime.Idx(1, 3), runtime.Ext(m, k))
			require.NoError(t, err)
			b := f16Random(r, k*n)
			vb := arrayview.MustNew(runtime.Ext(k, n), b)
			defer vb.Close()
			got := make([]float32, m*n)
			vc := arrayview.MustNew(runtime.Ext(m, n), got)
			defer vc.Close()
			err = MatMulF16(av, va, vb, vc)
			amptest.SkipUnsupported(t, err)
			require.NoError(t, err)
			require.NoError(t, vc.Synchronize())
			a := make([]half.Float16, m*k)
			for i := range m {
				copy(a[i*k:(i+1)*k], big[(i+1)*(k+5)+3:])
			}
			f16Check(t, a, b, got, m, n, k)
		})
	}
}

// TestMatMulF16Errors: mismatched shapes are *ShapeErrors and MatMulCooperative on a
// device without cooperative matrices an *accelerator.FeatureError, both before c is
// touched.
func TestMatMulF16Errors(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			a, b := f16Random(r, 6), f16Random(r, 12)
			c := f16Random(r, 8)
			keep := append([]half.Float16(nil), c...)
			va, vb := arrayview.MustNew(runtime.Ext(2, 3), a), arrayview.MustNew(runtime.Ext(3, 4), b)
			vc := arrayview.MustNew(runtime.Ext(2, 4), c)
			bad := arrayview.MustNew(runtime.Ext(4, 2), append([]half.Float16(nil), c...))
			defer func() { _, _, _, _ = va.Close(), vb.Close(), vc.Close(), bad.Close() }()

			err := MatMulF16(av, va, vb, bad)
			requireShapeError(t, err, "MatMulF16", []string{"(2, 3)", "(3, 4)", "(4, 2)"})
			err = MatMulF16With(av, va, vb, vc, MatMulF16Options{Path: MatMulPath(7)})
			requireShapeError(t, err, "MatMulF16", []string{"MatMulPath(7)"})
			if _, coop := MatMulF16Cooperative(av.Accelerator()); !coop && av.Accelerator().Supports16BitStorage() {
				err = MatMulF16With(av, va, vb, vc, MatMulF16Options{Path: MatMulCooperative})
				var fe *accelerator.FeatureError
				require.ErrorAs(t, err, &fe)
				assert.Equal(t, av.Accelerator().Path(), fe.Accelerator)
				assert.Contains(t, fe.Feature, "cooperative matrices")
			}
			require.NoError(t, vc.Synchronize())
			assert.Equal(t, keep, c, "c intact")
		})
	}
}

// TestMatMulF16Definitions runs the kernels' Go definitions (the per-thread Tiled bodies
// that document the GPU bodies) on the CPU accelerator, which also checks each GPU body's
// interface (bindings, push constants, shared memory) against its struct.
func TestMatMulF16Definitions(t *testing.T) {
	cpu, err := accelerator.Get("cpu")
	require.NoError(t, err)
	av, err := cpu.DefaultView()
	require.NoError(t, err)
	for _, coop := range []bool{false, true} {
		t.Run(fmt.Sprint("coop=", coop, "/f32"), func(t *testing.T) { f16Definition[float32](t, av, coop) })
		t.Run(fmt.Sprint("coop=", coop, "/f16"), func(t *testing.T) { f16Definition[half.Float16](t, av, coop) })
	}
}

// f16Definition runs matMulCoop's or matMulF16Tiled's Tiled body per thread on av.
func f16Definition[O MatMulF16Out](t *testing.T, av *accelerator.View, coop bool) {
	const m, n, k = 130, 20, 9
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	a, b := f16Random(r, m*k), f16Random(r, k*n)
	got := make([]O, m*n)
	va, vb, vc := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), got)
	defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
	args := matMulF16Args[O]{A: va.ReadOnly(), B: vb.ReadOnly(), C: vc, M: m, N: n, K: k}
	var kern runtime.TiledKernel = matMulF16Tiled[O]{args}
	dom := runtime.Ext(ceilDiv(m, 16)*2, ceilDiv(n, 16)*2).Tile(2, 2)
	if coop {
		kern = matMulCoop[O]{args, "matmul_coop", matMulCoopDefault}
		dom = matMulCoopDefault.domain(m, n)
	}
	defer setHooks(perThreadHooks(true))()
	require.NoError(t, dispatchTiled(av, dom, kern))
	require.NoError(t, vc.Synchronize())
	f16Check(t, a, b, got, m, n, k)
}

// TestMatMulCoopEmulated runs the cooperative-matrix kernel's GLSL with the cooperative
// matrices emulated (matmul_coop_emu: the same blocks, staging loads, padding, edges and
// stores through shared memory) on every Vulkan device, so that devices without tensor
// cores test everything of it but the matrix instructions.
func TestMatMulCoopEmulated(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	sizes := [][3]int{{1, 1, 1}, {128, 128, 64}, {129, 130, 131}, {200, 33, 70}}
	for _, av := range ewViews(t) {
		if av.Accelerator().Traits().HostMemory || !av.Accelerator().SupportsFloat16() {
			continue
		}
		for _, sz := range sizes {
			m, n, k := sz[0], sz[1], sz[2]
			name := fmt.Sprintf("%s/%dx%dx%d", av.Accelerator().Path(), m, n, k)
			t.Run(name+"/f32", func(t *testing.T) { f16Emulated[float32](t, r, av, m, n, k) })
			if m == 129 {
				t.Run(name+"/f16", func(t *testing.T) { f16Emulated[half.Float16](t, r, av, m, n, k) })
			}
		}
	}
}

// f16Emulated multiplies random matrices on av with matmul_coop_emu and checks the result.
func f16Emulated[O MatMulF16Out](t *testing.T, r *rand.Rand, av *accelerator.View, m, n, k int) {
	a, b := f16Random(r, m*k), f16Random(r, k*n)
	got := make([]O, m*n)
	va, vb, vc := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b), arrayview.MustNew(runtime.Ext(m, n), got)
	defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
	args := matMulF16Args[O]{A: va.ReadOnly(), B: vb.ReadOnly(), C: vc, M: int32(m), N: int32(n), K: int32(k)}
	vc.DiscardData()
	require.NoError(t, dispatchTiled(av, matMulCoopEmulated.domain(m, n), emulatedCoop[O]{matMulCoop[O]{args, "", matMulCoopEmulated}}))
	require.NoError(t, vc.Synchronize())
	f16Check(t, a, b, got, m, n, k)
}
