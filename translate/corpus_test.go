package translate_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/cmd/ampview/demos"
	"github.com/goamp/goamp/internal/rtlink"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate/testdata/corpus"
	"github.com/goamp/goamp/vec"
)

// in makes a read-only view of data.
func in[T any](t testing.TB, data []T, dims ...int) *arrayview.ReadView[T] {
	v, err := arrayview.New(runtime.Ext(dims...), data)
	require.NoError(t, err)
	return v.ReadOnly()
}

// out makes a view of n zeroed elements.
func out[T any](t testing.TB, dims ...int) (*arrayview.View[T], []T) {
	e := runtime.Ext(dims...)
	data := make([]T, e.Size())
	v, err := arrayview.New(e, data)
	require.NoError(t, err)
	return v, data
}

// inout makes a view of data, to be read and written.
func inout[T any](t testing.TB, data []T, dims ...int) (*arrayview.View[T], []T) {
	v, err := arrayview.New(runtime.Ext(dims...), data)
	require.NoError(t, err)
	return v, data
}

// ran requires err, a dispatch's, to be nil, brings o's results to the host and returns
// data, o's host slice. A device without a feature the kernel needs skips the test
// (amptest.SkipUnsupported).
func ran[T any](t testing.TB, err error, o *arrayview.View[T], data []T) []T {
	amptest.SkipUnsupported(t, err)
	require.NoError(t, err)
	sync(t, o)
	return data
}

// sync brings views' results to the host.
func sync[T any](t testing.TB, vs ...*arrayview.View[T]) {
	for _, v := range vs {
		require.NoError(t, v.Synchronize())
	}
}

// near compares float32 results within an absolute plus relative tolerance (amptest.Near).
func near(abs, rel float64) func(t testing.TB, cpu, got any) {
	check := amptest.Near[float32](abs, rel)
	return func(t testing.TB, cpu, got any) {
		t.Helper()
		check(t, cpu.([]float32), got.([]float32))
	}
}

// corpusCase runs one corpus kernel on a view with fixed inputs and returns its outputs.
type corpusCase struct {
	name string
	run  func(t testing.TB, av *accelerator.View, r *rand.Rand) any
	// cmp compares an accelerator's outputs with the CPU's.
	cmp func(t testing.TB, cpu, got any)
}

// corpusPerThread are the corpus kernels that ampgen gives no fast CPU body (see its
// note), with why: the CPU runs them with the per-thread executor.
var corpusPerThread = map[string]string{
	"RangeArr":    "a barrier in a range loop whose variables vary between threads: the fission needs them uniform (RangeLen is the form it runs)",
	"ShapeHelper": "a barrier in a loop bounded by a call given the TiledIndex: uniform for the GPU's analysis (the callee reads only the tile's shape), a per-thread value for the fission",
	"Converge":    "a barrier in a loop whose condition reads a broadcast through tile_static memory: uniform for the GPU's analysis (broadcast.go), a per-thread value for the fission",
}

// bitsOf returns the bits of each float32.
func bitsOf(f []float32) []uint32 {
	b := make([]uint32, len(f))
	for i, x := range f {
		b[i] = math.Float32bits(x)
	}
	return b
}

// exact compares outputs element for element.
var exact = amptest.Equal[any]

func randInts(r *rand.Rand, n int, lo, hi int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = lo + int32(r.Int64N(int64(hi)-int64(lo)+1))
	}
	return s
}

// divisors returns n random int32s in -1000..1000 but 0, which is 7 instead.
func divisors(r *rand.Rand, n int) []int32 {
	b := randInts(r, n, -1000, 1000)
	for i := range b {
		if b[i] == 0 {
			b[i] = 7
		}
	}
	return b
}

// randUints returns n random uint32s, over the whole range.
func randUints(r *rand.Rand, n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = r.Uint32()
	}
	return s
}

func randFloats(r *rand.Rand, n int, lo, hi float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = lo + (hi-lo)*r.Float32()
	}
	return s
}

