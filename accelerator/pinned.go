package accelerator

import (
	"context"
	"os"
	"unsafe"

	"github.com/goamp/goamp/internal/vk"
)

// Pinned transfers. Where data moves by staging copies (a discrete GPU, or
// GOAMP_FORCE_STAGING=1) and the device has VK_EXT_external_memory_host, an Upload or
// Download of at least pinMin bytes imports the pages of the caller's slice itself as host
// memory (vk.Device.ImportHost) and copies between them and the buffer with one copy
// command, at the bus's rate, with no copy through a staging buffer on the host. The
// import covers the slice's interior aligned to the device's minImportedHostPointerAlignment
// (Limits: HostImportAlign); the ragged ends before and after it go through the staging
// buffers. Where the import fails (a driver that refuses the memory), the whole transfer
// goes through the staging buffers.
//
// Lifetime: an Upload or Download submits the copy and waits for it before it returns,
// so the device never touches the slice outside the call: the slice's contents rules stay
// as documented (Upload returns once src may be reused; Download once dst holds the
// data). Importing pins pages, which costs the driver time, so a buffer keeps the imports
// of its last maxPins distinct slices for the next transfer of the same memory (an
// arrayview source synchronizes the same slice again and again) and ends them when it is
// freed (Free; an arrayview source frees its buffers when its last view is closed or its
// device copy is evicted). A kept import holds a reference to its slice, so Go's collector
// can neither free nor reuse that memory while the device may refer to it (and it does
// not move heap objects): the import never outlives the Go memory it maps. The cost is
// that a buffer keeps the slices of its last large transfers alive until it is freed.
// Host writes to the slice between transfers need nothing: the import is the slice's own
// pages, read at the next copy.

// EnvNoPinned, set to "1", turns the pinned path off (every transfer is staged): for
// comparisons (BenchmarkTransfer) and as a way around a driver that misbehaves.
const EnvNoPinned = "GOAMP_NO_PINNED"

// pinMin is the smallest transfer that goes through an import: below it, importing (and
// pinning pages) costs more than the staging copy saves.
var pinMin = 4 << 20

// noPinned is EnvNoPinned's setting; tests change it.
var noPinned = os.Getenv(EnvNoPinned) == "1"

// pinnedStats counts the transfers that went through an import, the imports made, and
// the transfers that fell back to staging after an import failed (tests read them).
type pinnedStats struct{ imported, imports, fellBack, bytes uint64 }

// pinnedSpan returns the interior [lo, hi) of p whose address and length are multiples of
// align, or lo == hi when it is shorter than pinMin (or align is 0).
func pinnedSpan(p []byte, align uint64) (lo, hi int) {
	if align == 0 || len(p) < pinMin {
		return 0, 0
	}
	base := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(p))))
	lo = int((align - base%align) % align)
	if lo >= len(p) {
		return 0, 0
	}
	hi = lo + int(uint64(len(p)-lo)/align*align)
	if hi-lo < pinMin {
		return 0, 0
	}
	return lo, hi
}

// maxPins is the number of imports a buffer keeps.
const maxPins = 2

// pinned moves p through an import of its aligned interior, calling staged for the ranges
// of p that go through the staging buffers and copy to record the interior's copy command
// (imp holds p[lo:lo+n]); v.mu is held. It returns once the copy has run.
func (v *View) pinned(b *buffer, p []byte, staged func(lo, hi int) error, copy func(imp *vk.Buffer, lo, n int) error) error {
	dev, err := v.acc.device()
	if err != nil {
		return err
	}
	lo, hi := pinnedSpan(p, dev.HostImportAlign())
	if noPinned || lo == hi {
		return staged(0, len(p))
	}
	imp, err := b.pin(dev, p[lo:hi])
	if err != nil {
		v.pinStats.fellBack++
		return staged(0, len(p))
	}
	err = copy(imp, lo, hi-lo)
	seq := v.seq // the batch being recorded holds the copy
	if err == nil {
		err = v.submit()
	}
	if err == nil && lo > 0 {
		err = staged(0, lo)
	}
	if err == nil && hi < len(p) {
		err = staged(hi, len(p))
	}
	if werr := v.waitSeq(context.Background(), seq); err == nil {
		err = werr
	}
	if err != nil {
		// The import stays in b.pins: Free ends it once the device is done with b.
		return err
	}
	v.pinStats.imported++
	v.pinStats.bytes += uint64(hi - lo)
	return nil
}

// pin returns b's import of q, importing it (and ending b's oldest import past maxPins,
// which no copy uses: every transfer waits for its copies) if b has none; v.mu is held.
func (b *buffer) pin(dev *vk.Device, q []byte) (*vk.Buffer, error) {
	for i, x := range b.pins {
		if x.Pins(q) {
			b.pins = append(append(b.pins[:i:i], b.pins[i+1:]...), x) // most recent last
			return x, nil
		}
	}
	imp, err := dev.ImportHost(q)
	if err != nil {
		return nil, err
	}
	b.view.pinStats.imports++
	if len(b.pins) == maxPins {
		b.pins[0].Free()
		b.pins = b.pins[1:]
	}
	b.pins = append(b.pins, imp)
	return imp, nil
}
