package accelerator

import (
	"context"
	"fmt"
	"math/bits"
	goruntime "runtime"
	"sync"

	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/vk"
)

// buffer is device memory owned by one view, a device.Buffer. It is mapped for direct
// host access on devices with unified memory; otherwise data moves through the view's
// staging buffers.
type buffer struct {
	view *View
	vb   *vk.Buffer
	host []byte // the memory of a strict CPU accelerator's buffer (vb is nil)
	size uint64
	// lastUse is the sequence number of the last batch of the view that used the buffer.
	lastUse uint64
	// readEpoch and writeEpoch are the view's barrier epochs of the last read and write.
	readEpoch, writeEpoch uint64
	// pins are the imports of host memory that the buffer's last large transfers went
	// through (pinned.go), kept for the next transfer of the same memory, ended by Free.
	pins []*vk.Buffer
}

// Size is the buffer's size in bytes.
func (b *buffer) Size() uint64 { return b.size }

// Bytes is the memory of a buffer of the strict CPU accelerator (StrictCPU), which its
// kernels read and write; nil for a Vulkan buffer and after Free.
func (b *buffer) Bytes() []byte { return b.host }

// stagingSize is the size of each of a view's staging buffers (stagingSlots of them): the
// host fills one while the device copies out of the others. They are host-cached memory,
// which the host reads fast (write-combined memory reads slowly) and writes as fast. It
// is a variable only so that tests can go through several with little data. A view
// allocates its staging buffers as copies need them, each as small as the copy allows
// (stagingSlot).
var stagingSize = 16 << 20

const stagingSlots = 4

// alloc is device.View.Alloc.
func (v *View) alloc(size uint64) (*buffer, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkTaking(); err != nil {
		return nil, err
	}
	if v.acc.strict { // memory of its own, apart from the Go slices
		v.inUse += size
		v.acc.hostBytes.Add(size)
		return &buffer{view: v, host: make([]byte, size), size: size}, nil
	}
	if v.stream == nil {
		return nil, &FeatureError{Accelerator: v.acc.path, Feature: "device buffers (the CPU uses host memory)"}
	}
	if max := v.acc.Limits().MaxMemoryAllocationSize; max != 0 && size > max {
		return nil, &AllocError{Accelerator: v.acc.path, Bytes: size, Limit: max}
	}
	dev, err := v.acc.device()
	if err != nil {
		return nil, err
	}
	kind := vk.MemDevice
	if v.acc.mapsBuffers() {
		kind = vk.MemShared
	}
	vb, err := dev.NewBuffer(size, kind)
	if err != nil {
		return nil, v.deviceError(err)
	}
	v.inUse += size
	return &buffer{view: v, vb: vb, size: size, readEpoch: ^uint64(0), writeEpoch: ^uint64(0)}, nil
}

// Free releases the buffer once the device no longer uses it.
func (b *buffer) Free() error {
	v := b.view
	v.mu.Lock()
	defer v.mu.Unlock()
	if b.host != nil {
		b.host = nil
		v.inUse -= b.size
		v.acc.hostBytes.Add(-b.size)
		return nil
	}
	if b.vb == nil {
		return nil
	}
	var err error
	if !v.closed {
		if err = v.waitSeq(context.Background(), b.lastUse); err != nil && v.stream != nil {
			v.stream.Drain() // a removed view: free nothing its submitted batches still use
		}
	}
	b.vb.Free()
	b.vb = nil
	v.inUse -= b.size
	for _, p := range b.pins {
		p.Free()
	}
	b.pins = nil
	return err
}

// Upload copies src into the buffer at byte offset off. It returns once src may be reused.
func (b *buffer) Upload(off uint64, src []byte) error {
	return b.transfer(off, len(src), (*View).countUp, func(m []byte) { parallelCopy(m, src) }, func(v *View) error {
		return v.pinned(b, src, func(lo, hi int) error { return b.uploadStaged(v, off+uint64(lo), src[lo:hi]) },
			func(imp *vk.Buffer, lo, n int) error {
				return v.recordCopy(imp, 0, b.vb, off+uint64(lo), uint64(n), nil, b)
			})
	})
}

