//go:build goampcheck

package translate_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate/testdata/corpus"
)

// TestBoundsChecked runs corpus.Outside in a build with -tags goampcheck, where the corpus's
// GPU dispatches run their bounds-checked builds: with every access inside the views the
// result is the CPU's; a read or a write outside is a *KernelPanicError on every
// accelerator, whose Value is a *BoundsError naming the field, an index outside and the
// view's extent (on the CPU as on a GPU), and the input stays as it was.
func TestBoundsChecked(t *testing.T) {
	require.NotNil(t, corpus.Outside{}.Program().Checked, "the build has the checked programs (-tags goampcheck)")
	const n = 1000
	seed := amptest.Seed(t)
	tests := []struct {
		name         string
		shift, write int32
		field        string
	}{
		{"inside", 0, 0, ""},
		{"read outside", 3, 0, "In"},
		{"write outside", 3, 1, "Out"},
		{"read below", -2, 0, "In"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 0))
			src := randInts(r, n, -1e6, 1e6)
			var cpu []int32
			for _, av := range amptest.Views(t) {
				t.Run(av.Accelerator().Path(), func(t *testing.T) {
					in := in(t, slices.Clone(src), n)
					o, data := out[int32](t, n)
					err := runtime.ParallelForEach(av, runtime.Ext(n), corpus.Outside{In: in, Out: o, Shift: tt.shift, Write: tt.write})
					if tt.field == "" {
						got := ran(t, err, o, data)
						if cpu == nil {
							cpu = got
						}
						require.Equal(t, cpu, got)
						return
					}
					var pe *runtime.KernelPanicError
					require.ErrorAs(t, err, &pe, "an access outside a view")
					require.ErrorIs(t, err, runtime.ErrKernelPanic)
					host := make([]int32, n)
					require.NoError(t, in.CopyTo(host))
					assert.Equal(t, src, host, "the input is intact")
					var be *runtime.BoundsError // on the CPU too
					require.ErrorAs(t, err, &be)
					assert.Equal(t, tt.field, be.Field)
					assert.Equal(t, runtime.Ext(n), be.Extent)
					assert.True(t, be.Index[0] < 0 || be.Index[0] >= n, "index %v is outside", be.Index)
					assert.Equal(t, be.Index[0]-int(tt.shift), pe.Global[0], "the thread that made the access")
				})
			}
		})
	}
}

// TestBoundsCheckedRank: an index of a higher rank than the view's, with a component past
// the view's rank that is not 0, lies outside the view, in a bounds-checked GPU build as on
// both CPU accelerators: corpus.HiddenRank, which indexes its views with the thread's
// index through a function (so that the dispatch cannot refuse it, as it refuses
// corpus.Axpy: TestIndexRankContract), over a domain of rank 2 or 3 with views of rank 1
// fails with a *BoundsError naming the field, the index and the thread, where before
// every accelerator wrote row after row over the same elements and returned nil.
func TestBoundsCheckedRank(t *testing.T) {
	require.NotNil(t, corpus.HiddenRank{}.Program().Checked, "the build has the checked programs (-tags goampcheck)")
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	strict, err := accelerator.StrictCPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer func() { require.NoError(t, strict.Close()) }()
	for _, av := range append(amptest.Views(t), strict) {
		for _, rank := range []int{2, 3} {
			t.Run(fmt.Sprintf("%s/rank%d", av.Accelerator().Path(), rank), func(t *testing.T) {
				n, c := 1+r.IntN(300), 2+r.IntN(30)
				dom := runtime.Ext(n, c)
				if rank == 3 {
					dom = runtime.Ext(n, 1, c)
				}
				src := randFloats(r, n, -1, 1)
				y, _ := out[float32](t, n)
				err := runtime.ParallelForEach(av, dom, corpus.HiddenRank{In: in(t, slices.Clone(src), n), Out: y})
				var pe *runtime.KernelPanicError
				require.ErrorAs(t, err, &pe, "a rank-%d index of rank-1 views", rank)
				var be *runtime.BoundsError
				require.ErrorAs(t, err, &be)
				assert.Contains(t, []string{"In", "Out"}, be.Field)
				assert.Equal(t, runtime.Ext(n), be.Extent)
				assert.Equal(t, pe.Global, be.Index, "the thread's own index")
				assert.NotZero(t, be.Index[rank-1], "a component past the view's rank")
				assert.Contains(t, err.Error(), fmt.Sprintf("a rank-%d index of a rank-1 view", rank))
			})
		}
	}
}

// TestBoundsCheckedAt4: the check of At4 covers its fourth element.
func TestBoundsCheckedAt4(t *testing.T) {
	const n = 1024
	seed := amptest.Seed(t)
	for _, av := range amptest.Views(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 0))
			src := randFloats(r, n, -1, 1)
			o, data := out[float32](t, n)
			require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n/4), corpus.Outside4{In: in(t, slices.Clone(src), n), Out: o}))
			assert.Equal(t, src, ran(t, nil, o, data))
			err := runtime.ParallelForEach(av, runtime.Ext(n/4), corpus.Outside4{In: in(t, slices.Clone(src), n), Out: o, Shift: 1})
			var pe *runtime.KernelPanicError
			require.ErrorAs(t, err, &pe)
			var be *runtime.BoundsError // on the CPU too
			require.ErrorAs(t, err, &be)
			assert.Equal(t, "In", be.Field)
			assert.Equal(t, n, be.Index[0], "the fourth element of the last thread's At4")
			assert.Equal(t, n/4-1, pe.Global[0])
		})
	}
}

