package vk

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Validation messages: the debug-utils callback appends each to a bounded queue that
// TakeMessages drains and, while a handler is set (SetMessageHandler), passes it to the
// handler as well, as it is reported.
var msgs struct {
	mu      sync.Mutex
	buf     []string
	size    int // bytes queued
	dropped int
	forward atomic.Bool
}

// maxMessageBytes bounds the queued messages; later ones are counted as dropped.
const maxMessageBytes = 1 << 16

var (
	callbackOnce sync.Once
	callbackPtr  uintptr
	// messenger is the create info of the debug-utils messenger, made once.
	messenger *vkDebugUtilsMessengerCreateInfoEXT
)

// messengerInfo returns the create info of the messenger whose callback is debugCallback.
func messengerInfo() *vkDebugUtilsMessengerCreateInfoEXT {
	callbackOnce.Do(func() {
		callbackPtr = newCallback(debugCallback)
		messenger = &vkDebugUtilsMessengerCreateInfoEXT{sType: vkStructureTypeDebugUtilsMessengerCreateInfoEXT,
			messageSeverity: vkDebugUtilsMessageSeverityWarningBitEXT | vkDebugUtilsMessageSeverityErrorBitEXT,
			messageType: vkDebugUtilsMessageTypeGeneralBitEXT | vkDebugUtilsMessageTypeValidationBitEXT |
				vkDebugUtilsMessageTypePerformanceBitEXT,
			pfnUserCallback: callbackPtr}
	})
	return messenger
}

// debugCallback is the messenger's PFN_vkDebugUtilsMessengerCallbackEXT.
func debugCallback(severity, _ uintptr, data *vkDebugUtilsMessengerCallbackDataEXT, _ uintptr) uintptr {
	msg := "(no message)"
	if data != nil && data.pMessage != nil {
		msg = cGoString((*byte)(data.pMessage))
	}
	report(msg, severity&vkDebugUtilsMessageSeverityErrorBitEXT != 0)
	return vkFalse
}

// cGoString copies the NUL-terminated C string at p.
func cGoString(p *byte) string {
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}

// report queues msg and passes it to the handler.
func report(msg string, isError bool) {
	line := "warning: " + msg
	if isError {
		line = "error: " + msg
	}
	msgs.mu.Lock()
	if msgs.size+len(line)+1 > maxMessageBytes {
		msgs.dropped++
	} else {
		msgs.buf = append(msgs.buf, line)
		msgs.size += len(line) + 1
	}
	msgs.mu.Unlock()
	if msgs.forward.Load() {
		deliver(line)
	}
}

// setForward makes the callback pass messages to the handler (deliver) or not.
func setForward(on bool) { msgs.forward.Store(on) }

// InjectMessage reports msg through the debug-utils callback as the validation layer
// would (an error when isError, else a warning): it is queued for TakeMessages and passed
// to the handler. A test hook.
func InjectMessage(msg string, isError bool) {
	sev := uintptr(vkDebugUtilsMessageSeverityWarningBitEXT)
	if isError {
		sev = vkDebugUtilsMessageSeverityErrorBitEXT
	}
	data := &vkDebugUtilsMessengerCallbackDataEXT{pMessage: unsafe.Pointer(cString(msg))}
	if cb := messengerInfo().pfnUserCallback; cb != 0 {
		// Through the C function pointer the layer calls.
		call(cb, sev, vkDebugUtilsMessageTypeValidationBitEXT, uintptr(unsafe.Pointer(data)), 0, 0, 0, 0, 0, 0, 0)
		return
	}
	debugCallback(sev, vkDebugUtilsMessageTypeValidationBitEXT, data, 0)
}

// TakeMessages drains the validation messages collected so far.
func TakeMessages() []string {
	msgs.mu.Lock()
	defer msgs.mu.Unlock()
	out := msgs.buf
	if msgs.dropped > 0 {
		out = append(out, fmt.Sprintf("(%d more messages dropped)", msgs.dropped))
	}
	msgs.buf, msgs.size, msgs.dropped = nil, 0, 0
	return out
}
