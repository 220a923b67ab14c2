package accelerator

import (
	"errors"
	"fmt"

	"github.com/goamp/goamp/internal/vk"
)

// ErrDeviceLost: the device was lost (VK_ERROR_DEVICE_LOST; C++ AMP
// accelerator_view_removed). The accelerator view that saw it is removed: every later
// operation on it returns an error that matches ErrDeviceLost (a *DeviceError), while a
// view created afterwards works when the device does. It is the same value as
// ErrViewRemoved.
var ErrDeviceLost = vk.ErrDeviceLost

// DeviceError is a Vulkan operation of an accelerator view that failed: out of device
// memory, or a lost device. It matches ErrOutOfMemory (VK_ERROR_OUT_OF_DEVICE_MEMORY,
// VK_ERROR_OUT_OF_HOST_MEMORY) or ErrDeviceLost (VK_ERROR_DEVICE_LOST) according to
// Result.
//
// A failed allocation leaves the view working, and the data it held intact. A failed
// submit or wait removes the view (Removed): the batch's commands are lost, so nothing
// the view computed since its last finished batch can be trusted, and every later
// operation on it fails at once with the same error (Earlier) and changes no data; close
// it and create another view. The array views' Go slices keep what they held: the
// results that reached the host before the failure, the old contents elsewhere.
type DeviceError struct {
	// View names the accelerator view, e.g. "vulkan:0 view 3 (automatic)".
	View string
	// Op is the operation that failed, e.g. "vkQueueSubmit", "waiting for a batch" or
	// "allocating a 4096-byte buffer".
	Op string
	// Result is the VkResult it returned, e.g. "VK_ERROR_DEVICE_LOST".
	Result string
	// Removed says the failure removed the view (a failed submit or wait).
	Removed bool
	// Earlier says the view was removed before, and that failure reported by an earlier
	// operation: this one did nothing.
	Earlier bool
	err     *vk.Error
}

// Error implements error.
func (e *DeviceError) Error() string {
	switch {
	case e.Earlier:
		return fmt.Sprintf("goamp/accelerator: %s was removed by an earlier failure (%s: %s); create another view",
			e.View, e.Op, e.Result)
	case e.Removed:
		return fmt.Sprintf("goamp/accelerator: %s: %s: %s; the view is removed, create another", e.View, e.Op, e.Result)
	}
	return fmt.Sprintf("goamp/accelerator: %s: %s: %s", e.View, e.Op, e.Result)
}

// Is matches ErrOutOfMemory or ErrDeviceLost, by Result.
func (e *DeviceError) Is(target error) bool { return e.err != nil && e.err.Is(target) }

// Unwrap returns the internal Vulkan error.
func (e *DeviceError) Unwrap() error {
	if e.err == nil {
		return nil
	}
	return e.err
}

// deviceError makes a failed Vulkan operation of the view a *DeviceError; other errors,
// and *DeviceErrors, it returns as they are.
func (v *View) deviceError(err error) error {
	if err == nil { // before the variables below, which escape: a nil error allocates nothing
		return nil
	}
	var de *DeviceError
	var ve *vk.Error
	if errors.As(err, &de) || !errors.As(err, &ve) {
		return err
	}
	removed := v.stream != nil && v.stream.Err() != nil
	earlier := removed && v.stream.Told()
	return &DeviceError{View: v.String(), Op: ve.Op, Result: ve.ResultName(), Removed: removed, Earlier: earlier, err: ve}
}

// removed returns the error of an operation on a removed view (nil if the view is not
// removed): the failure that removed it. The caller holds v.mu.
func (v *View) removed() error {
	if v.stream == nil {
		return nil
	}
	err := v.stream.Err()
	if err == nil {
		return nil
	}
	var ve *vk.Error
	errors.As(err, &ve)
	return &DeviceError{View: v.String(), Op: ve.Op, Result: ve.ResultName(), Removed: true, Earlier: v.stream.Told(), err: ve}
}
