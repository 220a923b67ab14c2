package accelerator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/goamp/goamp/internal/vk"
)

// QueuingMode says when a view submits the commands it records.
type QueuingMode int

const (
	// Automatic batches commands and submits them when the host needs a result, on Flush or
	// Wait, or when the batch grows large (C++ AMP queuing_mode_automatic).
	Automatic QueuingMode = iota
	// Immediate submits every command as soon as it is recorded (queuing_mode_immediate).
	Immediate
)

func (m QueuingMode) String() string {
	if m == Immediate {
		return "immediate"
	}
	return "automatic"
}

// maxBatch is the number of commands after which an automatic view submits on its own.
const maxBatch = 512

// View is a C++ AMP accelerator_view: a queue of one accelerator with its command stream.
// Its methods are safe for concurrent use.
type View struct {
	acc  *Accelerator
	mode QueuingMode
	id   uint64 // numbers the views of the process, from 1, for String

	mu     sync.Mutex
	closed bool
	// closing is set when Close begins: from then on the view takes no new work (dispatch,
	// alloc, atCloseOpen) while the functions registered with atClose bring data home.
	closing bool
	stream  *vk.Stream
	seq     uint64 // sequence number of the batch being recorded
	// pinStats counts the transfers through imported host memory (pinned.go).
	pinStats pinnedStats
	batches  []seqBatch
	epoch    uint64 // barrier epoch: bumped by every barrier recorded (see hazard)
	binds    []vk.Binding
	staging  [stagingSlots]staging
	inUse    uint64 // bytes of the view's buffers (alloc and staging) not yet freed

	stats Stats

	closersMu sync.Mutex
	closers   []*closer
	// hostWork counts the dispatches running on the host for the view (startHostWork),
	// which Close waits for.
	hostWork sync.WaitGroup
}

type seqBatch struct {
	seq   uint64
	batch *vk.Batch
}

type staging struct {
	buf *vk.Buffer
	seq uint64
	// draining is set while a download still has to copy the buffer's contents to the
	// host: the device may be done with it, but it is not free.
	draining bool
}

// Stats count what moved between the host and a view. Read them with View.Stats.
type Stats struct {
	// BytesUp and BytesDown count the bytes copied to the device and back to the host.
	BytesUp, BytesDown uint64
	// TransfersUp and TransfersDown count those copies.
	TransfersUp, TransfersDown uint64
	// Dispatches counts the kernels dispatched; Submits the batches of commands submitted
	// to the device's queue.
	Dispatches, Submits uint64
	// Replays counts the submits that sent an earlier small batch again instead of
	// recording the same commands anew (a dispatch-and-wait loop, for one).
	Replays uint64
}

// Accelerator is the view's accelerator.
func (v *View) Accelerator() *Accelerator { return v.acc }

// Mode is the view's queuing mode.
func (v *View) Mode() QueuingMode { return v.mode }

// String names the view: its accelerator, a number that tells the views of the process
// apart, and its queuing mode, e.g. "vulkan:0 view 3 (automatic)".
func (v *View) String() string { return fmt.Sprintf("%s view %d (%s)", v.acc.path, v.id, v.mode) }

// viewIDs numbers the views.
var viewIDs atomic.Uint64

// openErr is device.View.CheckOpen.
func (v *View) openErr() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.checkOpen()
}

// startHostWork registers a dispatch that runs on the host over the view's buffers (the
// strict CPU accelerator's), so that Close waits for it before it brings the view's data
// home: call done when it has run. It returns an error matching ErrViewClosed, and
// registers nothing, once Close has begun.
func (v *View) startHostWork() (done func(), err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkTaking(); err != nil {
		return nil, err
	}
	v.hostWork.Add(1)
	return v.hostWork.Done, nil
}

// countDispatch counts a kernel run on the host for this view in Stats().Dispatches (a
// Vulkan view counts its own in dispatch).
func (v *View) countDispatch() { atomic.AddUint64(&v.stats.Dispatches, 1) }

// Stats returns the transfer and dispatch counters of the view.
func (v *View) Stats() Stats {
	return Stats{
		BytesUp: atomic.LoadUint64(&v.stats.BytesUp), BytesDown: atomic.LoadUint64(&v.stats.BytesDown),
		TransfersUp: atomic.LoadUint64(&v.stats.TransfersUp), TransfersDown: atomic.LoadUint64(&v.stats.TransfersDown),
		Dispatches: atomic.LoadUint64(&v.stats.Dispatches), Submits: atomic.LoadUint64(&v.stats.Submits),
		Replays: atomic.LoadUint64(&v.stats.Replays),
	}
}

