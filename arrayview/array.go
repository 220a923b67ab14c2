package arrayview

import (
	"fmt"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/runtime"
)

// Array is a C++ AMP array: data owned by one accelerator view. Kernels that capture it run
// on that view (ParallelForEach picks it when no view is given, and refuses a different
// one). The host reaches its data through CopyTo, Synchronize or element access; the
// embedded View is a view of the whole array.
type Array[T any] struct {
	*View[T]
	av *accelerator.View
}

// NewArray creates an array of extent ext on view av. With data non-nil, its elements
// (row-major, exactly ext.Size() of them) are copied into the array and uploaded now;
// with data nil the array starts zeroed (uploaded: NewDeviceArray makes one that is not).
// Its host copy is its own, which At, CopyTo and the like bring up to date; Close copies
// nothing back. A nil av is an *ArgumentError, a closed one an error matching
// accelerator.ErrViewClosed.
func NewArray[T any](av *accelerator.View, ext runtime.Extent, data []T) (*Array[T], error) {
	info, err := checkArray[T](av, ext, "NewArray")
	if err != nil {
		return nil, err
	}
	if data != nil && len(data) != ext.Size() {
		return nil, &LengthError{Extent: ext, Len: len(data)}
	}
	own := make([]T, ext.Size())
	copy(own, data)
	return newArray(av, ext, info, own)
}

// checkArray checks what NewArray and NewDeviceArray (func) are given: an element type,
// extent and open view that suit each other.
func checkArray[T any](av *accelerator.View, ext runtime.Extent, fn string) (elemInfo, error) {
	info := checkElem[T]()
	if info.err != nil {
		return info, info.err
	}
	if err := ext.Validate(); err != nil {
		return info, err
	}
	if av == nil {
		return info, &ArgumentError{Func: fn, Reason: "the accelerator view is nil"}
	}
	if err := device.Of(av).CheckOpen(); err != nil {
		return info, fmt.Errorf("goamp/arrayview: %s: %w", fn, err)
	}
	acc := av.Accelerator()
	if info.float64 && !acc.SupportsDoublePrecision() {
		return info, &accelerator.FeatureError{Accelerator: acc.Path(), Feature: "double precision"}
	}
	if info.float16 && !acc.Supports16BitStorage() {
		return info, &accelerator.FeatureError{Accelerator: acc.Path(), Feature: "16-bit storage (half.Float16 elements)"}
	}
	if info.int8 && !acc.Supports8BitStorage() {
		return info, &accelerator.FeatureError{Accelerator: acc.Path(), Feature: "8-bit storage (int8 or uint8 elements)"}
	}
	return info, nil
}

// newArray makes the array over own, its host copy, and uploads it to av.
func newArray[T any](av *accelerator.View, ext runtime.Extent, info elemInfo, own []T) (*Array[T], error) {
	src := &source{host: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(own))), len(own)*info.size),
		esize: info.size, n: len(own), typ: info.typ, home: av}
	src.state = newSegments(src.n, hostBit)
	a := &Array[T]{View: newView(own, src, rowMajor(ext), info), av: av}
	if !av.Accelerator().Traits().HostMemory { // else own is the array's storage already
		src.mu.Lock()
		err := src.acquire(av, runtime.Read, a.fp)
		src.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	return a, nil
}

// DeviceCopy returns the array over View.DeviceCopy's view (runtime.DeviceCopier).
func (a *Array[T]) DeviceCopy(b runtime.Binding) any {
	return &Array[T]{View: a.View.deviceCopy(b), av: a.av}
}

// NewDeviceArray creates an array of extent ext on view av whose data lives there only:
// no host copy is made, nothing is uploaded when it is created, and nothing is copied
// back when it is closed, which suits an intermediate result that kernels write and read.
// Its elements are undefined until a kernel or CopyFrom writes them (poison on the strict
// CPU accelerator, what the device's memory held on a GPU; on the CPU accelerator, whose
// device memory is host memory, zeros). The host reaches them with CopyTo, CopyFrom and
// Copy, which move them straight between a Go slice and the device; At, Set, Data,
// ReadData and Synchronize, which need a host copy, fail on a GPU with a
// *NoHostCopyError (At and Set panic with it), as does a kernel on another view. Errors
// are NewArray's.
func NewDeviceArray[T any](av *accelerator.View, ext runtime.Extent) (*Array[T], error) {
	info, err := checkArray[T](av, ext, "NewDeviceArray")
	if err != nil {
		return nil, err
	}
	if av.Accelerator().Traits().HostMemory { // device memory is host memory
		return newArray(av, ext, info, make([]T, ext.Size()))
	}
	src := &source{esize: info.size, n: ext.Size(), typ: info.typ, home: av}
	src.state = newSegments(src.n, 0) // undefined until written
	a := &Array[T]{View: newView[T](nil, src, rowMajor(ext), info), av: av}
	src.name = a.String()
	return a, nil
}

// AcceleratorView is the view the array lives on.
func (a *Array[T]) AcceleratorView() *accelerator.View { return a.av }

// Copy copies src's elements into dst (C++ AMP copy): both must have the same extent.
// Data moves through the host; dst's previous contents are not read.
func Copy[T any](dst, src *View[T]) error {
	if dst == nil || dst.src == nil {
		return zeroError("Copy's dst")
	}
	if src == nil || src.src == nil {
		return zeroError("Copy's src")
	}
	if !dst.g.ext.Equal(src.g.ext) {
		return &RangeError{What: fmt.Sprintf("a copy from extent %v to extent %v", src.g.ext, dst.g.ext), Extent: dst.g.ext,
			Reason: "Copy needs equal extents"}
	}
	tmp := make([]T, src.g.ext.Size())
	if err := src.CopyTo(tmp); err != nil {
		return opNamed(err, "Copy")
	}
	return opNamed(dst.CopyFrom(tmp), "Copy")
}

// CopyAsync starts Copy and returns its future. As with C++ AMP's copy_async, src must not
// be written (by the host or a kernel) and dst not used until the future's Wait returns:
// the copy reads src while it runs.
func CopyAsync[T any](dst, src *View[T]) *Future {
	return async(func() error { return Copy(dst, src) })
}

// CopyFrom copies exactly Extent().Size() elements, row-major, from data into the view.
func (v *View[T]) CopyFrom(data []T) error {
	if v == nil || v.src == nil {
		return zeroError("CopyFrom")
	}
	if len(data) != v.g.ext.Size() {
		return &LengthError{Extent: v.g.ext, Len: len(data)}
	}
	if v.src.host == nil {
		return v.deviceTransfer("CopyFrom", data, true)
	}
	v.src.mu.Lock()
	defer v.src.mu.Unlock()
	if v.closed.Load() {
		return v.closedError("CopyFrom")
	}
	// Every element is overwritten: discard first so that nothing is copied back for it.
	v.src.setLocked(v.fp, 0)
	if err := v.hostLocked("CopyFrom", runtime.ReadWrite); err != nil {
		return err
	}
	k := 0
	for _, r := range v.fp {
		k += copy(v.data[r.lo:r.hi], data[k:])
	}
	return nil
}
