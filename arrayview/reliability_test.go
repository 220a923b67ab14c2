package arrayview_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// everyView runs fn in a subtest per accelerator on a fresh view of it (amptest.EachView).
func everyView(t *testing.T, fn func(t *testing.T, av *accelerator.View)) { amptest.EachView(t, fn) }

// randInts returns n random int32s, none of them zero.
func randInts(rng *rand.Rand, n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = rng.Int32N(1<<30) + 1
	}
	return s
}

// iotaWant is what the iota kernel writes with scale and add.
func iotaWant(n int, scale int32, add uint32) []int32 {
	w := make([]int32, n)
	for i := range w {
		w[i] = int32(i)*scale + int32(add)
	}
	return w
}

// eachView runs f in a subtest for every view amptest.Views gives, with one generator for
// all of them, seeded by amptest.Seed and stream.
func eachView(t *testing.T, stream uint64, f func(t *testing.T, rng *rand.Rand, av *accelerator.View)) {
	rng := rand.New(rand.NewPCG(amptest.Seed(t), stream))
	for _, av := range amptest.Views(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) { f(t, rng, av) })
	}
}

// TestCloseAcceleratorViewKeepsResults closes the accelerator view while a kernel's result
// is still pending on it: the result reaches the Go slice all the same,
// for a view, an array and a section whose neighbours keep their data.
func TestCloseAcceleratorViewKeepsResults(t *testing.T) {
	eachView(t, 1, func(t *testing.T, rng *rand.Rand, home *accelerator.View) {
		const n = 1000
		scale, add := rng.Int32N(100)+1, uint32(rng.IntN(1000)+1)
		av, err := home.Accelerator().CreateView(accelerator.Automatic)
		require.NoError(t, err)
		data := randInts(rng, n+64)
		orig := append([]int32(nil), data...)
		whole := arrayview.MustNew(runtime.Ext(n+64), data)
		v, err := whole.Section(runtime.Idx(32), runtime.Ext(n))
		require.NoError(t, err)
		arr, err := arrayview.NewArray(av, runtime.Ext(n), randInts(rng, n))
		require.NoError(t, err)
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), iota{Out: v, Scale: scale, Add: add}))
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), iota{Out: arr.View, Scale: scale + 1, Add: add}))
		require.NoError(t, av.Close())

		require.NoError(t, v.Synchronize())
		assert.Equal(t, iotaWant(n, scale, add), data[32:n+32])
		assert.Equal(t, orig[:32], data[:32], "the section's neighbours")
		assert.Equal(t, orig[n+32:], data[n+32:])
		assert.Equal(t, int32(n-1)*scale+int32(add), v.At(runtime.Idx(n-1)))
		got := make([]int32, n)
		require.NoError(t, arr.CopyTo(got))
		assert.Equal(t, iotaWant(n, scale+1, add), got)
		require.NoError(t, v.Close())
		require.NoError(t, whole.Close())
		require.NoError(t, arr.Close())
	})
}

// TestOneViewManyAcceleratorViews uses one view on 40 accelerator views in turn, each closed
// after its kernel: closing one frees the view's copy on it, so there is no limit to how
// many follow. More than 31 open at once is an error matching
// ErrTooManyViews.
func TestOneViewManyAcceleratorViews(t *testing.T) {
	eachView(t, 2, func(t *testing.T, rng *rand.Rand, home *accelerator.View) {
		const n = 256
		data := randInts(rng, n)
		v := arrayview.MustNew(runtime.Ext(n), data)
		defer v.Close()
		for k := range 40 {
			av, err := home.Accelerator().CreateView(accelerator.Automatic)
			require.NoError(t, err)
			scale, add := rng.Int32N(100)+1, uint32(k+1)
			require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), iota{Out: v, Scale: scale, Add: add}), "view %d", k)
			require.NoError(t, av.Close())
			require.NoError(t, v.Synchronize())
			require.Equal(t, iotaWant(n, scale, add), data, "view %d", k)
		}
		if home.Accelerator().Traits().HostMemory {
			return // the CPU's views share the host copy
		}
		var open []*accelerator.View
		defer func() {
			for _, av := range open {
				assert.NoError(t, av.Close())
			}
		}()
		for k := range 32 {
			av, err := home.Accelerator().CreateView(accelerator.Automatic)
			require.NoError(t, err)
			open = append(open, av)
			err = runtime.ParallelForEach(av, runtime.Ext(n), iota{Out: v, Scale: 1, Add: uint32(k)})
			if k < 31 {
				require.NoError(t, err, "view %d", k)
				continue
			}
			require.ErrorIs(t, err, arrayview.ErrTooManyViews)
			var te *arrayview.TooManyViewsError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, 31, te.Limit)
		}
		require.NoError(t, v.Synchronize())
		assert.Equal(t, iotaWant(n, 1, 30), data, "the 31st view's result")
	})
}

