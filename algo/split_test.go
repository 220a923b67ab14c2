package algo

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// splitAccelerators returns a view of every accelerator (lavapipe and the CPU here: two
// accelerators of different kinds), or skips when there is only one.
func splitAccelerators(t *testing.T) []*accelerator.View {
	if len(accelerator.All()) < 2 {
		if os.Getenv(amptest.EnvRequireVulkan) == "1" {
			t.Fatalf("%s=1 but no Vulkan accelerator: %v", amptest.EnvRequireVulkan, accelerator.NoVulkanReason())
		}
		t.Skipf("one accelerator: %v", accelerator.NoVulkanReason())
	}
	var avs []*accelerator.View
	for _, a := range accelerator.All() {
		av, err := a.CreateView(accelerator.Automatic)
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, av.Close()) })
		avs = append(avs, av)
	}
	return avs
}

func splitFloats(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

func splitInts(r *rand.Rand, n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(r.Uint32())
	}
	return s
}

// dispatches returns each view's dispatch count.
func dispatches(avs []*accelerator.View) []uint64 {
	n := make([]uint64, len(avs))
	for i, av := range avs {
		n[i] = av.Stats().Dispatches
	}
	return n
}

// checkRan asserts that every view dispatched since before.
func checkRan(t *testing.T, avs []*accelerator.View, before []uint64, op string) {
	for i, n := range dispatches(avs) {
		assert.Greater(t, n, before[i], "%s ran a block on %v", op, avs[i])
	}
}

// TestMatMulOn runs MatMulOn over lavapipe and the CPU together: each row of c is exactly
// the row MatMul gives on one accelerator alone (equal shares: both ran a block), the CPU
// reads the rows lavapipe wrote, and nothing is lost when lavapipe's view closes (its
// rows come home).
func TestMatMulOn(t *testing.T) {
	avs := splitAccelerators(t)
	r := rand.New(rand.NewPCG(amptest.Seed(t), 14))
	const m, k, n = 700, 67, 45
	a := splitFloats(r, m*k)
	b := splitFloats(r, k*n)
	av, bv := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b)
	defer func() { require.NoError(t, av.Close()); require.NoError(t, bv.Close()) }()
	single := make([][]float32, len(avs))
	for i, x := range avs {
		single[i] = make([]float32, m*n)
		cv := arrayview.MustNew(runtime.Ext(m, n), single[i])
		require.NoError(t, MatMul(x, av, bv, cv))
		require.NoError(t, cv.Close())
	}
	runtime.ResetThroughput(splitKey[float32]("MatMul"))
	before := dispatches(avs)
	c := splitFloats(r, m*n)
	cv := arrayview.MustNew(runtime.Ext(m, n), c)
	require.NoError(t, MatMulOn(avs, av, bv, cv))
	checkRan(t, avs, before, "MatMulOn")
	// Read on the last accelerator (the CPU) what every block wrote where it ran.
	flat := arrayview.MustNew(runtime.Ext(m*n), c) // the same data, rank 1
	mx, err := ReduceOn(avs[len(avs)-1:], flat, Max)
	require.NoError(t, err)
	require.NoError(t, avs[0].Close()) // the first view's rows come home
	require.NoError(t, cv.Synchronize())
	assert.Equal(t, slices.Max(c), mx, "read on another accelerator than the writers")
	for row := range m {
		got := c[row*n : (row+1)*n]
		match := false
		for i := range avs {
			match = match || slices.Equal(got, single[i][row*n:(row+1)*n])
		}
		require.True(t, match, "row %d is no accelerator's MatMul row", row)
	}
	mx, err = ReduceOn(avs[1:], flat, Max)
	require.NoError(t, err)
	assert.Equal(t, slices.Max(c), mx, "read after the first view closed")
	require.NoError(t, flat.Close())
	require.NoError(t, cv.Close())

	// Bad input: typed errors, the data intact.
	ci := slices.Clone(c)
	cv2 := arrayview.MustNew(runtime.Ext(m, n), c)
	flat = arrayview.MustNew(runtime.Ext(m*n), c)
	_, err = ReduceOn(nil, flat, Sum)
	assert.ErrorIs(t, err, runtime.ErrInvalidSplit)
	assert.ErrorIs(t, SortOn([]*accelerator.View{avs[0], nil}, flat, SortOptions{}), runtime.ErrInvalidSplit)
	require.NoError(t, flat.Close())
	assert.ErrorIs(t, MatMulOn([]*accelerator.View{avs[1], avs[1]}, av, bv, cv2), runtime.ErrInvalidSplit)
	assert.ErrorIs(t, MatMulOn(avs[1:], bv, av, cv2), ErrShape)
	require.NoError(t, cv2.Close())
	assert.Equal(t, ci, c, "errors left c as it was")
}

// TestSplitBuiltins runs ReduceOn and SortOn over lavapipe and the CPU together and
// compares them with the host's answers (int32 sums wrap as Go's do; Sort's result does
// not depend on where it ran).
func TestSplitBuiltins(t *testing.T) {
	avs := splitAccelerators(t)
	r := rand.New(rand.NewPCG(amptest.Seed(t), 15))
	for _, n := range []int{1, 2, splitElems - 1, 3*splitElems + 1 + r.IntN(splitElems)} {
		ints := splitInts(r, n)
		v := arrayview.MustNew(runtime.Ext(n), ints)
		var sum int32
		for _, x := range ints {
			sum += x
		}
		runtime.ResetThroughput("")
		before := dispatches(avs)
		got, err := ReduceOn(avs, v, Sum)
		require.NoError(t, err)
		assert.Equal(t, sum, got, "ReduceOn Sum of %d", n)
		if n > len(avs)*splitElems {
			checkRan(t, avs, before, "ReduceOn")
		}
		mx, err := ReduceOn(avs, v, Max)
		require.NoError(t, err)
		assert.Equal(t, slices.Max(ints), mx, "ReduceOn Max of %d", n)
		require.NoError(t, v.Close())

		for _, desc := range []bool{false, true} {
			keys := make([]float32, n)
			for i := range keys {
				keys[i] = float32(r.IntN(1<<16)-1<<15) / 8 // ties
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			if desc {
				slices.Reverse(want)
			}
			kv := arrayview.MustNew(runtime.Ext(n), keys)
			runtime.ResetThroughput("") // equal shares: every view gets a block
			before := dispatches(avs)
			require.NoError(t, SortOn(avs, kv, SortOptions{Descending: desc}))
			if n > len(avs)*splitElems {
				checkRan(t, avs, before, "SortOn")
			}
			require.NoError(t, kv.Close())
			require.Equal(t, want, keys, "SortOn of %d, descending %v", n, desc)
		}
	}
}