var corpusCases = []corpusCase{
	{"Arith", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		b := divisors(r, n)
		o, data := out[corpus.Ints](t, n)
		k := corpus.Arith{A: in(t, randInts(r, n, math.MinInt32+1, math.MaxInt32), n), B: in(t, b, n),
			F: in(t, randFloats(r, n, -1e6, 1e6), n), Out: o, Shift: uint32(r.IntN(8))}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Control", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 777
		o, data := out[int32](t, n)
		k := corpus.Control{In: in(t, randInts(r, n, -2000000, 2000000), n), Out: o, N: 20}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Funcs", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 500
		o, data := out[corpus.Pair](t, n)
		k := corpus.Funcs{X: in(t, randFloats(r, n, -2, 2), n), Y: in(t, randFloats(r, n, -2, 2), n), Out: o, Bias: 0.75}
		require.NoError(t, forEach(av, runtime.Ext(n), k))
		sync(t, o)
		f := make([]float32, 0, 2*n)
		for _, p := range data {
			f = append(f, p.Lo, p.Hi)
		}
		return f
	}, near(1e-6, 1e-5)},
	{"Math", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 600
		o, data := out[[8]float32](t, n)
		k := corpus.Math{X: in(t, randFloats(r, n, -8, 8), n), Out: o}
		require.NoError(t, forEach(av, runtime.Ext(n), k))
		sync(t, o)
		f := make([]float32, 0, 8*n)
		for _, p := range data {
			f = append(f, p[:]...)
		}
		return f
	}, near(2e-3, 1e-4)},
	{"Index3", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		o, data := out[int32](t, 5, 7, 9)
		return ran(t, forEach(av, runtime.Ext(5, 7, 9), corpus.Index3{Out: o}), o, data)
	}, exact},
	{"Axpy[int32]", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		o, data := inout(t, randInts(r, n, -1e9, 1e9), n)
		k := corpus.Axpy[int32]{X: in(t, randInts(r, n, -1e9, 1e9), n), Y: o, Alpha: -3}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Axpy[uint32]", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		x := randUints(r, n)
		o, data := out[uint32](t, n)
		k := corpus.Axpy[uint32]{X: in(t, x, n), Y: o, Alpha: 0x9e3779b9}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Axpy[float32]", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		o, data := inout(t, randFloats(r, n, -1, 1), n)
		k := corpus.Axpy[float32]{X: in(t, randFloats(r, n, -1, 1), n), Y: o, Alpha: 1.5}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, near(1e-6, 1e-6)},
	{"Scaled[int32]", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		o, data := out[int32](t, n)
		k := corpus.Scaled[int32]{X: in(t, randInts(r, n, -1e6, 1e6), n), Out: o, By: -7}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Scaled[float32]", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		o, data := out[float32](t, n)
		x := make([]float32, n) // whole numbers: X*By + 1 is exact, fused or not
		for j, v := range randInts(r, n, -1e4, 1e4) {
			x[j] = float32(v)
		}
		k := corpus.Scaled[float32]{X: in(t, x, n), Out: o, By: -0.25}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Outside", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000 // the domain leaves room for the shift: every access is inside
		o, data := out[int32](t, n)
		k := corpus.Outside{In: in(t, randInts(r, n, -1e6, 1e6), n), Out: o, Shift: r.Int32N(4), Write: r.Int32N(2)}
		return ran(t, forEach(av, runtime.Ext(n-3), k), o, data)
	}, exact},
	{"Outside4", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000 // the domain leaves room for the shift: reads aligned, then not
		src := randFloats(r, n, -1, 1)
		var all []float32
		for _, shift := range []int32{0, 1 + r.Int32N(3)} {
			o, data := out[float32](t, n)
			k := corpus.Outside4{In: in(t, src, n), Out: o, Shift: shift}
			all = append(all, ran(t, forEach(av, runtime.Ext(n/4-1), k), o, data)...)
		}
		return all
	}, exact},
	{"OutsideArrays", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 512 // Shift and Pick 0: every access is inside
		o, data := out[int32](t, n)
		k := corpus.OutsideArrays{In: in(t, randInts(r, n, -1e6, 1e6), n), Out: o}
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(64), k), o, data)
	}, exact},
	{"HiddenRank", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		n := 1 + r.IntN(1000)
		o, data := out[float32](t, n)
		k := corpus.HiddenRank{In: in(t, randFloats(r, n, -100, 100), n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Vectors", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 200
		v4 := func() []vec.Float4 {
			s := make([]vec.Float4, n)
			for i := range s {
				f := randFloats(r, 4, -4, 4)
				s[i] = vec.F4(f[0], f[1], f[2], f[3])
			}
			return s
		}
		p := make([]vec.Float3, n)
		for i := range p {
			f := randFloats(r, 3, -4, 4)
			p[i] = vec.F3(f[0], f[1], f[2])
		}
		o, data := out[vec.Float4](t, n)
		d, dots := out[float32](t, n)
		k := corpus.Vectors{A: in(t, v4(), n), B: in(t, v4(), n), P: in(t, p, n), Out: o, Dots: d}
		require.NoError(t, forEach(av, runtime.Ext(n), k))
		sync(t, o)
		sync(t, d)
		f := append([]float32(nil), dots...)
		for _, v := range data {
			f = append(f, v.X, v.Y, v.Z, v.W)
		}
		return f
	}, near(1e-5, 1e-5)},
	{"TileSum", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n, tile = 1024, 64
		sums, s := out[int32](t, 2*n/tile)
		total, tot := out[int32](t, 1)
		k := corpus.TileSum{In: in(t, randInts(r, n, -1000, 1000), n), Sums: sums, Total: total}
		require.NoError(t, forEachTiled(av, runtime.Ext(n).Tile(tile), k))
		sync(t, sums, total)
		return append(s, tot...)
	}, exact},
	{"Stencil", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const rows, cols = 48, 40
		o, data := out[float32](t, rows, cols)
		k := corpus.Stencil{In: in(t, randFloats(r, rows*cols, -1, 1), rows, cols), Out: o, Rows: rows, Cols: cols}
		return ran(t, forEachTiled(av, runtime.Ext(rows, cols).Tile(8, 8), k), o, data)
	}, near(1e-6, 1e-6)},
	{"Carried", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 2048
		res := []int32{}
		for _, rounds := range []int32{0, 1, 5} {
			o, data := out[int32](t, n)
			k := corpus.Carried{In: in(t, randInts(r, n, -1000, 1000), n), Out: o, Rounds: rounds}
			res = append(res, ran(t, forEachTiled(av, runtime.Ext(n).Tile(128), k), o, data)...)
		}
		return res
	}, exact},
	{"RangeArr", tiledInOut(corpus.RangeArr{}), exact},
	{"SharedClear", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n, tile = 4096, 128
		o, data := out[int32](t, tile)
		k := corpus.SharedClear{In: in(t, randInts(r, n, 0, 1<<20), n), Out: o}
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(tile), k), o, data)
	}, exact},
	{"Bits", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		a, b := make([]uint32, n), make([]uint32, n)
		for i := range a {
			a[i], b[i] = r.Uint32()>>r.IntN(32), r.Uint32()
		}
		a[0], a[1], a[2], b[3] = 0, math.MaxUint32, 1, 0
		o, data := out[corpus.BitOps](t, n)
		k := corpus.Bits{A: in(t, a, n), B: in(t, b, n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"MaxConst", each1D(100, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.MaxConst{In: i, Out: o}
	}), exact},
	{"MinSwitch", each1D(100, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.MinSwitch{In: i, Out: o}
	}), exact},
	{"FoldChain", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 60
		o, data := out[float32](t, n)
		k := corpus.FoldChain{In: in(t, randInts(r, n, 0, 1000), n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"VecMaxConst", each1D(100, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.VecMaxConst{In: i, Out: o}
	}), exact},
	{"WidenConst", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		if !av.Accelerator().SupportsDoublePrecision() {
			t.Skip("no float64 on", av.Accelerator().Path())
		}
		const n = 64
		o, data := out[float64](t, n)
		k := corpus.WidenConst{X: in(t, randFloat64s(r, n), n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"Classify", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		if !av.Accelerator().SupportsDoublePrecision() {
			t.Skip("no float64 on", av.Accelerator().Path())
		}
		x := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.SmallestNonzeroFloat64}
		for range 100 {
			x = append(x, r.NormFloat64()*1e3)
		}
		n := len(x)
		o, data := out[float64](t, n)
		l, lim := out[float32](t, n)
		k := corpus.Classify{X: in(t, x, n), Out: o, Lim: l}
		require.NoError(t, forEach(av, runtime.Ext(n), k))
		sync(t, o)
		sync(t, l)
		var res struct { // the bits: a NaN is not equal to itself
			Out []uint64
			Lim []uint32
		}
		for i := range n {
			res.Out, res.Lim = append(res.Out, math.Float64bits(data[i])), append(res.Lim, math.Float32bits(lim[i]))
		}
		return res
	}, exact},
	{"RowMin", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		var res [][]uint32
		for _, cols := range []int{1, 2, 37} {
			const rows = 50
			o, data := out[float32](t, rows)
			x := randFloats(r, rows*cols, -1, 2)
			k := corpus.RowMin{In: in(t, x, rows, cols), Out: o}
			ran(t, forEach(av, runtime.Ext(rows), k), o, data)
			res = append(res, bitsOf(data)) // NaN is not equal to itself
		}
		return res
	}, exact},
	{"Labeled", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		o, data := out[int32](t, n)
		k := corpus.Labeled{In: in(t, randInts(r, n, -100, 100), n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"LabeledTiled", tiledInOut(corpus.LabeledTiled{}), exact},
	{"Bodies", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		data := make([]corpus.Body, n)
		f := randFloats(r, 8*n, -1, 1)
		for i := range data {
			data[i] = corpus.Body{Pos: vec.F3(f[8*i], f[8*i+1], f[8*i+2]), Vel: vec.F4(f[8*i+3], f[8*i+4], f[8*i+5], f[8*i+6]),
				Kind: int32(r.IntN(100)), Mass: f[8*i+7]}
		}
		b, _ := inout(t, data, n)
		return ran(t, forEach(av, runtime.Ext(n), corpus.Bodies{B: b, Dt: 0.25}), b, data)
	}, exact},
	{"Names", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 500
		x := randUints(r, n)
		o, data := out[uint32](t, n)
		return ran(t, forEach(av, runtime.Ext(n), corpus.Names{In: in(t, x, n), Out: o}), o, data)
	}, exact},
	{"TupleOrder", each1D(1000, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.TupleOrder{In: i, Out: o}
	}), exact},
	{"IndexOnce", tiledInOut(corpus.IndexOnce{}), exact},
	{"FloatRules", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 4096
		o, data := out[uint32](t, corpus.FloatRulesN*n)
		return ran(t, forEach(av, runtime.Ext(n), corpus.FloatRules{In: in(t, randInts(r, n, math.MinInt32, math.MaxInt32), n), Out: o}), o, data)
	}, exact},
	{"ZeroOps", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		x := randFloats(r, n, -1e3, 1e3)
		special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
			float32(math.NaN()), math.Float32frombits(1), math.Float32frombits(0x80000001), math.MaxFloat32}
		for i := range x {
			if i%2 == 0 {
				x[i] = special[r.IntN(len(special))]
			}
		}
		o, data := out[uint32](t, corpus.ZeroOpsN*n)
		return ran(t, forEach(av, runtime.Ext(n), corpus.ZeroOps{In: in(t, x, n), Out: o}), o, data)
	}, exact},
	{"ZeroOps64", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		if !av.Accelerator().SupportsDoublePrecision() {
			t.Skip("no float64 on", av.Accelerator().Path())
		}
		const n = 1000
		x := randFloat64s(r, n)
		special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
			math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64}
		for i := range x {
			if i%2 == 0 {
				x[i] = special[r.IntN(len(special))]
			}
		}
		o, data := out[float64](t, 2*corpus.ZeroOpsN*n)
		return ran(t, forEach(av, runtime.Ext(n), corpus.ZeroOps64{In: in(t, x, n), Out: o}), o, data)
	}, exact},
	{"ShiftBy", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 2000
		o, data := out[int32](t, n)
		k := corpus.ShiftBy{A: in(t, randInts(r, n, math.MinInt32, math.MaxInt32), n), B: in(t, randInts(r, n, 0, 70), n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"FieldMethod", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1024
		o, data := out[int32](t, n)
		k := corpus.FieldMethod{In: in(t, randInts(r, n, -1000, 1000), n), Out: o, Rounds: 5}
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(64), k), o, data)
	}, exact},
	{"Fallthrough", each1D(1000, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.Fallthrough{In: i, Out: o}
	}), exact},
	{"Promoted", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 200
		o, data := out[float32](t, n, 7)
		k := corpus.Promoted{In: in(t, randFloats(r, n*7, -1, 1), n, 7), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, near(1e-5, 1e-5)},
	{"Captures", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		var res []int32
		for _, c := range []corpus.Captures{
			{Width: 7, Count: 3, Invert: true, Small: -128, Mask: 0xF0F0, Taps: [3]int32{1, -2, 3},
				Clamp: corpus.Window{Lo: -500, Hi: 600, Scale: [2]float32{9, 0.5}}},
			{Width: math.MaxInt32, Count: 0, Small: 127, Mask: 0xFFFF, Taps: [3]int32{0, 0, 7},
				Clamp: corpus.Window{Lo: math.MinInt32, Hi: math.MaxInt32, Scale: [2]float32{0, -2}}},
			{Width: 1, Count: 9, Small: -1, Clamp: corpus.Window{Lo: 3, Hi: 2}},
		} {
			o, data := out[int32](t, n)
			c.In, c.Out = in(t, randInts(r, n, -1000, 1000), n), o
			res = append(res, ran(t, forEach(av, runtime.Ext(n), c), o, data)...)
		}
		return res
	}, exact},
	{"PointerMethods", each1D(1000, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.PointerMethods{In: i, Out: o}
	}), exact},
	{"PointerMethodsTiled", tiledInOut(corpus.PointerMethodsTiled{}), exact},
	{"RangeCopy", each1D(1000, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.RangeCopy{In: i, Out: o}
	}), exact},
	{"RangeKey", each1D(1000, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.RangeKey{In: i, Out: o}
	}), exact},
	{"StructConv", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 500
		o, data := out[float32](t, n)
		k := corpus.StructConv{In: in(t, randFloats(r, n, -2, 2), n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, near(1e-6, 1e-6)},
	{"VecCaptures", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		if !av.Accelerator().SupportsDoublePrecision() {
			t.Skipf("%s has no double precision: VecCaptures has a float64 field", av.Accelerator().Description())
		}
		const n = 300
		o, data := out[float32](t, n)
		k := corpus.VecCaptures{In: in(t, randFloats(r, n, -1, 1), n), Out: o, Bias: 0.5, Center: vec.F2(0.25, 2),
			Color: vec.F4(1, 2, 3, 4), Dir: vec.F3(-1, 0.5, 2), Steps: vec.I3(3, 5, 7), Tail: 11, Big: 1e9 + 0.25, Last: -3}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, near(1e-5, 1e-6)},
	{"GenericStruct[int32,float32]", genericStructCase[int32, float32](1.5), exact},
	{"GenericStruct[int32,int32]", genericStructCase[int32, int32](3), exact},
	{"GenericStruct[float32,int32]", genericStructCase[float32, int32](-2), exact},
	{"GenericStruct[float32,float32]", genericStructCase[float32, float32](0.75), exact},
	{"FieldOnly", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		x, y := randFloats(r, n, -1, 1), randInts(r, 2*n, -9, 9)
		recs := make([]corpus.Record, n)
		for i := range recs {
			recs[i] = corpus.Record{W: x[i], Tags: [2]int32{y[2*i], y[2*i+1]}}
		}
		o, data := out[float32](t, n)
		return ran(t, forEach(av, runtime.Ext(n), corpus.FieldOnly{In: in(t, recs, n), Out: o}), o, data)
	}, exact},
	{"Converge", tiledInOut(corpus.Converge{}), exact},
	{"ShapeHelper", tiledInOut(corpus.ShapeHelper{}), exact},
	{"CASMax", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const rows, cols = 64, 100
		m, mdata := out[uint32](t, rows)
		for i := range mdata {
			mdata[i] = math.Float32bits(-1e30)
		}
		p, _ := inout(t, randFloats(r, rows, -50, 50), rows)
		c, cdata := out[int32](t, rows)
		k := corpus.CASMax{In: in(t, randFloats(r, rows*cols, -100, 100), rows, cols), Max: m, Probe: p, Count: c}
		require.NoError(t, forEach(av, runtime.Ext(rows, cols), k))
		sync(t, m)
		sync(t, c)
		res := slices.Clone(mdata)
		for _, x := range cdata {
			res = append(res, uint32(x))
		}
		return res
	}, exact},
	{"CallArgs", each1D(500, func(in *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
		return corpus.CallArgs{In: in, Out: o}
	}), exact},
	{"Shifts", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		s := make([]uint32, n) // counts 0..40: past 31 too
		for j := range s {
			s[j] = r.Uint32N(41)
		}
		o, data := out[int32](t, n)
		uo, udata := out[uint32](t, n)
		k := corpus.Shifts{A: in(t, randInts(r, n, math.MinInt32, math.MaxInt32), n), S: in(t, s, n), Out: o, UOut: uo}
		require.NoError(t, forEach(av, runtime.Ext(n), k))
		sync(t, o)
		sync(t, uo)
		return [2]any{data, udata}
	}, exact},
	{"Divide", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		b := divisors(r, n)
		a := randInts(r, n, math.MinInt32+1, math.MaxInt32)
		a[0], b[0] = math.MinInt32, -1 // Go: math.MinInt32 / -1 wraps to math.MinInt32, remainder 0
		o, data := out[int32](t, n)
		k := corpus.Divide{A: in(t, a, n), B: in(t, b, n), Out: o}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}, exact},
	{"SwitchBreak", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		o, data := out[int32](t, n)
		return ran(t, forEach(av, runtime.Ext(n), corpus.SwitchBreak{In: in(t, randInts(r, n, -100, 100), n), Out: o}), o, data)
	}, exact},
	{"SwitchBreakTiled", tiledInOut(corpus.SwitchBreakTiled{}), exact},
	{"RangeLen", tiled1D(1024, 64, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.TiledKernel {
		return corpus.RangeLen{Src: i, Dst: o}
	}), exact},
	{"LoopReturn", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1024
		o, data := out[int32](t, n)
		a, aux := out[int32](t, n)
		k := corpus.LoopReturn{In: in(t, randInts(r, n, 0, 1000), n), Out: o, Aux: a}
		require.NoError(t, forEachTiled(av, runtime.Ext(n).Tile(64), k))
		sync(t, o, a)
		return append(data, aux...)
	}, exact},
	{"MinMax", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1024
		special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0,
			float32(math.Copysign(0, -1)), 1, -1}
		pick := func() []float32 {
			s := randFloats(r, n, -2, 2)
			for i := range s {
				if r.IntN(2) == 0 {
					s[i] = special[r.IntN(len(special))]
				}
			}
			return s
		}
		lo, los := out[uint32](t, n)
		hi, his := out[uint32](t, n)
		k := corpus.MinMax{A: in(t, pick(), n), B: in(t, pick(), n), Lo: lo, Hi: hi}
		require.NoError(t, forEach(av, runtime.Ext(n), k))
		sync(t, lo, hi)
		res := append(los, his...)
		for i, b := range res { // a NaN's bits are the platform's (Go on amd64 ORs the operands')
			if b&0x7f800000 == 0x7f800000 && b&0x7fffff != 0 {
				res[i] = 0x7fc00000
			}
		}
		return res
	}, exact},
	{"Extents", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const rows, cols, n = 13, 21, 37
		big, err := arrayview.New(runtime.Ext(rows+5, cols+9), randInts(r, (rows+5)*(cols+9), -1e6, 1e6))
		require.NoError(t, err)
		sec, err := big.Section(runtime.Idx(3, 4), runtime.Ext(rows, cols))
		require.NoError(t, err)
		o, data := out[int32](t, rows, cols)
		k := corpus.Extents{In: sec.ReadOnly(), Vec: in(t, randInts(r, n, -1e6, 1e6), n), Out: o}
		return ran(t, forEach(av, runtime.Ext(rows, cols), k), o, data)
	}, exact},
	{"ExtentLoop", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n, tile, chunks = 256, 64, 11
		o, data := out[int32](t, n)
		k := corpus.ExtentLoop{In: in(t, randInts(r, tile*chunks, -1e5, 1e5), tile*chunks), Out: o}
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(tile), k), o, data)
	}, exact},
	{"Results", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1000
		b := randInts(r, n, -1e6, 1e6)
		for i := 0; i < n; i += 7 {
			b[i] = int32(r.IntN(5)) * 1000 // b%1000 == 0: divmod's zero case
		}
		o, data := out[int32](t, n)
		a, aux := out[int32](t, n)
		k := corpus.Results{A: in(t, randInts(r, n, -1e6, 1e6), n), B: in(t, b, n), Out: o, Aux: a, Bias: r.Int32N(100)}
		require.NoError(t, forEach(av, runtime.Ext(n), k))
		sync(t, o, a)
		return append(data, aux...)
	}, exact},
	{"ResultsTiled", tiledInOut(corpus.ResultsTiled{}), exact},
	{"SharedArgs", tiledInOut(corpus.SharedArgs{}), exact},
	{"UniformArgs", tiledRounds(corpus.UniformArgs{}, 2), exact},
	{"SharedLen", tiledInOut(corpus.SharedLen{}), exact},
	{"SharedConst", tiledInOut(corpus.SharedConst{}), exact},
	{"GroupMax", tiledInOut(corpus.GroupMax{}), exact},
	{"NestedCalls", tiledRounds(corpus.NestedCalls{}, 1), exact},
	{"Remat", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const rows, cols = 32, 48
		o, data := out[int32](t, rows, cols)
		k := corpus.Remat{In: in(t, randInts(r, rows*cols, -1e6, 1e6), rows, cols), Out: o, Off: r.Int32N(100)}
		return ran(t, forEachTiled(av, runtime.Ext(rows, cols).Tile(4, 8), k), o, data)
	}, exact},
	{"Named", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 96
		o, data := out[corpus.Sample](t, n)
		for i := range data {
			data[i].Value = r.Int32()
		}
		o.Refresh()
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(32), corpus.Named{Sample: o}), o, data)
	}, exact},
	{"FloatAdd", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 2048
		sum, s := out[float32](t, 1)
		maxi, m := out[uint32](t, 1)
		k := corpus.FloatAdd{In: in(t, randFloats(r, n, -1, 1), n), Sum: sum, Maxi: maxi}
		require.NoError(t, forEachTiled(av, runtime.Ext(n).Tile(128), k))
		sync(t, sum)
		sync(t, maxi)
		return []float32{s[0], math.Float32frombits(m[0])}
	}, near(1e-4, 1e-5)},
	{"Phases", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n, tile = 1536, 96
		res := []int32{}
		for mode := range int32(3) {
			o, data := out[int32](t, n)
			k := corpus.Phases{In: in(t, randInts(r, n, -1e6, 1e6), n), Out: o, Rounds: 3 + mode, Mode: mode, Stop: 2*mode - 1}
			require.NoError(t, forEachTiled(av, runtime.Ext(n).Tile(tile), k))
			sync(t, o)
			res = append(res, data...)
		}
		return res
	}, exact},
	{"TileRev[int32]", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 640
		o, data := out[int32](t, n)
		k := corpus.TileRev[int32]{In: in(t, randInts(r, n, -1e6, 1e6), n), Out: o}
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(64), k), o, data)
	}, exact},
	{"TileRev[float32]", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 384
		o, data := out[float32](t, n)
		k := corpus.TileRev[float32]{In: in(t, randFloats(r, n, -1e3, 1e3), n), Out: o}
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(128), k), o, data)
	}, exact},
	{"MatMul", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const m, kk, n = 48, 64, 32
		o, data := out[float32](t, m, n)
		k := corpus.MatMul{A: in(t, randFloats(r, m*kk, -1, 1), m, kk), B: in(t, randFloats(r, kk*n, -1, 1), kk, n), C: o, K: kk}
		return ran(t, forEachTiled(av, runtime.Ext(m, n).Tile(corpus.MatMulTS, corpus.MatMulTS), k), o, data)
	}, near(1e-5, 1e-4)},
	{"Bitonic", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n, tile = 1024, 256
		keys, data := out[int32](t, n)
		copy(data, randInts(r, n, -1e6, 1e6))
		keys.Refresh()
		require.NoError(t, forEachTiled(av, runtime.Ext(n).Tile(tile), corpus.Bitonic{Keys: keys}))
		sync(t, keys)
		return data
	}, exact},
	{"NBody", func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n, tile = 512, 64
		pos := randVec4s(r, n, -4, 4)
		for i := range pos {
			pos[i].W = 0.5 + pos[i].W/8 // positive masses
		}
		vel, vd := out[vec.Float4](t, n)
		copy(vd, randVec4s(r, n, -1, 1))
		vel.Refresh()
		np, nd := out[vec.Float4](t, n)
		k := demos.NBodyKernel{Pos: in(t, pos, n), Vel: vel, NewPos: np, Dt: 0.01, Eps2: 0.05, Bodies: n}
		require.NoError(t, forEachTiled(av, runtime.Ext(n).Tile(tile), k))
		sync(t, vel, np)
		f := make([]float32, 0, 8*n)
		for i := range vd {
			f = append(f, vd[i].X, vd[i].Y, vd[i].Z, vd[i].W, nd[i].X, nd[i].Y, nd[i].Z, nd[i].W)
		}
		return f
	}, near(1e-4, 1e-4)},
	// 8- and 16-bit values and rounding, bit for bit (corpus_narrow_test.go).
	{"Narrow", runNarrow, exact},
	{"HalfOps", runHalfOps, exact},
	{"Rounding", runRounding, exact},
	// The forms a generated EachRange rewrites, and a GPU loop over many points a thread
	// (corpus_range_test.go).
	{"RangeForms", runRangeForms, exact},
	{"RangeMoved", runRangeMoved, exact},
	{"GridLoop", runGridLoop, exact},
}

