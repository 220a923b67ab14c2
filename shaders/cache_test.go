package shaders

import (
	"reflect"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScratchFreedAtViewClose: the reduce family's and Convolve2D's cached scratch views of
// an accelerator view are freed when that view is closed.
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
			_, ok := scratchPools.Load(scratchKey{av, reflect.TypeFor[float32]()})
			assert.True(t, ok, "Reduce keeps scratch for the view")
			_, ok = convViews.Load(av)
			assert.True(t, ok, "Convolve2D keeps scratch for the view")

			require.NoError(t, av.Close())
			_, ok = scratchPools.Load(scratchKey{av, reflect.TypeFor[float32]()})
			assert.False(t, ok)
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
