package algo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	xhooks "github.com/goamp/goamp/internal/hooks"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkBuiltins runs Reduce (Sum and Max), InclusiveScan, ExclusiveScan in place, Add
// (out is a) and Sort on views of n fresh random elements on av and compares each with
// the same computed on the host. Integer data (int32, whose sums wrap as Go's do) keeps
// the scans' and sums' results exact whatever the order of the additions; Sort gets
// float32 data with -0, +0 and ties.
func checkBuiltins(t *testing.T, av *accelerator.View, r *rand.Rand, n int) {
	ints := make([]int32, n)
	for i := range ints {
		ints[i] = int32(r.Uint32())
	}
	want := slices.Clone(ints)
	v, err := arrayview.New(runtime.Ext(n), ints)
	require.NoError(t, err)
	defer func() { require.NoError(t, v.Close()) }()

	var sum int32
	for _, x := range want {
		sum += x
	}
	got, err := Reduce(av, v, Sum)
	require.NoError(t, err)
	assert.Equal(t, sum, got, "Reduce Sum of %d", n)
	got, err = Reduce(av, v, Max)
	require.NoError(t, err)
	assert.Equal(t, slices.Max(want), got, "Reduce Max of %d", n)

	out := make([]int32, n)
	ov, err := arrayview.New(runtime.Ext(n), out)
	require.NoError(t, err)
	defer func() { require.NoError(t, ov.Close()) }()
	ov.DiscardData()
	require.NoError(t, InclusiveScan(av, v, ov))
	require.NoError(t, ov.Synchronize())
	run := int32(0)
	bad := -1
	for i, x := range want {
		run += x
		if out[i] != run && bad < 0 {
			bad = i
		}
	}
	assert.Equal(t, -1, bad, "InclusiveScan of %d: first wrong element", n)

	// Add with out = a: ints += out (the inclusive scan), then an in-place exclusive scan.
	require.NoError(t, Add(av, v, ov, v))
	require.NoError(t, ExclusiveScan(av, v, v))
	require.NoError(t, v.Synchronize())
	run, bad = 0, -1
	for i, x := range want {
		if ints[i] != run && bad < 0 {
			bad = i
		}
		run += x + out[i]
	}
	assert.Equal(t, -1, bad, "Add then in-place ExclusiveScan of %d: first wrong element", n)

	keys := make([]float32, n)
	for i := range keys {
		keys[i] = float32(r.IntN(1<<20)-1<<19) / 64 // ties
	}
	keys[0], keys[n-1] = float32(math.Copysign(0, -1)), 0
	hash := multisetHash(keys)
	kv, err := arrayview.New(runtime.Ext(n), keys)
	require.NoError(t, err)
	defer func() { require.NoError(t, kv.Close()) }()
	require.NoError(t, Sort(av, kv))
	require.NoError(t, kv.Synchronize())
	bad = -1
	for i := 1; i < n && bad < 0; i++ {
		if sortKey(math.Float32bits(keys[i-1]), 2) > sortKey(math.Float32bits(keys[i]), 2) {
			bad = i
		}
	}
	assert.Equal(t, -1, bad, "Sort of %d: first element out of order", n)
	assert.Equal(t, hash, multisetHash(keys), "Sort of %d keeps the elements", n)
}

// multisetHash is a hash of the elements of s that does not depend on their order: the
// wrapping sum of a mix of each element's bits.
func multisetHash(s []float32) uint64 {
	var h uint64
	for _, x := range s {
		z := uint64(math.Float32bits(x)) + 0x9e3779b97f4a7c15
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		h += z ^ z>>31
	}
	return h
}

// TestWindows runs the built-ins that split views longer than one binding with windows
// of 4,096 elements (hooks.window) on every accelerator, at lengths around multiples of
// the window: one window and a bit, several windows (Sort's merge passes of runs of one,
// two and four windows, a run without a partner), and one element past a window.
func TestWindows(t *testing.T) {
	const w = 4096
	r := rand.New(rand.NewPCG(12, uint64(os.Getpid())))
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer func() { require.NoError(t, av.Close()) }()
			defer setHooks(testHooks{window: w})()
			for _, n := range []int{w + 1, 2 * w, 3*w - 7, 5*w + 1, 8 * w} {
				t.Run(strconv.Itoa(n), func(t *testing.T) {
					checkBuiltins(t, av, r, n)
					checkFillSaxpy(t, av, r, n)
					checkDescending(t, av, r, n)
				})
			}
		})
	}
}