// randFloat64s returns n random float64s in -1..1.
func randFloat64s(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 2*r.Float64() - 1
	}
	return s
}

// randVec4s returns n vectors of components in lo..hi.
func randVec4s(r *rand.Rand, n int, lo, hi float32) []vec.Float4 {
	s := make([]vec.Float4, n)
	for i := range s {
		f := randFloats(r, 4, lo, hi)
		s[i] = vec.F4(f[0], f[1], f[2], f[3])
	}
	return s
}

// perThread makes forEach and forEachTiled run the kernels' per-thread Go bodies
// (rtlink's PerThread) instead of their generated fast CPU bodies.
var perThread bool

// fastBodies counts the dispatches of kernels that have a generated fast CPU body.
var fastBodies int

// body counts k's generated fast CPU body (fast: k has one) and returns k, or with
// perThread set its per-thread body.
func body[K any](k K, fast bool) K {
	if fast {
		fastBodies++
	}
	if perThread {
		return rtlink.Get[runtime.Block]().PerThread(k).(K)
	}
	return k
}

// forEach is runtime.ParallelForEach, per thread when perThread is set.
func forEach(av *accelerator.View, ext runtime.Extent, k runtime.IndexKernel) error {
	_, fast := k.(runtime.RangeKernel)
	return runtime.ParallelForEach(av, ext, body(k, fast))
}