// TestUseAfterClose: every method of a closed view returns ErrClosed, or panics saying the
// view is closed, and leaves the data alone.
func TestUseAfterClose(t *testing.T) {
	eachView(t, 3, func(t *testing.T, rng *rand.Rand, av *accelerator.View) {
		const n = 64
		data := randInts(rng, n)
		v := arrayview.MustNew(runtime.Ext(n), data)
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), iota{Out: v, Scale: 3, Add: 5}))
		require.NoError(t, v.Close())
		require.NoError(t, v.Close(), "a second Close does nothing")
		want := iotaWant(n, 3, 5)
		require.Equal(t, want, data, "Close brought the result home")

		errs := map[string]error{"Synchronize": v.Synchronize(), "CopyFrom": v.CopyFrom(randInts(rng, n)),
			"CopyTo": v.CopyTo(make([]int32, n)), "BindHost": v.BindHost(runtime.Read),
			"SynchronizeTo": v.SynchronizeTo(av), "Discard": v.Discard()}
		_, errs["Data"] = v.Data()
		_, errs["ReadData"] = v.ReadData()
		_, errs["Section"] = v.Section(runtime.Idx(1), runtime.Ext(2))
		_, errs["BindDevice"] = v.BindDevice(av, runtime.Read)
		open := arrayview.MustNew(runtime.Ext(n), make([]int32, n))
		errs["Copy"] = arrayview.Copy(open, v)
		errs["Copy "] = arrayview.Copy(v, open) // the closed view as the destination
		require.NoError(t, open.Close())
		errs["dispatch"] = runtime.ParallelForEach(av, runtime.Ext(n), iota{Out: v, Scale: 7, Add: 1})
		for op, err := range errs {
			assert.ErrorIs(t, err, arrayview.ErrClosed, op)
			var ce *arrayview.ClosedError
			if op != "dispatch" && assert.ErrorAs(t, err, &ce, op) {
				assert.Equal(t, strings.TrimSpace(op), ce.Op, "the error names the operation called")
			}
		}
		for op, f := range map[string]func(){
			"At":               func() { v.At(runtime.Idx(3)) },
			"Set":              func() { v.Set(runtime.Idx(3), 99) },
			"DiscardData":      v.DiscardData,
			"Refresh":          v.Refresh,
			"atomic operation": func() { v.AtomicAdd(runtime.Idx(3), 1) },
		} {
			assert.PanicsWithError(t, "goamp/arrayview: "+op+" of View[int32](64): view closed", f, op)
		}
		assert.Equal(t, want, data, "the data is left alone")
	})
}

// TestCloseWhileDispatching closes a view in one goroutine while another dispatches with
// it: no data race (run with -race); each dispatch runs or fails with ErrClosed (a kernel
// on the CPU that meets the closed view midway panics with it; on a GPU, one bound before
// the Close and recorded after it finds its buffer freed, accelerator.ErrBufferFreed, the
// same value), and every element holds either
// its old value or the kernel's.
func TestCloseWhileDispatching(t *testing.T) {
	eachView(t, 4, func(t *testing.T, rng *rand.Rand, av *accelerator.View) {
		for range 8 {
			data := randInts(rng, 128)
			orig := append([]int32(nil), data...)
			v := arrayview.MustNew(runtime.Ext(128), data)
			var wg sync.WaitGroup
			wg.Go(func() {
				for range 20 {
					err := runtime.ParallelForEach(av, runtime.Ext(128), iota{Out: v, Scale: 2, Add: 1})
					if err != nil {
						assert.ErrorIs(t, err, arrayview.ErrClosed)
						return
					}
				}
			})
			wg.Go(func() { assert.NoError(t, v.Close()) })
			wg.Wait()
			require.NoError(t, av.Wait())
			for i, x := range data {
				if x != orig[i] {
					require.Equal(t, int32(2*i+1), x, "element %d", i)
				}
			}
		}
	})
}

