package arrayview_test

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/examples/seeds"
	"github.com/goamp/goamp/runtime"
)

// Example runs the seed's tile-average kernel (package examples/seeds: a Go struct and its
// Tiled body, translated for the GPU by ampgen) on the default accelerator (a GPU,
// lavapipe or the CPU: the output is the same).
func Example() {
	sampledata := []int32{
		2, 2, 9, 7, 1, 4,
		4, 4, 8, 8, 3, 4,
		1, 5, 1, 2, 5, 2,
		6, 8, 3, 2, 7, 2}
	averagedata := make([]int32, 24)
	sample := arrayview.MustNew(runtime.Ext(4, 6), sampledata)
	average := arrayview.MustNew(runtime.Ext(4, 6), averagedata)
	average.DiscardData() // output only: nothing is uploaded
	k := seeds.TileAverage{Sample: sample.ReadOnly(), Average: average}
	// A nil view: the kernel runs where its views live, else on the default accelerator.
	if err := runtime.ParallelForEachTiled(nil, sample.Extent().Tile(2, 2), k); err != nil {
		panic(err)
	}
	if err := average.Synchronize(); err != nil { // the results reach averagedata
		panic(err)
	}
	for r := 0; r < 4; r++ {
		fmt.Println(averagedata[r*6 : r*6+6])
	}
	// Output:
	// [3 3 8 8 3 3]
	// [3 3 8 8 3 3]
	// [5 5 2 2 4 4]
	// [5 5 2 2 4 4]
}

// ExampleView_DiscardData shows guideline A of C++ AMP's discard_data: an output view
// discarded before the kernel writes it uploads nothing, on every accelerator.
func ExampleView_DiscardData() {
	for _, a := range accelerator.All() {
		av, err := a.CreateView(accelerator.Automatic)
		if err != nil {
			panic(err)
		}
		out := arrayview.MustNew(runtime.Ext(1024), make([]int32, 1024))
		out.DiscardData()
		before := av.Stats().BytesUp
		if err := runtime.ParallelForEach(av, out.Extent(), iota{Out: out, Scale: 3}); err != nil {
			panic(err)
		}
		if got := out.At(runtime.Idx(1000)); got != 3000 || av.Stats().BytesUp != before {
			fmt.Println(a.Path(), "uploaded", av.Stats().BytesUp-before, "bytes; element 1000 =", got)
		}
		_ = out.Close()
		_ = av.Close()
	}
	fmt.Println("no accelerator uploaded the discarded output")
	// Output:
	// no accelerator uploaded the discarded output
}

// ExampleNewDeviceArray keeps an intermediate result on the accelerator view: in -> tmp ->
// out, with one upload (in) and one download (out), on the strict CPU accelerator, which
// moves data as a discrete GPU does.
func ExampleNewDeviceArray() {
	av, err := accelerator.StrictCPU().CreateView(accelerator.Automatic)
	if err != nil {
		panic(err)
	}
	defer av.Close()
	in := arrayview.MustNew(runtime.Ext(4), []int32{1, 2, 3, 4})
	defer in.Close()
	tmp, err := arrayview.NewDeviceArray[int32](av, runtime.Ext(4))
	if err != nil {
		panic(err)
	}
	defer tmp.Close()
	out := make([]int32, 4)
	vo := arrayview.MustNew(runtime.Ext(4), out)
	vo.DiscardData() // every element is written
	if err := runtime.ParallelForEach(av, runtime.Ext(4), fzScale{Src: in.ReadOnly(), Dst: tmp.View, K: 10}); err != nil {
		panic(err)
	}
	if err := runtime.ParallelForEach(av, runtime.Ext(4), fzScale{Src: tmp.ReadOnly(), Dst: vo, K: 2}); err != nil {
		panic(err)
	}
	if err := vo.Close(); err != nil {
		panic(err)
	}
	s := av.Stats()
	fmt.Println(out, s.TransfersUp, s.TransfersDown)
	// Output: [20 40 60 80] 1 1
}