// CountUp adds a host-to-device transfer of n bytes to the view's counters (used by the
// CPU view, whose "transfers" are no-ops, and by Upload).
func (v *View) countUp(n int) {
	atomic.AddUint64(&v.stats.BytesUp, uint64(n))
	atomic.AddUint64(&v.stats.TransfersUp, 1)
}

func (v *View) countDown(n int) {
	atomic.AddUint64(&v.stats.BytesDown, uint64(n))
	atomic.AddUint64(&v.stats.TransfersDown, 1)
}

// DefaultView returns the accelerator's default view (automatic queuing), creating it on first use.
func (a *Accelerator) DefaultView() (*View, error) {
	a.mu.Lock()
	if a.def != nil {
		d := a.def
		a.mu.Unlock()
		return d, nil
	}
	a.mu.Unlock()
	v, err := a.CreateView(Automatic)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	if a.def == nil {
		a.def = v
		a.mu.Unlock()
		return v, nil
	}
	d := a.def
	a.mu.Unlock()
	_ = v.Close() // another goroutine's view won; Close locks a.mu itself
	return d, nil
}

// CreateView creates a new view with its own command stream on one of the device's compute
// queues (shared round robin when the device has fewer queues than views).
func (a *Accelerator) CreateView(mode QueuingMode) (*View, error) {
	v := &View{acc: a, mode: mode, seq: 1, id: viewIDs.Add(1)}
	if a.info == nil { // the goroutine accelerator: no device, no stream
		return v, nil
	}
	dev, err := a.device()
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	q := dev.Queues()[a.nextQ%len(dev.Queues())]
	a.nextQ++
	a.mu.Unlock()
	v.stream, err = dev.NewStream(q)
	if err != nil {
		return nil, fmt.Errorf("goamp/accelerator: %s: %w", a.path, err)
	}
	return v, nil
}

// checkOpen returns the error of an operation on the view if it is closed, or removed by a
// failed submit or wait (a *DeviceError); v.mu is held.
func (v *View) checkOpen() error {
	if v.closed {
		return fmt.Errorf("%w: %s", ErrViewClosed, v)
	}
	return v.removed()
}

// Flush submits the recorded commands without waiting for them.
func (v *View) Flush() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return err
	}
	return v.submit()
}

// Wait submits the recorded commands and waits until the device has run everything
// submitted on this view. On a GPU it polls for up to 2 ms before it blocks, since a
// blocked wait wakes up tens of microseconds late; the waiting goroutine keeps a core busy
// meanwhile.
func (v *View) Wait() error { return v.WaitContext(context.Background()) }

// WaitContext is Wait with a context that bounds the wait.
func (v *View) WaitContext(ctx context.Context) error {
	b, err := v.submitLast()
	if err != nil {
		return err
	}
	return v.deviceError(b.Wait(ctx))
}

// submitLast submits the recorded commands and returns the last batch (nil: none, or no
// device stream).
func (v *View) submitLast() (*vk.Batch, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return nil, err
	}
	if err := v.submit(); err != nil {
		return nil, err
	}
	if v.stream == nil {
		return nil, nil
	}
	return v.stream.Last(), nil
}

// Marker is a point in a view's command stream (C++ AMP create_marker).
type Marker struct {
	batch *vk.Batch
}

// Wait blocks until every command recorded before the marker has run, or ctx is done.
func (m *Marker) Wait(ctx context.Context) error { return m.batch.Wait(ctx) }

// Done reports whether the commands before the marker have run.
func (m *Marker) Done() bool { return m.batch.Done() }

// CreateMarker submits the recorded commands and returns a marker after them.
func (v *View) CreateMarker() (*Marker, error) {
	b, err := v.submitLast()
	if err != nil {
		return nil, err
	}
	return &Marker{batch: b}, nil
}

// atClose registers f to run when the view is closed, before it stops taking work, so that
// caches of device data kept per view (the built-in kernels' scratch memory, the array
// views' device copies, which bring what a kernel computed home) can save and free it. The
// function it returns unregisters f, for a cache that frees its memory before the view
// closes; it may be called more than once.
func (v *View) atClose(f func()) (cancel func()) {
	c := &closer{f: f}
	v.closersMu.Lock()
	v.closers = append(v.closers, c)
	v.closersMu.Unlock()
	return func() {
		v.closersMu.Lock()
		defer v.closersMu.Unlock()
		for i, x := range v.closers {
			if x == c {
				v.closers = append(v.closers[:i], v.closers[i+1:]...)
				return
			}
		}
	}
}

