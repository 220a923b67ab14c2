// Package algo is goamp's algorithm library: built-in kernels that run on every
// accelerator, each with a GPU body on Vulkan devices and, on the CPU, its Go body (the
// per-thread definition, and a faster RangeKernel or TileKernel body):
//
//	Add, Saxpy, Fill                      elementwise, rank 1
//	Transpose                             rank 2, a padded shared-memory tile
//	Reduce (Sum, Min, Max)                int32, uint32, float32, any length
//	InclusiveScan, ExclusiveScan          any length
//	Histogram                             float32, like torch.histc
//	Sort, SortWith                        int32, uint32, float32, any length, either order;
//	                                      rank 2: each row (torch.sort(dim=-1))
//	SortPairs, Argsort                    stable key-value sort and permutation, likewise
//	MatMul, MatMulSimple, MatMulWith      float32 and int32, any M, N, K
//	MatMulF16, MatMulF16With              half.Float16 in, float32 accumulation, float32 or
//	                                      float16 out: tensor cores (cooperative matrices)
//	                                      where the device has them, else MatMul's kernel
//	MatMulI8, MatMulI8With                int8 in, exact int32 sums and out: tensor cores
//	                                      where the device has int8 cooperative matrices
//	Convolve2D                            separable, clamp-to-edge borders
//	MatMulOn, ReduceOn, SortOn            the same over several accelerators at once
//
// Most GPU bodies are single source: ampgen generates them from the kernels' Go bodies
// (go generate writes amp_gen.go, committed, so that programs need no shader compiler).
// The rest is hand-written GLSL that the kernel language cannot express (subgroup
// operations, spin-waiting look-back, register blocking, bit-level sort keys of any
// element type, cooperative matrices): those programs live in package shaders, which this package loads by name
// (shaders.MustProgram).
//
// Bad shapes return a *ShapeError (errors.Is(err, ErrShape)) that names them; the data
// is left as it was. Outputs are written as C++ AMP's guideline A advises: discarded
// first, so nothing is uploaded for them. Temporary device data (partial results, block
// sums, sort temporaries, the convolution's intermediate image) is scratch memory kept per
// accelerator view and freed when the view is closed. cmd/ampbench measures every kernel.
//
// # Views larger than one binding
//
// A device binds at most maxStorageBufferRange bytes of a view to a kernel (128 MiB on
// lavapipe, 4 GiB on an H100), and one device allocation at most maxMemoryAllocationSize
// (arrayview cuts a larger copy into chunks). Add, Saxpy, Fill, Reduce, the scans and Sort
// take longer rank-1 views (up to 2^31 elements): they split them into windows of sections
// that each bind (cut where a chunk ends: arrayview.View.BindEnd), and combine the windows'
// results (window.go; Sort merges its sorted windows, sortwin.go). The other kernels, and
// kernels of the kernel language, get an *arrayview.TooLargeError or
// *arrayview.AllocationSpanError for such a view: split their work into sections.
//
// # Several accelerators
//
// MatMulOn, ReduceOn and SortOn run over several accelerator views at once: MatMul by
// blocks of c's rows, Reduce by partial results, Sort by sorting a block on each view and
// merging the sorted runs on the fastest. Blocks follow each accelerator's measured
// throughput, as runtime.ParallelForEachOn's do.
//
// # Imports
//
// algo sits above the core: it may import accelerator, arrayview, runtime, shaders (the
// hand-written programs), fmath, vec and half, internal/device and internal/rtlink (a
// view's hardware and the dispatcher's helpers, which programs do not see), and
// internal/asm/gemm (the CPU matrix multiply's AVX2 micro-kernels, with a portable
// fallback), never internal/vk (only accelerator uses it) nor translate (kernels are
// translated by go generate, not at run time).
// Nothing in goamp's core imports algo; programs (cmd/ampbench) and users do.
package algo

//go:generate go run github.com/goamp/goamp/cmd/ampgen
