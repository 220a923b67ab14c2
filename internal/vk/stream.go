//go:build cgo

package vk

/*
#include "shim.h"
#include <stdlib.h>
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

type cmdBuf struct {
	cb    C.VkCommandBuffer
	fence C.VkFence // nil on devices with timeline semaphores
	// pinned: the stream keeps this command buffer recorded to submit it again (replay),
	// so a finished batch of it does not return it to the free list.
	pinned bool
}

// Batch is one submitted command buffer; Wait blocks until the device has run it.
type Batch struct {
	s     *Stream
	cb    *cmdBuf
	value uint64 // the value the stream's timeline semaphore reaches when the batch is done
	mu    sync.Mutex
	done  bool
	err   error
	// reaped: the stream no longer tracks the batch (its command buffer was recycled, or
	// kept for replay).
	reaped bool
	// Queries is the number of timestamp queries the batch wrote (two per profiled dispatch).
	queries int
}

// Replay limits: a batch of at most maxReplay commands, each binding at most replayBinds
// buffers with at most replayPush bytes of push constants, is kept recorded; when the next
// batch is the same commands, the stream submits the recorded one again instead of recording
// it anew (the dispatch-and-wait loop of an application, one iteration after another).
const (
	maxReplay   = 4
	replayBinds = 8
	replayPush  = 128
)

type cmdKind uint8

const (
	cmdDispatch cmdKind = iota
	cmdBarrier
	cmdCopy
)

// command is one command of a batch as the stream's owner gave it, to tell whether two
// batches are the same. It holds the buffers and pipeline themselves, not their Vulkan
// handles, so that a buffer freed and another allocated at the same handle never match.
type command struct {
	kind    cmdKind
	barrier bool
	nbind   uint8
	npush   uint8
	pipe    *Pipeline
	groups  [3]uint32
	binds   [replayBinds]Binding
	push    [replayPush]byte
	// Copies.
	src, dst             *Buffer
	srcOff, dstOff, size uint64
}

// Stream records commands into a command buffer and submits them to a queue. A Stream is
// not safe for concurrent use; its owner serializes access.
type Stream struct {
	dev      *Device
	queue    *Queue
	pool     C.VkCommandPool
	open     *cmdBuf
	commands int
	free     []*cmdBuf
	inflight []*Batch
	last     *Batch
	// arena holds the open batch's commands, encoded (AmpRec records, in C memory) until
	// they are recorded into the command buffer in one call: at submit, or when it is full.
	arena   []byte
	off     int
	flushed bool // some of the open batch's commands are recorded already
	// sem is the stream's timeline semaphore (nil on devices without them, which use a
	// fence per command buffer); batch n signals value n.
	sem   C.VkSemaphore
	value uint64
	// seen is the last counter value read from sem, so that asking after batches already
	// known finished costs no driver call. Batches of other goroutines (markers) update it
	// too; a stale value only costs a read.
	seen atomic.Uint64
	// What the open command buffer has bound, so that a dispatch rebinds only what changed.
	boundPipe  *Pipeline
	boundBinds [32]Binding
	boundN     int
	boundPush  [256]byte
	pushN      int
	// copied says a copy was recorded since the last barrier, so the next barrier must
	// order transfers too.
	copied bool
	// hostWrites says the open batch may write host-visible memory: it then ends with a
	// barrier that makes those writes visible to the host (which costs the device about a
	// microsecond, so batches that write only device memory go without).
	hostWrites bool
	qp         C.VkQueryPool
	qcount     int
	qnext      int

	// The open batch's commands while it can still be replayed (replayable), and how many
	// of them (match) equal the start of the replay batch; -1 once they differ.
	log        [maxReplay]command
	nlog       int
	replayable bool
	match      int
	// The replay batch: a small batch kept recorded, its commands, and its last submission.
	rep      *cmdBuf
	repLog   [maxReplay]command
	repN     int
	repBatch *Batch
	replays  uint64
	// failed is the stream's first failed submit or wait: the stream is unusable from then
	// on (see Err); told says the owner has been told of it (Told).
	failed atomic.Pointer[Error]
	told   atomic.Bool
}

// NewStream creates a command stream on queue q of the device.
func (dev *Device) NewStream(q *Queue) (*Stream, error) {
	s := &Stream{dev: dev, queue: q, match: -1}
	if err := check("vkCreateCommandPool", C.amp_cmdpool_create(dev.d, &s.pool)); err != nil {
		return nil, err
	}
	if dev.info.TimelineSemaphore {
		if err := check("vkCreateSemaphore", C.amp_semaphore_create(dev.d, &s.sem)); err != nil {
			C.amp_cmdpool_destroy(dev.d, s.pool)
			return nil, err
		}
	}
	s.arena = unsafe.Slice((*byte)(C.malloc(arenaSize)), arenaSize)
	return s, nil
}

func (s *Stream) begin() error {
	if s.open != nil {
		return nil
	}
	s.reap()
	if err := s.throttle(); err != nil {
		return err
	}
	var c *cmdBuf
	if n := len(s.free); n > 0 {
		c = s.free[n-1]
		s.free = s.free[:n-1]
		if c.fence != nil {
			if err := check("vkResetFences", C.amp_fence_reset(s.dev.d, c.fence)); err != nil {
				return err
			}
		}
	} else {
		c = &cmdBuf{}
		if err := check("vkAllocateCommandBuffers", C.amp_cmdbuf_alloc(s.dev.d, s.pool, &c.cb)); err != nil {
			return err
		}
		if s.sem == nil {
			if err := check("vkCreateFence", C.amp_fence_create(s.dev.d, &c.fence)); err != nil {
				return err
			}
		}
	}
	if err := check("vkBeginCommandBuffer", C.amp_cmdbuf_begin(s.dev.d, c.cb)); err != nil {
		s.free = append(s.free, c)
		return err
	}
	s.open = c
	s.commands = 0
	s.off, s.flushed = 0, false
	s.resetBound()
	if s.qp != nil {
		C.amp_cmd_reset_queries(s.dev.d, c.cb, s.qp, 0, C.uint32_t(s.qcount))
		s.qnext = 0
	}
	s.startLog()
	return nil
}

// MaxInFlight is how many submitted batches a stream lets run ahead of the host: the next
// batch waits for the oldest to finish. A host that records faster than the device runs
// would otherwise queue without end, each batch holding a command buffer (and the driver's
// memory behind it) that is kept for reuse: on the H100 a soak of small dispatches that
// never waited grew the process by 60 MiB a round, and lavapipe's by 70 MiB with 8,700
// batches queued (RESULTS.md, issue 13). CUDA bounds its launch queue in the same way.
// Sixteen batches of up to 512 commands keep any device busy.
const MaxInFlight = 16

// throttle waits, while MaxInFlight batches are in flight, for the oldest to finish.
func (s *Stream) throttle() error {
	for len(s.inflight) >= MaxInFlight {
		if err := s.inflight[0].Wait(context.Background()); err != nil {
			return err
		}
		s.reap()
	}
	return nil
}

// resetBound forgets what the open command buffer has bound: nothing, at its start.
func (s *Stream) resetBound() {
	s.boundPipe, s.boundN, s.pushN = nil, 0, -1
	// Copies of the previous batch are ordered by submission; a barrier in this one
	// still orders them (its first scope covers earlier submissions), so be safe.
	s.copied = true
	s.hostWrites = false
}

// startLog starts the command log of a new batch.
func (s *Stream) startLog() {
	s.nlog = 0
	s.replayable = s.qp == nil
	s.match = -1
	if s.rep != nil {
		s.match = 0
	}
}

// reap recycles the command buffers of finished batches. A batch's completion includes
// every command submitted before it on the queue, so the scan stops at the first batch
// still running.
func (s *Stream) reap() {
	n := 0
	for _, b := range s.inflight {
		if !b.Done() {
			break
		}
		b.reaped = true
		if !b.cb.pinned {
			s.free = append(s.free, b.cb)
		}
		n++
	}
	if n > 0 {
		m := copy(s.inflight, s.inflight[n:])
		clear(s.inflight[m:])
		s.inflight = s.inflight[:m]
	}
}

// Commands is the number of commands recorded since the last submit.
func (s *Stream) Commands() int { return s.commands }

// note adds c, filled in by fill, to the open batch's log, and follows whether the batch
// so far is the start of the replay batch. A command that does not fit the log makes the
// batch one that is not kept.
func (s *Stream) note(fits bool, fill func(c *command)) {
	if !fits || s.nlog == maxReplay {
		s.replayable, s.match = false, -1
		return
	}
	c := &s.log[s.nlog]
	*c = command{}
	fill(c)
	s.nlog++
	if s.match == s.nlog-1 && s.match < s.repN && *c == s.repLog[s.match] {
		s.match++
	} else {
		s.match = -1
	}
}

// Encoding. recSize is the size of an AmpRec; the largest command (32 bindings, 256 bytes
// of push constants) takes recSize+24*32+256 bytes, far less than the arena.
const (
	recSize   = int(unsafe.Sizeof(C.AmpRec{}))
	arenaSize = 64 << 10
)

// alloc returns n bytes of the arena for a record, recording what it holds first when it
// is full.
func (s *Stream) alloc(n int) unsafe.Pointer {
	if s.off+n > len(s.arena) {
		s.flush()
	}
	p := unsafe.Pointer(&s.arena[s.off])
	s.off += n
	return p
}

// flush records the encoded commands into the open command buffer.
func (s *Stream) flush() {
	if s.off == 0 {
		return
	}
	C.amp_record(s.dev.d, s.open.cb, s.qp, (*C.uint8_t)(unsafe.Pointer(&s.arena[0])), C.size_t(s.off))
	s.off = 0
	s.flushed = true
}

// ready checks that the stream has not failed and opens its command buffer for a command.
func (s *Stream) ready() error {
	if err := s.Err(); err != nil {
		return err
	}
	return s.begin()
}

// Dispatch records a compute dispatch; barrier inserts a full memory barrier before it.
func (s *Stream) Dispatch(p *Pipeline, binds []Binding, push []byte, groups [3]uint32, barrier bool) error {
	if err := s.ready(); err != nil {
		return err
	}
	if len(binds) != p.bindings {
		return fmt.Errorf("goamp/vk: pipeline has %d bindings, dispatch gives %d", p.bindings, len(binds))
	}
	if len(push) > 256 {
		return fmt.Errorf("goamp/vk: %d bytes of push constants (at most 256)", len(push))
	}
	s.commands++
	if s.replayable {
		s.note(len(binds) <= replayBinds && len(push) <= replayPush, func(c *command) {
			c.kind, c.pipe, c.groups, c.barrier = cmdDispatch, p, groups, barrier
			c.nbind = uint8(copy(c.binds[:], binds))
			c.npush = uint8(copy(c.push[:], push))
		})
	}
	s.encodeDispatch(p, binds, push, groups, barrier)
	return nil
}

// encodeDispatch encodes a dispatch into the arena with what it must record before it: the
// barrier, and the pipeline, descriptors and push constants that differ from those bound.
func (s *Stream) encodeDispatch(p *Pipeline, binds []Binding, push []byte, groups [3]uint32, barrier bool) {
	flags := C.int(0)
	if barrier {
		flags |= C.AMP_BARRIER
		if s.copied {
			flags |= C.AMP_BARRIER_TRANSFER
			s.copied = false
		}
	}
	if s.boundPipe != p {
		flags |= C.AMP_BIND_PIPELINE
	}
	// Push descriptors survive a pipeline change only between compatible layouts: every
	// pipeline has its own layout, so a new pipeline always pushes them again.
	same := s.boundPipe == p && s.boundN == len(binds)
	for i, b := range binds {
		if same && s.boundBinds[i] != b {
			same = false
		}
		// The stream does not know which bindings the kernel writes: any host-visible one may be.
		s.hostWrites = s.hostWrites || b.Buffer.mapped != nil
	}
	if !same {
		flags |= C.AMP_PUSH_DESCRIPTORS
		s.boundN = copy(s.boundBinds[:], binds)
	}
	// Push constants persist between dispatches of one pipeline: push only changes.
	if !(s.boundPipe == p && s.pushN == len(push) && string(s.boundPush[:s.pushN]) == string(push)) {
		flags |= C.AMP_PUSH_CONSTANTS
		s.pushN = copy(s.boundPush[:], push)
	}
	s.boundPipe = p
	query := C.int32_t(-1)
	if s.qp != nil && s.qnext+2 <= s.qcount {
		query = C.int32_t(s.qnext)
		s.qnext += 2
	}
	n := len(binds)
	at := s.alloc(recSize + 24*n + (len(push)+7)&^7)
	*(*C.AmpRec)(at) = C.AmpRec{kind: C.AMP_REC_DISPATCH, flags: flags, nbuf: C.uint32_t(n), pushSize: C.uint32_t(len(push)),
		gx: C.uint32_t(groups[0]), gy: C.uint32_t(groups[1]), gz: C.uint32_t(groups[2]), query: query,
		pipe: C.uint64_t(uintptr(unsafe.Pointer(p.pipe))), layout: C.uint64_t(uintptr(unsafe.Pointer(p.layout)))}
	h := unsafe.Slice((*uint64)(unsafe.Add(at, recSize)), 3*n)
	for i, b := range binds {
		h[i] = uint64(uintptr(unsafe.Pointer(b.Buffer.buf)))
		h[n+i] = b.Offset
		h[2*n+i] = b.Range
	}
	copy(unsafe.Slice((*byte)(unsafe.Add(at, recSize+24*n)), len(push)), push)
}

// Barrier records a full compute/transfer memory barrier.
func (s *Stream) Barrier() error {
	if err := s.ready(); err != nil {
		return err
	}
	s.commands++
	if s.replayable {
		s.note(true, func(c *command) { c.kind = cmdBarrier })
	}
	*(*C.AmpRec)(s.alloc(recSize)) = C.AmpRec{kind: C.AMP_REC_BARRIER}
	s.copied = false
	return nil
}

// Copy records a buffer-to-buffer copy.
func (s *Stream) Copy(src *Buffer, srcOff uint64, dst *Buffer, dstOff, size uint64) error {
	if err := s.ready(); err != nil {
		return err
	}
	s.commands++
	if s.replayable {
		s.note(true, func(c *command) {
			c.kind, c.src, c.srcOff, c.dst, c.dstOff, c.size = cmdCopy, src, srcOff, dst, dstOff, size
		})
	}
	*(*C.AmpRec)(s.alloc(recSize)) = C.AmpRec{kind: C.AMP_REC_COPY,
		src: C.uint64_t(uintptr(unsafe.Pointer(src.buf))), dst: C.uint64_t(uintptr(unsafe.Pointer(dst.buf))),
		srcOff: C.uint64_t(srcOff), dstOff: C.uint64_t(dstOff), size: C.uint64_t(size)}
	s.copied = true
	s.hostWrites = s.hostWrites || dst.mapped != nil || dst.pinned != nil
	return nil
}

// canReplay reports whether the open batch is the replay batch, and that one has finished.
// (The replay log holds its buffers and pipelines, so none of them can have been freed and
// another allocated in its place: a batch that uses a freed one is the caller's error.)
func (s *Stream) canReplay() bool {
	return s.match > 0 && !s.flushed && s.match == s.commands && s.match == s.repN && s.repBatch.Done()
}

// Submit ends the open command buffer and submits it. With nothing recorded it returns the
// last batch (possibly nil). A batch that repeats the last small one submits that one's
// command buffer again. A submit that fails loses the batch's commands and the stream
// with them (Err). A batch submitted on a stream found failed meanwhile (a batch before it
// failed) is returned with the error: it is on the queue, and buffers it uses must not be
// freed before it is waited for.
func (s *Stream) Submit() (*Batch, error) {
	if err := s.Err(); err != nil {
		return nil, err
	}
	if s.open == nil || s.commands == 0 {
		return s.last, nil
	}
	if s.canReplay() {
		s.reap()
		b, err := s.submit(s.rep, false)
		// Drop the encoded commands (submitted, or lost with a failed submit): the open
		// command buffer stays open, empty, for the next batch.
		s.commands, s.off = 0, 0
		if err != nil {
			return nil, err
		}
		s.repBatch = b
		s.replays++
		s.resetBound()
		s.startLog()
		return b, s.Err()
	}
	s.flush()
	c := s.open
	s.open = nil
	b, err := s.submit(c, true)
	if err != nil {
		s.free = append(s.free, c)
		s.commands = 0 // lost with the batch
		return nil, err
	}
	if s.replayable && s.nlog == s.commands {
		s.keepForReplay(c, b)
	}
	// Open the next command buffer now, while the device runs this one, so that the next
	// dispatch only records. Without timestamps (whose pool is reset per batch and read
	// after it) this is safe to do early.
	if s.qp == nil {
		if err := s.begin(); err != nil {
			return b, err
		}
	}
	// A batch found failed meanwhile (begin polls the batches in flight) fails the stream.
	return b, s.Err()
}

// submit submits command buffer c (closing it first with end) and tracks the batch.
func (s *Stream) submit(c *cmdBuf, end bool) (*Batch, error) {
	if c.fence != nil && !end {
		// Submitted again: its previous batch finished; the fence is still signaled.
		if err := check("vkResetFences", C.amp_fence_reset(s.dev.d, c.fence)); err != nil {
			return nil, err
		}
	}
	e := C.int(0)
	if end {
		e = C.AMP_END
		if s.hostWrites {
			e = C.AMP_END_HOST
		}
	}
	value := s.value + 1
	if res, ok := fault(FaultSubmit); ok {
		err := &Error{Op: "vkQueueSubmit", Result: res}
		s.fail(err)
		return nil, err
	}
	s.queue.mu.Lock()
	r := C.amp_submit(s.dev.d, s.queue.q, c.cb, e, c.fence, s.sem, C.uint64_t(value))
	s.queue.mu.Unlock()
	if r != C.VK_SUCCESS {
		err := &Error{Op: "vkQueueSubmit", Result: int32(r)}
		s.fail(err)
		return nil, err
	}
	s.value = value
	b := &Batch{s: s, cb: c, value: value, queries: s.qnext}
	s.inflight = append(s.inflight, b)
	s.last = b
	if res, ok := fault(FaultSubmitted); ok {
		// Failed before anything polls the batch, so that its wait reports the failure.
		s.fail(&Error{Op: "polling the batches in flight", Result: res})
	}
	return b, nil
}

// keepForReplay makes c, just submitted as batch b, the replay batch, releasing the one
// before it.
func (s *Stream) keepForReplay(c *cmdBuf, b *Batch) {
	if old := s.rep; old != nil {
		old.pinned = false
		if s.repBatch.reaped {
			s.free = append(s.free, old)
		}
	}
	c.pinned = true
	s.rep, s.repBatch = c, b
	s.repN = copy(s.repLog[:], s.log[:s.nlog])
}

// Replays is the number of batches the stream submitted again without recording them.
func (s *Stream) Replays() uint64 { return s.replays }

// Last is the most recently submitted batch, or nil. On a failed stream (Err) it is a
// finished batch whose Wait returns the failure.
func (s *Stream) Last() *Batch {
	if e := s.failed.Load(); e != nil {
		return &Batch{s: s, done: true, err: e}
	}
	return s.last
}

// fail records e as the stream's failure, unless it has one.
func (s *Stream) fail(e *Error) { s.failed.CompareAndSwap(nil, e) }

// Err is the failure that made the stream unusable, or nil: the first submit that failed
// (its batch's commands are lost), or the first wait that found the device lost or
// failing. Every later Dispatch, Barrier, Copy and Submit returns it, and so does Wait of
// the batch Last returns; when the failure is a lost device (ErrDeviceLost), so does Wait
// of every batch not yet seen finished. A stream's failure is its own: other streams of
// the device learn of a lost device from their own calls.
func (s *Stream) Err() error {
	if e := s.failed.Load(); e != nil {
		return e
	}
	return nil
}

// Told reports whether Told was called before since the stream failed: the first caller
// reports the failure as news, later ones as the reason the stream does nothing. It is
// false on a stream that has not failed.
func (s *Stream) Told() bool { return s.failed.Load() != nil && s.told.Swap(true) }

// Drain waits until the device has run every batch submitted on the stream, or can run
// none (a lost device), whatever the errors: after a failure, the buffers its batches use
// may be freed once it returns.
func (s *Stream) Drain() {
	for _, b := range s.inflight {
		_ = b.Wait(context.Background())
	}
}

// Destroy waits for the stream's work and frees it.
func (s *Stream) Destroy() {
	for _, b := range s.inflight {
		_ = b.Wait(context.Background())
	}
	if s.qp != nil {
		C.amp_querypool_destroy(s.dev.d, s.qp)
		s.qp = nil
	}
	bufs := append([]*cmdBuf(nil), s.free...)
	for _, b := range s.inflight {
		if !b.cb.pinned {
			bufs = append(bufs, b.cb)
		}
	}
	if s.open != nil {
		bufs = append(bufs, s.open)
	}
	if s.rep != nil {
		bufs = append(bufs, s.rep)
	}
	for _, c := range bufs {
		if c.fence != nil {
			C.amp_fence_destroy(s.dev.d, c.fence)
		}
	}
	if s.sem != nil {
		C.amp_semaphore_destroy(s.dev.d, s.sem)
		s.sem = nil
	}
	C.amp_cmdpool_destroy(s.dev.d, s.pool)
	C.free(unsafe.Pointer(&s.arena[0]))
	s.arena = nil
	s.inflight, s.free, s.open, s.rep, s.repBatch = nil, nil, nil, nil, nil
}

// spinWait is how long Batch.Wait polls (yielding between polls) before it blocks: a
// blocked wait was seen to wake up 20-230 us late on the H100, longer than most kernels
// take, so like CUDA's default synchronization it spins first.
const spinWait = 2 * time.Millisecond

// poll reports whether the batch has finished, without blocking. b.mu is held.
func (b *Batch) poll() bool {
	if b.done {
		return true
	}
	var r C.VkResult
	if s := b.s; s.sem != nil {
		if s.seen.Load() >= b.value {
			b.finished()
			return true
		}
		// Returned, not written through a pointer: the poll loop must not allocate.
		v := int64(C.amp_semaphore_value(s.dev.d, s.sem))
		if v >= 0 {
			s.seen.Store(uint64(v))
			if uint64(v) >= b.value {
				b.finished()
			}
			return b.done
		}
		r = C.VkResult(v)
	} else if r = C.amp_fence_status(s.dev.d, b.cb.fence); r == C.VK_SUCCESS {
		b.finished()
		return true
	} else if r == C.VK_NOT_READY {
		return false
	}
	// The device is lost (or out of memory): the batch will never finish.
	b.failed(r)
	return true
}

// finished records that the device has run the batch; b.mu is held. A wait fault armed
// with InjectFault fires here, once the batch has in fact run; on a stream that lost its
// device the batch reports the loss.
func (b *Batch) finished() {
	b.done = true
	if res, ok := fault(FaultWait); ok {
		b.failed(C.VkResult(res))
		return
	}
	if e := b.s.failed.Load(); e != nil && e.Result == ResultDeviceLost {
		b.err = e
	}
}

// failed records that waiting for the batch failed with r; b.mu is held. The batch will
// never finish, and its stream is failed.
func (b *Batch) failed(r C.VkResult) {
	e := &Error{Op: "waiting for a batch", Result: int32(r)}
	b.err, b.done = e, true
	b.s.fail(e)
}

// block waits up to timeout for the batch; it reports whether the wait timed out. b.mu is held.
func (b *Batch) block(timeout time.Duration) bool {
	s := b.s
	var r C.VkResult
	if s.sem != nil {
		r = C.amp_semaphore_wait(s.dev.d, s.sem, C.uint64_t(b.value), C.uint64_t(timeout))
	} else {
		r = C.amp_fence_wait(s.dev.d, b.cb.fence, C.uint64_t(timeout))
	}
	switch r {
	case C.VK_SUCCESS:
		b.finished()
	case C.VK_TIMEOUT:
		return true
	default:
		b.failed(r)
	}
	return false
}

// Wait blocks until the batch has run, ctx is done, or the device is lost.
func (b *Batch) Wait(ctx context.Context) error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	// Poll briefly before blocking: a blocking wait costs tens of microseconds of wake-up
	// latency on some drivers, more than a short kernel takes. A CPU device (lavapipe)
	// runs on the cores a spin would take from it: block at once. With other Ps to run
	// other goroutines the poll does not yield, which would let the goroutine move to
	// another thread and find the driver's data cold in that core's caches.
	spin := spinWait
	if b.s.dev.info.Type == TypeCPU {
		spin = 0
	}
	if b.poll() {
		return b.err
	}
	if spin > 0 {
		// The clock is read every 64 polls only: on some virtual machines reading it is a
		// system call that costs more than a poll.
		yield := goruntime.GOMAXPROCS(0) == 1
		start := time.Now()
		for i := 1; i%64 != 0 || time.Since(start) < spin; i++ {
			if yield {
				goruntime.Gosched()
			}
			if b.poll() {
				return b.err
			}
		}
	}
	for b.block(50 * time.Millisecond) {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return b.err
}

// Done reports whether the batch has finished, without blocking.
func (b *Batch) Done() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.poll()
}

// EnableTimestamps turns on per-dispatch timestamp queries for up to n dispatches a batch.
func (s *Stream) EnableTimestamps(n int) error {
	if err := s.Err(); err != nil {
		return err
	}
	if s.qp != nil || n <= 0 {
		return nil
	}
	if s.open != nil && s.commands > 0 {
		return errors.New("goamp/vk: enable timestamps between batches (submit first)")
	}
	if err := check("vkCreateQueryPool", C.amp_querypool_create(s.dev.d, C.uint32_t(2*n), &s.qp)); err != nil {
		return err
	}
	s.qcount = 2 * n
	s.replayable, s.match = false, -1
	if s.open != nil {
		// The command buffer opened early after the last submit: reset the queries in it.
		C.amp_cmd_reset_queries(s.dev.d, s.open.cb, s.qp, 0, C.uint32_t(s.qcount))
		s.qnext = 0
	}
	return nil
}

// Timestamps returns the raw begin/end timestamp pairs of the last batch's profiled dispatches.
// The batch must have finished.
func (s *Stream) Timestamps() ([]uint64, error) {
	if s.qp == nil || s.last == nil || s.last.queries == 0 {
		return nil, nil
	}
	out := make([]uint64, s.last.queries)
	if err := check("vkGetQueryPoolResults", C.amp_query_results(s.dev.d, s.qp, 0, C.uint32_t(len(out)), (*C.uint64_t)(unsafe.Pointer(&out[0])))); err != nil {
		return nil, err
	}
	return out, nil
}