// TestBoundsCheckedArrays: a tile_static or local array index out of range is a
// *KernelPanicError on every accelerator, a *BoundsError naming the array on a GPU.
func TestBoundsCheckedArrays(t *testing.T) {
	const n, tile = 1024, 64
	seed := amptest.Seed(t)
	tests := []struct {
		name        string
		shift, pick int32
		field       string
		length      int
	}{
		{"inside", 0, 0, "", 0},
		{"tile_static", 5, 0, "tile_static array 0", tile},
		{"array", 0, 3, "an array or Index", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, av := range amptest.Views(t) {
				t.Run(av.Accelerator().Path(), func(t *testing.T) {
					r := rand.New(rand.NewPCG(seed, 0))
					o, data := out[int32](t, n)
					k := corpus.OutsideArrays{In: in(t, randInts(r, n, -1e6, 1e6), n), Out: o, Shift: tt.shift, Pick: tt.pick}
					err := runtime.ParallelForEachTiled(av, runtime.Ext(n).Tile(tile), k)
					if tt.field == "" {
						ran(t, err, o, data)
						return
					}
					var pe *runtime.KernelPanicError
					require.ErrorAs(t, err, &pe)
					if av.Accelerator().IsCPU() {
						return
					}
					var be *runtime.BoundsError
					require.ErrorAs(t, err, &be)
					assert.Equal(t, tt.field, be.Field)
					assert.Equal(t, runtime.Ext(tt.length), be.Extent)
					assert.GreaterOrEqual(t, be.Index[0], tt.length)
				})
			}
		})
	}
}

// TestPanicsChecked: an integer division by zero and a shift by a negative count panic on
// the CPU, and in a bounds-checked GPU build each is a *KernelPanicError too, whose Value
// is a *runtime.DivideError or a *runtime.ShiftError (naming the count), and whose Global
// is the thread that divided or shifted.
func TestPanicsChecked(t *testing.T) {
	const n = 1000
	cases := []struct {
		name   string
		at     int   // the thread given the bad operand
		lo, hi int32 // the operands' range
		bad    int32
		kernel func(a, b *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel
		cpu    string // in the CPU's message
		gpu    func(t *testing.T, err error)
	}{
		{"divide", 617, 1, 1000, 0, func(a, b *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
			return corpus.Divide{A: a, B: b, Out: o}
		}, "integer divide by zero", func(t *testing.T, err error) {
			var de *runtime.DivideError
			require.ErrorAs(t, err, &de)
		}},
		{"shift", 383, 0, 40, -3, func(a, b *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.IndexKernel {
			return corpus.ShiftBy{A: a, B: b, Out: o}
		}, "negative shift amount", func(t *testing.T, err error) {
			var se *runtime.ShiftError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, -3, se.Count)
		}},
	}
	seed := amptest.Seed(t)
	for _, c := range cases {
		for _, av := range amptest.Views(t) {
			t.Run(c.name+"/"+av.Accelerator().Path(), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 0))
				b := randInts(r, n, c.lo, c.hi)
				b[c.at] = c.bad
				o, _ := out[int32](t, n)
				err := runtime.ParallelForEach(av, runtime.Ext(n), c.kernel(in(t, randInts(r, n, -1e6, 1e6), n), in(t, b, n), o))
				var pe *runtime.KernelPanicError
				require.ErrorAs(t, err, &pe)
				require.ErrorIs(t, err, runtime.ErrKernelPanic)
				assert.Regexp(t, `kernel \S*(Divide|ShiftBy) panicked`, err.Error(), "the message names the kernel")
				if av.Accelerator().IsCPU() {
					assert.Contains(t, err.Error(), c.cpu, "the CPU panics with Go's value")
					return
				}
				c.gpu(t, err)
				assert.Equal(t, c.at, pe.Global[0], "the thread at fault")
			})
		}
	}
}

// TestLoopLimitChecked runs corpus.ExtentLoop, whose threads each loop once per element
// of In, with tiles of one thread, in the checked build: below a device's loop cap
// (accelerator.Limits.MaxLoopIterations, lavapipe's 65,535) the result is the CPU's; at
// 70,000 passes a device with the cap returns a *KernelPanicError whose Value is a
// *runtime.LoopLimitError (an ordinary build ends the loop there without an error and
// returns a wrong sum), and a device without it the CPU's result.
func TestLoopLimitChecked(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 1))
	for _, chunks := range []int{60000, 70000} {
		src := randInts(r, chunks, -1000, 1000)
		var cpu []int32
		for _, av := range amptest.Views(t) {
			t.Run(fmt.Sprintf("%d/%s", chunks, av.Accelerator().Path()), func(t *testing.T) {
				o, data := out[int32](t, 1)
				err := forEachTiled(av, runtime.Ext(1).Tile(1), corpus.ExtentLoop{In: in(t, slices.Clone(src), chunks), Out: o})
				limit := int(av.Accelerator().Limits().MaxLoopIterations)
				if limit == 0 || chunks < limit {
					got := ran(t, err, o, data)
					if cpu == nil {
						cpu = slices.Clone(got)
					}
					require.Equal(t, cpu, got)
					return
				}
				var pe *runtime.KernelPanicError
				require.ErrorAs(t, err, &pe)
				var le *runtime.LoopLimitError
				require.ErrorAs(t, err, &le)
				assert.Equal(t, limit, le.Limit)
				assert.Contains(t, err.Error(), "loops reached 65535 iterations")
			})
		}
	}
}
