package accelerator_test

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// double writes Out = 2 * In.
type double struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[float32]
}

func (k double) Each(i runtime.Index) { k.Out.Set(i, 2*k.In.At(i)) }

// ExampleStrictCPU reads a kernel's result from the Go slice before Synchronize: the CPU
// accelerator, whose kernels write the slice itself, forgives it; the strict one, like a
// GPU, does not.
func ExampleStrictCPU() {
	for _, acc := range []*accelerator.Accelerator{accelerator.CPU(), accelerator.StrictCPU()} {
		av, err := acc.CreateView(accelerator.Automatic)
		if err != nil {
			panic(err)
		}
		in, out := []float32{1, 2, 3}, make([]float32, 3)
		vi, vo := arrayview.MustNew(runtime.Ext(3), in), arrayview.MustNew(runtime.Ext(3), out)
		if err := runtime.ParallelForEach(av, runtime.Ext(3), double{vi.ReadOnly(), vo}); err != nil {
			panic(err)
		}
		fmt.Println(acc.Path(), "before Synchronize:", out)
		if err := vo.Synchronize(); err != nil {
			panic(err)
		}
		fmt.Println(acc.Path(), "after Synchronize: ", out)
		for _, err := range []error{vi.Close(), vo.Close(), av.Close()} {
			if err != nil {
				panic(err)
			}
		}
	}
	// Output:
	// cpu before Synchronize: [2 4 6]
	// cpu after Synchronize:  [2 4 6]
	// cpu:strict before Synchronize: [0 0 0]
	// cpu:strict after Synchronize:  [2 4 6]
}