// checkFillSaxpy runs Fill and Saxpy on views of n elements on av and compares with the
// host (Saxpy's operands are small integers, so that a fused multiply-add rounds as the
// host's separate operations do).
func checkFillSaxpy(t *testing.T, av *accelerator.View, r *rand.Rand, n int) {
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(r.IntN(1000)-500), float32(r.IntN(1000)-500)
	}
	want := make([]float32, n)
	alpha := float32(r.IntN(9) + 2)
	for i := range want {
		want[i] = alpha*x[i] + y[i]
	}
	xv, err := arrayview.New(runtime.Ext(n), x)
	require.NoError(t, err)
	yv, err := arrayview.New(runtime.Ext(n), y)
	require.NoError(t, err)
	require.NoError(t, Saxpy(av, alpha, xv, yv))
	require.NoError(t, yv.Synchronize())
	assert.Equal(t, want, y, "Saxpy of %d", n)
	c := float32(r.IntN(1000)) + 0.5
	require.NoError(t, Fill(av, xv, c))
	require.NoError(t, xv.Synchronize())
	for i := range want {
		want[i] = c
	}
	assert.Equal(t, want, x, "Fill of %d", n)
	require.NoError(t, xv.Close())
	require.NoError(t, yv.Close())
}

// checkDescending sorts n fresh int32 keys on av in descending order (SortWith) and
// compares with the host.
func checkDescending(t *testing.T, av *accelerator.View, r *rand.Rand, n int) {
	keys := make([]int32, n)
	for i := range keys {
		keys[i] = int32(r.IntN(1<<16) - 1<<15)
	}
	want := slices.Clone(keys)
	slices.Sort(want)
	slices.Reverse(want)
	v, err := arrayview.New(runtime.Ext(n), keys)
	require.NoError(t, err)
	require.NoError(t, SortWith(av, v, SortOptions{Descending: true}))
	require.NoError(t, v.Close())
	assert.Equal(t, want, keys, "descending Sort of %d", n)
}

// bigViewBytes is TestBigView's view size: $GOAMP_BIG_VIEW_BYTES, else 160 MiB.
func bigViewBytes(t *testing.T) int {
	s := os.Getenv("GOAMP_BIG_VIEW_BYTES")
	if s == "" {
		return 160 << 20
	}
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "GOAMP_BIG_VIEW_BYTES")
	return n
}

// TestBigView sorts a view larger than one binding, on each Vulkan device: 160 MiB
// of four-byte elements (more than lavapipe's maxStorageBufferRange of 128 MiB), or
// $GOAMP_BIG_VIEW_BYTES (6 GiB on an H100, whose range and maxMemoryAllocationSize are 4
// GiB: the copy is cut into chunks), through Reduce, the scans, Add and Sort
// (checkBuiltins). The CPU has no binding limit; TestWindows covers
// its split paths. With -race it runs only when GOAMP_BIG_VIEW_BYTES is set.
func TestBigView(t *testing.T) {
	if raceOn && os.Getenv("GOAMP_BIG_VIEW_BYTES") == "" {
		// The host side (filling and checking 40M elements) is slow under the race
		// detector; make test runs it in test-staging, without -race.
		t.Skip("skipped with -race unless GOAMP_BIG_VIEW_BYTES is set; TestWindows covers the split paths")
	}
	bytes := bigViewBytes(t)
	r := rand.New(rand.NewPCG(12, uint64(os.Getpid())))
	eachDevice(t, func(t *testing.T, a *accelerator.Accelerator, av *accelerator.View) {
		t.Logf("%d bytes, maxStorageBufferRange %d, window %d elements", bytes, a.Limits().MaxStorageBufferRange, windowLen[float32](av))
		if testing.Short() && uint64(bytes) <= uint64(a.Limits().MaxStorageBufferRange) {
			t.Skipf("-short: %d bytes fit one binding of %s (GOAMP_BIG_VIEW_BYTES above its maxStorageBufferRange splits them)", bytes, a)
		}
		checkBuiltins(t, av, r, bytes/4)
		limit := uint64(a.Limits().MaxStorageBufferRange)
		for _, b := range idleBytes(av) {
			assert.LessOrEqual(t, b, limit, "no idle scratch buffer over maxStorageBufferRange: %v", idleBytes(av))
		}
		checkSmallReduce(t, av, r, "after the big view's work")
	})
}

