package algo_test

import (
	"fmt"

	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Sum, Min and Max of a vector on the default accelerator, and of a section of it.
func ExampleReduce() {
	data := []float32{3, -1.5, 8, 0.25, 2, 7}
	v := arrayview.MustNew(runtime.Ext(len(data)), data)
	for _, op := range []algo.Op{algo.Sum, algo.Min, algo.Max} {
		x, err := algo.Reduce(nil, v, op)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(op, x)
	}
	tail, _ := v.Section(runtime.Idx(2), runtime.Ext(4)) // 8, 0.25, 2, 7
	x, err := algo.Reduce(nil, tail, algo.Min)
	fmt.Println("Min of the last four:", x, err)
	// Output:
	// Sum 18.75
	// Min -1.5
	// Max 8
	// Min of the last four: 0.25 <nil>
}

// Running sums, in place.
func ExampleInclusiveScan() {
	data := []int32{1, 2, 3, 4, 5}
	v := arrayview.MustNew(runtime.Ext(len(data)), data)
	if err := algo.InclusiveScan(nil, v, v); err != nil {
		fmt.Println(err)
		return
	}
	if err := v.Synchronize(); err != nil { // wait for the device and copy back
		fmt.Println(err)
		return
	}
	fmt.Println(data)
	// Output: [1 3 6 10 15]
}

// The offsets of variable-length records from their lengths.
func ExampleExclusiveScan() {
	lengths := []uint32{3, 0, 2, 5}
	offsets := make([]uint32, len(lengths))
	out := arrayview.MustNew(runtime.Ext(len(offsets)), offsets)
	out.DiscardData() // output only: nothing to upload
	if err := algo.ExclusiveScan(nil, arrayview.MustNew(runtime.Ext(len(lengths)), lengths), out); err != nil {
		fmt.Println(err)
		return
	}
	if err := out.Synchronize(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(offsets)
	// Output: [0 3 3 5]
}

// Four bins over [0, 2], like torch.histc(x, bins=4, min=0, max=2): 2 falls in the last
// bin, -1 and 5 are outside.
func ExampleHistogram() {
	data := []float32{0, 0.1, 0.6, 0.75, 1.2, 2, -1, 5}
	counts, err := algo.Histogram(nil, arrayview.MustNew(runtime.Ext(len(data)), data), 4, 0, 2)
	fmt.Println(counts, err)
	// Output: [2 2 1 1] <nil>
}
