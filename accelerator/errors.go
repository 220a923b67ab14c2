package accelerator

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goamp/goamp/internal/vk"
)

// Sentinel errors, usable with errors.Is.
var (
	// ErrNoSuchAccelerator: a device path names no accelerator (see *PathError).
	ErrNoSuchAccelerator = errors.New("goamp/accelerator: no such accelerator")
	// ErrViewClosed: the accelerator view was closed.
	ErrViewClosed = errors.New("goamp/accelerator: view closed")
	// ErrOutOfMemory: the device (or the host, for it) ran out of memory (C++ AMP out_of_memory).
	ErrOutOfMemory = vk.ErrOutOfDeviceMemory
	// ErrViewRemoved: the device was lost (C++ AMP accelerator_view_removed); the same
	// value as ErrDeviceLost (fault.go), which says what a lost device does to a view.
	ErrViewRemoved = vk.ErrDeviceLost
	// ErrNoVulkan: Vulkan cannot be used here; only the CPU accelerator exists.
	ErrNoVulkan = vk.ErrUnavailable
	// ErrBufferFreed: device memory was used after it was freed, such as a kernel given
	// an array view closed meanwhile (package arrayview's ErrClosed is the same value).
	ErrBufferFreed = errors.New("goamp: buffer freed (its view closed)")
	// ErrUnsupportedFeature: the accelerator lacks something the operation needs (C++ AMP unsupported_feature).
	ErrUnsupportedFeature = errors.New("goamp/accelerator: unsupported feature")
)

// PathError is returned for a device path that names no accelerator. It matches
// ErrNoSuchAccelerator.
type PathError struct {
	// Path is the device path asked for.
	Path string
	// Known are the paths of the accelerators present.
	Known []string
	// Source says where the path came from, e.g. "AMP_DEFAULT_ACCELERATOR"; "" for an
	// argument.
	Source string
}

// Error implements error.
func (e *PathError) Error() string {
	src := ""
	if e.Source != "" {
		src = " (from " + e.Source + ")"
	}
	return fmt.Sprintf("goamp/accelerator: no accelerator with path %q%s; known: %s", e.Path, src, strings.Join(e.Known, ", "))
}

// Is matches ErrNoSuchAccelerator.
func (e *PathError) Is(target error) bool { return target == ErrNoSuchAccelerator }

// FeatureError says which feature an accelerator lacks. It matches ErrUnsupportedFeature.
type FeatureError struct {
	// Accelerator is the accelerator's device path.
	Accelerator string
	// Feature names what it lacks, e.g. "SPIR-V dispatch".
	Feature string
}

// Error implements error.
func (e *FeatureError) Error() string {
	return fmt.Sprintf("goamp/accelerator: %s does not support %s", e.Accelerator, e.Feature)
}

// Is matches ErrUnsupportedFeature.
func (e *FeatureError) Is(target error) bool { return target == ErrUnsupportedFeature }

// AllocError says an allocation is larger than one device allocation may be
// (maxMemoryAllocationSize). It matches ErrOutOfMemory.
type AllocError struct {
	// Accelerator is the accelerator's device path.
	Accelerator string
	// Bytes is the size asked for.
	Bytes uint64
	// Limit is the device's maxMemoryAllocationSize.
	Limit uint64
}

// Error implements error.
func (e *AllocError) Error() string {
	return fmt.Sprintf("goamp/accelerator: %s: an allocation of %d bytes exceeds the device's maxMemoryAllocationSize of %d bytes",
		e.Accelerator, e.Bytes, e.Limit)
}

// Is matches ErrOutOfMemory.
func (e *AllocError) Is(target error) bool { return target == ErrOutOfMemory }