// TestCloseViewWhileDispatching closes a Vulkan accelerator view while another goroutine
// dispatches on it: every dispatch that returned nil is in the data afterwards (Close brings
// it home), every other one returned ErrViewClosed, and the data stays usable on another
// view. Before, a dispatch in the middle of Close could be lost without an error, or leave
// the data tied to the closed view for good.
func TestCloseViewWhileDispatching(t *testing.T) {
	r := rand.New(rand.NewPCG(91, uint64(os.Getpid())))
	trials := 60
	if testing.Short() {
		trials = 15
	}
	for _, acc := range accelerator.All() {
		if acc.Traits().HostMemory {
			continue // the CPU's views hold no data of their own
		}
		t.Run(acc.Path(), func(t *testing.T) {
			zeros := arrayview.MustNew(runtime.Ext(1, 16), make([]int32, 16))
			for trial := range trials {
				av, err := acc.CreateView(accelerator.Automatic)
				require.NoError(t, err)
				data := make([]int32, 16)
				v := arrayview.MustNew(runtime.Ext(1, 16), data)
				var ok int32
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						err := runtime.ParallelForEach(av, runtime.Ext(1, 16), fzAdd2{A: v.ReadOnly(), B: zeros.ReadOnly(), C: v})
						if err != nil {
							assert.True(t, errors.Is(err, accelerator.ErrViewClosed), "trial %d: %v", trial, err)
							return
						}
						ok++
					}
				}()
				time.Sleep(time.Duration(r.IntN(400)) * time.Microsecond)
				require.NoError(t, av.Close())
				wg.Wait()
				require.NoError(t, v.Synchronize(), "trial %d", trial)
				require.Equal(t, ok, data[1], "trial %d: dispatches that returned nil, and the data's count", trial)
				// The data is not tied to the closed view: another view takes it.
				other, err := acc.CreateView(accelerator.Automatic)
				require.NoError(t, err)
				require.NoError(t, runtime.ParallelForEach(other, runtime.Ext(1, 16), fzAdd2{A: v.ReadOnly(), B: zeros.ReadOnly(), C: v}))
				require.NoError(t, v.Close())
				assert.Equal(t, ok+1, data[1], "trial %d", trial)
				require.NoError(t, other.Close())
			}
			require.NoError(t, zeros.Close())
		})
	}
}

// TestSectionOverflow: a section whose origin plus extent overflows int is out of range.
func TestSectionOverflow(t *testing.T) {
	v := arrayview.MustNew(runtime.Ext(64), randInts(rand.New(rand.NewPCG(amptest.Seed(t), 5)), 64))
	defer v.Close()
	v2 := arrayview.MustNew(runtime.Ext(8, 8), make([]int32, 64))
	defer v2.Close()
	for _, c := range []struct {
		v      *arrayview.View[int32]
		origin runtime.Index
		ext    runtime.Extent
	}{
		{v, runtime.Idx(math.MaxInt64), runtime.Ext(1)},
		{v, runtime.Idx(math.MaxInt64 - 10), runtime.Ext(64)},
		{v, runtime.Idx(math.MaxInt64 - 62), runtime.Ext(64)},
		{v2, runtime.Idx(math.MaxInt64, 0), runtime.Ext(1, 1)},
		{v2, runtime.Idx(0, math.MaxInt64-3), runtime.Ext(8, 8)},
	} {
		s, err := c.v.Section(c.origin, c.ext)
		require.ErrorIs(t, err, arrayview.ErrOutOfRange, "%v at %v", c.ext, c.origin)
		var re *arrayview.RangeError
		require.ErrorAs(t, err, &re)
		assert.Nil(t, s)
	}
	s, err := v.Section(runtime.Idx(63), runtime.Ext(1))
	require.NoError(t, err, "the last element")
	require.NoError(t, s.Close())
}

// TestNilView: Synchronize and Close of a nil *View are errors, not panics, and so is a
// kernel whose field is a zero View.
func TestNilView(t *testing.T) {
	var v *arrayview.View[int32]
	require.ErrorIs(t, v.Synchronize(), arrayview.ErrInvalidArgument)
	require.ErrorIs(t, v.Close(), arrayview.ErrInvalidArgument)
	for _, av := range amptest.Views(t) {
		err := runtime.ParallelForEach(av, runtime.Ext(8), iota{Out: &arrayview.View[int32]{}, Scale: 1})
		require.ErrorIs(t, err, arrayview.ErrInvalidArgument, av.Accelerator().Path())
		z := &arrayview.View[int32]{}
		require.ErrorIs(t, z.BindHost(runtime.Read), arrayview.ErrInvalidArgument)
		_, err = z.BindDevice(av, runtime.Read)
		require.ErrorIs(t, err, arrayview.ErrInvalidArgument)
	}
}

