package translate_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate"
	"github.com/goamp/goamp/translate/testdata/corpus"
)

// TestIndexed: the translator records, per view, the thread's index and the largest
// rank of the other indices whose rank it can tell (testdata/rank), and nothing for
// an index it cannot follow (a call, a changed local or parameter).
func TestIndexed(t *testing.T) {
	pkg, err := translate.Load("testdata/rank", translate.Options{})
	require.NoError(t, err)
	want := map[string][]translate.Indexed{
		"Forms": {
			{Field: "A", Thread: true},
			{Field: "B", Rank: 2},
			{Field: "D", Rank: 3},
			{Field: "E", Thread: true, Rank: 2},
			{Field: "F", Rank: 2},
			{Field: "H", Rank: 3},
		},
		"Tiles":   {{Field: "A", Thread: true}, {Field: "B", Thread: true}, {Field: "C", Thread: true}},
		"Changed": nil,
	}
	require.Len(t, pkg.Kernels, len(want))
	for _, k := range pkg.Kernels {
		assert.Equal(t, want[k.Type], k.Indexed, k.Type)
	}
}

// TestIndexRankContract: a dispatch whose kernel indexes a view with an index of higher
// rank than the view's is a *runtime.IndexRankError (errors.Is ErrContract) naming the
// kernel, the field and both ranks, on every accelerator, before anything runs: the
// output's data is intact. corpus.Axpy indexes its views with the thread's index (a
// 10x10 domain over views of 10 elements; a rank-3 domain over rank-2 views);
// corpus.Extents indexes In with runtime.Idx(a, b). Before, the CPUs failed with a
// *KernelPanicError from the first thread outside and lavapipe wrote rows over one
// another and returned nil. The same kernel then runs over a domain of the views' rank
// (and a view of higher rank than its index), so that the check is not remembered
// wrongly either way.
func TestIndexRankContract(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	strict, err := accelerator.StrictCPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer func() { require.NoError(t, strict.Close()) }()
	for _, av := range append(amptest.Views(t), strict) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			for _, c := range []struct{ dom, view []int }{
				{[]int{10, 10}, []int{10}},
				{[]int{2 + r.IntN(30), 2 + r.IntN(30)}, []int{1 + r.IntN(300)}},
				{[]int{2 + r.IntN(5), 2 + r.IntN(5), 2 + r.IntN(5)}, []int{2 + r.IntN(9), 2 + r.IntN(9)}},
				{[]int{1 + r.IntN(10), 1 + r.IntN(10), 2 + r.IntN(10)}, []int{1 + r.IntN(300)}},
			} {
				view := runtime.Ext(c.view...)
				src, dst := randFloats(r, view.Size(), -8, 8), randFloats(r, view.Size(), -8, 8)
				y, ydata := inout(t, slices.Clone(dst), c.view...)
				k := corpus.Axpy[float32]{X: in(t, slices.Clone(src), c.view...), Y: y, Alpha: 2}
				err := runtime.ParallelForEach(av, runtime.Ext(c.dom...), k)
				var re *runtime.IndexRankError
				require.ErrorAs(t, err, &re, "domain %v, views %v", c.dom, c.view)
				assert.ErrorIs(t, err, runtime.ErrContract)
				assert.Equal(t, runtime.IndexRankError{Kernel: re.Kernel, Field: "X", ViewRank: len(c.view),
					IndexRank: len(c.dom), Thread: true}, *re)
				assert.Contains(t, re.Kernel, "Axpy")
				assert.Contains(t, err.Error(), fmt.Sprintf("view X, of rank %d, with the thread's index, of the domain's rank %d",
					len(c.view), len(c.dom)))
				require.NoError(t, y.Synchronize())
				assert.Equal(t, dst, ydata, "nothing ran")

				// The views' rank, then a lower one: each element, or the first of each row.
				require.NoError(t, runtime.ParallelForEach(av, view, k))
				require.NoError(t, y.Synchronize())
				want := slices.Clone(dst)
				for j := range want {
					want[j] += 2 * src[j]
				}
				assert.Equal(t, want, ydata)
				if len(c.view) > 1 {
					require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(c.view[0]), k))
					require.NoError(t, y.Synchronize())
					for row := range c.view[0] {
						j := row * (view.Size() / c.view[0])
						want[j] += 2 * src[j]
					}
					assert.Equal(t, want, ydata)
				}
				require.NoError(t, y.Close())
			}

			// runtime.Idx(a, b) of In, a view of rank 1.
			rows, cols := 2+r.IntN(10), 2+r.IntN(10)
			o, data := out[int32](t, rows, cols)
			k := corpus.Extents{In: in(t, randInts(r, rows*cols, -100, 100), rows*cols),
				Vec: in(t, randInts(r, 7, -100, 100), 7), Out: o}
			err := runtime.ParallelForEach(av, runtime.Ext(rows, cols), k)
			var re *runtime.IndexRankError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, runtime.IndexRankError{Kernel: re.Kernel, Field: "In", ViewRank: 1, IndexRank: 2}, *re)
			assert.Contains(t, err.Error(), "view In, of rank 1, with an index of rank 2")
			require.NoError(t, o.Synchronize())
			assert.Equal(t, make([]int32, rows*cols), data, "nothing ran")
		})
	}
}
