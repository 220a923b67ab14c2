package tilesum_test

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/examples/tilesum"
	"github.com/goamp/goamp/runtime"
)

// Example sums 16 numbers in tiles of 4 on the default accelerator: a GPU, lavapipe or
// the CPU, with the same output.
func Example() {
	acc, err := accelerator.Default()
	if err != nil {
		panic(err)
	}
	av, err := acc.DefaultView()
	if err != nil {
		panic(err)
	}
	in := make([]int32, 16)
	for i := range in {
		in[i] = int32(i + 1)
	}
	sums := make([]int32, 4)
	total := []int32{1000}
	inView := arrayview.MustNew(runtime.Ext(16), in)
	sumsView := arrayview.MustNew(runtime.Ext(4), sums)
	sumsView.DiscardData() // output only: nothing is uploaded
	totalView := arrayview.MustNew(runtime.Ext(1), total)
	k := tilesum.TileSum{In: inView.ReadOnly(), Sums: sumsView, Total: totalView}
	if err := runtime.ParallelForEachTiled(av, inView.Extent().Tile(4), k); err != nil {
		panic(err)
	}
	for _, v := range []interface{ Synchronize() error }{sumsView, totalView} {
		if err := v.Synchronize(); err != nil { // the results reach the Go slices
			panic(err)
		}
	}
	fmt.Println("tile sums:", sums)
	fmt.Println("total:", total[0])
	// Output:
	// tile sums: [10 26 42 58]
	// total: 1136
}
