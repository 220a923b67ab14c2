//go:build cgo

package vk

/*
void amp_set_forward(int on);
void amp_inject_message(const char *msg, int error);
#include <stdlib.h>
*/
import "C"

import "unsafe"

// ampGoMessage is called by the debug-utils callback (shim_cgo.go) for each validation
// message, as the layer reports it, while a handler is set.
//
//export ampGoMessage
func ampGoMessage(lvl, msg *C.char) { deliver(C.GoString(lvl) + ": " + C.GoString(msg)) }

// setForward makes the callback pass messages to Go (deliver) or not.
func setForward(on bool) {
	v := C.int(0)
	if on {
		v = 1
	}
	C.amp_set_forward(v)
}

// InjectMessage reports msg through the debug-utils callback as the validation layer
// would (an error when isError, else a warning): it is queued for TakeMessages and passed
// to the handler. A test hook.
func InjectMessage(msg string, isError bool) {
	cs := C.CString(msg)
	defer C.free(unsafe.Pointer(cs))
	e := C.int(0)
	if isError {
		e = 1
	}
	C.amp_inject_message(cs, e)
}
