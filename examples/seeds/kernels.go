package seeds

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

//go:generate go run github.com/goamp/goamp/cmd/ampgen

// The seed samples' kernels, single source. Each is a function object: its fields are its
// captures (views bound in order as storage buffers, int32 scalars as push constants). Its
// Each or Tiled method is the kernel: it runs as it is on the CPU accelerator, and ampgen
// translates it to GLSL and SPIR-V for Vulkan devices (amp_gen.go, written by go generate).

// TileAverage averages each 2x2 tile of Sample into Average (seed 000).
type TileAverage struct {
	Sample  *arrayview.ReadView[int32]
	Average *arrayview.View[int32]
}

// Tiled is the kernel.
func (k TileAverage) Tiled(t runtime.TiledIndex) {
	nums := runtime.TileStatic[int32](t, 4) // tile_static int nums[2][2]
	nums[t.Local[1]*2+t.Local[0]] = k.Sample.At(t.Global)
	t.Barrier.Wait()
	sum := nums[0] + nums[1] + nums[2] + nums[3]
	k.Average.Set(t.Global, sum/4)
}

// Description is the seed's record of one thread's indices (seed 004): seven int32 fields,
// laid out as std430 structs on the GPU.
type Description struct {
	Value, TileRow, TileColumn, GlobalRow, GlobalColumn, LocalRow, LocalColumn int32
}

// TilingDescription records each thread's tile, global and local index (seed 004).
type TilingDescription struct {
	Descriptions *arrayview.View[Description]
}

// Tiled is the kernel.
func (k TilingDescription) Tiled(t runtime.TiledIndex) {
	d := k.Descriptions.At(t.Global)
	d.GlobalRow, d.GlobalColumn = int32(t.Global[0]), int32(t.Global[1])
	d.TileRow, d.TileColumn = int32(t.Tile[0]), int32(t.Tile[1])
	d.LocalRow, d.LocalColumn = int32(t.Local[0]), int32(t.Local[1])
	k.Descriptions.Set(t.Global, d)
}

// SamplingAverage averages each tile of Matrix into one element of Averages (seed 004).
// Fence 0 waits with tile_barrier::wait, 1 with wait_with_tile_static_memory_fence. Its
// tile_static memory is sized by the tile: one float32 per thread.
type SamplingAverage struct {
	Matrix   *arrayview.ReadView[float32]
	Averages *arrayview.Array[float32]
	Fence    int32
}

// Tiled is the kernel.
func (k SamplingAverage) Tiled(t runtime.TiledIndex) {
	rows, cols := t.TileExtent.Dim(0), t.TileExtent.Dim(1)
	tileValues := runtime.TileStatic[float32](t, rows*cols)
	tileValues[t.Local[0]*cols+t.Local[1]] = k.Matrix.At(t.Global)
	if k.Fence == 1 {
		t.Barrier.WaitWithTileStaticMemoryFence()
	} else {
		t.Barrier.Wait()
	}
	if t.Local[0] == 0 && t.Local[1] == 0 {
		at := runtime.Idx(t.Tile[0], t.Tile[1])
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				k.Averages.Set(at, k.Averages.At(at)+tileValues[r*cols+c])
			}
		}
		k.Averages.Set(at, k.Averages.At(at)/float32(rows*cols))
	}
}

// ReduceRowPair is ReduceRow's first pass (seed 003): Temp[i] = Matrix(Row, i) +
// Matrix(Row, i + NumCols/2).
type ReduceRowPair struct {
	Matrix  *arrayview.ReadView[float32]
	Temp    *arrayview.View[float32]
	Row     int32
	NumCols int32
}

// Each is the kernel.
func (k ReduceRowPair) Each(idx runtime.Index) {
	a := k.Matrix.At(runtime.Idx(int(k.Row), idx[0]))
	b := k.Matrix.At(runtime.Idx(int(k.Row), idx[0]+int(k.NumCols)/2))
	k.Temp.Set(idx, a+b)
}

// ReduceRowStride is ReduceRow's later passes: Temp[i] += Temp[i + Stride] for i < Stride.
type ReduceRowStride struct {
	Temp   *arrayview.View[float32]
	Stride int32
}

// Each is the kernel.
func (k ReduceRowStride) Each(idx runtime.Index) {
	k.Temp.Set(idx, k.Temp.At(idx)+k.Temp.At(runtime.Idx(idx[0]+int(k.Stride))))
}
