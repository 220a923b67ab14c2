package vk

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"
	"sync/atomic"
	"time"
)

type cmdBuf struct {
	cb    vkCommandBuffer
	fence vkFence // 0 on devices with timeline semaphores
	// pinned: the stream keeps this command buffer recorded to submit it again (replay),
	// so a finished batch of it does not return it to the free list.
	pinned bool
	// On a device that does not push descriptors, the pools of the descriptor sets its
	// dispatches bind: the first npools are in use, and the last of those has setsLeft sets
	// and descsLeft descriptors left. They are reset when the command buffer is reused.
	pools               []vkDescriptorPool
	npools              int
	setsLeft, descsLeft int
}

// The size of one descriptor pool: poolSets sets of poolDescriptors storage buffers in all.
const (
	poolSets        = 64
	poolDescriptors = 512
)

// descriptorPool returns the pool that c's next set of n descriptors comes from, taking
// another pool (made the first time) when the one in use has too little left.
func (s *Stream) descriptorPool(c *cmdBuf, n int) (vkDescriptorPool, error) {
	if c.npools == 0 || c.setsLeft == 0 || c.descsLeft < n {
		if c.npools == len(c.pools) {
			p, r := s.drv.createDescriptorPool(poolSets, poolDescriptors)
			if r != vkSuccess {
				return 0, &Error{Op: "vkCreateDescriptorPool", Result: r}
			}
			c.pools = append(c.pools, p)
		}
		c.npools++
		c.setsLeft, c.descsLeft = poolSets, poolDescriptors
	}
	c.setsLeft--
	c.descsLeft -= n
	return c.pools[c.npools-1], nil
}

// bindSet binds binds through a descriptor set of p's layout, allocated from the open
// command buffer's pools (descriptorPool); a set must not be written once bound, so each
// change of bindings takes a new one. It reports whether it could; a failure fails the
// stream.
func (s *Stream) bindSet(cb vkCommandBuffer, p *Pipeline, binds []Binding) bool {
	pool, err := s.descriptorPool(s.open, len(binds))
	if err != nil {
		s.fail(err.(*Error))
		return false
	}
	set, r := s.drv.allocateDescriptorSet(pool, p.dsl)
	if r != vkSuccess {
		s.fail(&Error{Op: "vkAllocateDescriptorSets", Result: r})
		return false
	}
	s.drv.writeDescriptorSet(set, binds)
	s.drv.bindDescriptorSet(cb, p.layout, set)
	return true
}

// resetDescriptorPools frees the descriptor sets of c, whose batch has run.
func (s *Stream) resetDescriptorPools(c *cmdBuf) error {
	for _, p := range c.pools[:c.npools] {
		if err := check("vkResetDescriptorPool", s.drv.resetDescriptorPool(p)); err != nil {
			return err
		}
	}
	c.npools = 0
	return nil
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
	wait    batchWait // what polls and waits pass to Vulkan; b.mu is held
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
	drv      *cmdDriver
	queue    *Queue
	pool     vkCommandPool
	open     *cmdBuf
	commands int
	free     []*cmdBuf
	inflight []*Batch
	last     *Batch
	// recorded is how many of the open batch's commands are recorded into its command
	// buffer: the commands of a batch that may be replayed wait in the log (Submit records
	// them unless it replays), the others are recorded as they come.
	recorded int
	// sem is the stream's timeline semaphore (0 on devices without them, which use a
	// fence per command buffer); batch n signals value n.
	sem   vkSemaphore
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
	qp         vkQueryPool
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
	s := &Stream{dev: dev, drv: newCmdDriver(dev), queue: q, match: -1}
	var r int32
	if s.pool, r = s.drv.createPool(uint32(dev.info.ComputeFamily)); r != vkSuccess {
		return nil, check("vkCreateCommandPool", r)
	}
	if dev.info.TimelineSemaphore {
		if s.sem, r = s.drv.createSemaphore(); r != vkSuccess {
			s.drv.destroyPool(s.pool)
			return nil, check("vkCreateSemaphore", r)
		}
	}
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
		if c.fence != 0 {
			if err := check("vkResetFences", s.drv.resetFence(c.fence)); err != nil {
				return err
			}
		}
		if err := s.resetDescriptorPools(c); err != nil {
			return err
		}
	} else {
		var err error
		if c, err = s.newCmdBuf(); err != nil {
			return err
		}
	}
	if err := check("vkBeginCommandBuffer", s.drv.begin(c.cb)); err != nil {
		s.free = append(s.free, c)
		return err
	}
	s.open = c
	s.commands, s.recorded = 0, 0
	s.resetBound()
	if s.qp != 0 {
		s.drv.resetQueries(c.cb, s.qp, uint32(s.qcount))
		s.qnext = 0
	}
	s.startLog()
	return nil
}

