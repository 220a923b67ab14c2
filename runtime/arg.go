package runtime

import (
	"reflect"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/device"
)

// Access is how a kernel uses one of its data arguments.
type Access int

// The accesses a kernel argument declares.
const (
	// Read: the kernel reads the argument.
	Read Access = 1 << iota
	// Write: the kernel writes the argument.
	Write
	// ReadWrite: the kernel reads and writes the argument.
	ReadWrite = Read | Write
)

// Arg is what a kernel's data field must provide so that ParallelForEach can run the kernel
// on any accelerator without knowing the arrayview package (which implements it). A kernel
// struct's fields that implement Arg are its data arguments; the n-th such field is bound to
// storage-buffer binding n of the kernel's GLSL body.
type Arg interface {
	// ArgInfo describes the argument: its rank, element size, the access it declares (Read
	// for read-only views, ReadWrite for writable ones) and, for data that lives on one
	// accelerator view (an arrayview.Array), that view.
	ArgInfo() ArgInfo
	// BindHost makes the argument's host memory hold the current data for a CPU dispatch
	// that uses it with access acc, and marks what the dispatch may write.
	BindHost(acc Access) error
	// BindDevice makes a buffer on view v hold the data for a dispatch with access acc:
	// it uploads only what is stale there and was not discarded, and marks what the
	// dispatch writes as modified on v.
	BindDevice(v *accelerator.View, acc Access) (Binding, error)
}

// ArgInfo describes one data argument of a kernel.
type ArgInfo struct {
	// Rank is the argument's rank (1, 2 or 3).
	Rank int
	// Extent is the argument's extent, which a kernel reads as k.V.Extent() (the runtime
	// passes it to a GPU body in its push constants), or the zero Extent where the
	// argument has none to give.
	Extent Extent
	// ElemSize is the size of an element in bytes.
	ElemSize int
	// Elem is the Go element type, or nil when the argument does not say. The dispatcher
	// compares it with the element type of the argument's storage buffer in the program
	// (see "The contract" in the package documentation); without it, only the size is
	// compared with the buffer's array stride.
	Elem reflect.Type
	// Access is how the kernel uses the argument: Read for read-only views, ReadWrite
	// for writable ones.
	Access Access
	// Home is the accelerator view the data lives on (arrays), or nil (views over host data).
	Home *accelerator.View
	// Float64 says the element type contains float64 values, which need device support.
	Float64 bool
	// Float16 says the element type contains half.Float16 values, which need 16-bit
	// storage on the device (accelerator.Accelerator.Supports16BitStorage).
	Float16 bool
	// Int8 says the element type contains int8 or uint8 values, which need 8-bit storage
	// on the device (accelerator.Accelerator.Supports8BitStorage).
	Int8 bool
	// Key identifies the argument in the *BoundsError its element accesses panic with on
	// the CPU (BoundsError.Key), so that the dispatcher names the field; nil where it has
	// none. It must be comparable.
	Key any
}

// DeviceCopier is implemented by data arguments that the strict CPU accelerator
// (accelerator.StrictCPU) can bind. That accelerator binds each argument with BindDevice,
// as a GPU does, then runs the kernel's Go body on a copy of the kernel struct whose field
// holds DeviceCopy's value instead of the argument: a value of the field's type whose
// elements are the buffer's bytes (b.Buffer.Bytes()), laid out as b says, so that the
// kernel reads and writes the device copy and never the Go slice.
type DeviceCopier interface {
	DeviceCopy(b Binding) any
}

// Binding is where a bound argument lives on the device and how a kernel addresses it:
// element i of a rank-3 view is at Base + i0*Strides[0] + i1*Strides[1] + i2 in the buffer
// range (rank 2: Base + i0*Strides[0] + i1; rank 1: Base + i0), counted in elements.
type Binding struct {
	// Buffer is the device memory that holds the data, allocated on the view by
	// goamp's own packages (arrayview), which alone can make one.
	Buffer device.Buffer
	// Offset and Range are the byte range of Buffer that the kernel binds.
	Offset  uint64
	Range   uint64
	Base    uint32
	Strides [2]uint32
}
