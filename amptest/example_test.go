package amptest_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/examples/tilesum"
	"github.com/goamp/goamp/runtime"
)

// testTileSum is a conformance test as a user writes one, in a _test.go file of the
// kernel's package, where it would be func TestTileSum(t *testing.T): it runs TileSum on
// every accelerator with the same random input and compares each result with the CPU's,
// then the CPU's with a Go loop.
func testTileSum(t *testing.T) {
	const tile, tiles = 64, 12
	r := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	in := make([]int32, tile*tiles)
	for i := range in {
		in[i] = r.Int32N(2001) - 1000
	}
	cpu := amptest.Compare(t, func(t testing.TB, av *accelerator.View) []int32 {
		sums, total := make([]int32, tiles), make([]int32, 1)
		inView := arrayview.MustNew(runtime.Ext(len(in)), in)
		sumsView := arrayview.MustNew(runtime.Ext(tiles), sums)
		totalView := arrayview.MustNew(runtime.Ext(1), total)
		k := tilesum.TileSum{In: inView.ReadOnly(), Sums: sumsView, Total: totalView}
		if err := runtime.ParallelForEachTiled(av, inView.Extent().Tile(tile), k); err != nil {
			t.Fatal(err)
		}
		for _, v := range []interface{ Close() error }{inView, sumsView, totalView} {
			if err := v.Close(); err != nil { // results reach the Go slices, device memory is freed
				t.Fatal(err)
			}
		}
		return append(sums, total[0])
	}, amptest.Equal)
	var want int32
	for _, v := range in {
		want += v
	}
	if cpu[tiles] != want {
		t.Errorf("CPU total %d, want %d", cpu[tiles], want)
	}
}

// Example is a user's conformance test (testTileSum, above) for a kernel of theirs.
// go test runs it there as TestTileSum; GOAMP_REQUIRE_VULKAN=1 makes it fail where no
// Vulkan device would take part, and GOAMP_VALIDATION=1 where the validation layer complains.
func Example() {
	// func TestTileSum(t *testing.T) { testTileSum(t) }
}
