// Package device is the hardware layer of an accelerator view: device buffers, compute
// pipelines and their dispatch, with what goamp's packages need to run kernels on a view
// (host work, the view's close hooks). Package accelerator implements it and installs
// the implementation when it is loaded; runtime, arrayview, algo and the window reach a
// view's hardware through Of. Programs never see it: they use array views and kernels.
package device

// Access is how a dispatch uses a buffer.
type Access int

// Buffer accesses.
const (
	// Read: the kernel reads the buffer.
	Read Access = 1 << iota
	// Write: the kernel writes the buffer.
	Write
	// ReadWrite: the kernel reads and writes the buffer.
	ReadWrite = Read | Write
)

// PipelineKey identifies a compiled pipeline on one device: the module's content (its
// sha256, so that two programs with one name never share a pipeline) and the
// specialization constants (tile sizes, ranks) it was built with.
type PipelineKey struct {
	// Module is the sha256 of the SPIR-V module.
	Module [32]byte
	// Spec are the values of specialization constants 0 to 3: the tile's x, y and z sizes,
	// then amp.glsl's AMP_RANKS.
	Spec [4]uint32
}

// Pipeline is a compute pipeline on one accelerator.
type Pipeline interface {
	// Bindings is the number of storage buffers the pipeline binds.
	Bindings() int
}

// Buffer is device memory owned by one view. It is mapped for direct host access on
// devices with unified memory; otherwise data moves through the view's staging buffers.
type Buffer interface {
	// Size is the buffer's size in bytes.
	Size() uint64
	// Bytes is the memory of a buffer of the strict CPU accelerator, which its kernels
	// read and write; nil for a Vulkan buffer and after Free.
	Bytes() []byte
	// HostMapped reports whether the host reads and writes the buffer through a mapping
	// (unified memory) rather than through staging copies.
	HostMapped() bool
	// Upload copies src into the buffer at byte offset off. It returns once src may be
	// reused.
	Upload(off uint64, src []byte) error
	// Download copies the buffer's bytes at offset off into dst, after the commands that
	// write them have run.
	Download(off uint64, dst []byte) error
	// Free releases the buffer once the device no longer uses it.
	Free() error
}

// Arg is one storage-buffer binding of a dispatch: a byte range of a buffer and how the
// kernel uses it.
type Arg struct {
	// Buffer is the buffer bound; it must live on the dispatching view.
	Buffer Buffer
	// Offset is where the binding starts in the buffer, in bytes (a multiple of
	// Limits.MinStorageBufferAlign).
	Offset uint64
	// Range is the binding's length in bytes.
	Range uint64
	// Access says whether the kernel reads the range, writes it, or both; it decides which
	// later dispatches and copies wait for this one.
	Access Access
}

// View is the hardware side of an accelerator view. Its methods are safe for concurrent
// use.
type View interface {
	// Alloc allocates a device buffer of size bytes on the view. More than the device's
	// maxMemoryAllocationSize is an *accelerator.AllocError, matching
	// accelerator.ErrOutOfMemory, before anything is asked of the driver; a driver that
	// runs out of memory gives an *accelerator.DeviceError, matching it too.
	Alloc(size uint64) (Buffer, error)
	// Pipeline returns the pipeline of the view's accelerator for key, building it from
	// SPIR-V on first use; name is the program's, for messages. key.Module must be the
	// sha256 of spirv. Pipelines live as long as the accelerator.
	Pipeline(key PipelineKey, name string, spirv []byte, bindings, pushSize int) (Pipeline, error)
	// Dispatch records a dispatch of groups workgroups of pipeline p with the given
	// buffer bindings and push constants. A barrier precedes it only when it reads what
	// an earlier command of the view wrote or writes what an earlier one used. Automatic
	// views submit when the batch is large; immediate views submit at once.
	Dispatch(p Pipeline, args []Arg, push []byte, groups [3]uint32) error
	// CountDispatch counts a kernel run on the host for this view in its Stats'
	// Dispatches (a Vulkan view counts its own in Dispatch).
	CountDispatch()
	// StartHostWork registers a dispatch that runs on the host over the view's buffers
	// (the strict CPU accelerator's), so that Close waits for it before it brings the
	// view's data home: call done when it has run. It returns an error matching
	// accelerator.ErrViewClosed, and registers nothing, once Close has begun.
	StartHostWork() (done func(), err error)
	// CheckOpen returns an error matching accelerator.ErrViewClosed if the view is
	// closed. Work that runs on the host for a CPU view (runtime's ParallelForEach,
	// NewArray) checks it first, as a Vulkan view refuses work once closed.
	CheckOpen() error
	// AtClose registers f to run when the view is closed, before it stops taking work,
	// so that caches of device data kept per view (the built-in kernels' scratch memory,
	// the array views' device copies, which bring what a kernel computed home) can save
	// and free it. The function it returns unregisters f, for a cache that frees its
	// memory before the view closes; it may be called more than once.
	AtClose(f func()) (cancel func())
	// AtCloseOpen is AtClose for a cache that is about to keep data on the view: where
	// the view is closing or closed, so that f might never run, it registers nothing and
	// returns the error (accelerator.ErrViewClosed) instead.
	AtCloseOpen(f func()) (cancel func(), err error)
}

// of is the function Set installed.
var of func(view any) View

// Set installs f as what Of calls; package accelerator calls it in its init, so that
// every package that can name a view finds it set.
func Set(f func(view any) View) { of = f }

// Of returns the hardware side of view, an *accelerator.View: the view itself, as
// another type.
func Of(view any) View { return of(view) }
