package algo

import (
	"reflect"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScratchFreedAtViewClose: the reduce family's, Sort's and Convolve2D's cached scratch
// views of an accelerator view are freed when that view is closed.
func TestScratchFreedAtViewClose(t *testing.T) {
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			in := arrayview.MustNew(runtime.Ext(5000), make([]float32, 5000))
			defer in.Close()
			_, err = Reduce(av, in, Sum)
			require.NoError(t, err)
			img := arrayview.MustNew(runtime.Ext(16, 16), make([]float32, 256))
			out := arrayview.MustNew(runtime.Ext(16, 16), make([]float32, 256))
			defer img.Close()
			defer out.Close()
			require.NoError(t, Convolve2D(av, img, out, []float32{1}, []float32{1}))
			require.NoError(t, out.Synchronize())
			keys := make([]int32, sortRadixMin)
			sorted := arrayview.MustNew(runtime.Ext(len(keys)), keys)
			defer sorted.Close()
			require.NoError(t, Sort(av, sorted))
			_, ok := scratchPools.Load(scratchKey{av, reflect.TypeFor[float32]()})
			assert.True(t, ok, "Reduce keeps scratch for the view")
			_, ok = scratchPools.Load(scratchKey{av, reflect.TypeFor[int32]()})
			assert.True(t, ok, "Sort keeps scratch for the view")
			_, ok = convViews.Load(av)
			assert.True(t, ok, "Convolve2D keeps scratch for the view")

			require.NoError(t, av.Close())
			for _, typ := range []reflect.Type{reflect.TypeFor[float32](), reflect.TypeFor[int32](), reflect.TypeFor[uint32]()} {
				_, ok = scratchPools.Load(scratchKey{av, typ})
				assert.False(t, ok, "%v", typ)
			}
			_, ok = convViews.Load(av)
			assert.False(t, ok)
			convPool.mu.Lock()
			for _, s := range convPool.free {
				assert.NotSame(t, av, s.key.av)
			}
			convPool.mu.Unlock()
		})
	}
}

// TestSortReusesScratch: a second radix sort on the same accelerator view uses the scratch
// memory of the first (no device allocation), and sorts correctly with it.
func TestSortReusesScratch(t *testing.T) {
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer av.Close()
			n := sortRadixMin + 77
			idle := func() []any {
				p, ok := scratchPools.Load(scratchKey{av, reflect.TypeFor[int32]()})
				require.True(t, ok)
				pool := p.(*scratchPool)
				pool.mu.Lock()
				defer pool.mu.Unlock()
				return append([]any(nil), pool.free...)
			}
			var first []any
			for round := range 2 {
				keys := make([]int32, n)
				for i := range keys {
					keys[i] = int32((i*7919 + round*13) % 1000)
				}
				v := arrayview.MustNew(runtime.Ext(n), keys)
				require.NoError(t, Sort(av, v))
				require.NoError(t, v.Close())
				require.True(t, slices.IsSorted(keys), "round %d", round)
				if round == 0 {
					first = idle()
					require.Len(t, first, 1)
				} else {
					assert.Equal(t, first, idle(), "the second sort gave back the first one's scratch")
				}
			}
		})
	}
}