// uploadStaged is Upload through the staging buffers; v.mu is held.
func (b *buffer) uploadStaged(v *View, off uint64, src []byte) error {
	for done := 0; done < len(src); {
		st, err := v.stagingSlot(min(len(src)-done, stagingSize))
		if err != nil {
			return err
		}
		n := min(len(src)-done, len(st.buf.Mapped()))
		parallelCopy(st.buf.Mapped()[:n], src[done:done+n])
		if err := v.recordCopy(st.buf, 0, b.vb, off+uint64(done), uint64(n), nil, b); err != nil {
			return err
		}
		st.seq = v.seq
		if err := v.submit(); err != nil {
			return err
		}
		done += n
	}
	return nil
}

// transfer moves n bytes at offset off between the host and the buffer with the view
// locked: direct copies through the mapping once the device is done with the buffer (unified
// memory), staged goes through the view's staging buffers otherwise; count records it.
func (b *buffer) transfer(off uint64, n int, count func(*View, int), direct func(mapped []byte), staged func(*View) error) error {
	if err := b.bounds(off, n); err != nil {
		return err
	}
	v := b.view
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return err
	}
	if err := v.removed(); err != nil {
		return err
	}
	defer count(v, n)
	if b.host != nil {
		direct(b.host[off : off+uint64(n)])
		return nil
	}
	if m := b.vb.Mapped(); m != nil {
		if err := v.waitSeq(context.Background(), b.lastUse); err != nil {
			return err
		}
		direct(m[off : off+uint64(n)])
		return nil
	}
	return v.deviceError(staged(v))
}

// Download copies the buffer's bytes at offset off into dst, after the commands that write
// them have run.
func (b *buffer) Download(off uint64, dst []byte) error {
	return b.transfer(off, len(dst), (*View).countDown, func(m []byte) { parallelCopy(dst, m) }, func(v *View) error {
		return v.pinned(b, dst, func(lo, hi int) error { return b.downloadStaged(v, off+uint64(lo), dst[lo:hi]) },
			func(imp *vk.Buffer, lo, n int) error {
				return v.recordCopy(b.vb, off+uint64(lo), imp, 0, uint64(n), b, nil)
			})
	})
}

// downloadStaged is Download through the staging buffers; v.mu is held.
func (b *buffer) downloadStaged(v *View, off uint64, dst []byte) error {
	// The device fills one staging buffer while the host drains the one before it.
	type pending struct {
		st       *staging
		seq      uint64
		at, size int
	}
	var prev *pending
	defer func() { // v.mu is held throughout: no other copy of the view marks a buffer
		for i := range v.staging {
			v.staging[i].draining = false
		}
	}()
	drain := func(p *pending) error {
		if err := v.waitSeq(context.Background(), p.seq); err != nil {
			return err
		}
		parallelCopy(dst[p.at:p.at+p.size], p.st.buf.Mapped()[:p.size])
		p.st.draining = false
		return nil
	}
	for done := 0; done < len(dst); {
		st, err := v.stagingSlot(min(len(dst)-done, stagingSize))
		if err != nil {
			return err
		}
		n := min(len(dst)-done, len(st.buf.Mapped()))
		if err := v.recordCopy(b.vb, off+uint64(done), st.buf, 0, uint64(n), b, nil); err != nil {
			return err
		}
		st.seq, st.draining = v.seq, true
		cur := &pending{st: st, seq: v.seq, at: done, size: n}
		if err := v.submit(); err != nil {
			return err
		}
		if prev != nil {
			if err := drain(prev); err != nil {
				return err
			}
		}
		prev = cur
		done += n
	}
	if prev != nil {
		return drain(prev)
	}
	return nil
}

func (b *buffer) bounds(off uint64, n int) error {
	if b.vb == nil && b.host == nil {
		return fmt.Errorf("goamp/accelerator: a %d-byte buffer used after Free: %w", b.size, ErrBufferFreed)
	}
	if off+uint64(n) > b.size {
		return fmt.Errorf("goamp/accelerator: %d bytes at offset %d overrun a %d-byte buffer", n, off, b.size)
	}
	return nil
}

