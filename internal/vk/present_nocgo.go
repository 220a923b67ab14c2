//go:build !cgo

package vk

import (
	"errors"
	"unsafe"
)

// ErrOutOfDate reports a swapchain that no longer matches its surface.
var ErrOutOfDate = errors.New("goamp/vk: the swapchain is out of date")

// Surface is a window's VkSurfaceKHR (none without cgo).
type Surface struct{}

// NewXlibSurface returns ErrUnavailable without cgo.
func (*Instance) NewXlibSurface(unsafe.Pointer, uintptr) (*Surface, error) { return nil, unavailable() }

// Destroy does nothing without cgo.
func (*Surface) Destroy() {}

// CanPresent reports false without cgo.
func (*Device) CanPresent(*Surface) bool { return false }

// Swapchain is a swapchain (none without cgo).
type Swapchain struct{}

// NewSwapchain returns ErrUnavailable without cgo.
func (*Device) NewSwapchain(*Surface, int, int) (*Swapchain, error) { return nil, unavailable() }

// Size returns 0, 0 without cgo.
func (*Swapchain) Size() (width, height int) { return 0, 0 }

// BGRA reports false without cgo.
func (*Swapchain) BGRA() bool { return false }

// Present returns ErrUnavailable without cgo.
func (*Swapchain) Present(*Queue, *Buffer, uint64) error { return unavailable() }

// Destroy does nothing without cgo.
func (*Swapchain) Destroy() {}

// Queue returns nil without cgo.
func (*Stream) Queue() *Queue { return nil }
