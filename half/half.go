package half

import (
	"math"
	"strconv"
	"sync"
)

// Float16 is an IEEE 754 binary16 value, stored as its bits.
type Float16 uint16

// Special values and limits.
const (
	// Inf is +Inf; Inf | SignBit is -Inf.
	Inf Float16 = 0x7c00
	// NaN is a quiet NaN.
	NaN Float16 = 0x7e00
	// SignBit is the sign bit.
	SignBit Float16 = 0x8000
	// MaxValue is the largest finite value, 65504.
	MaxValue Float16 = 0x7bff
	// SmallestNormal is the smallest positive normal value, 2^-14.
	SmallestNormal Float16 = 0x0400
	// SmallestSubnormal is the smallest positive value, 2^-24.
	SmallestSubnormal Float16 = 0x0001
	// One is 1.0.
	One Float16 = 0x3c00
)

// FromBits returns the Float16 with bits b.
func FromBits(b uint16) Float16 { return Float16(b) }

// Bits returns h's bits.
func (h Float16) Bits() uint16 { return uint16(h) }

// IsNaN reports whether h is a NaN.
func (h Float16) IsNaN() bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }

// IsInf reports whether h is an infinity.
func (h Float16) IsInf() bool { return h&0x7fff == 0x7c00 }

// String formats h as its float32 value ('g', shortest that reads back as h).
func (h Float16) String() string {
	return strconv.FormatFloat(float64(h.Float32()), 'g', -1, 32)
}

// FromFloat32 rounds f to the nearest Float16, ties to even: values of magnitude
// 65520 and up become infinities, values below 2^-25 zeros of f's sign, and a NaN a quiet
// NaN with f's sign and the top 9 bits of its payload.
func FromFloat32(f float32) Float16 { return fromBits32(math.Float32bits(f)) }

// FromFloat64 is FromFloat32(float32(f)) done in one rounding: f rounded straight to
// Float16, ties to even.
func FromFloat64(f float64) Float16 {
	// Rounding to float32 first can double-round; round f to 11 significant bits
	// (or the subnormal grid) with float64 arithmetic instead.
	if math.IsNaN(f) {
		return FromFloat32(float32(f))
	}
	a := math.Abs(f)
	var s Float16
	if math.Signbit(f) {
		s = SignBit
	}
	if a >= 65520 {
		return s | Inf
	}
	_, e := math.Frexp(a) // a = fr * 2^e, fr in [0.5, 1)
	step := math.Ldexp(1, max(e, -13)-11)
	q := math.RoundToEven(a/step) * step // exact: a/step < 2^12 and step a power of two
	return s | FromFloat32(float32(q))
}

// fromBits32 converts float32 bits to Float16 bits, rounding to nearest even.
func fromBits32(b uint32) Float16 {
	sign := Float16(b>>16) & SignBit
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	switch {
	case exp == 0xff: // Inf or NaN
		if man == 0 {
			return sign | Inf
		}
		return sign | NaN | Float16(man>>13)
	case exp > 142: // >= 2^16: overflows (65520 <= x < 2^16 is handled by rounding below)
		return sign | Inf
	case exp >= 113: // normal Float16 range: 2^-14 <= x
		// Round the 23-bit fraction to 10 bits, ties to even; a carry into the exponent
		// is the right result, 0x7c00 (Inf) included.
		v := uint32(exp-112)<<10 | man>>13
		rest := man & 0x1fff
		if rest > 0x1000 || rest == 0x1000 && v&1 == 1 {
			v++
		}
		return sign | Float16(v)
	case exp >= 102: // subnormal Float16: 2^-25 <= x < 2^-14 (and some that round to 0)
		m := man | 0x800000        // the significand with its implicit bit, 24 bits
		shift := uint32(126 - exp) // the value is m * 2^(exp-150); in units of 2^-24: m >> (126-exp)
		v := m >> shift
		rest := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rest > half || rest == half && v&1 == 1 {
			v++
		}
		return sign | Float16(v)
	}
	return sign // below 2^-25 (or exactly zero): rounds to zero
}

// Float32 returns h's value exactly.
func (h Float16) Float32() float32 { return math.Float32frombits(toBits32(h)) }

// Float64 returns h's value exactly.
func (h Float16) Float64() float64 { return float64(h.Float32()) }

// toBits32 converts Float16 bits to float32 bits (exact).
func toBits32(h Float16) uint32 {
	sign := uint32(h&SignBit) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return sign | 0x7f800000 | man<<13
	case exp != 0:
		return sign | (exp+112)<<23 | man<<13
	case man == 0:
		return sign
	}
	// Subnormal: normalize. man * 2^-24 with man < 2^10.
	e := uint32(113) // exponent field if man's top bit were bit 10
	for man&0x400 == 0 {
		man <<= 1
		e--
	}
	return sign | e<<23 | (man&0x3ff)<<13
}

// table holds toBits32 of every Float16, built on first use by ToFloat32s.
var table = sync.OnceValue(func() *[1 << 16]uint32 {
	var t [1 << 16]uint32
	for i := range t {
		t[i] = toBits32(Float16(i))
	}
	return &t
})

// ToFloat32s converts src to dst, element by element, exactly (a table lookup per
// element), and returns the number converted, min(len(dst), len(src)).
func ToFloat32s(dst []float32, src []Float16) int {
	n := min(len(dst), len(src))
	t := table()
	dst, src = dst[:n], src[:n]
	for i, h := range src {
		dst[i] = math.Float32frombits(t[h])
	}
	return n
}

// FromFloat32s rounds src to dst, element by element, as FromFloat32, and returns the
// number converted, min(len(dst), len(src)). Values in float16's normal range take a
// branch-free path (round to nearest even by adding 0xfff plus the kept lowest bit); the
// rest go through FromFloat32.
func FromFloat32s(dst []Float16, src []float32) int {
	n := min(len(dst), len(src))
	dst, src = dst[:n], src[:n]
	for i, f := range src {
		b := math.Float32bits(f)
		a := b & 0x7fffffff
		if a-0x38800000 < 0x47800000-0x38800000 { // 2^-14 <= |f| < 2^16
			a += 0xc8000fff + (a>>13)&1 // rebias the exponent by -112, round to even
			dst[i] = Float16(b>>16&0x8000 | min(a>>13, 0x7c00))
			continue
		}
		dst[i] = fromBits32(b)
	}
	return n
}
