package amptest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// scaleK writes Out = F * In.
type scaleK struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[float32]
	F   float32
}

func (k scaleK) Each(i runtime.Index) { k.Out.Set(i, k.F*k.In.At(i)) }

// tileAccK adds In to a tile_static slot it never initialised, waits, and writes the slot
// to Out: on the CPU, whose tile_static memory starts zeroed, Out = In; on a GPU the
// slot holds what was there before.
type tileAccK struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[float32]
}

func (k tileAccK) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[float32](t, t.TileExtent.Size())
	s[t.Local[0]] += k.In.At(t.Global)
	t.Barrier.Wait()
	k.Out.Set(t.Global, s[t.Local[0]])
}

// mistakes are programs with a mistake that a GPU punishes and the plain CPU accelerator,
// whose kernels work on the Go slices themselves, forgives. Each returns what the
// program reads as its result, and the result it means.
var mistakes = []struct {
	name string
	run  func(t testing.TB, av *accelerator.View, r *rand.Rand) (got, want []float32)
}{
	{"forgets Synchronize", func(t testing.TB, av *accelerator.View, r *rand.Rand) ([]float32, []float32) {
		n := 1 + r.IntN(5000)
		in, out, want := make([]float32, n), make([]float32, n), make([]float32, n)
		f := 1 + r.Float32()
		for i := range in {
			in[i] = r.Float32()
			want[i] = f * in[i]
		}
		vi, vo := arrayview.MustNew(runtime.Ext(n), in), arrayview.MustNew(runtime.Ext(n), out)
		defer func() { require.NoError(t, vi.Close()) }()
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), scaleK{In: vi.ReadOnly(), Out: vo, F: f}))
		got := append([]float32(nil), out...) // the mistake: read out before vo.Synchronize
		require.NoError(t, vo.Release())
		return got, want
	}},
	{"forgets Refresh", func(t testing.TB, av *accelerator.View, r *rand.Rand) ([]float32, []float32) {
		n := 1 + r.IntN(5000)
		in, out, want := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range in {
			in[i] = r.Float32()
		}
		vi, vo := arrayview.MustNew(runtime.Ext(n), in), arrayview.MustNew(runtime.Ext(n), out)
		defer func() { require.NoError(t, vi.Close()) }()
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), scaleK{In: vi.ReadOnly(), Out: vo, F: 1}))
		for i := range in { // new inputs, written to the slice behind vi's back
			in[i] = r.Float32() + 2
			want[i] = 3 * in[i]
		}
		// The mistake: no vi.Refresh() here.
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), scaleK{In: vi.ReadOnly(), Out: vo, F: 3}))
		require.NoError(t, vo.Close())
		return out, want
	}},
	{"reads tile_static before writing it", func(t testing.TB, av *accelerator.View, r *rand.Rand) ([]float32, []float32) {
		tile := 1 << r.IntN(8)
		n := tile * (1 + r.IntN(20))
		in, out := make([]float32, n), make([]float32, n)
		for i := range in {
			in[i] = r.Float32()
		}
		vi, vo := arrayview.MustNew(runtime.Ext(n), in), arrayview.MustNew(runtime.Ext(n), out)
		defer func() { require.NoError(t, vi.Close()) }()
		require.NoError(t, runtime.ParallelForEachTiled(av, runtime.Ext(n).Tile(tile), tileAccK{In: vi.ReadOnly(), Out: vo}))
		require.NoError(t, vo.Close())
		return out, in
	}},
}

// TestStrictCatchesMistakes: each program with a mistake gives the meant result on the
// CPU accelerator, so a test on it passes by accident, and another on the strict CPU
// accelerator, as on a GPU (the Synchronize forgotten: zeros; the Refresh forgotten: the
// old inputs' result; tile_static read first: NaN), so that amptest.Compare, whose
// reference the strict CPU is, fails it.
func TestStrictCatchesMistakes(t *testing.T) {
	seed := amptest.Seed(t)
	for k, m := range mistakes {
		t.Run(m.name, func(t *testing.T) {
			for _, acc := range []*accelerator.Accelerator{accelerator.CPU(), accelerator.StrictCPU()} {
				av, err := acc.CreateView(accelerator.Automatic)
				require.NoError(t, err)
				got, want := m.run(t, av, rand.New(rand.NewPCG(seed, uint64(k))))
				require.NoError(t, av.Close())
				if acc.Traits().Strict {
					assert.NotEqual(t, want, got, "the strict CPU forgives the mistake")
					continue
				}
				assert.Equal(t, want, got, "the CPU gives the meant result")
			}
			rec := record(t, func(t testing.TB) {
				amptest.Compare(t, func(t testing.TB, av *accelerator.View) []float32 {
					got, _ := m.run(t, av, rand.New(rand.NewPCG(seed, uint64(k))))
					return got
				}, amptest.Near[float32](0, 0))
			})
			assert.True(t, rec.Failed())
			assert.Contains(t, rec.text(), "goamp/amptest: element 0: strict cpu", "Compare finds the CPU's result unlike the reference")
		})
	}
}

// TestStrictPoison: tile_static memory and discarded data start as poison on the strict
// CPU, NaN for float32, where the CPU gives zeros.
func TestStrictPoison(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	n := 1 + r.IntN(1000)
	in := make([]float32, n)
	for i := range in {
		in[i] = r.Float32()
	}
	for _, acc := range []*accelerator.Accelerator{accelerator.CPU(), accelerator.StrictCPU()} {
		t.Run(acc.Path(), func(t *testing.T) {
			av, err := acc.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer func() { require.NoError(t, av.Close()) }()
			src := append([]float32(nil), in...)
			out := make([]float32, n)
			vi, vo := arrayview.MustNew(runtime.Ext(n), src), arrayview.MustNew(runtime.Ext(n), out)
			vi.DiscardData() // the kernel reads what DiscardData declared meaningless
			require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), scaleK{In: vi.ReadOnly(), Out: vo, F: 1}))
			require.NoError(t, vo.Close())
			require.NoError(t, vi.Close())
			assert.Equal(t, in, src, "the input, only read, is intact")
			for i, x := range out {
				if acc.Traits().Strict {
					require.True(t, math.IsNaN(float64(x)), "element %d is %v", i, x)
				} else {
					require.Equal(t, in[i], x, "element %d", i)
				}
			}
		})
	}
}
