package runtime_test

import (
	"fmt"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/examples/tilesum"
	"github.com/goamp/goamp/runtime"
)

// A server prepares its kernels at startup, so that its first request does not wait for
// the GPU driver to compile them. Prepare needs views of the right rank and element type,
// not the data: nothing is bound or moved.
func ExamplePrepareTiled() {
	in, sums, total := make([]int32, 8), make([]int32, 2), make([]int32, 1)
	inView := arrayview.MustNew(runtime.Ext(8), in)
	k := tilesum.TileSum{In: inView.ReadOnly(), Sums: arrayview.MustNew(runtime.Ext(2), sums),
		Total: arrayview.MustNew(runtime.Ext(1), total)}
	// A nil view, as for ParallelForEach: where the kernel's views live, else the default
	// accelerator's default view.
	if err := runtime.PrepareTiled(nil, runtime.Ext(8).Tile(4), k); err != nil {
		panic(err)
	}
	fmt.Println("ready")

	// Later, the first request: the pipeline is there.
	for i := range in {
		in[i] = int32(10 * i)
	}
	inView.Refresh() // the slice changed behind the view's back
	if err := runtime.ParallelForEachTiled(nil, runtime.Ext(8).Tile(4), k); err != nil {
		panic(err)
	}
	if err := k.Sums.Synchronize(); err != nil {
		panic(err)
	}
	fmt.Println(sums)
	// Output:
	// ready
	// [60 220]
}
