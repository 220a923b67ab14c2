package arrayview_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// eachAccelerator runs f in a subtest on a fresh view of every accelerator present and
// of the strict CPU.
func eachAccelerator(t *testing.T, f func(t *testing.T, av *accelerator.View)) {
	for _, a := range append(accelerator.All(), accelerator.StrictCPU()) {
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer func() { require.NoError(t, av.Close()) }()
			f(t, av)
		})
	}
}

// TestArrayCloseCopiesNothingBack: an array's host copy is its own, which no one sees
// once it is closed, so Close copies nothing back from the device: not an array made
// with NewArray(nil), written by a kernel, and not one discarded before the kernel
// wrote it. Before, Close downloaded either.
func TestArrayCloseCopiesNothingBack(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 2))
	for _, discard := range []bool{false, true} {
		t.Run(fmt.Sprintf("discard=%v", discard), func(t *testing.T) {
			eachAccelerator(t, func(t *testing.T, av *accelerator.View) {
				n := 1 + r.IntN(10000)
				src := make([]int32, n)
				for i := range src {
					src[i] = r.Int32N(1000)
				}
				vs := arrayview.MustNew(runtime.Ext(n), src)
				defer func() { require.NoError(t, vs.Close()) }()
				a, err := arrayview.NewArray[int32](av, runtime.Ext(n), nil)
				require.NoError(t, err)
				if discard {
					a.DiscardData()
				}
				k := int32(r.IntN(9) - 4)
				require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), fzScale{Src: vs.ReadOnly(), Dst: a.View, K: k}))
				got := make([]int32, n)
				vg := arrayview.MustNew(runtime.Ext(n), got)
				vg.DiscardData()
				require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), fzScale{Src: a.ReadOnly(), Dst: vg, K: 1}))
				require.NoError(t, vg.Close())
				for i := range got {
					require.Equal(t, src[i]*k, got[i], "element %d", i)
				}
				before := av.Stats()
				require.NoError(t, a.Close())
				assert.Equal(t, before.TransfersDown, av.Stats().TransfersDown, "Close copied data back")
			})
		})
	}
}

// TestDeviceArray: an array made with NewDeviceArray is uploaded nothing when made, and
// copied back nothing when closed; an intermediate result between two kernels in it never
// crosses to the host; CopyFrom and CopyTo move its data straight to and from the device;
// the host's At and Synchronize, and a kernel on another view, are a *NoHostCopyError on
// a GPU and on the strict CPU (the CPU's device memory is host memory: they work there).
// Its data is undefined until written: poison on the strict CPU.
func TestDeviceArray(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 3))
	eachAccelerator(t, func(t *testing.T, av *accelerator.View) {
		n := 1 + r.IntN(10000)
		src, out := make([]int32, n), make([]int32, n)
		for i := range src {
			src[i] = r.Int32N(1000)
		}
		vs, vo := arrayview.MustNew(runtime.Ext(n), src), arrayview.MustNew(runtime.Ext(n), out)
		hostOnly := av.Accelerator().Traits().HostMemory
		s0 := av.Stats()
		tmp, err := arrayview.NewDeviceArray[int32](av, runtime.Ext(n))
		require.NoError(t, err)
		assert.Equal(t, s0, av.Stats(), "NewDeviceArray moved data")
		if av.Accelerator().Traits().Strict {
			fresh := make([]int32, n)
			require.NoError(t, tmp.CopyTo(fresh))
			assert.Equal(t, int32(-559038737), fresh[r.IntN(n)], "0xdeadbeef: not written yet")
			s0 = av.Stats()
		}
		vo.DiscardData() // every element is written: nothing to upload
		k1, k2 := int32(r.IntN(9)-4), int32(r.IntN(9)-4)
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), fzScale{Src: vs.ReadOnly(), Dst: tmp.View, K: k1}))
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(n), fzScale{Src: tmp.ReadOnly(), Dst: vo, K: k2}))
		require.NoError(t, vo.Close())
		require.NoError(t, vs.Close())
		for i := range out {
			require.Equal(t, src[i]*k1*k2, out[i], "element %d", i)
		}
		s1 := av.Stats()
		if !hostOnly {
			assert.Equal(t, s0.TransfersUp+1, s1.TransfersUp, "only src went up")
			assert.Equal(t, s0.TransfersDown+1, s1.TransfersDown, "only out came down")
		}

		// CopyFrom and CopyTo of a section, straight to and from the device.
		lo := r.IntN(n)
		sec, err := tmp.Section(runtime.Idx(lo), runtime.Ext(n-lo))
		require.NoError(t, err)
		part := make([]int32, n-lo)
		for i := range part {
			part[i] = r.Int32()
		}
		require.NoError(t, sec.CopyFrom(part))
		back := make([]int32, n)
		require.NoError(t, tmp.CopyTo(back))
		for i := range back {
			want := src[i] * k1
			if i >= lo {
				want = part[i-lo]
			}
			require.Equal(t, want, back[i], "element %d", i)
		}
		require.NoError(t, sec.Close())

		if hostOnly {
			assert.Equal(t, back[0], tmp.At(runtime.Idx(0)))
		} else {
			assert.ErrorIs(t, tmp.Synchronize(), arrayview.ErrNoHostCopy)
			var nh *arrayview.NoHostCopyError
			_, err = tmp.Data()
			require.ErrorAs(t, err, &nh)
			assert.Contains(t, err.Error(), av.String())
			assert.PanicsWithError(t, err.Error(), func() { tmp.At(runtime.Idx(0)) })
			other, err := av.Accelerator().CreateView(accelerator.Automatic)
			require.NoError(t, err)
			err = runtime.ParallelForEach(other, runtime.Ext(n), fzScale{Src: tmp.ReadOnly(), Dst: tmp.View, K: 1})
			assert.ErrorIs(t, err, runtime.ErrAcceleratorMismatch, "an array runs on its own view")
			require.NoError(t, other.Close())
		}
		s2 := av.Stats()
		require.NoError(t, tmp.Close())
		assert.Equal(t, s2, av.Stats(), "Close moved data")
	})
}
