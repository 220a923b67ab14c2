package arrayview

import (
	"github.com/goamp/goamp/runtime"
	"math/bits"
	"reflect"
	goruntime "runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/hooks"
	"github.com/goamp/goamp/internal/poison"
)

const hostBit = 1

// source is one data source: a Go slice and its copies on accelerator views.
type source struct {
	mu      sync.Mutex
	host    []byte
	esize   int
	n       int
	typ     reflect.Type      // the element type, whose poison a strict accelerator's copy starts with
	name    string            // a device-only array's String, for its NoHostCopyError
	home    *accelerator.View // arrays live on one view; nil for views over host data
	state   segments
	locs    []*location // locs[k] has mask bit 1<<(k+1)
	version atomic.Uint64
	open    int // views not yet closed
}

// location is a source's copy on one accelerator view: one device buffer per chunk of
// per elements (chunk k holds elements [k*per, min((k+1)*per, n))). A copy that fits in
// one device allocation (maxMemoryAllocationSize, or hooks.MaxAllocation) is one chunk;
// a larger one is cut into chunks of a power of two bytes, each allocated when a view first
// uses a range of it, so a device holds only the chunks its kernels touch (a view split
// over two GPUs keeps about half on each). A kernel binds a range of one chunk
// (View.BindEnd says where a bindable run ends).
type location struct {
	view   *accelerator.View
	per    int
	chunks []device.Buffer
	// cancel unregisters the location's AtClose function (see evict).
	cancel func()
}

// chunkLen returns how many elements of esize bytes each chunk of a copy of n elements
// holds on accelerator acc: n when the copy fits in one allocation, else the elements of
// the largest power of two bytes the device (and hooks.MaxAllocation) allows.
func chunkLen(acc *accelerator.Accelerator, n, esize int) int {
	limit := acc.Limits().MaxMemoryAllocationSize
	if h := hooks.MaxAllocation.Load(); h != 0 && (limit == 0 || h < limit) {
		limit = h
	}
	if limit == 0 || uint64(n)*uint64(esize) <= limit {
		return max(n, 1)
	}
	return max(int((uint64(1)<<(bits.Len64(limit)-1))/uint64(esize)), 1)
}

// span returns the chunk index of element i and the end of that chunk's elements.
func (l *location) span(i, n int) (k, end int) {
	k = i / l.per
	return k, min((k+1)*l.per, n)
}

// ensure allocates the chunks that hold elements [lo, hi).
func (l *location) ensure(lo, hi, n, esize int) error {
	if hi <= lo {
		return nil
	}
	for k := lo / l.per; k <= (hi-1)/l.per; k++ {
		if l.chunks[k] != nil {
			continue
		}
		elems := min((k+1)*l.per, n) - k*l.per
		buf, err := device.Of(l.view).Alloc(uint64(elems * esize))
		if err != nil {
			return err
		}
		l.chunks[k] = buf
	}
	return nil
}

// each calls f for each chunk part of elements [lo, hi): the chunk's buffer, the part's
// byte offset in it and its elements [a, b).
func (l *location) each(lo, hi, n, esize int, f func(buf device.Buffer, off uint64, a, b int) error) error {
	for a := lo; a < hi; {
		k, end := l.span(a, n)
		b := min(hi, end)
		if err := f(l.chunks[k], uint64((a-k*l.per)*esize), a, b); err != nil {
			return err
		}
		a = b
	}
	return nil
}

// free frees every chunk and returns the first error.
func (l *location) free() error {
	var first error
	for k, b := range l.chunks {
		if b == nil {
			continue
		}
		if err := b.Free(); err != nil && first == nil {
			first = err
		}
		l.chunks[k] = nil
	}
	return first
}

// byAddr indexes the sources of views over Go slices by the memory they cover, sorted by
// address and pairwise disjoint: a slice inside another's memory gets that source (views
// over data and data[4:8] stay coherent), and one that overlaps an open view's memory
// otherwise is refused, since two copies of one memory would each write back over the
// other's results.
var (
	sourcesMu sync.Mutex
	byAddr    []srcRange
)

// srcRange is one source's memory, [lo, hi).
type srcRange struct {
	lo, hi uintptr
	w      weak.Pointer[source]
}

