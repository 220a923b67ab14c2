package algo_test

import (
	"fmt"
	"math"

	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Sort orders float32 keys by IEEE 754 totalOrder: -0 before +0, infinities at the ends.
func ExampleSort() {
	keys := []float32{3, -1, float32(math.Inf(1)), 0, float32(math.Copysign(0, -1)), -7.5, 2, float32(math.Inf(-1))}
	v := arrayview.MustNew(runtime.Ext(len(keys)), keys)
	if err := algo.Sort(nil, v); err != nil {
		fmt.Println(err)
		return
	}
	if err := v.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(keys)
	// Output: [-Inf -7.5 -1 -0 0 2 3 +Inf]
}

// Sorting names by score, highest first: equal scores keep their input order.
func ExampleSortPairs() {
	names := []string{"ada", "bob", "cy", "dee", "eve"}
	scores := []float32{7.5, 9, 7.5, 3, 9}
	who := []int32{0, 1, 2, 3, 4} // indices into names
	ks := arrayview.MustNew(runtime.Ext(5), scores)
	vs := arrayview.MustNew(runtime.Ext(5), who)
	if err := algo.SortPairs(nil, ks, vs, algo.SortOptions{Descending: true}); err != nil {
		fmt.Println(err)
		return
	}
	if err := ks.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	if err := vs.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	for i, w := range who {
		fmt.Println(names[w], scores[i])
	}
	// Output:
	// bob 9
	// eve 9
	// ada 7.5
	// cy 7.5
	// dee 3
}

// Argsort of each row of a matrix, as torch.argsort(x, dim=-1): NaN sorts after +Inf and
// -0 before +0.
func ExampleArgsort() {
	x := []float32{
		3, float32(math.NaN()), 1, float32(math.Inf(1)),
		0, float32(math.Copysign(0, -1)), -2, 0,
	}
	idx := make([]int32, 8)
	iv := arrayview.MustNew(runtime.Ext(2, 4), idx)
	if err := algo.Argsort(nil, arrayview.MustNew(runtime.Ext(2, 4), x), iv, algo.SortOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	if err := iv.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(idx[:4], idx[4:])
	// Output: [2 0 3 1] [2 1 0 3]
}

// Sorting in descending order, in place.
func ExampleSortWith() {
	v := []int32{5, -1, 12, 0, 7}
	vv := arrayview.MustNew(runtime.Ext(5), v)
	if err := algo.SortWith(nil, vv, algo.SortOptions{Descending: true}); err != nil {
		fmt.Println(err)
		return
	}
	if err := vv.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v)
	// Output: [12 7 5 0 -1]
}