// TestChunkedBuiltins is TestBigView for views whose device copies are larger than one
// allocation (as a 6 GiB view on an H100, whose maxMemoryAllocationSize is 4 GiB): with
// allocations capped at 256 KiB (hooks.MaxAllocation), Reduce, the scans, Add and Sort
// (checkBuiltins) cut their windows at the copies' chunks.
func TestChunkedBuiltins(t *testing.T) {
	xhooks.MaxAllocation.Store(256 << 10)
	defer xhooks.MaxAllocation.Store(0)
	r := rand.New(rand.NewPCG(13, uint64(os.Getpid())))
	eachDevice(t, func(t *testing.T, _ *accelerator.Accelerator, av *accelerator.View) {
		checkBuiltins(t, av, r, 3*65536+1+r.IntN(65536))
	})
}

// eachDevice runs f in a subtest for each Vulkan accelerator, with a new view of it.
func eachDevice(t *testing.T, f func(t *testing.T, a *accelerator.Accelerator, av *accelerator.View)) {
	for _, a := range accelerator.All() {
		if a.Traits().HostMemory {
			continue
		}
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer func() { require.NoError(t, av.Close()) }()
			f(t, a, av)
		})
	}
}

// TestWindowLen checks windowLen against the device limits: a window and the alignment
// slack before it fit in one binding, and views that fit are not split.
func TestWindowLen(t *testing.T) {
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer func() { require.NoError(t, av.Close()) }()
			w := windowLen[float32](av)
			if a.Traits().HostMemory {
				assert.Zero(t, w)
				return
			}
			lim := uint64(a.Limits().MaxStorageBufferRange)
			assert.LessOrEqual(t, uint64(w)*4+uint64(a.Limits().MinStorageBufferAlign), lim, fmt.Sprint("window ", w))
			assert.Greater(t, uint64(w)*4, lim/2)
			assert.Zero(t, splitLen[float32](av, w))
			assert.Equal(t, w, splitLen[float32](av, w+1))
		})
	}
}

// Several accelerators at once.