// sourceFor returns the source of the bytes at ptr and the element at which they begin in
// it: a new one, or the source whose memory holds them (any of its views may be open or
// closed), or an *OverlapError where they overlap an open source's memory otherwise.
func sourceFor(ptr unsafe.Pointer, bytes int, info elemInfo) (*source, int, error) {
	esize := info.size
	lo, hi := uintptr(ptr), uintptr(ptr)+uintptr(bytes)
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	i := sort.Search(len(byAddr), func(i int) bool { return byAddr[i].hi > lo })
	for j := i; j < len(byAddr) && byAddr[j].lo < hi; {
		r := byAddr[j]
		s := r.w.Value()
		if s != nil && r.lo <= lo && hi <= r.hi && s.esize == esize && (lo-r.lo)%uintptr(esize) == 0 {
			return s, int(lo-r.lo) / esize, nil
		}
		if s != nil {
			s.mu.Lock()
			open := s.open
			s.mu.Unlock()
			if open > 0 {
				return nil, 0, &OverlapError{Lo: lo, Hi: hi, OtherLo: r.lo, OtherHi: r.hi, ElemSize: esize, OtherElemSize: s.esize}
			}
		}
		byAddr = slices.Delete(byAddr, j, j+1) // collected, or every view closed: forget it
	}
	s := &source{host: unsafe.Slice((*byte)(ptr), bytes), esize: esize, n: bytes / esize, typ: info.typ}
	s.state = newSegments(s.n, hostBit)
	byAddr = slices.Insert(byAddr, i, srcRange{lo: lo, hi: hi, w: weak.Make(s)})
	goruntime.AddCleanup(s, func(lo uintptr) {
		sourcesMu.Lock()
		defer sourcesMu.Unlock()
		k := sort.Search(len(byAddr), func(k int) bool { return byAddr[k].lo >= lo })
		if k < len(byAddr) && byAddr[k].lo == lo && byAddr[k].w.Value() == nil {
			byAddr = slices.Delete(byAddr, k, k+1)
		}
	}, lo)
	return s, 0, nil
}

// maxLocations is how many accelerator views a source may be used on at once: the bits of a
// mask past the host's.
const maxLocations = 31

// bit returns the mask bit of location v (nil, or a view of an accelerator whose storage is
// host memory (accelerator.Traits.HostMemory), is the host); s.mu is held. A
// new location takes the first free slot (its chunks are allocated as acquire needs
// them, at once when it is one chunk); its device copy is freed, after what only it held
// was brought home, when its accelerator view closes (evict) or when every view of the
// source is closed (release).
func (s *source) bit(v *accelerator.View) (uint32, *location, error) {
	if v == nil || v.Accelerator().Traits().HostMemory {
		return hostBit, nil, nil
	}
	free := -1
	for k, l := range s.locs {
		if l == nil {
			if free < 0 {
				free = k
			}
		} else if l.view == v {
			return 1 << (k + 1), l, nil
		}
	}
	if free < 0 && len(s.locs) >= maxLocations {
		return 0, nil, &TooManyViewsError{Limit: maxLocations, View: v.String()}
	}
	per := chunkLen(v.Accelerator(), s.n, s.esize)
	l := &location{view: v, per: per, chunks: make([]device.Buffer, max((s.n+per-1)/per, 1))}
	if s.n <= per { // one chunk: allocate it now, as a copy always was
		buf, err := device.Of(v).Alloc(uint64(s.n * s.esize))
		if err != nil {
			return 0, nil, err
		}
		l.chunks[0] = buf
	}
	if free < 0 {
		free = len(s.locs)
		s.locs = append(s.locs, nil)
	}
	cancel, err := device.Of(v).AtCloseOpen(func() { s.evict(l) })
	if err != nil { // the view began closing: keep nothing on it
		_ = l.free()
		return 0, nil, err
	}
	l.cancel = cancel
	s.locs[free] = l
	return 1 << (free + 1), l, nil
}

// evict runs when location l's accelerator view closes: it brings home every range that
// the host lacks and l holds (the results of the view's kernels), then frees l's buffer and
// its slot. A range it cannot download (a view removed by a lost device or a failed
// submit) is lost: the host's contents, the last that reached it, stand for it, so that
// the Go slice and later kernels see those, never a device's uninitialized memory.
func (s *source) evict(l *location) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := slices.Index(s.locs, l)
	if k < 0 {
		return
	}
	bit := uint32(1) << (k + 1)
	var need []piece
	s.state.each(0, s.n, func(lo, hi int, m uint32) {
		if m&bit != 0 && m&hostBit == 0 && s.host != nil { // a device-only array's data ends here
			need = append(need, piece{lo, hi, m})
		}
	})
	for _, p := range need {
		_ = s.download(l, p.lo, p.hi) // failed: the host's contents stand (see above)
		s.state.update(p.lo, p.hi, func(m uint32) uint32 { return m | hostBit })
	}
	s.state.update(0, s.n, func(m uint32) uint32 { return m &^ bit })
	_ = l.free()
	s.locs[k] = nil
	s.version.Add(1)
}

