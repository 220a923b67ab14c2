package vk

import "sync/atomic"

// messageHandler is the function SetMessageHandler set (nil: none).
var messageHandler atomic.Pointer[func(string)]

// SetMessageHandler sets the function that receives each validation message ("error: ..."
// or "warning: ...") as the layer reports it, in addition to the queue that TakeMessages
// drains; nil removes it. h runs on the thread that made the Vulkan call the message is
// about (or a driver thread), possibly inside that call: it must return quickly and must
// not call into Vulkan.
func SetMessageHandler(h func(msg string)) {
	if h == nil {
		messageHandler.Store(nil)
		setForward(false)
		return
	}
	messageHandler.Store(&h)
	setForward(true)
}

// deliver passes msg to the handler, if one is set.
func deliver(msg string) {
	if h := messageHandler.Load(); h != nil {
		(*h)(msg)
	}
}
