package algo

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sortLengths add powers of two (sorted in place) and multi-block lengths to ewLengths.
var sortLengths = append(slices.Clone(ewLengths), 1024, 2048, 4096, 4097)

// sortRef is the reference: slices.Sort, except that float32 values are ordered by IEEE
// 754 totalOrder (what Sort documents) instead of slices.Sort's NaNs-first order.
func sortRef[T Number](s []T) []T {
	ref := slices.Clone(s)
	var z T
	if _, ok := any(z).(float32); ok {
		slices.SortFunc(ref, func(a, b T) int {
			return cmp.Compare(sortKey(ewBitsOf(a), 2), sortKey(ewBitsOf(b), 2))
		})
		return ref
	}
	slices.Sort(ref)
	return ref
}

func testSort[T Number](t *testing.T, av *accelerator.View, perThread bool, n int, dups bool) {
	r := rand.New(rand.NewPCG(uint64(n), 5))
	data := ewRandom[T](r, n, dups)
	// The view is a section, so that its data does not start at element 0.
	got := checkSortSection(t, data, 1, 1, func(v *arrayview.View[T]) error { return sortOp(av, v, perThread) })
	assert.True(t, slices.IsSorted(got), "agrees with slices.Sort's order (no NaNs)")
}

// checkSortSection sorts data with sort in a section of a larger view, with before zeros
// before it and after zeros after it, checks the result against sortRef bit for bit and
// that the zeros are untouched, and returns the sorted section.
func checkSortSection[T Number](t *testing.T, data []T, before, after int, sort func(v *arrayview.View[T]) error) []T {
	t.Helper()
	n := len(data)
	want := sortRef(data)
	backing := make([]T, before+n+after)
	copy(backing[before:], data)
	whole := arrayview.MustNew(runtime.Ext(len(backing)), backing)
	v, err := whole.Section(runtime.Idx(before), runtime.Ext(n))
	require.NoError(t, err)
	require.NoError(t, sort(v))
	require.NoError(t, whole.Synchronize())
	got := backing[before : before+n]
	for i := range got {
		if ewBitsOf(got[i]) != ewBitsOf(want[i]) {
			require.Equal(t, want[i], got[i], "element %d of %d", i, n)
		}
	}
	assert.Equal(t, make([]T, before), backing[:before], "the elements before the section")
	assert.Equal(t, make([]T, after), backing[before+n:], "the elements after the section")
	return got
}

func TestSort(t *testing.T) {
	// The per-thread bodies run 512 goroutines a tile under the race detector: up to 1025
	// keys (1025: padding, a global step and a merge), and big lengths with duplicates
	// only, keep the test fast.
	ewCases(t, sortLengths, 1025, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		dupsCases := []bool{false, true}
		if n > 4097 || perThread && n > 3 {
			dupsCases = []bool{n%2 == 1}
		}
		for _, dups := range dupsCases {
			t.Run(fmt.Sprintf("int32/dups=%v", dups), func(t *testing.T) { testSort[int32](t, av, perThread, n, dups) })
			t.Run(fmt.Sprintf("uint32/dups=%v", dups), func(t *testing.T) { testSort[uint32](t, av, perThread, n, dups) })
			t.Run(fmt.Sprintf("float32/dups=%v", dups), func(t *testing.T) { testSort[float32](t, av, perThread, n, dups) })
		}
	})
}

// TestSortFloatSpecials checks the documented float32 order: -NaN < -Inf < ... < -0 <
// +0 < ... < +Inf < +NaN.
func TestSortFloatSpecials(t *testing.T) {
	negNaN := math.Float32frombits(0xFFC00000)
	posNaN := math.Float32frombits(0x7FC00000)
	negZero := float32(math.Copysign(0, -1))
	inf := float32(math.Inf(1))
	in := []float32{posNaN, 1, negZero, -inf, 0, negNaN, inf, -1, negZero, 0, -3.5, 3.5}
	want := []float32{negNaN, -inf, -3.5, -1, negZero, negZero, 0, 0, 1, 3.5, inf, posNaN}
	for _, av := range ewViews(t) {
		for _, perThread := range []bool{false, true} {
			if perThread && !av.Accelerator().Traits().HostMemory {
				continue
			}
			t.Run(fmt.Sprintf("%s/perthread=%v", av.Accelerator().Path(), perThread), func(t *testing.T) {
				data := slices.Clone(in)
				v := arrayview.MustNew(runtime.Ext(len(data)), data)
				require.NoError(t, sortOp(av, v, perThread))
				require.NoError(t, v.Synchronize())
				for i := range want {
					assert.Equal(t, math.Float32bits(want[i]), math.Float32bits(data[i]), "element %d: %v", i, data[i])
				}
			})
		}
	}
}

// TestSortExtremes sorts the smallest and largest keys, which meet the padding sentinel.
func TestSortExtremes(t *testing.T) {
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			u := []uint32{math.MaxUint32, 0, 5, math.MaxUint32, 1}
			vu := arrayview.MustNew(runtime.Ext(len(u)), u)
			require.NoError(t, Sort(av, vu))
			require.NoError(t, vu.Synchronize())
			assert.Equal(t, []uint32{0, 1, 5, math.MaxUint32, math.MaxUint32}, u)
			i := []int32{math.MaxInt32, math.MinInt32, -1, 0, math.MaxInt32}
			v := arrayview.MustNew(runtime.Ext(len(i)), i)
			require.NoError(t, Sort(av, v))
			require.NoError(t, v.Synchronize())
			assert.Equal(t, []int32{math.MinInt32, -1, 0, math.MaxInt32, math.MaxInt32}, i)
		})
	}
}

