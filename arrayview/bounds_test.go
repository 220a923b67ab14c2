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
	"github.com/goamp/goamp/internal/rtlink"
	"github.com/goamp/goamp/runtime"
)

// perThreadOf wraps a kernel so that the CPU runs its Go definition thread by thread,
// never its fast CPU body.
var perThreadOf = rtlink.Get[runtime.Block]().PerThread

// shiftK writes Out[i] = In[i+S]: the threads past len-S read outside In. EachRange is its
// fast CPU body, as ampgen writes one (the views' Hosts, an index per thread).
type shiftK struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
	S   int
}

func (k shiftK) Each(i runtime.Index) { k.Out.Set(i, k.In.At(runtime.Idx(i[0]+k.S))) }

func (k shiftK) EachRange(_ runtime.Extent, lo, hi int) {
	in, out := k.In.KernelHost(), k.Out.KernelHost()
	for i := lo; i < hi; i++ {
		out.Set1(i, in.At1(i+k.S))
	}
}

// shiftTK is shiftK tiled, with a fast body of whole tiles.
type shiftTK shiftK

func (k shiftTK) Tiled(t runtime.TiledIndex) {
	k.Out.Set(t.Global, k.In.At(runtime.Idx(t.Global[0]+k.S)))
}

func (k shiftTK) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	in, out := k.In.KernelHost(), k.Out.KernelHost()
	n := d.Tile.Dim(0)
	for i := tile[0] * n; i < (tile[0]+1)*n; i++ {
		out.Set1(i, in.At1(i+k.S))
	}
}

// rowK writes the thread's index, a rank-2 one, into Out with it: a rank-1 Out has no
// element (r, c) for c > 0.
type rowK struct{ Out *arrayview.View[int32] }

func (k rowK) Each(i runtime.Index) { k.Out.Set(i, int32(i[0]*1000+i[1])) }

func (k rowK) EachRange(d runtime.Extent, lo, hi int) {
	out := k.Out.KernelHost()
	for j := lo; j < hi; j++ {
		i := d.Delinearize(j)
		out.Set2(i[0], i[1], int32(i[0]*1000+i[1]))
	}
}

// cpuAccelerators are the CPU's accelerators: the plain one and the strict one.
func cpuAccelerators() []*accelerator.Accelerator {
	return []*accelerator.Accelerator{accelerator.CPU(), accelerator.StrictCPU()}
}

// TestBoundsErrorNamesFieldAndThread: an access outside a view in a kernel is a
// *runtime.KernelPanicError whose Value is a *runtime.BoundsError naming the kernel, the
// field, the index and the view's extent, and whose Global is the thread that made it,
// from the fast CPU bodies (ranges, tiles) as from the per-thread ones, on both CPU
// accelerators. Before, the CPU's error named neither the field nor (in a fast body) the
// thread.
func TestBoundsErrorNamesFieldAndThread(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	type run func(av *accelerator.View, in *arrayview.View[int32], out *arrayview.View[int32], n, s int) error
	tests := []struct {
		name, kernel string
		run          run
	}{
		{"fast range", "arrayview_test.shiftK", func(av *accelerator.View, in, out *arrayview.View[int32], n, s int) error {
			return runtime.ParallelForEach(av, runtime.Ext(n), shiftK{In: in.ReadOnly(), Out: out, S: s})
		}},
		{"per thread", "arrayview_test.shiftK", func(av *accelerator.View, in, out *arrayview.View[int32], n, s int) error {
			return runtime.ParallelForEach(av, runtime.Ext(n), perThreadOf(shiftK{In: in.ReadOnly(), Out: out, S: s}).(runtime.IndexKernel))
		}},
		{"fast tile", "arrayview_test.shiftTK", func(av *accelerator.View, in, out *arrayview.View[int32], n, s int) error {
			return runtime.ParallelForEachTiled(av, runtime.Ext(n).Tile(8), shiftTK{In: in.ReadOnly(), Out: out, S: s})
		}},
		{"tile per thread", "arrayview_test.shiftTK", func(av *accelerator.View, in, out *arrayview.View[int32], n, s int) error {
			return runtime.ParallelForEachTiled(av, runtime.Ext(n).Tile(8),
				perThreadOf(shiftTK{In: in.ReadOnly(), Out: out, S: s}).(runtime.TiledKernel))
		}},
	}
	for _, acc := range cpuAccelerators() {
		for _, tt := range tests {
			t.Run(acc.Path()+"/"+tt.name, func(t *testing.T) {
				av, err := acc.CreateView(accelerator.Automatic)
				require.NoError(t, err)
				defer func() { require.NoError(t, av.Close()) }()
				n := 8 * (1 + r.IntN(200))
				s := 1 + r.IntN(n-1)
				data := make([]int32, n)
				for i := range data {
					data[i] = r.Int32()
				}
				orig := append([]int32(nil), data...)
				in, out := arrayview.MustNew(runtime.Ext(n), data), arrayview.MustNew(runtime.Ext(n), make([]int32, n))
				err = tt.run(av, in, out, n, s)
				require.NoError(t, in.Close())
				require.NoError(t, out.Close())
				assert.Equal(t, orig, data, "the input is intact")
				var pe *runtime.KernelPanicError
				require.ErrorAs(t, err, &pe, "n %d, shift %d", n, s)
				var be *runtime.BoundsError
				require.ErrorAs(t, err, &be)
				assert.Equal(t, tt.kernel, be.Kernel)
				assert.Equal(t, "In", be.Field)
				assert.Equal(t, runtime.Ext(n), be.Extent)
				g := pe.Global[0]
				assert.True(t, g >= n-s && g < n, "thread %d of %d, shift %d: its reads are inside", g, n, s)
				assert.Equal(t, runtime.Idx(g+s), be.Index, "the index the thread read")
				assert.Contains(t, err.Error(), fmt.Sprintf("global index (%d)", g))
				assert.Contains(t, err.Error(), fmt.Sprintf("index [%d] of field In is outside its extent (%d)", g+s, n))
			})
		}
	}
}