// splitAccelerators returns a view of every accelerator (amptest.Views: the CPU's first,
// then lavapipe's here: two accelerators of different kinds), or skips when there is only
// one.
func splitAccelerators(t *testing.T) []*accelerator.View {
	avs := amptest.Views(t)
	if len(avs) < 2 {
		t.Skipf("one accelerator: %v", accelerator.NoVulkanReason())
	}
	return avs
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
// rows come home); a closed view in a split is its error.
func TestMatMulOn(t *testing.T) {
	avs := splitAccelerators(t)
	r := rand.New(rand.NewPCG(amptest.Seed(t), 14))
	const m, k, n = 700, 67, 45
	a := convRandom(r, m*k)
	b := convRandom(r, k*n)
	av, bv := arrayview.MustNew(runtime.Ext(m, k), a), arrayview.MustNew(runtime.Ext(k, n), b)
	defer func() { require.NoError(t, av.Close()); require.NoError(t, bv.Close()) }()
	single := make([][]float32, len(avs))
	for i, x := range avs {
		single[i] = make([]float32, m*n)
		cv := arrayview.MustNew(runtime.Ext(m, n), single[i])
		require.NoError(t, MatMul(x, av, bv, cv))
		require.NoError(t, cv.Close())
	}
	rt.ResetThroughput(splitKey[float32]("MatMul"))
	before := dispatches(avs)
	c := convRandom(r, m*n)
	cv := arrayview.MustNew(runtime.Ext(m, n), c)
	require.NoError(t, MatMulOn(avs, av, bv, cv))
	checkRan(t, avs, before, "MatMulOn")
	// Read on the first accelerator (the CPU) what every block wrote where it ran.
	flat := arrayview.MustNew(runtime.Ext(m*n), c) // the same data, rank 1
	mx, err := ReduceOn(avs[:1], flat, Max)
	require.NoError(t, err)
	last := avs[len(avs)-1]
	require.NoError(t, last.Close()) // the last view's rows come home
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
	mx, err = ReduceOn(avs[:1], flat, Max)
	require.NoError(t, err)
	assert.Equal(t, slices.Max(c), mx, "read after the last view closed")
	require.NoError(t, flat.Close())
	require.NoError(t, cv.Close())

	// Bad input: typed errors, the data intact.
	ci := slices.Clone(c)
	cv2 := arrayview.MustNew(runtime.Ext(m, n), c)
	flat = arrayview.MustNew(runtime.Ext(m*n), c)
	_, err = ReduceOn(nil, flat, Sum)
	assert.ErrorIs(t, err, runtime.ErrInvalidSplit)
	assert.ErrorIs(t, SortOn([]*accelerator.View{avs[0], nil}, flat, SortOptions{}), runtime.ErrInvalidSplit)
	assert.ErrorIs(t, SortOn([]*accelerator.View{avs[0], last}, flat, SortOptions{}), accelerator.ErrViewClosed)
	require.NoError(t, flat.Close())
	assert.ErrorIs(t, MatMulOn([]*accelerator.View{avs[0], avs[0]}, av, bv, cv2), runtime.ErrInvalidSplit)
	assert.ErrorIs(t, MatMulOn(avs[:1], bv, av, cv2), ErrShape)
	require.NoError(t, cv2.Close())
	assert.Equal(t, ci, c, "errors left c as it was")
}

// TestSplitArrayHome: an Array lives on one accelerator view, so MatMulOn, SortOn and
// ReduceOn over others refuse it before any block runs (a block on its home view had
// sorted or written its part before another block failed), naming the function called,
// and leave it as it was.
func TestSplitArrayHome(t *testing.T) {
	avs := splitAccelerators(t)
	r := rand.New(rand.NewPCG(amptest.Seed(t), 16))
	const m, k, n = 300, 17, 20
	av := arrayview.MustNew(runtime.Ext(m, k), convRandom(r, m*k))
	bv := arrayview.MustNew(runtime.Ext(k, n), convRandom(r, k*n))
	defer func() { require.NoError(t, av.Close()); require.NoError(t, bv.Close()) }()
	ci := convRandom(r, m*n)
	home := avs[len(avs)-1]
	keys := splitInts(r, 4*splitElems)
	arr, err := arrayview.NewArray(home, runtime.Ext(len(keys)), keys)
	require.NoError(t, err)
	ca, err := arrayview.NewArray(home, runtime.Ext(m, n), ci)
	require.NoError(t, err)
	rt.ResetThroughput("")
	for _, err := range []error{SortOn(avs, arr.View, SortOptions{}), MatMulOn(avs, av, bv, ca.View)} {
		var me *runtime.AcceleratorMismatchError
		require.ErrorAs(t, err, &me)
		assert.Regexp(t, "algo.(SortOn|MatMulOn)", err.Error(), "the error names the function called")
	}
	_, err = ReduceOn(avs, arr.View, Sum)
	assert.ErrorIs(t, err, runtime.ErrAcceleratorMismatch)
	got := make([]int32, len(keys))
	require.NoError(t, arr.CopyTo(got))
	assert.Equal(t, keys, got, "the Array is as it was")
	gotC := make([]float32, m*n)
	require.NoError(t, ca.CopyTo(gotC))
	assert.Equal(t, ci, gotC, "the Array c is as it was")
	require.NoError(t, arr.Close())
	require.NoError(t, ca.Close())
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
		rt.ResetThroughput("")
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
			rt.ResetThroughput("") // equal shares: every view gets a block
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
