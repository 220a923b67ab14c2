package arrayview_test

import (
	"testing"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/testprog"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// iota writes i*Scale + Add + int(FAdd) (internal/testprog/iota.comp).
type iota struct {
	Out   *arrayview.View[int32]
	Scale int32
	Add   uint32
	FAdd  float32
}

func (k iota) Each(i runtime.Index) {
	k.Out.Set(i, int32(i[0])*k.Scale+int32(k.Add)+int32(k.FAdd))
}

func (iota) Program() *runtime.Program { return testprog.MustProgram("iota", 1) }

// backToBack calls dispatch(i) for b.Loop's iterations i without waiting, then waits for
// the last: us/dispatch is the whole time per dispatch, the wait included (the
// benchmark's own ns/op stops before it); us/issue is the host's time to issue a dispatch,
// the device running the dispatches while the host issues more.
func backToBack(b *testing.B, av *accelerator.View, dispatch func(i int) error) {
	b.ReportAllocs()
	t0 := time.Now()
	for i := 0; b.Loop(); i++ {
		if err := dispatch(i); err != nil {
			b.Fatal(err)
		}
	}
	issued := time.Since(t0)
	require.NoError(b, av.Wait())
	b.ReportMetric(float64(time.Since(t0).Nanoseconds())/float64(b.N)/1e3, "us/dispatch")
	b.ReportMetric(float64(issued.Nanoseconds())/float64(b.N)/1e3, "us/issue")
}

// BenchmarkDispatchView is the user's path for dispatch overhead: back-to-back
// ParallelForEach of a tiny kernel over an arrayview.View (the data stays on the device),
// and one dispatch plus a wait.
func BenchmarkDispatchView(b *testing.B) {
	for _, a := range accelerator.All() {
		av, err := a.CreateView(accelerator.Automatic)
		require.NoError(b, err)
		v := arrayview.MustNew(runtime.Ext(64), make([]int32, 64))
		k := iota{Out: v, Scale: 2}
		require.NoError(b, runtime.ParallelForEach(av, v.Extent(), k))
		require.NoError(b, av.Wait())
		b.Run(a.Path()+"/back-to-back", func(b *testing.B) {
			backToBack(b, av, func(int) error { return runtime.ParallelForEach(av, v.Extent(), k) })
		})
		// Independent dispatches: the same kernel over eight views in turn, so that a
		// dispatch waits for an earlier one (a barrier) only every eighth time.
		var ks [8]iota
		for i := range ks {
			ks[i] = iota{Out: arrayview.MustNew(runtime.Ext(64), make([]int32, 64)), Scale: int32(i)}
			require.NoError(b, runtime.ParallelForEach(av, v.Extent(), ks[i]))
		}
		require.NoError(b, av.Wait())
		b.Run(a.Path()+"/back-to-back-independent", func(b *testing.B) {
			backToBack(b, av, func(i int) error { return runtime.ParallelForEach(av, v.Extent(), ks[i%len(ks)]) })
		})
		for i := range ks {
			require.NoError(b, ks[i].Out.Synchronize())
			require.Equal(b, int32(63*i), ks[i].Out.At(runtime.Idx(63)))
			require.NoError(b, ks[i].Out.Close())
		}
		b.Run(a.Path()+"/with-wait", func(b *testing.B) {
			b.ReportAllocs()
			before := av.Stats()
			for b.Loop() {
				if err := runtime.ParallelForEach(av, v.Extent(), k); err != nil {
					b.Fatal(err)
				}
				if err := av.Wait(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "us/dispatch")
			after := av.Stats()
			if n := after.Submits - before.Submits; n > 0 {
				b.ReportMetric(float64(after.Replays-before.Replays)/float64(n), "replayed/submit")
			}
		})
		require.NoError(b, v.Synchronize())
		require.Equal(b, int32(126), v.At(runtime.Idx(63)))
		require.NoError(b, v.Close())
		require.NoError(b, av.Close())
	}
}

// pair captures two arrays; it exists to be dispatched with arrays on different views.
type pair struct {
	A, B *arrayview.Array[int32]
}

func (k pair) Each(i runtime.Index)    { k.B.Set(i, k.A.At(i)) }
func (pair) Program() *runtime.Program { return testprog.MustProgram("scale", 1) }

// TestArraysOnDifferentViews: data that lives on different accelerator views cannot meet in
// one kernel (seed 002); the error names both and leaves the data as it was.
func TestArraysOnDifferentViews(t *testing.T) {
	all := accelerator.All()
	for _, a := range all {
		for _, b := range all {
			va, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			vb, err := b.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			x, err := arrayview.NewArray(va, runtime.Ext(8), []int32{1, 2, 3, 4, 5, 6, 7, 8})
			require.NoError(t, err)
			y, err := arrayview.NewArray[int32](vb, runtime.Ext(8), nil)
			require.NoError(t, err)
			err = runtime.ParallelForEach(nil, runtime.Ext(8), pair{x, y})
			require.ErrorIs(t, err, runtime.ErrAcceleratorMismatch, "%s and %s", a.Path(), b.Path())
			assert.Contains(t, err.Error(), a.Path())
			assert.Contains(t, err.Error(), b.Path())
			err = runtime.ParallelForEach(va, runtime.Ext(8), pair{x, y})
			require.ErrorIs(t, err, runtime.ErrAcceleratorMismatch)
			got := make([]int32, 8)
			require.NoError(t, x.CopyTo(got))
			assert.Equal(t, []int32{1, 2, 3, 4, 5, 6, 7, 8}, got)
			require.NoError(t, y.CopyTo(got))
			assert.Equal(t, make([]int32, 8), got)
			require.NoError(t, va.Close())
			require.NoError(t, vb.Close())
		}
	}
}