// tiled1D returns a corpus run of the kernel mk makes of n random int32s and an output,
// over n threads in tiles of tile.
func tiled1D(n, tile int, mk func(*arrayview.ReadView[int32], *arrayview.View[int32]) runtime.TiledKernel) func(testing.TB, *accelerator.View, *rand.Rand) any {
	return func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		o, data := out[int32](t, n)
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(tile), mk(in(t, randInts(r, n, -1000, 1000), n), o)), o, data)
	}
}

// tiledInOut is tiled1D's run, of 1024 elements in tiles of 64, of kernel k with its In and
// Out fields set to the input and the output.
func tiledInOut(k runtime.TiledKernel) func(testing.TB, *accelerator.View, *rand.Rand) any {
	return tiled1D(1024, 64, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.TiledKernel {
		return withFields(k, "In", i, "Out", o)
	})
}

// tiledRounds returns a corpus run of kernel k over 1024 random int32s in tiles of 64, its
// In and Out fields set to the input and the output, and its Rounds to at least least,
// up to 3 more.
func tiledRounds(k runtime.TiledKernel, least int32) func(testing.TB, *accelerator.View, *rand.Rand) any {
	return func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 1024
		o, data := out[int32](t, n)
		k := withFields(k, "In", in(t, randInts(r, n, -1e6, 1e6), n), "Out", o, "Rounds", least+r.Int32N(4))
		return ran(t, forEachTiled(av, runtime.Ext(n).Tile(64), k), o, data)
	}
}

