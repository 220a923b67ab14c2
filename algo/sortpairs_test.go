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

// pairsLengths are SortPairs' and Argsort's lengths (a view is never empty): 1, 2^k +- 1 around the radix
// sort's sub-tile (2048 keys), and several blocks.
var pairsLengths = []int{1, 2, 3, 255, 257, 1023, 1025, 2047, 2049, 4095, 4097, 8191, 8193, 16385, 40000}

// sortAlgos are the radix sorts to check on av: the best one, and the scatter without
// subgroups (a GPU with ballots: the other is the best one).
func sortAlgos(av *accelerator.View) []int {
	algos := []int{sortRadix}
	if av.Accelerator().Traits().HostMemory {
		return algos
	}
	if radixScatterSG(av) {
		algos = append(algos, sortRadixFallback)
	}
	return algos
}

// sortKeysFor makes n random keys of T from a small range (many duplicates); float32 keys
// include both zeros, both infinities and NaNs of both signs and two payloads.
func sortKeysFor[T Number](r *rand.Rand, n int) []T {
	s := ewRandom[T](r, n, true)
	var z T
	if _, ok := any(z).(float32); ok {
		nans := []uint32{0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFA00000}
		for i := range s {
			if r.IntN(16) == 0 {
				s[i] = ewFromBits[T](nans[r.IntN(len(nans))])
			}
		}
	}
	return s
}

// stablePerm is the reference: the permutation that sorts keys stably in the order of
// type code tc (sortKey's order, with sortDescending).
func stablePerm[T Number](keys []T, tc int32) []int32 {
	p := make([]int32, len(keys))
	for i := range p {
		p[i] = int32(i)
	}
	slices.SortStableFunc(p, func(a, b int32) int {
		return cmp.Compare(sortKey(ewBitsOf(keys[a]), tc), sortKey(ewBitsOf(keys[b]), tc))
	})
	return p
}

// requireBits checks got against want bit for bit.
func requireBits[T Number](t *testing.T, want, got []T, what string) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if ewBitsOf(got[i]) != ewBitsOf(want[i]) {
			require.Equal(t, want[i], got[i], "%s %d of %d", what, i, len(want))
		}
	}
}

// viewData returns the host data of v.
func viewData[T any](t *testing.T, v *arrayview.View[T]) []T {
	d, err := v.Data()
	require.NoError(t, err)
	return d
}

// pairsOp runs Argsort (idx set), SortPairs (vals set) or else SortWith of the keys alone
// with the radix sort algo.
func pairsOp[K, V Number](av *accelerator.View, keys *arrayview.View[K], vals *arrayview.View[V],
	idx *arrayview.View[int32], algo int, opt SortOptions) error {
	h := hooks // the layout of the pairs (TestSortPairsLayouts) stays
	h.sort = algo
	defer setHooks(h)()
	switch {
	case idx != nil:
		return Argsort(av, keys, idx, opt)
	case vals != nil:
		return SortPairs(av, keys, vals, opt)
	}
	return SortWith(av, keys, opt)
}

func testPairs[K, V Number](t *testing.T, av *accelerator.View, algo, n int, opt SortOptions) {
	r := rand.New(rand.NewPCG(uint64(n), uint64(algo)))
	keys := sortKeysFor[K](r, n)
	vals := ewRandom[V](r, n, false)
	perm := stablePerm(keys, sortCode[K](opt))
	wantK, wantV := make([]K, n), make([]V, n)
	for i, p := range perm {
		wantK[i], wantV[i] = keys[p], vals[p]
	}
	// The keys are a section at an odd offset.
	backing := append([]K{5, 6, 7}, keys...)
	whole := arrayview.MustNew(runtime.Ext(n+3), backing)
	kv, err := whole.Section(runtime.Idx(3), runtime.Ext(n))
	require.NoError(t, err)
	vv := arrayview.MustNew(runtime.Ext(n), slices.Clone(vals))
	require.NoError(t, pairsOp[K, V](av, kv, vv, nil, algo, opt))
	require.NoError(t, whole.Synchronize())
	require.NoError(t, vv.Synchronize())
	requireBits(t, wantK, backing[3:], "key")
	requireBits(t, wantV, viewData(t, vv), "value")
	assert.Equal(t, []K{5, 6, 7}, backing[:3])

	// Argsort leaves the keys as they are.
	kv2 := arrayview.MustNew(runtime.Ext(n), slices.Clone(keys))
	iv := arrayview.MustNew(runtime.Ext(n), ewRandom[int32](r, n, false))
	require.NoError(t, pairsOp[K, int32](av, kv2, nil, iv, algo, opt))
	require.NoError(t, iv.Synchronize())
	require.NoError(t, kv2.Synchronize())
	requireBits(t, perm, viewData(t, iv), "index")
	requireBits(t, keys, viewData(t, kv2), "unchanged key")

	// Sort, the keys alone (the keys-only scatter programs).
	kv3 := arrayview.MustNew(runtime.Ext(n), slices.Clone(keys))
	require.NoError(t, pairsOp[K, V](av, kv3, nil, nil, algo, opt))
	requireBits(t, wantK, viewData(t, kv3), "Sort: key")
}