// atCloseOpen is atClose for a cache that is about to keep data on the view: where the
// view is closing or closed, so that f might never run, it registers nothing and returns
// the error (ErrViewClosed) instead.
func (v *View) atCloseOpen(f func()) (cancel func(), err error) {
	cancel = v.atClose(f)
	v.mu.Lock()
	err = v.checkTaking()
	v.mu.Unlock()
	if err != nil {
		cancel()
		return nil, err
	}
	return cancel, nil
}

// checkTaking is checkOpen for new work: it fails from the start of Close; v.mu is held.
func (v *View) checkTaking() error {
	if v.closing {
		return fmt.Errorf("%w: %s (closing)", ErrViewClosed, v)
	}
	return v.checkOpen()
}

// closer is a function registered with atClose.
type closer struct{ f func() }

// Close runs the functions registered for the view's caches of device data, waits for the view's work and releases
// its stream and staging memory. The default view of an accelerator should not be closed
// while the program still uses it.
func (v *View) Close() error {
	// Take no new work first: a dispatch or a cache's registration in the middle of Close
	// would find its data brought home and its buffers freed (ErrViewClosed instead).
	v.mu.Lock()
	if v.closed || v.closing {
		v.mu.Unlock()
		return nil
	}
	v.closing = true
	v.mu.Unlock()
	v.hostWork.Wait() // the host's dispatches first: they write the data the closers bring home
	v.closersMu.Lock()
	closers := v.closers
	v.closers = nil
	v.closersMu.Unlock()
	for _, c := range closers {
		c.f()
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	err := v.submit()
	var de *DeviceError
	if errors.As(err, &de) && de.Earlier {
		// The view was removed and the caller told so before: its open batch can never run,
		// and closing it is how the caller moves on (DeviceError), so Close succeeds.
		err = nil
	}
	v.closed = true
	if v.stream != nil {
		v.stream.Destroy()
		for _, s := range v.staging {
			if s.buf != nil {
				v.inUse -= uint64(len(s.buf.Mapped()))
				s.buf.Free()
			}
		}
	}
	v.acc.mu.Lock()
	if v.acc.def == v {
		v.acc.def = nil
	}
	v.acc.mu.Unlock()
	return err
}

// submit sends the open batch; v.mu is held.
func (v *View) submit() (err error) {
	if v.stream == nil || v.stream.Commands() == 0 {
		return nil
	}
	replays := v.stream.Replays()
	b, err := v.stream.Submit()
	if b == nil {
		return v.deviceError(err) // nothing submitted
	}
	// A batch can be submitted and the stream found failed in the same call (Submit polls
	// the batches in flight once the batch is on the queue): the batch is recorded all the
	// same, under its sequence number, so that freeing a buffer it uses waits for it. (A
	// forced-staging CI run destroyed a buffer that such a batch was still copying.)
	defer func() {
		if err != nil {
			err = v.deviceError(err)
		}
	}()
	atomic.AddUint64(&v.stats.Submits, 1)
	if v.stream.Replays() != replays {
		atomic.AddUint64(&v.stats.Replays, 1)
	}
	v.batches = append(v.batches, seqBatch{v.seq, b})
	v.seq++
	// Forget finished batches from the front (moving the rest down, so that appending
	// reuses the array).
	i := 0
	for i < len(v.batches)-1 && v.batches[i].batch.Done() {
		i++
	}
	if i > 0 {
		n := copy(v.batches, v.batches[i:])
		clear(v.batches[n:])
		v.batches = v.batches[:n]
	}
	// A new batch starts with no hazards pending from the host's point of view, but the
	// device may still run the previous batch: keep the barrier sets, since batches on one
	// queue may overlap without a barrier.
	return err
}

// waitSeq waits until the batch with sequence number seq has run; v.mu is held.
func (v *View) waitSeq(ctx context.Context, seq uint64) error {
	if seq == 0 {
		return nil
	}
	if seq >= v.seq {
		if err := v.submit(); err != nil {
			return err
		}
	}
	if b := v.batchOf(seq); b != nil {
		if err := b.Wait(ctx); err != nil {
			return v.deviceError(err)
		}
	}
	return nil
}

// batchOf returns the submitted batch of sequence number seq, or nil when it was pruned
// (it finished); v.mu is held.
func (v *View) batchOf(seq uint64) *vk.Batch {
	for _, sb := range v.batches {
		if sb.seq == seq {
			return sb.batch
		}
		if sb.seq > seq {
			break
		}
	}
	return nil
}