// withFields returns a copy of kernel k with the fields that nameValues names (a name, then
// its value, and so on) set.
func withFields[K any](k K, nameValues ...any) K {
	v := reflect.New(reflect.TypeOf(k)).Elem()
	v.Set(reflect.ValueOf(k))
	for i := 0; i < len(nameValues); i += 2 {
		v.FieldByName(nameValues[i].(string)).Set(reflect.ValueOf(nameValues[i+1]))
	}
	return v.Interface().(K)
}

// each1D returns a corpus run of the kernel mk makes of n random int32s and an output,
// over n indices.
func each1D(n int, mk func(*arrayview.ReadView[int32], *arrayview.View[int32]) runtime.IndexKernel) func(testing.TB, *accelerator.View, *rand.Rand) any {
	return func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		o, data := out[int32](t, n)
		return ran(t, forEach(av, runtime.Ext(n), mk(in(t, randInts(r, n, -1000, 1000), n), o)), o, data)
	}
}

// genericStructCase runs GenericStruct[T, U] with factor f on whole numbers
// (every result exact in float32).
func genericStructCase[T, U int32 | float32](f U) func(testing.TB, *accelerator.View, *rand.Rand) any {
	return func(t testing.TB, av *accelerator.View, r *rand.Rand) any {
		const n = 300
		x := randInts(r, 2*n, -1000, 1000)
		d := make([]corpus.Duo[T], n)
		for i := range d {
			d[i] = corpus.Duo[T]{A: T(x[2*i]), B: T(x[2*i+1])}
		}
		o, data := out[U](t, n)
		k := corpus.GenericStruct[T, U]{In: in(t, d, n), Out: o, F: f}
		return ran(t, forEach(av, runtime.Ext(n), k), o, data)
	}
}