// newCmdBuf allocates a command buffer, with its fence on devices without timeline
// semaphores.
func (s *Stream) newCmdBuf() (*cmdBuf, error) {
	c := &cmdBuf{}
	var r int32
	if c.cb, r = s.drv.allocCommandBuffer(s.pool); r != vkSuccess {
		return nil, check("vkAllocateCommandBuffers", r)
	}
	if s.sem == 0 {
		if c.fence, r = s.drv.createFence(); r != vkSuccess {
			return nil, check("vkCreateFence", r)
		}
	}
	return c, nil
}

// MaxInFlight is how many submitted batches a stream lets run ahead of the host: the next
// batch waits for the oldest to finish. A host that records faster than the device runs
// would otherwise queue without end, each batch holding a command buffer (and the driver's
// memory behind it) that is kept for reuse: on the H100 a soak of small dispatches that
// never waited grew the process by 60 MiB a round, and lavapipe's by 70 MiB with 8,700
// batches queued (RESULTS.md). CUDA bounds its launch queue in the same way.
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
	s.replayable = s.qp == 0
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

// note adds c, filled in by fill, to the open batch's log while the batch may be kept
// for replay, and follows whether the batch so far is the start of the replay batch. It
// reports whether it logged the command, which is then recorded later (recordLog); a
// command that does not fit the log makes the batch one that is not kept, and records
// the commands logged so far.
func (s *Stream) note(fits bool, fill func(c *command)) bool {
	if !s.replayable {
		return false
	}
	if !fits || s.nlog == maxReplay {
		s.replayable, s.match = false, -1
		s.recordLog()
		return false
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
	return true
}

// recordLog records the logged commands not yet recorded into the open command buffer.
func (s *Stream) recordLog() {
	for ; s.recorded < s.nlog; s.recorded++ {
		switch c := &s.log[s.recorded]; c.kind {
		case cmdDispatch:
			s.recordDispatch(c.pipe, c.binds[:c.nbind], c.push[:c.npush], c.groups, c.barrier)
		case cmdBarrier:
			s.recordBarrier()
		case cmdCopy:
			s.recordCopy(c.src, c.srcOff, c.dst, c.dstOff, c.size)
		}
	}
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
	if s.note(len(binds) <= replayBinds && len(push) <= replayPush, func(c *command) {
		c.kind, c.pipe, c.groups, c.barrier = cmdDispatch, p, groups, barrier
		c.nbind = uint8(copy(c.binds[:], binds))
		c.npush = uint8(copy(c.push[:], push))
	}) {
		return nil
	}
	s.recordDispatch(p, binds, push, groups, barrier)
	s.recorded++
	return s.Err()
}

// recordDispatch records a dispatch with what it needs before it: the barrier, and the
// pipeline, descriptors and push constants that differ from those bound. A descriptor set
// it cannot allocate fails the stream (Err), and the dispatch is not recorded.
func (s *Stream) recordDispatch(p *Pipeline, binds []Binding, push []byte, groups [3]uint32, barrier bool) {
	cb := s.open.cb
	if barrier {
		s.drv.barrier(cb, s.copied)
		s.copied = false
	}
	query := -1
	if s.qp != 0 && s.qnext+2 <= s.qcount {
		query = s.qnext
		s.qnext += 2
		s.drv.timestamp(cb, false, s.qp, uint32(query))
	}
	if s.boundPipe != p {
		s.drv.bindPipeline(cb, p.pipe)
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
		if len(binds) > 0 && p.pushDescriptors {
			s.drv.pushDescriptors(cb, p.layout, binds)
		} else if len(binds) > 0 && !s.bindSet(cb, p, binds) {
			s.boundPipe = nil
			return
		}
		s.boundN = copy(s.boundBinds[:], binds)
	}
	// Push constants persist between dispatches of one pipeline: push only changes.
	if !(s.boundPipe == p && s.pushN == len(push) && string(s.boundPush[:s.pushN]) == string(push)) {
		if len(push) > 0 {
			s.drv.pushConstants(cb, p.layout, push)
		}
		s.pushN = copy(s.boundPush[:], push)
	}
	s.boundPipe = p
	s.drv.dispatch(cb, groups)
	if query >= 0 {
		s.drv.timestamp(cb, true, s.qp, uint32(query+1))
	}
}

// Barrier records a full compute/transfer memory barrier.
func (s *Stream) Barrier() error {
	if err := s.ready(); err != nil {
		return err
	}
	s.commands++
	if s.note(true, func(c *command) { c.kind = cmdBarrier }) {
		return nil
	}
	s.recordBarrier()
	s.recorded++
	return nil
}

func (s *Stream) recordBarrier() {
	s.drv.barrier(s.open.cb, true)
	s.copied = false
}

// Copy records a buffer-to-buffer copy.
func (s *Stream) Copy(src *Buffer, srcOff uint64, dst *Buffer, dstOff, size uint64) error {
	if err := s.ready(); err != nil {
		return err
	}
	s.commands++
	if s.note(true, func(c *command) {
		c.kind, c.src, c.srcOff, c.dst, c.dstOff, c.size = cmdCopy, src, srcOff, dst, dstOff, size
	}) {
		return nil
	}
	s.recordCopy(src, srcOff, dst, dstOff, size)
	s.recorded++
	return nil
}

func (s *Stream) recordCopy(src *Buffer, srcOff uint64, dst *Buffer, dstOff, size uint64) {
	s.drv.copyBuffer(s.open.cb, src.buf, dst.buf, srcOff, dstOff, size)
	s.copied = true
	s.hostWrites = s.hostWrites || dst.mapped != nil || dst.pinned != nil
}

// canReplay reports whether the open batch is the replay batch, and that one has finished.
// (The replay log holds its buffers and pipelines, so none of them can have been freed and
// another allocated in its place: a batch that uses a freed one is the caller's error.)
func (s *Stream) canReplay() bool {
	return s.match > 0 && s.recorded == 0 && s.match == s.commands && s.match == s.repN && s.repBatch.Done()
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
		// Drop the logged commands (submitted, or lost with a failed submit): the open
		// command buffer stays open, empty, for the next batch.
		s.commands, s.recorded = 0, 0
		if err != nil {
			return nil, err
		}
		s.repBatch = b
		s.replays++
		s.resetBound()
		s.startLog()
		return b, s.Err()
	}
	s.recordLog()
	c := s.open
	s.open = nil
	if err := s.Err(); err != nil { // a dispatch could not be recorded
		s.free = append(s.free, c)
		s.commands = 0
		return nil, err
	}
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
	if s.qp == 0 {
		if err := s.begin(); err != nil {
			return b, err
		}
	}
	// A batch found failed meanwhile (begin polls the batches in flight) fails the stream.
	return b, s.Err()
}