func TestSortShapeErrors(t *testing.T) {
	m := arrayview.MustNew(runtime.Ext(2, 2), []int32{4, 3, 2, 1})
	err := Sort(nil, arrayview.MustNew(runtime.Ext(2, 1, 2), []int32{4, 3, 2, 1}))
	require.ErrorIs(t, err, ErrShape)
	assert.Contains(t, err.Error(), "Sort")
	assert.Contains(t, err.Error(), "v has rank 3")
	got := make([]int32, 4)
	require.NoError(t, m.CopyTo(got))
	assert.Equal(t, []int32{4, 3, 2, 1}, got)
	require.ErrorIs(t, Sort[float32](nil, nil), ErrShape)
}

// radixPattern makes n keys of T: random, from a small range, all equal, sorted or
// reversed.
func radixPattern[T Number](r *rand.Rand, n int, pattern string) []T {
	switch pattern {
	case "equal":
		s := make([]T, n)
		for i := range s {
			s[i] = T(7)
		}
		return s
	case "sorted", "reversed":
		s := sortRef(ewRandom[T](r, n, true))
		if pattern == "reversed" {
			slices.Reverse(s)
		}
		return s
	}
	return ewRandom[T](r, n, pattern == "dups")
}

func testRadix[T Number](t *testing.T, av *accelerator.View, perThread bool, algo, n int, pattern string) {
	r := rand.New(rand.NewPCG(uint64(n), 11))
	data := radixPattern[T](r, n, pattern)
	// A section at an odd offset.
	checkSortSection(t, data, 3, 0, func(v *arrayview.View[T]) error { return sortWith(av, v, perThread, algo) })
}

// TestSortRadix runs the radix sort (both scatter bodies on a GPU) around its digit,
// sub-tile (2048 keys) and block boundaries.
func TestSortRadix(t *testing.T) {
	lengths := []int{2, 3, 255, 256, 257, 2047, 2048, 2049, 6143, 6145, 20000}
	ewCases(t, lengths, 2049, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		if perThread && n != 3 && n != 2049 {
			return // the per-thread bodies are slow under the race detector
		}
		algos := []int{sortRadix}
		if radixScatterSG(av) {
			algos = append(algos, sortRadixFallback)
		}
		patterns := []string{"random", "dups", "equal", "sorted", "reversed"}
		if perThread {
			patterns = []string{[]string{"random", "dups"}[n%2]}
		}
		for _, algo := range algos {
			for _, p := range patterns {
				t.Run(fmt.Sprintf("algo=%d/%s", algo, p), func(t *testing.T) {
					t.Run("int32", func(t *testing.T) { testRadix[int32](t, av, perThread, algo, n, p) })
					t.Run("uint32", func(t *testing.T) { testRadix[uint32](t, av, perThread, algo, n, p) })
					t.Run("float32", func(t *testing.T) { testRadix[float32](t, av, perThread, algo, n, p) })
				})
			}
		}
	})
}

// TestSortRadixBlocks makes the radix sort's blocks span several sub-tiles, by allowing
// it few blocks: Sort, and SortPairs and Argsort.
func TestSortRadixBlocks(t *testing.T) {
	defer func(m int) { radixMaxBlocks = m }(radixMaxBlocks)
	radixMaxBlocks = 2
	blockLen, blocks := radixBlocks(10000, radixMaxBlocks)
	require.Equal(t, radixBlockUnit, blockLen) // 3 sub-tiles of the Go bodies, 2 of the subgroup scatter
	require.Equal(t, 2, blocks)
	ewCases(t, []int{4097, 10000}, 4097, func(t *testing.T, av *accelerator.View, perThread bool, n int) {
		algos := []int{sortRadix}
		if !av.Accelerator().Traits().HostMemory { // the GPU bodies' scatter without subgroups
			algos = append(algos, sortRadixFallback)
		}
		for _, algo := range algos {
			t.Run(fmt.Sprint("algo=", algo), func(t *testing.T) {
				testRadix[float32](t, av, perThread, algo, n, "random")
				if !perThread {
					testRadix[int32](t, av, perThread, algo, n, "dups")
					// Values follow their keys across sub-tiles (the scatter loads the next
					// sub-tile's keys and values ahead).
					testPairs[float32, int32](t, av, algo, n, SortOptions{})
				}
			})
		}
	})
}

// TestSortRadixFloatSpecials checks the radix sort's float32 order, NaNs, infinities and
// both zeros included, over several sub-tiles.
func TestSortRadixFloatSpecials(t *testing.T) {
	specials := []float32{math.Float32frombits(0x7FC00000), math.Float32frombits(0xFFC00000),
		float32(math.Copysign(0, -1)), 0, float32(math.Inf(1)), float32(math.Inf(-1)), -1, 1, -3.5, 3.5,
		-math.SmallestNonzeroFloat32, math.SmallestNonzeroFloat32, -math.MaxFloat32, math.MaxFloat32}
	const n = 5000
	r := rand.New(rand.NewPCG(1, 2))
	in := make([]float32, n)
	for i := range in {
		in[i] = specials[r.IntN(len(specials))]
	}
	want := sortRef(in)
	for _, av := range ewViews(t) {
		for _, algo := range []int{sortRadix, sortRadixFallback} {
			t.Run(fmt.Sprintf("%s/algo=%d", av.Accelerator().Path(), algo), func(t *testing.T) {
				data := slices.Clone(in)
				v := arrayview.MustNew(runtime.Ext(n), data)
				require.NoError(t, sortWith(av, v, false, algo))
				require.NoError(t, v.Synchronize())
				for i := range want {
					if math.Float32bits(want[i]) != math.Float32bits(data[i]) {
						require.Equal(t, math.Float32bits(want[i]), math.Float32bits(data[i]), "element %d: %v", i, data[i])
					}
				}
			})
		}
	}
}
