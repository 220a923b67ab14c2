package accelerator

import (
	"context"
	"os"
	"unsafe"

	"github.com/goamp/goamp/internal/vk"
)

// Pinned transfers (issue 12). Where data moves by staging copies (a discrete GPU, or
// GOAMP_FORCE_STAGING=1) and the device has VK_EXT_external_memory_host, an Upload or
// Download of at least pinMin bytes imports the pages of the caller's slice itself as host
// memory (vk.Device.ImportHost) and copies between them and the buffer with one copy
// command, at the bus's rate, with no copy through a staging buffer on the host. The
// import covers the slice's interior aligned to the device's minImportedHostPointerAlignment
// (Limits: HostImportAlign); the ragged ends before and after it go through the staging
// buffers. Where the import fails (a driver that refuses the memory), the whole transfer
// goes through the staging buffers.
//
// Lifetime: the import lives inside one Upload or Download call. The call submits the
// copy, waits for it and ends the import before it returns, so the device never refers to
// the slice after the call: the slice's contents and lifetime rules stay as documented
// (Upload returns once src may be reused; Download once dst holds the data), and nothing
// outlives the caller's hold on the slice. While the call runs, the slice is kept alive by
// the call's own reference to it, and Go's collector does not move heap objects.
//
// EnvNoPinned, set to "1", turns the pinned path off (every transfer is staged): for
// comparisons (BenchmarkTransfer) and as a way around a driver that misbehaves.
const EnvNoPinned = "GOAMP_NO_PINNED"

// pinMin is the smallest transfer that goes through an import: below it, importing (and
// pinning pages) costs more than the staging copy saves.
var pinMin = 4 << 20

// noPinned is EnvNoPinned's setting; tests change it.
var noPinned = os.Getenv(EnvNoPinned) == "1"

// pinnedStats counts the transfers that went through an import and those that fell back
// to staging after the import failed (tests read them).
type pinnedStats struct{ imported, fellBack, bytes uint64 }

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

// pinned moves p through an import of its aligned interior, calling staged for the ranges
// of p that go through the staging buffers and copy to record the interior's copy command
// (imp holds p[lo:lo+n]); v.mu is held. It returns once the copy has run and the import
// has ended.
func (v *View) pinned(p []byte, staged func(lo, hi int) error, copy func(imp *vk.Buffer, lo, n int) error) error {
	dev, err := v.acc.device()
	if err != nil {
		return err
	}
	lo, hi := pinnedSpan(p, dev.HostImportAlign())
	if noPinned || lo == hi {
		return staged(0, len(p))
	}
	imp, err := dev.ImportHost(p[lo:hi])
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
	// Whatever happened, the device must be done with the memory before the import ends.
	if werr := v.waitSeq(context.Background(), seq); err == nil {
		err = werr
	}
	if err == nil || v.seqDone(seq) {
		imp.Free()
	}
	if err == nil {
		v.pinStats.imported++
		v.pinStats.bytes += uint64(hi - lo)
	}
	return err
}
