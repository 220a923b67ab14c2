package arrayview_test

import (
	"context"
	"fmt"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Histogram counts its values by remainder mod 4: every thread adds 1 to a shared bin.
type Histogram struct {
	Values *arrayview.ReadView[int32]
	Bins   *arrayview.View[int32]
}

// Each is the kernel's CPU body: threads on many goroutines hit the same bins at once,
// which AtomicAdd makes safe.
func (k Histogram) Each(i runtime.Index) {
	k.Bins.AtomicAdd(runtime.Idx(int(k.Values.At(i)%4)), 1)
}

func ExampleView_AtomicAdd() {
	values := make([]int32, 10000)
	for i := range values {
		values[i] = int32(i * i) // squares are 0 or 1 mod 4
	}
	in := arrayview.MustNew(runtime.Ext(len(values)), values)
	bins := arrayview.MustNew(runtime.Ext(4), make([]int32, 4))
	k := Histogram{Values: in.ReadOnly(), Bins: bins}
	if err := runtime.RunCPU(context.Background(), in.Extent(), k); err != nil {
		panic(err)
	}
	fmt.Println(bins.At(runtime.Idx(0)), bins.At(runtime.Idx(1)), bins.At(runtime.Idx(2)), bins.At(runtime.Idx(3)))
	// Output: 5000 5000 0 0
}

// AtomicCompareExchange returns what the element held: the old value when it stored the
// new one, the value that stopped it otherwise.
func ExampleView_AtomicCompareExchange() {
	v := arrayview.MustNew(runtime.Ext(1), []int32{5})
	fmt.Println(v.AtomicCompareExchange(runtime.Idx(0), 5, 8), v.At(runtime.Idx(0)))
	fmt.Println(v.AtomicCompareExchange(runtime.Idx(0), 5, 9), v.At(runtime.Idx(0)))
	// Output:
	// 5 8
	// 8 8
}
