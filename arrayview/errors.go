package arrayview

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/goamp/goamp/runtime"
)

// Sentinel errors, usable with errors.Is.
var (
	// ErrLength: a slice's length does not match the extent.
	ErrLength = errors.New("slice length does not match extent")
	// ErrUnsupportedType: the element type cannot live in a storage buffer.
	ErrUnsupportedType = errors.New("unsupported element type")
	// ErrOutOfRange: a section, projection or copy lies outside its view.
	ErrOutOfRange = errors.New("out of range")
	// ErrTooLarge: a view does not fit the device's maxStorageBufferRange.
	ErrTooLarge = errors.New("view too large for the device")
	// ErrClosed: the view was closed.
	ErrClosed = errors.New("view closed")
)

// LengthError says a slice does not hold exactly the extent's elements.
type LengthError struct {
	Extent runtime.Extent
	Len    int
}

func (e *LengthError) Error() string {
	return fmt.Sprintf("arrayview: extent %v holds %d elements but the slice has %d", e.Extent, e.Extent.Size(), e.Len)
}

// Is matches ErrLength.
func (e *LengthError) Is(t error) bool { return t == ErrLength }

// TypeError says why an element type is not supported.
type TypeError struct {
	Type   reflect.Type
	Reason string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("arrayview: element type %v is not supported: %s", e.Type, e.Reason)
}

// Is matches ErrUnsupportedType.
func (e *TypeError) Is(t error) bool { return t == ErrUnsupportedType }

// RangeError says a section, projection or index lies outside a view.
type RangeError struct {
	What   string
	Extent runtime.Extent
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("arrayview: %s lies outside extent %v", e.What, e.Extent)
}

// Is matches ErrOutOfRange.
func (e *RangeError) Is(t error) bool { return t == ErrOutOfRange }

// TooLargeError says a view's bytes exceed what one storage-buffer binding may cover.
type TooLargeError struct {
	Bytes uint64
	Limit uint32
	View  string
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("arrayview: binding %d bytes on %s exceeds its maxStorageBufferRange of %d bytes; split the work into sections", e.Bytes, e.View, e.Limit)
}

// Is matches ErrTooLarge.
func (e *TooLargeError) Is(t error) bool { return t == ErrTooLarge }