// submit submits command buffer c (closing it first with end) and tracks the batch.
func (s *Stream) submit(c *cmdBuf, end bool) (*Batch, error) {
	if c.fence != 0 && !end {
		// Submitted again: its previous batch finished; the fence is still signaled.
		if err := check("vkResetFences", s.drv.resetFence(c.fence)); err != nil {
			return nil, err
		}
	}
	value := s.value + 1
	if res, ok := fault(FaultSubmit); ok {
		err := &Error{Op: "vkQueueSubmit", Result: res}
		s.fail(err)
		s.drv.drop()
		return nil, err
	}
	// A batch that may write host-visible memory ends with a barrier that makes those
	// writes visible to the host. A command buffer submitted again is closed already.
	s.queue.mu.Lock()
	r := s.drv.submit(s.queue.q, c.cb, end, s.hostWrites, c.fence, s.sem, value)
	s.queue.mu.Unlock()
	if r != vkSuccess {
		err := &Error{Op: "vkQueueSubmit", Result: r}
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
	if s.qp != 0 {
		s.drv.destroyQueryPool(s.qp)
		s.qp = 0
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
		if c.fence != 0 {
			s.drv.destroyFence(c.fence)
		}
		for _, p := range c.pools {
			s.drv.destroyDescriptorPool(p)
		}
	}
	if s.sem != 0 {
		s.drv.destroySemaphore(s.sem)
		s.sem = 0
	}
	s.drv.destroyPool(s.pool)
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
	var r int32
	if s := b.s; s.sem != 0 {
		if s.seen.Load() >= b.value {
			b.finished()
			return true
		}
		// Read into the batch's own memory: the poll loop must not allocate.
		if r = s.drv.semaphoreValue(s.sem, &b.wait); r == vkSuccess {
			v := b.wait.counter
			s.seen.Store(v)
			if v >= b.value {
				b.finished()
			}
			return b.done
		}
	} else if r = s.drv.fenceStatus(b.cb.fence); r == vkSuccess {
		b.finished()
		return true
	} else if r == vkNotReady {
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
		b.failed(res)
		return
	}
	if e := b.s.failed.Load(); e != nil && e.Result == ResultDeviceLost {
		b.err = e
	}
}

// failed records that waiting for the batch failed with r; b.mu is held. The batch will
// never finish, and its stream is failed.
func (b *Batch) failed(r int32) {
	e := &Error{Op: "waiting for a batch", Result: r}
	b.err, b.done = e, true
	b.s.fail(e)
}

// block waits up to timeout for the batch; it reports whether the wait timed out. b.mu is held.
func (b *Batch) block(timeout time.Duration) bool {
	s := b.s
	var r int32
	if s.sem != 0 {
		r = s.drv.waitSemaphore(s.sem, b.value, uint64(timeout), &b.wait)
	} else {
		r = s.drv.waitFence(b.cb.fence, uint64(timeout), &b.wait)
	}
	switch r {
	case vkSuccess:
		b.finished()
	case vkTimeout:
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
	if s.qp != 0 || n <= 0 {
		return nil
	}
	if s.open != nil && s.commands > 0 {
		return errors.New("goamp/vk: enable timestamps between batches (submit first)")
	}
	qp, r := s.drv.createQueryPool(uint32(2 * n))
	if err := check("vkCreateQueryPool", r); err != nil {
		return err
	}
	s.qp = qp
	s.qcount = 2 * n
	s.replayable, s.match = false, -1
	if s.open != nil {
		// The command buffer opened early after the last submit: reset the queries in it.
		s.drv.resetQueries(s.open.cb, s.qp, uint32(s.qcount))
		s.qnext = 0
	}
	return nil
}

// Timestamps returns the raw begin/end timestamp pairs of the last batch's profiled dispatches.
// The batch must have finished.
func (s *Stream) Timestamps() ([]uint64, error) {
	if s.qp == 0 || s.last == nil || s.last.queries == 0 {
		return nil, nil
	}
	out := make([]uint64, s.last.queries)
	if err := check("vkGetQueryPoolResults", s.drv.queryResults(s.qp, out)); err != nil {
		return nil, err
	}
	return out, nil
}

// Queue returns the queue the stream submits to.
func (s *Stream) Queue() *Queue { return s.queue }
