//go:build cgo

package vk

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// HostImportAlign is the device's minImportedHostPointerAlignment where it has
// VK_EXT_external_memory_host (enabled at device creation), else 0: ImportHost takes
// memory whose address and length are multiples of it.
func (dev *Device) HostImportAlign() uint64 { return uint64(dev.d.hostImportAlign) }

// ImportHost makes a transfer buffer (a source or destination of Stream.Copy, never bound
// to a kernel) whose memory is p itself, through VK_EXT_external_memory_host: the device
// reads and writes p's pages directly. p's address and length must be multiples of
// HostImportAlign (else an *Error with VK_ERROR_INVALID_EXTERNAL_HANDLE). The caller keeps
// p alive and in place, and touches it from the host only while no copy uses it, until it
// frees the buffer; Free ends the import (the device no longer refers to p). Go's
// collector does not move heap objects, so a slice kept alive stays at its address.
func (dev *Device) ImportHost(p []byte) (*Buffer, error) {
	op := fmt.Sprintf("importing %d bytes of host memory", len(p))
	a := dev.HostImportAlign()
	if a == 0 {
		return nil, &Error{Op: op, Result: int32(C.VK_ERROR_EXTENSION_NOT_PRESENT)}
	}
	ptr := unsafe.Pointer(unsafe.SliceData(p))
	if len(p) == 0 || uint64(uintptr(ptr))%a != 0 || uint64(len(p))%a != 0 {
		return nil, &Error{Op: op + fmt.Sprintf(" (address %#x; both must be multiples of %d)", uintptr(ptr), a),
			Result: int32(C.VK_ERROR_INVALID_EXTERNAL_HANDLE)}
	}
	if r, ok := fault(FaultAlloc); ok {
		return nil, &Error{Op: op, Result: r}
	}
	b := &Buffer{dev: dev, size: uint64(len(p)), kind: MemDownload, pinned: p}
	r := C.amp_host_import(dev.d, ptr, C.VkDeviceSize(len(p)), &b.buf, &b.mem)
	if err := check(op, r); err != nil {
		return nil, err
	}
	return b, nil
}

// Pins reports whether the buffer is ImportHost's import of exactly the memory of q.
func (b *Buffer) Pins(q []byte) bool {
	return b.pinned != nil && len(q) == len(b.pinned) && unsafe.SliceData(q) == unsafe.SliceData(b.pinned)
}
