package algo

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAliasedArguments: a function that writes one view while it reads another refuses
// views that share memory (the same view, sections that overlap, a view over a slice of
// the other's memory) with a *ShapeError naming both, on every accelerator, and leaves the
// data as it was; views that share data but not elements (disjoint sections) are accepted.
func TestAliasedArguments(t *testing.T) {
	r := rand.New(rand.NewPCG(77, 1))
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			f := make([]float32, 64)
			for i := range f {
				f[i] = r.Float32() + 0.5
			}
			keys := make([]int32, 16)
			for i := range keys {
				keys[i] = r.Int32N(100) + 1
			}
			before, kbefore := slices.Clone(f), slices.Clone(keys)
			img := arrayview.MustNew(runtime.Ext(8, 8), f)
			top, err := img.Section(runtime.Idx(0, 0), runtime.Ext(4, 4))
			require.NoError(t, err)
			mid, err := img.Section(runtime.Idx(2, 2), runtime.Ext(4, 4))
			require.NoError(t, err)
			row := arrayview.MustNew(runtime.Ext(4, 4), f[32:48]) // rows 4 and 5 of img
			low, err := img.Section(runtime.Idx(4, 0), runtime.Ext(4, 4))
			require.NoError(t, err)
			kv := arrayview.MustNew(runtime.Ext(16), keys)
			vec := arrayview.MustNew(runtime.Ext(16), f[0:16])     // row 0 and 1 of img
			shifted := arrayview.MustNew(runtime.Ext(16), f[1:17]) // one element on
			one := []float32{1}
			for _, c := range []struct {
				name string
				err  error
				op   string
				want []string
			}{
				{"Convolve2D in place", Convolve2D(av, img, img, one, one), "Convolve2D", []string{"out shares memory with in"}},
				{"Convolve2D another shape", Convolve2D(av, top, mid, one, one), "Convolve2D", []string{"out shares memory with in"}},
				{"MatMul c is a", MatMul(av, top, mid, top), "MatMul", []string{"c shares memory with a"}},
				{"MatMul c overlaps b", MatMul(av, top, low, mid), "MatMul", []string{"c shares memory with a"}},
				{"MatMul c over b's slice", MatMul(av, top, low, row), "MatMul", []string{"c shares memory with b"}},
				{"MatMulWith transposed", MatMulWith(av, top, low, mid, MatMulOptions{TransA: true}), "MatMul (a transposed)", []string{"c shares memory with a"}},
				{"Transpose of another shape", Transpose(av, top, mid), "Transpose", []string{"out shares memory with in"}},
				{"SortPairs values are the keys", SortPairs(av, kv, kv, SortOptions{}), "SortPairs", []string{"values shares memory with keys"}},
				{"Argsort idx is the keys", Argsort(av, kv, kv, SortOptions{}), "Argsort", []string{"shares memory with keys"}},
				{"Add out shifted", Add(av, vec, vec, shifted), "Add", []string{"out shares memory with a without being the same elements"}},
				{"Saxpy y shifted", Saxpy(av, 2, vec, shifted), "Saxpy", []string{"y shares memory with x without being the same elements"}},
			} {
				t.Run(c.name, func(t *testing.T) { requireShapeError(t, c.err, c.op, c.want) })
			}
			require.NoError(t, img.Synchronize())
			require.NoError(t, kv.Synchronize())
			assert.Equal(t, before, f, "the data is as it was")
			assert.Equal(t, kbefore, keys)
			// Disjoint sections of one view share data, not elements: accepted.
			out, err := img.Section(runtime.Idx(4, 4), runtime.Ext(4, 4))
			require.NoError(t, err)
			require.NoError(t, MatMul(av, top, low, out))
			require.NoError(t, Transpose(av, top, out))
			// The same elements in place: accepted, as documented.
			require.NoError(t, Add(av, shifted, shifted, shifted))
			require.NoError(t, Saxpy(av, 2, shifted, shifted))
			require.NoError(t, img.Synchronize())
			for i := 1; i <= 16; i++ {
				d := before[i] + before[i]
				assert.Equal(t, 2*d+d, f[i], "element %d", i)
			}
		})
	}
}