// forEachTiled is runtime.ParallelForEachTiled, per thread when perThread is set.
func forEachTiled(av *accelerator.View, dom runtime.TiledExtent, k runtime.TiledKernel) error {
	_, fast := k.(runtime.TileKernel)
	return runtime.ParallelForEachTiled(av, dom, body(k, fast))
}

// TestCorpusCPUBodies runs every corpus kernel on the CPU accelerator through its
// generated fast CPU body (EachTile or EachRange, which every corpus kernel but those
// of corpusPerThread has) and through the per-thread executor, and compares the results.
func TestCorpusCPUBodies(t *testing.T) {
	seed := amptest.Seed(t)
	av, err := accelerator.CPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer func() { require.NoError(t, av.Close()) }()
	for _, c := range corpusCases {
		t.Run(c.name, func(t *testing.T) {
			fastBodies = 0
			fast := c.run(t, av, rand.New(rand.NewPCG(seed, 1)))
			if _, ok := corpusPerThread[c.name]; ok {
				require.Zero(t, fastBodies, "%s now has a generated CPU body: drop its perThread", c.name)
				return
			}
			require.Positive(t, fastBodies, "%s has no generated CPU body", c.name)
			perThread = true
			defer func() { perThread = false }()
			slow := c.run(t, av, rand.New(rand.NewPCG(seed, 1)))
			c.cmp(t, slow, fast)
		})
	}
}