// TestHigherRankIndex: an index of a higher rank than the view's is outside it unless
// its components past the view's rank are 0. At(Idx(2, 5)) of a rank-1 view panics; a
// 10x10 domain writing a rank-1 view of 10 elements with the thread's index fails on
// both CPU accelerators, naming the field, the rank-2 index and the thread, and leaves
// the view's data as it was. Before, At(Idx(2, 5)) returned element 2 and the kernel
// wrote row after row over the same ten elements with a nil error.
func TestHigherRankIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 1))
	n := 2 + r.IntN(50)
	data := make([]int32, n)
	for i := range data {
		data[i] = r.Int32()
	}
	v := arrayview.MustNew(runtime.Ext(n), data)
	i, j := r.IntN(n), 1+r.IntN(n)
	assert.Equal(t, data[i], v.At(runtime.Idx(i, 0, 0)), "components past the rank that are 0 are fine")
	assert.PanicsWithError(t, fmt.Sprintf("goamp/runtime: index [%d %d] is outside its extent (%d) "+
		"(a rank-2 index of a rank-1 view: its components past the view's rank must be 0)", i, j, n),
		func() { v.At(runtime.Idx(i, j)) })
	assert.Panics(t, func() { v.Set(runtime.Idx(i, 0, j), 1) })
	require.NoError(t, v.Close())

	for _, acc := range cpuAccelerators() {
		for _, perThread := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/perThread=%v", acc.Path(), perThread), func(t *testing.T) {
				av, err := acc.CreateView(accelerator.Automatic)
				require.NoError(t, err)
				defer func() { require.NoError(t, av.Close()) }()
				rows, cols := 2+r.IntN(20), 2+r.IntN(20)
				data := make([]int32, rows)
				for i := range data {
					data[i] = r.Int32()
				}
				orig := append([]int32(nil), data...)
				out := arrayview.MustNew(runtime.Ext(rows), data)
				var k runtime.IndexKernel = rowK{Out: out}
				if perThread {
					k = perThreadOf(k).(runtime.IndexKernel)
				}
				err = runtime.ParallelForEach(av, runtime.Ext(rows, cols), k)
				var pe *runtime.KernelPanicError
				require.ErrorAs(t, err, &pe)
				var be *runtime.BoundsError
				require.ErrorAs(t, err, &be)
				assert.Equal(t, "Out", be.Field)
				assert.Equal(t, pe.Global, be.Index, "the thread's own index")
				assert.NotZero(t, be.Index[1])
				assert.Contains(t, err.Error(), "a rank-2 index of a rank-1 view")
				out.DiscardData() // the failed dispatch's output is undefined: keep the host's data
				require.NoError(t, out.Close())
				if acc.Traits().Strict { // the kernel wrote the device copy only
					assert.Equal(t, orig, data)
				}
			})
		}
	}
}
