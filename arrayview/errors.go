package arrayview

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/runtime"
)

// Sentinel errors, usable with errors.Is.
var (
	// ErrLength: a slice's length does not match the extent.
	ErrLength = errors.New("goamp/arrayview: slice length does not match extent")
	// ErrUnsupportedType: the element type cannot live in a storage buffer.
	ErrUnsupportedType = errors.New("goamp/arrayview: unsupported element type")
	// ErrOutOfRange: a section, projection or copy lies outside its view.
	ErrOutOfRange = errors.New("goamp/arrayview: out of range")
	// ErrTooLarge: a view does not fit the device's maxStorageBufferRange.
	ErrTooLarge = errors.New("goamp/arrayview: view too large for the device")
	// ErrClosed: the view was closed. It is accelerator.ErrBufferFreed, so that a dispatch
	// that finds the buffer of a view closed meanwhile matches it too.
	ErrClosed = accelerator.ErrBufferFreed
	// ErrInvalidArgument: a function was given an argument it cannot use (a nil
	// accelerator view).
	ErrInvalidArgument = errors.New("goamp/arrayview: invalid argument")
	// ErrOverlap: a slice overlaps an open view's slice without lying inside it.
	ErrOverlap = errors.New("goamp/arrayview: slice overlaps an open view's memory")
	// ErrTooManyViews: a source is used on more accelerator views at once than its
	// validity masks can track.
	ErrTooManyViews = errors.New("goamp/arrayview: data used on too many accelerator views")
	// ErrNoHostCopy: the host, or another accelerator view, asked for the data of an
	// array made with NewDeviceArray, which lives on its view only.
	ErrNoHostCopy = errors.New("goamp/arrayview: the array has no host copy")
)

// NoHostCopyError says an operation needs a host copy of a device-only array
// (NewDeviceArray), which has none: its data lives on its accelerator view only. CopyTo,
// CopyFrom and Copy move its data, straight from and to the device. It matches
// ErrNoHostCopy.
type NoHostCopyError struct {
	// Array names the array, Home the accelerator view it lives on.
	Array, Home string
	// Want is the accelerator view the data was asked for on, "" for the host.
	Want string
}

// Error implements error.
func (e *NoHostCopyError) Error() string {
	where := "the host"
	if e.Want != "" {
		where = e.Want
	}
	return fmt.Sprintf("goamp/arrayview: %s lives on %s only (NewDeviceArray): it has no copy for %s; "+
		"move its data with CopyTo, CopyFrom or Copy", e.Array, e.Home, where)
}

// Is matches ErrNoHostCopy.
func (e *NoHostCopyError) Is(t error) bool { return t == ErrNoHostCopy }

// OverlapError says New was given a slice whose memory overlaps an open view's slice
// without lying inside it (or with another element size): the two could not share one
// coherent copy. It matches ErrOverlap.
type OverlapError struct {
	// Lo and Hi are the addresses of the new slice's first byte and one past its last;
	// OtherLo and OtherHi those of the open views' slice.
	Lo, Hi, OtherLo, OtherHi uintptr
	// ElemSize and OtherElemSize are the two slices' element sizes in bytes.
	ElemSize, OtherElemSize int
}

// Error implements error.
func (e *OverlapError) Error() string {
	where := fmt.Sprintf("the slice's memory [%#x, %#x) (elements of %d bytes)", e.Lo, e.Hi, e.ElemSize)
	other := fmt.Sprintf("an open view's [%#x, %#x) (elements of %d bytes)", e.OtherLo, e.OtherHi, e.OtherElemSize)
	switch {
	case e.Lo < e.OtherLo || e.Hi > e.OtherHi:
		return "goamp/arrayview: " + where + " overlaps " + other + " without lying inside it: make the larger " +
			"view first and the smaller with Section, or close the open views first"
	case e.ElemSize != e.OtherElemSize:
		return "goamp/arrayview: " + where + " lies inside " + other + " with another element size: memory is " +
			"viewed as one element type at a time; close the open views first"
	}
	return "goamp/arrayview: " + where + " lies inside " + other + " but not at a whole element of it: close " +
		"the open views first"
}

// Is matches ErrOverlap.
func (e *OverlapError) Is(t error) bool { return t == ErrOverlap }

// LengthError says a slice does not hold exactly the extent's elements. It matches
// ErrLength.
type LengthError struct {
	// Extent is the view's extent.
	Extent runtime.Extent
	// Len is the slice's length.
	Len int
}

// Error implements error.
func (e *LengthError) Error() string {
	return fmt.Sprintf("goamp/arrayview: extent %v holds %d elements but the slice has %d", e.Extent, e.Extent.Size(), e.Len)
}

// Is matches ErrLength.
func (e *LengthError) Is(t error) bool { return t == ErrLength }

// TypeError says why an element type is not supported. It matches ErrUnsupportedType.
type TypeError struct {
	// Type is the element type.
	Type reflect.Type
	// Reason says what makes it unsupported, naming the field or size at fault.
	Reason string
}