// TestSortPairs checks SortPairs and Argsort against a stable sort, in both orders, for
// every key type and radix sort on every accelerator.
func TestSortPairs(t *testing.T) {
	for _, av := range ewViews(t) {
		for _, algo := range sortAlgos(av) {
			for _, n := range pairsLengths {
				for _, desc := range []bool{false, true} {
					opt := SortOptions{Descending: desc}
					name := fmt.Sprintf("%s/algo=%d/n=%d/desc=%v", av.Accelerator().Path(), algo, n, desc)
					t.Run(name, func(t *testing.T) {
						testPairs[float32, int32](t, av, algo, n, opt)
						testPairs[int32, float32](t, av, algo, n, opt)
						testPairs[uint32, uint32](t, av, algo, n, opt)
					})
				}
			}
		}
	}
}

// TestSortPairsLayouts checks SortPairs and Argsort (and Sort) with the keys and values
// interleaved between the passes and kept separate, each way on every accelerator and
// radix scatter body (the CPU's fast and per-thread Go bodies, the GPU's with and without
// subgroups, in one round or two, in tiles of 256 or 512 threads), over several blocks.
func TestSortPairsLayouts(t *testing.T) {
	defer func(m int) { radixMaxBlocks = m }(radixMaxBlocks)
	radixMaxBlocks = 2
	for _, av := range ewViews(t) {
		algos := []int{sortRadix}
		perThread, scatters := []bool{false}, []string{"default"}
		if av.Accelerator().Traits().HostMemory {
			perThread = append(perThread, true)
		} else {
			algos = append(algos, sortRadixFallback)
			if radixScatterSG(av) && radixOneRound(av) { // the ballot scatter has both
				scatters = append(scatters, "twoRounds")
			}
			if radixScatterSG(av) && radixWide(av) { // and the one-round scatter two tiles
				scatters = append(scatters, "narrow")
			}
		}
		for _, algo := range algos {
			for _, pt := range perThread {
				for _, sc := range scatters {
					for _, inter := range []bool{false, true} {
						name := fmt.Sprintf("%s/algo=%d/perThread=%v/scatter=%s/interleaved=%v", av.Accelerator().Path(), algo, pt, sc, inter)
						t.Run(name, func(t *testing.T) {
							defer setHooks(testHooks{perThread: pt, interleavePairs: inter, separatePairs: !inter,
								twoRounds: sc == "twoRounds", narrowScatter: sc == "narrow"})()
							testPairs[float32, int32](t, av, algo, 10000, SortOptions{})
							testPairs[uint32, float32](t, av, algo, 6145, SortOptions{Descending: true})
						})
					}
				}
			}
		}
	}
}

// TestSortDescending checks SortWith's descending order for both algorithms of Sort.
func TestSortDescending(t *testing.T) {
	for _, av := range ewViews(t) {
		for _, algo := range append([]int{sortBitonic}, sortAlgos(av)...) {
			for _, n := range []int{2, 3, 1025, 4097, 9000} {
				t.Run(fmt.Sprintf("%s/algo=%d/n=%d", av.Accelerator().Path(), algo, n), func(t *testing.T) {
					r := rand.New(rand.NewPCG(uint64(n), 3))
					keys := sortKeysFor[float32](r, n)
					want := make([]float32, n)
					for i, p := range stablePerm(keys, 2|sortDescending) {
						want[i] = keys[p]
					}
					v := arrayview.MustNew(runtime.Ext(n), keys)
					defer setHooks(testHooks{sort: algo})()
					require.NoError(t, SortWith(av, v, SortOptions{Descending: true}))
					require.NoError(t, v.Synchronize())
					requireBits(t, want, keys, "key")
				})
			}
		}
	}
}

// TestSortFloatOrder checks the documented float32 order in both directions.
func TestSortFloatOrder(t *testing.T) {
	negNaN, posNaN := math.Float32frombits(0xFFC00000), math.Float32frombits(0x7FC00000)
	negZero, inf := float32(math.Copysign(0, -1)), float32(math.Inf(1))
	in := []float32{posNaN, 1, negZero, -inf, 0, negNaN, inf, -1, 0, -3.5}
	asc := []float32{negNaN, -inf, -3.5, -1, negZero, 0, 0, 1, inf, posNaN}
	for _, av := range ewViews(t) {
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/desc=%v", av.Accelerator().Path(), desc), func(t *testing.T) {
				keys := slices.Clone(in)
				idx := make([]int32, len(in))
				kv := arrayview.MustNew(runtime.Ext(len(in)), keys)
				iv := arrayview.MustNew(runtime.Ext(len(in)), idx)
				require.NoError(t, Argsort(av, kv, iv, SortOptions{Descending: desc}))
				require.NoError(t, SortWith(av, kv, SortOptions{Descending: desc}))
				require.NoError(t, kv.Synchronize())
				require.NoError(t, iv.Synchronize())
				want := slices.Clone(asc)
				if desc {
					slices.Reverse(want)
				}
				requireBits(t, want, keys, "key")
				for i, p := range idx {
					assert.Equal(t, math.Float32bits(want[i]), math.Float32bits(in[p]), "index %d", i)
				}
				// The two zeros of the input (+0 at 4 and 8) keep their order either way.
				assert.Less(t, slices.Index(idx, 4), slices.Index(idx, 8))
			})
		}
	}
}

