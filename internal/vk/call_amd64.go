//go:build linux || darwin

package vk

import "unsafe"

// callArgs is a C call's function, arguments and result, as vkcall (call_amd64.s)
// reads and writes them.
type callArgs struct {
	fn uintptr
	a  [10]uintptr
	r  uintptr
}

// vkcallABI0 is the address of vkcall.
var vkcallABI0 uintptr

// runtime_cgocall runs fn(arg) on the system stack, as cgo's calls do; arg does not
// escape (it is used only during the call), so a call's arguments stay on the
// goroutine's stack, which cannot move during it.
//
//go:linkname runtime_cgocall runtime.cgocall
//go:noescape
func runtime_cgocall(fn uintptr, arg unsafe.Pointer) int32

// call calls the C function fn with up to ten integer or pointer arguments (the unused
// ones 0) and returns its integer result. What the arguments point to escapes and stays
// alive and in place until the call returns. It allocates nothing: the calls of the
// command path go through here, purego's SyscallN costing an allocation and a pool
// round trip a call.
//
//go:uintptrescapes
func call(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 uintptr) uintptr {
	c := callArgs{fn: fn, a: [10]uintptr{a0, a1, a2, a3, a4, a5, a6, a7, a8, a9}}
	runtime_cgocall(vkcallABI0, unsafe.Pointer(&c))
	return c.r
}

// callList is what vkcalls (call_amd64.s) reads: n calls from recs on.
type callList struct {
	n    uintptr
	recs *callRec
}

// vkcalls reads callRecs of 96 bytes, the result at 88: these fail to compile otherwise.
var (
	_ [unsafe.Sizeof(callRec{}) - 96]struct{}
	_ [96 - unsafe.Sizeof(callRec{})]struct{}
	_ [unsafe.Offsetof(callRec{}.r) - 88]struct{}
	_ [88 - unsafe.Offsetof(callRec{}.r)]struct{}
)

// vkcallsABI0 is the address of vkcalls.
var vkcallsABI0 uintptr

// runCalls makes the calls of recs, in order, in one call to C; what their arguments
// point to must stay alive and in place until it returns (a callQueue's memory).
func runCalls(recs []callRec) {
	l := callList{n: uintptr(len(recs)), recs: &recs[0]}
	runtime_cgocall(vkcallsABI0, unsafe.Pointer(&l))
}
