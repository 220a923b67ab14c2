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
// arrayview package implements Arg), int32, uint32, float32, int, uint, bool
// and 8- and 16-bit integer fields are scalars (one 32-bit word each on a GPU,
// where an int or uint that does not fit is a KernelError), as are float64
// fields, vec vectors, and arrays and structs of int32, uint32 and float32
// (their words as they lie in memory), fields tagged `amp:"-"` are ignored. A kernel that also implements
// GPUKernel has a GPU body, a Program of SPIR-V compiled from GLSL (package
// shaders), and runs on Vulkan accelerators; on the CPU accelerator the Go body
// runs on the goroutine executor. The accelerator view is the one passed, else
// the one the data lives on, else the default accelerator's (C++ AMP's rule).
// A dispatch goes the same four steps on every accelerator: bind (the kernel's
// fields, program, view and the view's executor), validate (the program's
// contract, the device's limits), encode (bind the data; on a GPU also the push
// constants and the pipeline) and submit; the accelerator's Traits choose the
// executor, the goroutine one or the Vulkan one. GPU dispatches are recorded,
// not waited for: the view submits when the host needs a result. The binding and push-constant convention between the Go
// kernel and its GLSL body is described in shaders/include/amp.glsl and
// checked as described below.
//
// # Several accelerators
//
// ParallelForEachOn and ParallelForEachTiledOn run one kernel over several accelerator
// views at once, as C++ AMP programs ran a parallel_for_each per accelerator: dimension 0
// of the domain is cut into contiguous blocks (whole tiles), in proportion to the
// throughput measured for the kernel type on each accelerator, and a function the caller
// gives returns each block's kernel over its sections of the data. The blocks run at
// once; the data's coherence brings the results to the host as for one view.
//
// # Programs
//
// A Program is a SPIR-V compute module. NewProgram (or MustProgram) makes one
// and reads its Interface at once; names are unique in a process (a name
// registered with other SPIR-V is a *ProgramError matching
// ErrDuplicateProgram). A Program written as a struct literal works too, its
// interface read on first use. Pipelines are cached by the module's sha256,
// never by name. ReadInterface reads a module's interface without a device or
// cgo: its storage buffers, push constants, workgroup size, specialization
// constants, capabilities and shared memory; a malformed module is a
// *SPIRVError (ErrInvalidSPIRV), never a crash.
//
// # The contract
//
// Before anything is bound or recorded, on every accelerator (the CPU too, so
// that every accelerator reports the same errors), ParallelForEach checks
// a kernel that has a Program against the program's interface. A mismatch is a
// *ContractError (ErrContract) that names the Go field and describes both
// sides; the check's tile-independent part is cached per kernel type and
// program, so that a dispatch stays allocation-free.
//
//   - Bindings: the n-th data field is storage-buffer binding n of descriptor
//     set 0. The module may lack a binding its body never uses (glslc -O
//     removes unused buffers) but may not have one past the last data field,
//     nor uniform buffers, images or samplers. Each variable bound there is a
//     block of one array, T name[] (AMP_BUFFER); several may alias one binding.
//     A bounds-checked build (Program.Checked) has one more, binding n after
//     the n data fields: the check buffer the dispatcher fills and reads.
//   - Elements: a variable of the binding holds the Go elements: its array
//     stride is the Go element's size and its element type has the same
//     scalars at the same offsets (int32 int, uint32 uint, float32 float,
//     float64 double, arrays and structs alike; blank fields are padding, as in
//     vec.Float3, which matches a vec3), or its elements are K-vectors
//     (or K-arrays) of such components with a stride of K elements ("vec4 x4[]"
//     over float32 data). GLSL uints accept any Go element of their size as raw
//     bits. So a [3]float32 view against a vec3 buffer (stride 16) is an error.
//   - Access: a read-only argument (arrayview.ReadView) must be bound to a
//     binding whose every variable is readonly (NonWritable), which catches view
//     fields in the wrong order. A writable argument whose buffer the body never
//     writes is bound for reading: it is never marked modified nor copied back.
//   - Push constants: when the module declares a push-constant block, it is
//     the uvec4 domain at offset 0, one 16-byte AmpView per data field at 16 +
//     16k, then one member per scalar field, in field order, from 16 + 16n,
//     of the field's type (int32, int, int8 and int16 int; uint32, uint, uint8,
//     uint16 and bool uint; float32 float; float64 double; a vec field the
//     vector; an array or struct field a member with the same 32-bit values at
//     the same places), each at the next offset std430 aligns its type to (a
//     vec2 and a double to 8 bytes, a vec3 and a vec4 to 16, the others to 4),
//     and, where
//     the body reads its views' extents, a uint array of two words per data
//     field for the first m fields (dimensions 1 and 2 of each; an AmpView's
//     fourth word is dimension 0, ArgInfo.Extent), and nothing else. A missing
//     or extra scalar, or two swapped, is an error. With the array the block
//     may pass 128 bytes up to the device's maxPushConstantsSize.
//   - Workgroup size: specialization constants 0, 1, 2 (amp.glsl), which the
//     dispatcher sets to the tile (Vulkan x is the last C++ dimension) or to
//     (GroupSize, 1, 1) (the device's limit where smaller), or a fixed local size,
//     which must then equal them: a body written for 16x16 tiles cannot be
//     dispatched with 8x8 ones. A non-tiled body with a fixed local size (x, 1, 1)
//     is dispatched with workgroups of x.
//   - AMP_GRID_LOOP: a non-tiled module that declares specialization constant 4
//     says that its main loops over the domain's points with a grid stride
//     (gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x), as every
//     body ampgen writes does; its dispatches then launch at most MaxLoopGroups
//     workgroups. A module without it gets one thread per point.
//   - AMP_RANKS: when the module declares specialization constant 3, it is set
//     to the domain's rank in bits 0-1 and data field k's rank in bits 2+2k and
//     3+2k (0 otherwise), so that a body can specialize its index arithmetic.
//   - Index ranks: a program that ampgen made records, per view field, the
//     ranks of the indices its body indexes the view with that ampgen can tell
//     (the thread's index, of the domain's rank; runtime.Idx(a, b), of rank 2).
//     One of higher rank than the view's is an *IndexRankError (ErrContract):
//     its components past the view's rank are not 0, outside the view.
//   - Shared memory: the bytes of the module's shared variables for the
//     dispatch's specialization values (array lengths may be expressions of
//     them), or a SharedMemoryKernel's SharedBytes if larger, must fit the
//     device's maxComputeSharedMemorySize, else *ComputeDomainError.
//   - Capabilities: a module that declares Float64 on a device without double
//     precision is an *accelerator.FeatureError.
//
// A module that cannot be read is a *KernelError that unwraps to its
// *SPIRVError.
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
