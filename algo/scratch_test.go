package algo

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idle returns a copy of av's idle scratch buffers (nil when av has no cache).
func idle(av *accelerator.View) []idleBuf {
	c, ok := scratchCaches.Load(av)
	if !ok {
		return nil
	}
	cache := c.(*scratchCache)
	cache.mu.Lock()
	defer cache.mu.Unlock()
	return slices.Clone(cache.idle)
}

// idleKeys returns the keys of av's idle scratch buffers.
func idleKeys(av *accelerator.View) []scratchKey {
	var keys []scratchKey
	for _, b := range idle(av) {
		keys = append(keys, b.key)
	}
	return keys
}

// idleBufs returns av's idle scratch buffers.
func idleBufs(av *accelerator.View) []any {
	var bufs []any
	for _, b := range idle(av) {
		bufs = append(bufs, b.buf)
	}
	return bufs
}

// idleBytes returns the bytes of each of av's idle scratch buffers.
func idleBytes(av *accelerator.View) []uint64 {
	var out []uint64
	for _, k := range idleKeys(av) {
		n := uint64(k.dims[0])
		if k.rank == 2 {
			n *= uint64(k.dims[1])
		}
		out = append(out, n*uint64(k.elem.Size()))
	}
	return out
}

// hasKey reports whether keys holds one of element type T, tag tag and rank rank.
func hasKey[T Number](keys []scratchKey, tag string, rank int) bool {
	return slices.ContainsFunc(keys, func(k scratchKey) bool {
		return k.elem == reflect.TypeFor[T]() && k.tag == tag && k.rank == rank
	})
}

// TestScratchFreedAtViewClose: the reduce family's, Sort's and Convolve2D's scratch buffers
// stay with their accelerator view after the calls and are freed when it is closed.
func TestScratchFreedAtViewClose(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 3))
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			in := arrayview.MustNew(runtime.Ext(5000), ewRandom[float32](r, 5000, false))
			defer in.Close()
			_, err = Reduce(av, in, Sum)
			require.NoError(t, err)
			img := arrayview.MustNew(runtime.Ext(16, 16), ewRandom[float32](r, 256, false))
			out := arrayview.MustNew(runtime.Ext(16, 16), make([]float32, 256))
			defer img.Close()
			defer out.Close()
			require.NoError(t, Convolve2D(av, img, out, []float32{0.5}, []float32{2}))
			require.NoError(t, out.Synchronize())
			sorted := arrayview.MustNew(runtime.Ext(sortRadixMin), ewRandom[int32](r, sortRadixMin, true))
			defer sorted.Close()
			require.NoError(t, Sort(av, sorted))

			keys := idleKeys(av)
			assert.True(t, hasKey[float32](keys, "", 1), "Reduce keeps scratch for the view: %v", keys)
			assert.True(t, hasKey[int32](keys, "", 1), "Sort keeps its keys' scratch: %v", keys)
			assert.True(t, hasKey[uint32](keys, "", 1), "Sort keeps its histogram's scratch: %v", keys)
			assert.True(t, hasKey[float32](keys, "", 2), "Convolve2D keeps its intermediate image: %v", keys)
			assert.True(t, hasKey[float32](keys, convCoefTag, 1), "Convolve2D keeps its coefficients: %v", keys)
			c, ok := scratchCaches.Load(av)
			require.True(t, ok)

			require.NoError(t, av.Close())
			_, ok = scratchCaches.Load(av)
			assert.False(t, ok, "the closed view's cache is gone")
			cache := c.(*scratchCache)
			assert.True(t, cache.closed)
			assert.Empty(t, cache.idle, "every idle buffer is freed")
		})
	}
}

// TestSortReusesScratch: a second radix sort on the same accelerator view uses the scratch
// memory of the first (no device allocation), and sorts correctly with it.
func TestSortReusesScratch(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 4))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		n := sortRadixMin + 77
		var first []any
		for round := range 2 {
			keys := ewRandom[int32](r, n, true)
			v := arrayview.MustNew(runtime.Ext(n), keys)
			require.NoError(t, Sort(av, v))
			require.NoError(t, v.Close())
			require.True(t, slices.IsSorted(keys), "round %d", round)
			if round == 0 {
				first = idleBufs(av)
				require.Len(t, first, 3, "the keys' temporary, the histogram and the values' placeholders")
			} else {
				assert.ElementsMatch(t, first, idleBufs(av), "the second sort gave back the first one's scratch (equal sizes may swap places)")
			}
		}
	})
}