// segShapes are the segmented sorts' rows x columns: a row, a column, rows past 256 (a
// second digit of row numbers) and long rows.
var segShapes = [][2]int{{1, 9}, {7, 1}, {3, 5}, {300, 17}, {4, 3000}}

// TestSortRows checks SortWith, SortPairs and Argsort of rank-2 views (each row on its
// own), the keys a section of a wider matrix.
func TestSortRows(t *testing.T) {
	for _, av := range ewViews(t) {
		for _, sh := range segShapes {
			for _, desc := range []bool{false, true} {
				name := fmt.Sprintf("%s/%dx%d/desc=%v", av.Accelerator().Path(), sh[0], sh[1], desc)
				t.Run(name, func(t *testing.T) { testRows(t, av, sh[0], sh[1], SortOptions{Descending: desc}) })
			}
		}
	}
}

func testRows(t *testing.T, av *accelerator.View, rows, cols int, opt SortOptions) {
	r := rand.New(rand.NewPCG(uint64(rows), uint64(cols)))
	n := rows * cols
	keys := sortKeysFor[float32](r, n)
	vals := ewRandom[int32](r, n, false)
	wantK, wantV, wantI := make([]float32, n), make([]int32, n), make([]int32, n)
	for row := range rows {
		p := stablePerm(keys[row*cols:(row+1)*cols], sortCode[float32](opt))
		for i, c := range p {
			wantK[row*cols+i], wantV[row*cols+i], wantI[row*cols+i] = keys[row*cols+int(c)], vals[row*cols+int(c)], c
		}
	}
	// The keys: columns 1..cols of a rows x (cols+2) matrix.
	wide := make([]float32, rows*(cols+2))
	for row := range rows {
		copy(wide[row*(cols+2)+1:], keys[row*cols:(row+1)*cols])
	}
	wv := arrayview.MustNew(runtime.Ext(rows, cols+2), wide)
	kv, err := wv.Section(runtime.Idx(0, 1), runtime.Ext(rows, cols))
	require.NoError(t, err)
	iv := arrayview.MustNew(runtime.Ext(rows, cols), make([]int32, n))
	require.NoError(t, Argsort(av, kv, iv, opt))
	require.NoError(t, iv.Synchronize())
	requireBits(t, wantI, viewData(t, iv), "index")
	vv := arrayview.MustNew(runtime.Ext(rows, cols), slices.Clone(vals))
	require.NoError(t, SortPairs(av, kv, vv, opt))
	require.NoError(t, vv.Synchronize())
	requireBits(t, wantV, viewData(t, vv), "value")
	require.NoError(t, wv.Synchronize())
	got := make([]float32, 0, n)
	for row := range rows {
		got = append(got, wide[row*(cols+2)+1:row*(cols+2)+1+cols]...)
		assert.Equal(t, float32(0), wide[row*(cols+2)], "row %d's left margin", row)
	}
	requireBits(t, wantK, got, "key")
	// SortWith of the keys as they came.
	kv3 := arrayview.MustNew(runtime.Ext(rows, cols), slices.Clone(keys))
	require.NoError(t, SortWith(av, kv3, opt))
	require.NoError(t, kv3.Synchronize())
	requireBits(t, wantK, viewData(t, kv3), "SortWith key")
}

// TestSortPairsShapeErrors checks the typed errors of bad shapes, which change nothing.
func TestSortPairsShapeErrors(t *testing.T) {
	k := arrayview.MustNew(runtime.Ext(4), []int32{4, 3, 2, 1})
	v3 := arrayview.MustNew(runtime.Ext(3), []float32{1, 2, 3})
	i3 := arrayview.MustNew(runtime.Ext(3), []int32{1, 2, 3})
	cube := arrayview.MustNew(runtime.Ext(2, 1, 2), []int32{4, 3, 2, 1})
	requireShapeError(t, SortPairs(nil, k, v3, SortOptions{}), "SortPairs", []string{"values has extent", "keys"})
	requireShapeError(t, Argsort(nil, k, i3, SortOptions{}), "Argsort", []string{"idx has extent"})
	requireShapeError(t, SortWith(nil, cube, SortOptions{}), "SortWith", []string{"v has rank 3"})
	requireShapeError(t, SortPairs[int32, float32](nil, nil, v3, SortOptions{}), "SortPairs", []string{"keys is nil"})
	requireShapeError(t, Argsort(nil, k, nil, SortOptions{}), "Argsort", []string{"idx is nil"})
	got := make([]int32, 4)
	require.NoError(t, k.CopyTo(got))
	assert.Equal(t, []int32{4, 3, 2, 1}, got)
}