// Error implements error.
func (e *TypeError) Error() string {
	return fmt.Sprintf("goamp/arrayview: element type %v is not supported: %s", e.Type, e.Reason)
}

// Is matches ErrUnsupportedType.
func (e *TypeError) Is(t error) bool { return t == ErrUnsupportedType }

// RangeError says a section, projection or index lies outside a view. It matches
// ErrOutOfRange.
type RangeError struct {
	// What describes the section, projection, index or copy, with its numbers.
	What string
	// Extent is the extent it should lie in.
	Extent runtime.Extent
	// Reason, where set, says what is wrong instead of "lies outside Extent" (a copy
	// between different extents, Data of a section whose rows are apart).
	Reason string
}

// Error implements error.
func (e *RangeError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("goamp/arrayview: %s: %s", e.What, e.Reason)
	}
	return fmt.Sprintf("goamp/arrayview: %s lies outside extent %v", e.What, e.Extent)
}

// Is matches ErrOutOfRange.
func (e *RangeError) Is(t error) bool { return t == ErrOutOfRange }

// TooLargeError says a view's bytes exceed what one storage-buffer binding may cover. It
// matches ErrTooLarge.
type TooLargeError struct {
	// Bytes is the size of the binding asked for.
	Bytes uint64
	// Limit is the device's maxStorageBufferRange (accelerator.Limits).
	Limit uint32
	// View names the accelerator view.
	View string
}

// Error implements error.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("goamp/arrayview: binding %d bytes on %s exceeds its maxStorageBufferRange of %d bytes; split the work into sections", e.Bytes, e.View, e.Limit)
}

// Is matches ErrTooLarge.
func (e *TooLargeError) Is(t error) bool { return t == ErrTooLarge }

// AllocationSpanError says a view bound to a kernel spans two device allocations of its
// data's copy: a copy larger than one allocation (the device's maxMemoryAllocationSize) is
// cut into chunks, and a kernel argument must lie in one of them. It matches ErrTooLarge.
// Split the work into sections that View.BindEnd allows.
type AllocationSpanError struct {
	// Lo and Hi are the view's elements [Lo, Hi), counted from its first element, that
	// the binding would cover.
	Lo, Hi int
	// ChunkBytes is the size of each chunk of the copy.
	ChunkBytes uint64
	// View names the accelerator view.
	View string
}

// Error implements error.
func (e *AllocationSpanError) Error() string {
	return fmt.Sprintf("goamp/arrayview: elements [%d, %d) of the view span two device allocations of %d bytes on %s; bind sections within one (View.BindEnd)",
		e.Lo, e.Hi, e.ChunkBytes, e.View)
}

// Is matches ErrTooLarge.
func (e *AllocationSpanError) Is(t error) bool { return t == ErrTooLarge }

// TooManyViewsError says a Go slice (or an array's data) is used on more accelerator views
// at once than goamp tracks. Its copy on a view is freed when that view closes or when every
// array view of the data is closed. It matches ErrTooManyViews.
type TooManyViewsError struct {
	// Limit is how many accelerator views the data may be used on at once.
	Limit int
	// View names the accelerator view that would be one too many.
	View string
}

// Error implements error.
func (e *TooManyViewsError) Error() string {
	return fmt.Sprintf("goamp/arrayview: data may be used on at most %d open accelerator views at once; %s would be one more "+
		"(close accelerator views, or every array view of the data, to free their copies)", e.Limit, e.View)
}

// Is matches ErrTooManyViews.
func (e *TooManyViewsError) Is(t error) bool { return t == ErrTooManyViews }

// ClosedError says a view was used after Close. It matches ErrClosed.
type ClosedError struct {
	// View describes the view.
	View string
	// Op is what was asked of it: "Synchronize", "Data", "BindDevice", ...
	Op string
}

// Error implements error.
func (e *ClosedError) Error() string {
	return fmt.Sprintf("goamp/arrayview: %s of %s: view closed", e.Op, e.View)
}

// Is matches ErrClosed.
func (e *ClosedError) Is(t error) bool { return t == ErrClosed }

// ArgumentError says a function was given an argument it cannot use. It matches
// ErrInvalidArgument.
type ArgumentError struct {
	// Func is the function, e.g. "NewArray".
	Func string
	// Reason says what is wrong with the argument.
	Reason string
}

// Error implements error.
func (e *ArgumentError) Error() string {
	return fmt.Sprintf("goamp/arrayview: %s: %s", e.Func, e.Reason)
}

// Is matches ErrInvalidArgument.
func (e *ArgumentError) Is(t error) bool { return t == ErrInvalidArgument }

// opNamed is err with the operation of a *ClosedError in it set to op: the function the
// user called, where it was an inner one.
func opNamed(err error, op string) error {
	var ce *ClosedError
	if errors.As(err, &ce) {
		ce.Op = op
	}
	return err
}