// stagingSlot returns a staging buffer of at least need bytes (need <= stagingSize) that
// the device is done with; v.mu is held. It takes, in this order: an idle buffer large
// enough (the one whose last use is oldest), a slot not allocated yet, given a buffer of
// need bytes rounded up to a power of two (at least minStaging, at most stagingSize), or
// the buffer whose last use is oldest, after waiting for that use, replaced by a larger
// one if it is too small. So a process that moves little data allocates little staging
// memory: on the H100, allocating a 16 MiB staging buffer took about 4 ms, most of a first
// small MatMul's time (RESULTS.md).
func (v *View) stagingSlot(need int) (*staging, error) {
	var idle, free, oldest *staging
	for i := range v.staging {
		s := &v.staging[i]
		switch {
		case s.buf == nil:
			if free == nil {
				free = s
			}
		case len(s.buf.Mapped()) >= need && !s.draining && v.seqDone(s.seq) && (idle == nil || s.seq < idle.seq):
			idle = s
		}
		if s.buf != nil && !s.draining && (oldest == nil || s.seq < oldest.seq) {
			oldest = s
		}
	}
	if idle != nil {
		return idle, nil
	}
	s := free
	if s == nil {
		s = oldest
		if err := v.waitSeq(context.Background(), s.seq); err != nil {
			return nil, err
		}
		if len(s.buf.Mapped()) >= need {
			return s, nil
		}
		v.inUse -= uint64(len(s.buf.Mapped()))
		s.buf.Free()
		s.buf = nil
	}
	dev, err := v.acc.device()
	if err != nil {
		return nil, err
	}
	size := max(minStaging, 1<<bits.Len(uint(need-1)))
	if s.buf, err = dev.NewBuffer(uint64(min(size, stagingSize)), vk.MemDownload); err != nil {
		return nil, v.deviceError(err)
	}
	v.inUse += uint64(len(s.buf.Mapped()))
	return s, nil
}

// minStaging is the smallest staging buffer a view allocates.
const minStaging = 64 << 10

// seqDone reports, without waiting, whether the commands of batch seq have run (0: no
// batch); v.mu is held.
func (v *View) seqDone(seq uint64) bool {
	if seq == 0 {
		return true
	}
	if seq >= v.seq {
		return false // not submitted yet
	}
	b := v.batchOf(seq)
	return b == nil || b.Done() // nil: pruned, it finished
}

// recordCopy records a buffer copy; read and written name the tracked buffers involved
// (nil for staging buffers, which are tracked by sequence number); v.mu is held.
func (v *View) recordCopy(src *vk.Buffer, srcOff uint64, dst *vk.Buffer, dstOff, n uint64, read, written *buffer) error {
	if (read != nil && v.hazard(read, device.Read)) || (written != nil && v.hazard(written, device.Write)) {
		if err := v.stream.Barrier(); err != nil {
			return err
		}
		v.clearHazards()
	}
	if read != nil {
		v.track(read, device.Read)
	}
	if written != nil {
		v.track(written, device.Write)
	}
	return v.stream.Copy(src, srcOff, dst, dstOff, n)
}

// hazard reports whether using b with access acc must wait for earlier commands of the
// view: a read after a write, or a write after a read or write, since the last barrier;
// v.mu is held. Buffers remember the barrier epoch in which they were last read and
// written, so the check allocates nothing.
func (v *View) hazard(b *buffer, acc device.Access) bool {
	w := b.writeEpoch == v.epoch
	if acc&device.Write != 0 {
		return w || b.readEpoch == v.epoch
	}
	return w
}

// clearHazards starts a new barrier epoch: nothing recorded before it is a hazard.
func (v *View) clearHazards() { v.epoch++ }

func (v *View) track(b *buffer, acc device.Access) {
	if acc&device.Read != 0 {
		b.readEpoch = v.epoch
	}
	if acc&device.Write != 0 {
		b.writeEpoch = v.epoch
	}
	b.lastUse = v.seq
}

// parallelCopy copies with several goroutines for large sizes, since one core cannot fill
// the memory bandwidth that a staging copy needs.
func parallelCopy(dst, src []byte) {
	const chunk = 1 << 20
	if len(src) < 2*chunk {
		copy(dst, src)
		return
	}
	var wg sync.WaitGroup
	parts := min(goruntime.GOMAXPROCS(0), 16, len(src)/chunk)
	step := (len(src) + parts - 1) / parts
	for i := 0; i < len(src); i += step {
		j := min(i+step, len(src))
		wg.Add(1)
		go func() {
			defer wg.Done()
			copy(dst[i:j], src[i:j])
		}()
	}
	wg.Wait()
}
