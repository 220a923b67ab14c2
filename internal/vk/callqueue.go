package vk

import "unsafe"

// callQueue holds C calls to make later, together: the commands a stream records into a
// command buffer, with the structures they point to, so that recording costs one call to
// C a batch (or a full queue) instead of one a command. Its memory is allocated once, on
// the heap, where the collector does not move it. It belongs to one goroutine at a time.
type callQueue struct {
	recs []callRec
	n    int      // calls queued
	data []uint64 // the structures the queued calls point to
	used int      // words of data in use
}

// callRec is one queued call: the C function and its ten arguments (the unused ones 0),
// and its result once made.
type callRec struct {
	fn uintptr
	a  [10]uintptr
	r  uintptr
}

// Sizes: a queue starts with room for 512 calls (a dispatch takes up to five) and 64 KiB of
// structures (the largest command, 32 bindings pushed, takes 2.8 KiB). A queue that fills
// before its batch is submitted runs its calls and doubles what filled, up to 4,096 calls
// and 512 KiB: a stream that records batches of many small dispatches then records each
// in one call at submission, as it does short ones, instead of calling C while the host
// is still issuing; a stream of short batches keeps the small queue.
const (
	queuedCalls    = 512
	queuedWords    = 8192
	maxQueuedCalls = 8 * queuedCalls
	maxQueuedWords = 8 * queuedWords
)

func newCallQueue() *callQueue {
	return &callQueue{recs: make([]callRec, queuedCalls), data: make([]uint64, queuedWords)}
}

// room makes room for one call and its words words of structures, running the queued
// calls first where there is not, and returns the structures' memory (nil for none),
// which holds what earlier calls left there: the caller writes all it passes to C. Every
// call queued is preceded by its room.
func (q *callQueue) room(words int) unsafe.Pointer {
	if q.n == len(q.recs) || q.used+words > len(q.data) {
		q.full(q.used+words > len(q.data))
	}
	if words == 0 {
		return nil
	}
	p := unsafe.Pointer(&q.data[q.used])
	q.used += words
	return p
}

// add queues a call; room made room for it.
func (q *callQueue) add(fn, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 uintptr) {
	if q.n == len(q.recs) {
		q.full(false) // a call queued without room: it takes no structures
	}
	r := &q.recs[q.n]
	r.fn, r.a = fn, [10]uintptr{a0, a1, a2, a3, a4, a5, a6, a7, a8, a9}
	q.n++
}

// last is the index of the call queued last, whose result result reads after run.
func (q *callQueue) last() int { return q.n - 1 }

// result is the VkResult of the call at index i of the last run.
func (q *callQueue) result(i int) int32 { return int32(q.recs[i].r) }

// full runs the queued calls of a full queue and grows it (the calls, or the structures
// where data says so) up to its maximum. Nothing points into the structures once the calls
// have run; the calls' results stay where result reads them.
func (q *callQueue) full(data bool) {
	q.run()
	if data && len(q.data) < maxQueuedWords {
		q.data = make([]uint64, 2*len(q.data))
	} else if !data && len(q.recs) < maxQueuedCalls {
		q.recs = append(q.recs, make([]callRec, len(q.recs))...)
	}
}

// run makes the queued calls, in order, and empties the queue.
func (q *callQueue) run() {
	if q.n > 0 {
		runCalls(q.recs[:q.n])
	}
	q.n, q.used = 0, 0
}

// words is how many words of a callQueue's data a T takes.
func words[T any]() int {
	var t T
	return int(unsafe.Sizeof(t)+7) / 8
}