func (s *source) loc(m uint32) *location {
	for k, l := range s.locs {
		if l != nil && m&(1<<(k+1)) != 0 {
			return l
		}
	}
	return nil
}

type piece struct {
	lo, hi int
	m      uint32
}

// acquire makes location v hold the current data of the element ranges in fp for access
// acc: it copies what v lacks (unless discarded), then marks v as the only valid location
// for writes; s.mu is held.
func (s *source) acquire(v *accelerator.View, acc runtime.Access, fp []span) error {
	if s.host == nil && v != s.home { // a device-only array: its view is its only place
		e := &NoHostCopyError{Array: s.name, Home: s.home.String()}
		if v != nil {
			e.Want = v.String()
		}
		return e
	}
	bit, l, err := s.bit(v)
	if err != nil {
		return err
	}
	if l != nil {
		for _, r := range fp {
			if err := l.ensure(r.lo, r.hi, s.n, s.esize); err != nil {
				return err
			}
		}
	}
	var need, discarded []piece
	for _, r := range fp {
		s.state.each(r.lo, r.hi, func(lo, hi int, m uint32) {
			if m != 0 && m&bit == 0 {
				need = append(need, piece{lo, hi, m})
			} else if m == 0 && l != nil && l.view.Accelerator().Traits().Strict {
				discarded = append(discarded, piece{lo, hi, m})
			}
		})
	}
	for _, p := range discarded { // a strict accelerator's copy of discarded data: poison
		_ = l.each(p.lo, p.hi, s.n, s.esize, func(buf device.Buffer, off uint64, a, b int) error {
			poison.Fill(s.typ, buf.Bytes()[off:off+uint64((b-a)*s.esize)])
			return nil
		})
	}
	changed := false
	for _, p := range need {
		gained := bit
		if bit == hostBit {
			if err := s.download(s.loc(p.m), p.lo, p.hi); err != nil {
				return err
			}
		} else {
			if p.m&hostBit == 0 {
				if err := s.download(s.loc(p.m), p.lo, p.hi); err != nil {
					return err
				}
				gained |= hostBit
			}
			if err := s.upload(l, p.lo, p.hi); err != nil {
				return err
			}
		}
		if s.state.update(p.lo, p.hi, func(m uint32) uint32 { return m | gained }) {
			changed = true
		}
	}
	if acc&runtime.Write != 0 {
		for _, r := range fp {
			if s.state.update(r.lo, r.hi, func(uint32) uint32 { return bit }) {
				changed = true
			}
		}
	}
	if changed {
		s.version.Add(1)
	}
	return nil
}

// download copies elements [lo, hi) from l's chunks to the host copy.
func (s *source) download(l *location, lo, hi int) error {
	return l.each(lo, hi, s.n, s.esize, func(buf device.Buffer, off uint64, a, b int) error {
		return buf.Download(off, s.host[a*s.esize:b*s.esize])
	})
}

// upload copies elements [lo, hi) from the host copy to l's chunks.
func (s *source) upload(l *location, lo, hi int) error {
	return l.each(lo, hi, s.n, s.esize, func(buf device.Buffer, off uint64, a, b int) error {
		return buf.Upload(off, s.host[a*s.esize:b*s.esize])
	})
}

// set gives every range of fp the mask m (Refresh: host only; DiscardData: none).
// s.mu is held.
func (s *source) setLocked(fp []span, m uint32) {
	changed := false
	for _, r := range fp {
		if s.state.update(r.lo, r.hi, func(uint32) uint32 { return m }) {
			changed = true
		}
	}
	if changed {
		s.version.Add(1)
	}
}

// release frees the device copies once no view of the source is open; s.mu is held.
func (s *source) release() error {
	if s.open > 0 {
		return nil
	}
	var first error
	for _, l := range s.locs {
		if l == nil {
			continue
		}
		l.cancel()
		if err := l.free(); err != nil && first == nil {
			first = err
		}
	}
	s.locs = nil
	// Whatever only a device held is gone; the host copy stands (Close synchronized it).
	s.state = newSegments(s.n, hostBit)
	s.version.Add(1)
	return first
}
