package vk

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCallQueue queues more calls of the debug-utils callback (a C function pointer) than
// a queue holds, each with its message in the queue's memory, and checks that the
// callback saw every message, in order and intact, and that each call's result is read
// back: the queue runs itself when full without losing or reordering a call.
func TestCallQueue(t *testing.T) {
	cb := messengerInfo().pfnUserCallback
	if cb == 0 {
		t.Skip("no C callbacks on this platform")
	}
	TakeMessages()
	q := newCallQueue()
	const n = 2*queuedCalls + 3
	var want []string
	for i := range n {
		msg := fmt.Sprintf("queued call %d of %d", i, n)
		want = append(want, "error: "+msg)
		dw := words[vkDebugUtilsMessengerCallbackDataEXT]()
		mem := q.room(dw + (len(msg)+1+7)/8)
		text := unsafe.Add(mem, 8*dw)
		copy(unsafe.Slice((*byte)(text), len(msg)), msg) // NUL-terminated: room zeroes
		(*vkDebugUtilsMessengerCallbackDataEXT)(mem).pMessage = text
		q.add(cb, vkDebugUtilsMessageSeverityErrorBitEXT, vkDebugUtilsMessageTypeValidationBitEXT,
			uintptr(mem), 0, 0, 0, 0, 0, 0, 0)
	}
	last := q.last()
	q.recs[last].r = 7 // the run overwrites it with the callback's VK_FALSE
	q.run()
	assert.Equal(t, int32(vkFalse), q.result(last))
	require.Equal(t, want, TakeMessages())
	assert.Zero(t, q.n)
}