// TestWorkOnClosedAcceleratorView: a closed accelerator view, the CPU's as well as a
// GPU's, runs no kernel and makes no array: ErrViewClosed, and the data is left alone.
// A nil view is an *ArgumentError.
func TestWorkOnClosedAcceleratorView(t *testing.T) {
	rng := rand.New(rand.NewPCG(amptest.Seed(t), 6))
	for _, home := range amptest.Views(t) {
		t.Run(home.Accelerator().Path(), func(t *testing.T) {
			av, err := home.Accelerator().CreateView(accelerator.Automatic)
			require.NoError(t, err)
			require.NoError(t, av.Close())
			data := randInts(rng, 64)
			orig := append([]int32(nil), data...)
			v := arrayview.MustNew(runtime.Ext(64), data)
			defer v.Close()
			err = runtime.ParallelForEach(av, runtime.Ext(64), iota{Out: v, Scale: 2, Add: 1})
			require.ErrorIs(t, err, accelerator.ErrViewClosed)
			_, err = arrayview.NewArray(av, runtime.Ext(8), randInts(rng, 8))
			require.ErrorIs(t, err, accelerator.ErrViewClosed)
			require.NoError(t, v.Synchronize())
			assert.Equal(t, orig, data)
		})
	}
	_, err := arrayview.NewArray[int32](nil, runtime.Ext(8), nil)
	require.ErrorIs(t, err, arrayview.ErrInvalidArgument)
	var ae *arrayview.ArgumentError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "NewArray", ae.Func)
}

// TestSynchronizeToClosedView: SynchronizeTo a closed accelerator view is ErrViewClosed on
// every accelerator (the CPU's returned nil), and the data stays as it was.
func TestSynchronizeToClosedView(t *testing.T) {
	for _, acc := range accelerator.All() {
		t.Run(acc.Path(), func(t *testing.T) {
			av, err := acc.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			require.NoError(t, av.Close())
			data := []int32{3, 1, 4, 1, 5}
			v := arrayview.MustNew(runtime.Ext(5), data)
			assert.ErrorIs(t, v.SynchronizeTo(av), accelerator.ErrViewClosed)
			require.NoError(t, v.Close())
			assert.Equal(t, []int32{3, 1, 4, 1, 5}, data)
		})
	}
}

// TestDispatchesCounted: Stats().Dispatches counts the kernels run on every view, the
// CPU's included.
func TestDispatchesCounted(t *testing.T) {
	eachView(t, 7, func(t *testing.T, rng *rand.Rand, av *accelerator.View) {
		v := arrayview.MustNew(runtime.Ext(64), randInts(rng, 64))
		defer v.Close()
		n := rng.IntN(20) + 1
		before := av.Stats().Dispatches
		for range n {
			require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(64), iota{Out: v, Scale: 1, Add: 2}))
		}
		assert.Equal(t, uint64(n), av.Stats().Dispatches-before)
	})
}

// TestMismatchNamesBothViews: an accelerator-mismatch error between two views of one
// accelerator tells them apart.
func TestMismatchNamesBothViews(t *testing.T) {
	eachView(t, 8, func(t *testing.T, rng *rand.Rand, home *accelerator.View) {
		other, err := home.Accelerator().CreateView(accelerator.Automatic)
		require.NoError(t, err)
		defer other.Close()
		x, err := arrayview.NewArray(home, runtime.Ext(8), randInts(rng, 8))
		require.NoError(t, err)
		defer x.Close()
		y, err := arrayview.NewArray[int32](other, runtime.Ext(8), nil)
		require.NoError(t, err)
		defer y.Close()
		err = runtime.ParallelForEach(nil, runtime.Ext(8), pair{x, y})
		require.ErrorIs(t, err, runtime.ErrAcceleratorMismatch)
		require.NotEqual(t, home.String(), other.String())
		assert.Contains(t, err.Error(), home.String())
		assert.Contains(t, err.Error(), other.String())
	})
}
