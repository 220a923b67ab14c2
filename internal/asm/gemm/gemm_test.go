package gemm

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reference is MulAdd's definition, element by element in p order.
func reference[T int32 | float32](a, b, c []T, ldc int) {
	for r := range 4 {
		for j := range 16 {
			for p := range len(a) / 4 {
				c[r*ldc+j] += T(a[4*p+r] * b[16*p+j])
			}
		}
	}
}

// panels returns random panels of depth d and a C of row stride ldc, plus a copy of C.
func panels[T int32 | float32](r *rand.Rand, d, ldc int, gen func(*rand.Rand) T) (a, b, c, c0 []T) {
	fill := func(n int) []T {
		s := make([]T, n)
		for i := range s {
			s[i] = gen(r)
		}
		return s
	}
	a, b, c = fill(4*d), fill(16*d), fill(3*ldc+16+5)
	return a, b, c, append([]T(nil), c...)
}

func randF32(r *rand.Rand) float32 { return r.Float32()*4 - 2 }
func randI32(r *rand.Rand) int32   { return int32(r.Uint32()) }

// testKernel checks kernel (the exported one, and the portable one) against the reference
// for several depths and row strides: equal results, elements outside the block untouched.
func testKernel[T int32 | float32](t *testing.T, kernel func(a, b, c []T, ldc int), gen func(*rand.Rand) T) {
	r := rand.New(rand.NewPCG(1, 2))
	portable := func(a, b, c []T, ldc int) {
		if d := check(len(a), len(b), len(c), ldc); d > 0 {
			mulAddGo(a, b, c, ldc, d)
		}
	}
	for _, k := range []struct {
		name string
		f    func(a, b, c []T, ldc int)
	}{{"exported", kernel}, {"portable", portable}} {
		for _, d := range []int{0, 1, 2, 7, 64, 257} {
			for _, ldc := range []int{16, 32, 48} {
				a, b, c, want := panels(r, d, ldc, gen)
				reference(a, b, want, ldc)
				k.f(a, b, c, ldc)
				require.Equal(t, want, c, "%s: depth %d, ldc %d", k.name, d, ldc)
			}
		}
	}
}

func TestMulAddF32(t *testing.T) { testKernel(t, MulAddF32, randF32) }
func TestMulAddI32(t *testing.T) { testKernel(t, MulAddI32, randI32) }

// TestShortPanels: panels too short for their depth panic with a *ShortError naming the
// lengths, before anything is written.
func TestShortPanels(t *testing.T) {
	for _, tt := range []struct {
		name      string
		nb, nc, l int
		want      string
	}{
		{"b", 16*3 - 1, 3*16 + 16, 16, "needs b of 48 elements (has 47)"},
		{"c", 16 * 3, 3*32 + 15, 32, "c of 112 (has 111)"},
		{"ldc", 16 * 3, 3*16 + 16, 15, "row stride 15 (at least 16)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, b, c := make([]float32, 12), make([]float32, tt.nb), make([]float32, tt.nc)
			for i := range a {
				a[i] = float32(i + 1)
			}
			for i := range b {
				b[i] = 1
			}
			var got any
			func() {
				defer func() { got = recover() }()
				MulAddF32(a, b, c, tt.l)
			}()
			require.IsType(t, &ShortError{}, got)
			assert.Contains(t, got.(*ShortError).Error(), tt.want)
			assert.Equal(t, make([]float32, tt.nc), c, "nothing written")
		})
	}
}
