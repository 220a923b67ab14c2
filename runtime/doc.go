// Package runtime is the core of goamp, C++ AMP's programming model for Go:
// the index space, the kernel interfaces and the goroutine executor that
// runs kernels on the CPU when no GPU (Vulkan compute) is available.
//
// # Index space
//
// An Extent is the shape of a compute domain of rank 1, 2 or 3 (C++ AMP's
// extent<N>), and an Index a point in it (index<N>). Both are row-major:
// dimension 0 varies slowest and the last dimension fastest. Extent.Tile
// splits an extent into tiles, giving a TiledExtent (tiled_extent<D0, D1,
// D2>) whose Validate method enforces C++ AMP's tiling rules: at most
// MaxTileThreads threads per tile, dimension 0 of a rank-3 tile at most
// MaxTileD0Rank3, and an extent divisible by the tile (see Pad and
// Truncate otherwise).
//
// # Kernels
//
// A kernel's CPU body is an IndexKernel (called once per index) or a
// TiledKernel (called once per thread of every tile, with a TiledIndex).
// The threads of a tile share TileStatic storage (tile_static) and meet at
// their tile's Barrier (tile_barrier); AllMemoryFence, GlobalMemoryFence and
// TileStaticMemoryFence are the fences without a barrier.
//
// # ParallelForEach
//
// ParallelForEach and ParallelForEachTiled are C++ AMP's parallel_for_each
// over an Extent and a TiledExtent. They are two functions rather than one
// taking "any domain", so that the compiler checks that a kernel has the Go
// body the domain needs (IndexKernel or TiledKernel). A kernel is a struct
// whose fields are its captures: fields implementing Arg are its data (the
// arrayview package implements Arg), int32, uint32 and float32 fields are
// scalars, fields tagged `amp:"-"` are ignored. A kernel that also implements
// GPUKernel has a GPU body, a Program of SPIR-V compiled from GLSL (package
// shaders), and runs on Vulkan accelerators; on the CPU accelerator the Go body
// runs on the goroutine executor. The accelerator view is the one passed, else
// the one the data lives on, else the default accelerator's (C++ AMP's rule).
// GPU dispatches are recorded, not waited for: the view submits when the host
// needs a result. The binding and push-constant convention between the Go
// kernel and its GLSL body is described in package shaders and in
// shaders/include/amp.glsl.
//
// # Goroutine executor
//
// RunCPU splits an index space into contiguous chunks over GOMAXPROCS
// workers. RunTiledCPU hands whole tiles to the workers and runs the threads
// of a tile as goroutines, so that barriers behave as on the GPU. Both stop
// on context cancellation, recover kernel panics into a *KernelPanicError,
// and RunTiledCPU reports threads that miss a barrier as
// ErrBarrierDivergence instead of deadlocking.
//
// # Import name
//
// The package name shadows the standard library's runtime package. Code
// that needs both imports this one under another name, as the examples do:
//
//	import amprt "github.com/goamp/goamp/runtime"
package runtime
