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
// back: the queue runs itself when full without losing or reordering a call, and grows
// each time it fills, to its maximum and no further.
func TestCallQueue(t *testing.T) {
	cb := messengerInfo().pfnUserCallback
	if cb == 0 {
		t.Skip("no C callbacks on this platform")
	}
	TakeMessages()
	q := newCallQueue()
	const n = 3*queuedCalls + 3 // fills at 512 calls, grows, fills again at 1,536
	var want []string
	for i := range n {
		msg := fmt.Sprintf("queued call %d of %d", i, n)
		want = append(want, "error: "+msg)
		dw := words[vkDebugUtilsMessengerCallbackDataEXT]()
		mem := q.room(dw + (len(msg)+1+7)/8)
		text := unsafe.Add(mem, 8*dw)
		b := unsafe.Slice((*byte)(text), len(msg)+1)
		b[copy(b, msg)] = 0
		*(*vkDebugUtilsMessengerCallbackDataEXT)(mem) = vkDebugUtilsMessengerCallbackDataEXT{
			pMessage: text}
		q.add(cb, vkDebugUtilsMessageSeverityErrorBitEXT, vkDebugUtilsMessageTypeValidationBitEXT,
			uintptr(mem), 0, 0, 0, 0, 0, 0, 0)
	}
	last := q.last()
	q.recs[last].r = 7 // the run overwrites it with the callback's VK_FALSE
	q.run()
	assert.Equal(t, int32(vkFalse), q.result(last))
	require.Equal(t, want, TakeMessages())
	assert.Zero(t, q.n)
	assert.Greater(t, len(q.recs)+len(q.data), queuedCalls+queuedWords, "the queue grew")
	for range 10 {
		q.full(false)
		q.full(true)
	}
	assert.Len(t, q.recs, maxQueuedCalls)
	assert.Len(t, q.data, maxQueuedWords)
}
