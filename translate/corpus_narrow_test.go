package translate_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate/testdata/corpus"
)

// runRounding runs corpus.Rounding on inputs whose products with S round to a tie (k + 1/2)
// in float32 without being one exactly, half of them just below, half just above, and
// returns its outputs.
func runRounding(t testing.TB, av *accelerator.View, r *rand.Rand) any {
	const n, s = 4096, float32(80)
	x := make([]float32, 0, n)
	for len(x) < n {
		tie := float32(r.IntN(4001)-2000) + 0.5
		for _, c := range []float32{math.Nextafter32(tie/s, 0), math.Nextafter32(tie/s, 2*tie)} {
			if c*s == tie { // a tie only after the product's rounding
				x = append(x, c)
			}
		}
		if len(x)%7 == 0 {
			x = append(x, float32(r.NormFloat64()*100))
		}
	}
	x = x[:n]
	o, od := out[[5]float32](t, n)
	od = ran(t, forEach(av, runtime.Ext(n), corpus.Rounding{In: in(t, x, n), Out: o, S: s}), o, od)
	res := make([]float32, 0, 5*n)
	for _, v := range od {
		res = append(res, v[:]...)
	}
	return res
}

// runNarrow runs corpus.Narrow on every int8 paired with random uint8s (and every uint8
// with random int8s), and returns Out, C and D as int32s.
func runNarrow(t testing.TB, av *accelerator.View, r *rand.Rand) any {
	const n = 512
	a, b, d := make([]int8, n), make([]uint8, n), make([]uint8, n)
	for i := range n {
		a[i], b[i], d[i] = int8(i), uint8(r.IntN(256)), uint8(r.IntN(256))
		if i >= 256 {
			a[i], b[i] = int8(r.IntN(256)), uint8(i)
		}
	}
	c, cd := out[int8](t, n)
	dv, dd := inout(t, d, n)
	o, od := out[[corpus.NarrowLen]int32](t, n)
	k := corpus.Narrow{A: in(t, a, n), B: in(t, b, n), C: c, D: dv, Out: o}
	od = ran(t, forEach(av, runtime.Ext(n), k), o, od)
	sync(t, c)
	sync(t, dv)
	res := make([]int32, 0, n*(corpus.NarrowLen+2))
	for i := range od {
		res = append(res, od[i][:]...)
		res = append(res, int32(cd[i]), int32(dd[i]))
	}
	return res
}

// halfEdges are float32 values at float16's edges: rounding ties and their neighbours,
// the subnormal range, overflow, infinities and NaNs with payloads.
var halfEdges = []uint32{
	0x00000000, 0x80000000, 0x3f800000, 0x3f801000, 0x3f802000, 0x3f803000, 0x3f801001, 0x3f800fff,
	0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0x7f7fffff, 0x7f800000, 0xff800000,
	0x7fc00000, 0x7f800001, 0xffbfffff, 0x7fa5a5a5, 0x38800000, 0x387fffff, 0x33800000, 0x33800001,
	0x337fffff, 0x33000000, 0x33000001, 0x00000001, 0x807fffff, 0x35000000, 0x35400000, 0x35c00000,
}

// runHalfOps runs corpus.HalfOps on all 65536 float16 bit patterns and as many float32s
// (the edges, then random bits and random values in float16's range), and returns Wide's
// bits, Out and Flags as uint32s.
func runHalfOps(t testing.TB, av *accelerator.View, r *rand.Rand) any {
	const n = 1 << 16
	x, f := make([]half.Float16, n), make([]float32, n)
	for i := range n {
		x[i] = half.FromBits(uint16(i))
		switch {
		case i < len(halfEdges):
			f[i] = math.Float32frombits(halfEdges[i])
		case i%2 == 0:
			f[i] = math.Float32frombits(r.Uint32())
		default:
			f[i] = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-26)))
		}
	}
	wide, wd := out[float32](t, n)
	o, od := out[half.Float16](t, n)
	flags, fd := out[int32](t, n)
	k := corpus.HalfOps{X: in(t, x, n), F: in(t, f, n), Wide: wide, Out: o, Flags: flags}
	od = ran(t, forEach(av, runtime.Ext(n), k), o, od)
	sync(t, wide)
	sync(t, flags)
	res := make([]uint32, 0, 3*n)
	for i := range n {
		res = append(res, math.Float32bits(wd[i]), uint32(od[i]), uint32(fd[i]))
	}
	return res
}
