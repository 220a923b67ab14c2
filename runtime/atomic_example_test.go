package runtime_test

import (
	"context"
	"fmt"

	amprt "github.com/goamp/goamp/runtime"
)

// PositivesPerTile counts the positive values of each tile of In in tile_static memory.
type PositivesPerTile struct {
	In     []float32
	Counts []int32 // one per tile
}

// Tiled is the kernel's CPU body: the threads of a tile add to one tile_static counter
// at once, then the first thread stores the tile's count.
func (k PositivesPerTile) Tiled(t amprt.TiledIndex) {
	n := amprt.TileStatic[int32](t, 1) // tile_static int n
	if k.In[t.Global[0]] > 0 {
		amprt.AtomicAdd(n, 0, 1)
	}
	t.Barrier.Wait()
	if t.Local[0] == 0 {
		k.Counts[t.Tile[0]] = n[0]
	}
}

func ExampleAtomicAdd() {
	in := make([]float32, 3*64)
	for i := range in {
		in[i] = float32(i%3 - 1) // -1, 0, 1, -1, ...
	}
	k := PositivesPerTile{In: in, Counts: make([]int32, 3)}
	if err := amprt.RunTiledCPU(context.Background(), amprt.Ext(len(in)).Tile(64), k); err != nil {
		panic(err)
	}
	fmt.Println(k.Counts)
	// Output: [21 21 22]
}
