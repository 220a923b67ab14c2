//go:build (linux || darwin) && arm64

package vk

import "github.com/ebitengine/purego"

// call calls the C function fn with up to ten integer or pointer arguments (the unused
// ones 0) and returns its integer result; what the arguments point to escapes and stays
// alive and in place until the call returns.
//
//go:uintptrescapes
func call(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
	return r
}