// TestCorpusRuns runs every corpus kernel on every accelerator present, with the same
// random inputs, and compares each result with the CPU's.
func TestCorpusRuns(t *testing.T) {
	seed := amptest.Seed(t)
	for _, c := range corpusCases {
		t.Run(c.name, func(t *testing.T) {
			amptest.Compare(t, func(t testing.TB, av *accelerator.View) any {
				return c.run(t, av, rand.New(rand.NewPCG(seed, 1)))
			}, c.cmp)
		})
	}
}

// TestCorpusFloat64 checks which corpus programs declare the Float64 capability, which a
// device without double precision refuses: a float32 kernel must not, even where it uses
// float32(math.Inf(1)) or a float min, whose prelude helpers have float64 overloads.
func TestCorpusFloat64(t *testing.T) {
	for _, c := range []struct {
		k    interface{ Program() *runtime.Program }
		want bool
	}{
		{corpus.RowMin{}, false},
		{corpus.MinMax{}, false},
		{corpus.Bits{}, false},
		{corpus.Classify{}, true},
	} {
		in, err := runtime.ReadInterface(c.k.Program().SPIRV)
		require.NoError(t, err)
		require.Equal(t, c.want, in.HasCapability(runtime.CapabilityFloat64), "%T", c.k)
	}
}