// TestScratchCache checks which idle buffer serves a request: the smallest long enough
// rank-1 buffer of the element type and tag, a rank-2 buffer of the same extent only; a
// tagged buffer keeps its contents and note; beyond scratchKeep idle buffers the least
// recently used goes; after the view's Close, a buffer given back is not kept.
func TestScratchCache(t *testing.T) {
	av, err := accelerator.CPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	f32 := func(ext runtime.Extent, tag string) *scratchBuf[float32] {
		b, err := takeScratch[float32](av, ext, tag)
		require.NoError(t, err)
		return b
	}
	small, big := f32(runtime.Ext(100), ""), f32(runtime.Ext(3000), "")
	assert.Equal(t, runtime.Ext(scratchMinLen), small.v.Extent(), "rank 1: at least 1024 elements")
	assert.Equal(t, runtime.Ext(4096), big.v.Extent(), "rank 1: a power of two")
	img, coef := f32(runtime.Ext(16, 8), ""), f32(runtime.Ext(130), "coef")
	assert.Equal(t, runtime.Ext(16, 8), img.v.Extent(), "rank 2: the extent asked for")
	coef.data[7], coef.note = 42.5, 130
	for _, b := range []*scratchBuf[float32]{big, small, img, coef} {
		b.release()
	}
	var taken []*scratchBuf[float32]
	for _, tt := range []struct {
		name string
		ext  runtime.Extent
		tag  string
		want *scratchBuf[float32] // nil: a new buffer
	}{
		{"smallest that fits", runtime.Ext(900), "", small},
		{"longer", runtime.Ext(1025), "", big},
		{"too long", runtime.Ext(5000), "", nil},
		{"other tag", runtime.Ext(10), "other", nil},
		{"tagged", runtime.Ext(130), "coef", coef},
		{"rank 2, other extent", runtime.Ext(8, 16), "", nil},
		{"rank 2", runtime.Ext(16, 8), "", img},
	} {
		b := f32(tt.ext, tt.tag)
		taken = append(taken, b)
		if tt.want == nil {
			assert.NotContains(t, []*scratchBuf[float32]{small, big, img, coef}, b, tt.name)
		} else {
			assert.Same(t, tt.want, b, tt.name)
		}
	}
	for _, b := range taken {
		b.release()
	}
	assert.Equal(t, float32(42.5), coef.data[7], "a tagged buffer keeps its contents")
	assert.Equal(t, 130, coef.note)
	i32, err := takeScratch[int32](av, runtime.Ext(10), "")
	require.NoError(t, err)
	assert.Equal(t, reflect.TypeFor[int32](), i32.key.elem, "an int32 request is not served by a float32 buffer")
	i32.release()

	var fill []*scratchBuf[float32]
	for range scratchKeep + 1 {
		fill = append(fill, f32(runtime.Ext(10), "fill"))
	}
	for _, b := range fill {
		b.release()
	}
	keys := idleKeys(av)
	require.Len(t, keys, scratchKeep, "at most scratchKeep idle buffers")
	var want []any
	for _, b := range fill[len(fill)-scratchKeep:] {
		want = append(want, b)
	}
	assert.Equal(t, want, idleBufs(av), "the least recently used went first")
	late := f32(runtime.Ext(10), "")
	require.NoError(t, av.Close())
	assert.Empty(t, idleKeys(av), "the view's cache is gone")
	late.release()
	late.cache.mu.Lock()
	defer late.cache.mu.Unlock()
	assert.Empty(t, late.cache.idle, "a buffer given back after the view's Close is freed, not kept")
}

// TestScratchAfterTooLargeSort: a Sort that failed on a view over
// maxStorageBufferRange had to leave no scratch buffer held that no kernel can bind, and
// every Reduce of a 4,096-element view after it on the same accelerator view had to
// succeed. Now such a Sort succeeds on a device (in windows), and TestBigView
// checks the scratch it leaves; on the CPU (no binding limit) the Sort of a shorter view
// succeeds and the Reduces must too.
func TestScratchAfterTooLargeSort(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			limit := a.Limits().MaxStorageBufferRange
			n := 1<<16 + 64
			if !a.Traits().HostMemory {
				// Such a Sort splits the view into windows and succeeds:
				// TestBigView sorts one and checks the scratch it leaves.
				t.Skip("a Sort over maxStorageBufferRange no longer fails; see TestBigView")
			}
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer func() { require.NoError(t, av.Close()) }()

			big := make([]float32, n)
			for i := range big {
				big[i] = r.Float32()*2e6 - 1e6
			}
			bv, err := arrayview.New(runtime.Ext(n), big)
			require.NoError(t, err)
			require.NoError(t, Sort(av, bv))
			require.NoError(t, bv.Synchronize())
			assert.True(t, slices.IsSorted(big), "the CPU sorts the view")
			bv.DiscardData()
			require.NoError(t, bv.Close())
			big = nil

			for i := range 6 {
				checkSmallReduce(t, av, r, fmt.Sprintf("%d after the Sort", i))
			}
			for _, b := range idleBytes(av) {
				assert.LessOrEqual(t, b, uint64(limit), "no idle scratch buffer over maxStorageBufferRange: %v", idleBytes(av))
			}
		})
	}
}

// checkSmallReduce checks Reduce Max of 4096 fresh random float32 on av (what: the
// message's context).
func checkSmallReduce(t *testing.T, av *accelerator.View, r *rand.Rand, what string) {
	data := make([]float32, 4096)
	for j := range data {
		data[j] = r.Float32()*2e3 - 1e3
	}
	v, err := arrayview.New(runtime.Ext(len(data)), data)
	require.NoError(t, err)
	got, err := Reduce(av, v, Max)
	require.NoError(t, err, "Reduce %s", what)
	assert.Equal(t, slices.Max(data), got, "Reduce %s", what)
	require.NoError(t, v.Close())
}
