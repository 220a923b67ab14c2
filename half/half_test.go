package half

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refValue is the value of binary16 bits b, derived from the format's definition with
// float64 arithmetic, independently of toBits32.
func refValue(b uint16) float64 {
	sign := 1.0
	if b&0x8000 != 0 {
		sign = -1
	}
	e, m := int(b>>10)&0x1f, float64(b&0x3ff)
	switch {
	case e == 0x1f && m == 0:
		return math.Inf(int(sign))
	case e == 0x1f:
		return math.NaN()
	case e == 0:
		return sign * math.Ldexp(m, -24)
	}
	return sign * math.Ldexp(1+m/1024, e-15)
}

// refRound rounds x to binary16 bits by searching the sorted table of non-negative
// finite values (plus 65536, standing for the overflow to Inf), ties to the even bit
// pattern: the definition of round-to-nearest-even, not the bit tricks of fromBits32.
func refRound(x float64, vals []float64) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	i := sort.SearchFloat64s(vals, x) // vals[i-1] < x <= vals[i]
	switch {
	case i == len(vals):
		return sign | 0x7c00
	case vals[i] == x || i == 0:
		return sign | uint16(i)
	}
	lo, hi := vals[i-1], vals[i]
	pick := uint16(i)
	if x-lo < hi-x || x-lo == hi-x && (i-1)%2 == 0 {
		pick = uint16(i - 1)
	}
	return sign | pick // index 0x7c00 is the 65536 entry: Inf
}

// refTable is the values of bits 0..0x7bff and 65536 for 0x7c00.
func refTable() []float64 {
	vals := make([]float64, 0x7c01)
	for i := range 0x7c00 {
		vals[i] = refValue(uint16(i))
	}
	vals[0x7c00] = 65536
	return vals
}

func TestToFloat32Exhaustive(t *testing.T) {
	for b := range 1 << 16 {
		h := Float16(b)
		want := refValue(uint16(b))
		got := h.Float32()
		if math.IsNaN(want) {
			require.True(t, math.IsNaN(float64(got)), "bits %#04x", b)
			require.True(t, h.IsNaN())
			// Sign and payload survive; a signaling NaN comes back quiet.
			require.Equal(t, h|0x200, FromFloat32(got), "NaN %#04x round trip", b)
			continue
		}
		require.Equal(t, want, float64(got), "bits %#04x", b)
		require.Equal(t, math.Signbit(want), math.Signbit(float64(got)), "sign of %#04x", b)
		require.Equal(t, h, FromFloat32(got), "round trip of %#04x", b)
		require.Equal(t, h, FromFloat64(want), "FromFloat64 of %#04x", b)
	}
}

// TestFromFloat32Neighbours checks rounding at and around every midpoint between
// consecutive binary16 values (and around each value), the cases where rounding goes
// wrong, for both signs.
func TestFromFloat32Neighbours(t *testing.T) {
	vals := refTable()
	check := func(x float32) {
		want := refRound(float64(x), vals)
		require.Equal(t, Float16(want), FromFloat32(x), "%g (%#08x)", x, math.Float32bits(x))
		require.Equal(t, Float16(want), FromFloat64(float64(x)), "FromFloat64(%g)", x)
	}
	for i := 0; i < len(vals); i++ {
		pts := []float64{vals[i]}
		if i+1 < len(vals) {
			pts = append(pts, (vals[i]+vals[i+1])/2) // exact in float32
		}
		for _, p := range pts {
			x := float32(p)
			require.Equal(t, p, float64(x), "midpoint %g not exact in float32", p)
			for _, y := range []float32{x, math.Nextafter32(x, 0), math.Nextafter32(x, math.MaxFloat32)} {
				check(y)
				check(-y)
			}
		}
	}
	check(float32(math.Inf(1)))
	check(float32(math.Inf(-1)))
	check(math.MaxFloat32)
	check(math.SmallestNonzeroFloat32)
}