// TestCapturesRange dispatches Captures with int and uint fields past 32 bits: the CPU
// accelerator takes them (int is 64 bits there), a GPU refuses them with a
// *runtime.KernelError naming the field and the value, and leaves the output as it was.
func TestCapturesRange(t *testing.T) {
	for _, c := range []struct {
		k            corpus.Captures
		field, value string
	}{
		{corpus.Captures{Width: 1 << 40, Count: 1}, "Width", "1099511627776"},
		{corpus.Captures{Width: math.MinInt32 - 1, Count: 1}, "Width", "-2147483649"},
		{corpus.Captures{Width: 3, Count: 1 << 32}, "Count", "4294967296"},
	} {
		for _, av := range amptest.Views(t) {
			const n = 64
			o, data := out[int32](t, n)
			for i := range data {
				data[i] = -7
			}
			c.k.In, c.k.Out = in(t, randInts(rand.New(rand.NewPCG(1, 2)), n, -9, 9), n), o
			if c.k.Count > 10 { // the CPU would count to 2^32: check only the GPU's refusal
				if av.Accelerator().IsCPU() {
					continue
				}
			}
			err := forEach(av, runtime.Ext(n), c.k)
			if av.Accelerator().IsCPU() {
				require.NoError(t, err)
				continue
			}
			var ke *runtime.KernelError
			require.ErrorAs(t, err, &ke, "%s=%s on %s", c.field, c.value, av.Accelerator().Description())
			require.Equal(t, c.field, ke.Field)
			require.Contains(t, err.Error(), c.value)
			sync(t, o)
			require.Equal(t, slices.Repeat([]int32{-7}, n), data, "the output is untouched")
		}
	}
}
