//go:build windows && (amd64 || arm64)

package vk

import (
	"fmt"
	"syscall"
)

// Available reports whether this build can call Vulkan: it runs on an operating system
// and processor whose Vulkan loader goamp loads at run time.
const Available = true

// defaultLibraries are the Vulkan loaders Open tries, in order, when Options.Library is
// empty.
func defaultLibraries() []string { return []string{"vulkan-1.dll"} }

// openLibrary loads a Vulkan loader and returns its vkGetInstanceProcAddr.
func openLibrary(name string) (uintptr, error) {
	dll, err := syscall.LoadDLL(name)
	if err != nil {
		return 0, err
	}
	p, err := dll.FindProc("vkGetInstanceProcAddr")
	if err != nil {
		_ = dll.Release()
		return 0, fmt.Errorf("%s has no vkGetInstanceProcAddr", name)
	}
	return p.Addr(), nil
}

// call calls the C function fn with up to ten integer or pointer arguments (the unused
// ones 0) and returns its integer result; what the arguments point to escapes and stays
// alive and in place until the call returns.
//
//go:uintptrescapes
func call(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 uintptr) uintptr {
	r, _, _ := syscall.SyscallN(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
	return r
}

// newCallback makes a C function pointer of fn.
func newCallback(fn any) uintptr { return syscall.NewCallback(fn) }