// TestFromFloat32Random checks random float32 bit patterns (every exponent) against the
// reference rounding.
func TestFromFloat32Random(t *testing.T) {
	vals := refTable()
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for range 1 << 18 {
		x := math.Float32frombits(r.Uint32())
		got := FromFloat32(x)
		if x != x {
			require.True(t, got.IsNaN(), "%#08x", math.Float32bits(x))
			require.Equal(t, math.Signbit(float64(x)), got&SignBit != 0)
			continue
		}
		require.Equal(t, Float16(refRound(float64(x), vals)), got, "%g (%#08x)", x, math.Float32bits(x))
	}
	// Doubles: FromFloat64 rounds once (no double rounding through float32).
	for range 1 << 16 {
		x := (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(44)-28)
		require.Equal(t, Float16(refRound(x, vals)), FromFloat64(x), "%v", x)
	}
}

func TestSpecials(t *testing.T) {
	tests := []struct {
		h    Float16
		want float32
		str  string
	}{
		{One, 1, "1"},
		{MaxValue, 65504, "65504"},
		{SmallestNormal, float32(math.Ldexp(1, -14)), "6.1035156e-05"},
		{SmallestSubnormal, float32(math.Ldexp(1, -24)), "5.9604645e-08"},
		{Inf, float32(math.Inf(1)), "+Inf"},
		{Inf | SignBit, float32(math.Inf(-1)), "-Inf"},
		{SignBit, float32(math.Copysign(0, -1)), "-0"},
	}
	for _, tc := range tests {
		t.Run(tc.str, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.h.Float32())
			assert.Equal(t, tc.str, tc.h.String())
			assert.Equal(t, tc.h, FromBits(tc.h.Bits()))
		})
	}
	assert.True(t, NaN.IsNaN())
	assert.False(t, NaN.IsInf())
	assert.True(t, (Inf | SignBit).IsInf())
	assert.Equal(t, Inf, FromFloat32(65520))
	assert.Equal(t, MaxValue, FromFloat32(65519.996))
}

func TestSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, n := range []int{0, 1, 7, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			src := make([]float32, n)
			for i := range src {
				src[i] = float32(r.NormFloat64() * 100)
			}
			h := make([]Float16, n+3) // longer dst: only n converted
			require.Equal(t, n, FromFloat32s(h, src))
			back := make([]float32, n)
			require.Equal(t, n, ToFloat32s(back, h))
			for i := range src {
				require.Equal(t, FromFloat32(src[i]), h[i])
				require.Equal(t, h[i].Float32(), back[i])
			}
			require.Equal(t, Float16(0), h[n], "past the converted elements")
		})
	}
}

func BenchmarkFromFloat32s(b *testing.B) {
	src := make([]float32, 1<<16)
	for i := range src {
		src[i] = rand.Float32() * 1000
	}
	dst := make([]Float16, len(src))
	b.SetBytes(int64(len(src) * 4))
	for b.Loop() {
		FromFloat32s(dst, src)
	}
}

func BenchmarkToFloat32s(b *testing.B) {
	src := make([]Float16, 1<<16)
	for i := range src {
		src[i] = Float16(rand.Uint32())
	}
	dst := make([]float32, len(src))
	b.SetBytes(int64(len(src) * 2))
	for b.Loop() {
		ToFloat32s(dst, src)
	}
}

// TestFromFloat32sMatchesScalar: the slice conversion's fast path agrees with FromFloat32
// at every midpoint and neighbour of the float16 grid and on random bit patterns.
func TestFromFloat32sMatchesScalar(t *testing.T) {
	vals := refTable()
	var src []float32
	for i := 0; i+1 < len(vals); i++ {
		for _, p := range []float64{vals[i], (vals[i] + vals[i+1]) / 2} {
			x := float32(p)
			src = append(src, x, -x, math.Nextafter32(x, 0), math.Nextafter32(x, math.MaxFloat32))
		}
	}
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for range 1 << 18 {
		src = append(src, math.Float32frombits(r.Uint32()))
	}
	dst := make([]Float16, len(src))
	FromFloat32s(dst, src)
	for i, x := range src {
		require.Equal(t, FromFloat32(x), dst[i], "%g (%#08x)", x, math.Float32bits(x))
	}
}
