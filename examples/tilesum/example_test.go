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
	// A nil view: the kernel runs where its views live, else on the default accelerator.
	if err := runtime.ParallelForEachTiled(nil, inView.Extent().Tile(4), k); err != nil {
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

// ExampleTileSum_on sums 4096 numbers in tiles of 64 on every accelerator at once: each
// block of tiles runs on its own accelerator view (on its sections of the data), with
// the same output as on one.
func ExampleTileSum_on() {
	var avs []*accelerator.View
	for _, a := range accelerator.All() {
		av, err := a.CreateView(accelerator.Automatic)
		if err != nil {
			panic(err)
		}
		defer av.Close()
		avs = append(avs, av)
	}
	in := make([]int32, 4096)
	for i := range in {
		in[i] = int32(i % 7)
	}
	sums, totals := make([]int32, 64), make([]int32, len(avs))
	inView := arrayview.MustNew(runtime.Ext(len(in)), in)
	sumsView := arrayview.MustNew(runtime.Ext(len(sums)), sums)
	totalsView := arrayview.MustNew(runtime.Ext(len(totals)), totals)
	err := runtime.ParallelForEachTiledOn(avs, inView.Extent().Tile(64), func(b runtime.Block) (tilesum.TileSum, error) {
		in, err := inView.Section(runtime.Idx(b.Lo), runtime.Ext(b.Rows()))
		if err != nil {
			return tilesum.TileSum{}, err
		}
		s, err := sumsView.Section(runtime.Idx(b.Lo/64), runtime.Ext(b.Rows()/64))
		if err != nil {
			return tilesum.TileSum{}, err
		}
		total, err := totalsView.Section(runtime.Idx(b.Index), runtime.Ext(1)) // one per block
		return tilesum.TileSum{In: in.ReadOnly(), Sums: s, Total: total}, err
	})
	if err != nil {
		panic(err)
	}
	for _, v := range []interface{ Close() error }{inView, sumsView, totalsView} {
		if err := v.Close(); err != nil { // the results reach the Go slices
			panic(err)
		}
	}
	var total int32
	for _, t := range totals {
		total += t
	}
	fmt.Println(sums[:3], sums[63], total)
	// Output:
	// [189 190 191] 189 12285
}
