package arrayview

import (
	goruntime "runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/goamp/goamp/accelerator"
)

const hostBit = 1

// source is one data source: a Go slice and its copies on accelerator views.
type source struct {
	mu      sync.Mutex
	host    []byte
	esize   int
	n       int
	f64     bool
	home    *accelerator.View // arrays live on one view; nil for views over host data
	state   segments
	locs    []*location // locs[k] has mask bit 1<<(k+1)
	version atomic.Uint64
	open    int // views not yet closed
}

type location struct {
	view *accelerator.View
	buf  *accelerator.Buffer
	// cancel unregisters the location's AtClose function (see evict).
	cancel func()
}

type sourceKey struct {
	ptr   uintptr
	bytes int
}

var (
	sourcesMu sync.Mutex
	sources   = map[sourceKey]weak.Pointer[source]{}
)

// sourceFor returns the source of the bytes at ptr, shared by every view on the same slice.
func sourceFor(ptr unsafe.Pointer, bytes, esize int, f64 bool) *source {
	k := sourceKey{uintptr(ptr), bytes}
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	if w, ok := sources[k]; ok {
		if s := w.Value(); s != nil && s.esize == esize {
			return s
		}
	}
	s := &source{host: unsafe.Slice((*byte)(ptr), bytes), esize: esize, n: bytes / esize, f64: f64}
	s.state = newSegments(s.n, hostBit)
	sources[k] = weak.Make(s)
	goruntime.AddCleanup(s, func(k sourceKey) {
		sourcesMu.Lock()
		if w, ok := sources[k]; ok && w.Value() == nil {
			delete(sources, k)
		}
		sourcesMu.Unlock()
	}, k)
	return s
}

// maxLocations is how many accelerator views a source may be used on at once: the bits of a
// mask past the host's.
const maxLocations = 31

// bit returns the mask bit of location v (nil, or a view of an accelerator whose storage is
// host memory (accelerator.Traits.HostMemory), is the host); s.mu is held. A
// new location takes the first free slot; its device copy is freed, after what only it held
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
	buf, err := v.Alloc(uint64(len(s.host)))
	if err != nil {
		return 0, nil, err
	}
	l := &location{view: v, buf: buf}
	if free < 0 {
		free = len(s.locs)
		s.locs = append(s.locs, nil)
	}
	s.locs[free] = l
	l.cancel = v.AtClose(func() { s.evict(l) })
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
		if m&bit != 0 && m&hostBit == 0 {
			need = append(need, piece{lo, hi, m})
		}
	})
	for _, p := range need {
		_ = s.download(l, p.lo, p.hi) // failed: the host's contents stand (see above)
		s.state.update(p.lo, p.hi, func(m uint32) uint32 { return m | hostBit })
	}
	s.state.update(0, s.n, func(m uint32) uint32 { return m &^ bit })
	_ = l.buf.Free()
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
func (s *source) acquire(v *accelerator.View, acc accelerator.Access, fp []span) error {
	bit, l, err := s.bit(v)
	if err != nil {
		return err
	}
	var need []piece
	for _, r := range fp {
		s.state.each(r.lo, r.hi, func(lo, hi int, m uint32) {
			if m != 0 && m&bit == 0 {
				need = append(need, piece{lo, hi, m})
			}
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
			if err := l.buf.Upload(uint64(p.lo*s.esize), s.host[p.lo*s.esize:p.hi*s.esize]); err != nil {
				return err
			}
		}
		if s.state.update(p.lo, p.hi, func(m uint32) uint32 { return m | gained }) {
			changed = true
		}
	}
	if acc&accelerator.Write != 0 {
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

func (s *source) download(l *location, lo, hi int) error {
	return l.buf.Download(uint64(lo*s.esize), s.host[lo*s.esize:hi*s.esize])
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
		if err := l.buf.Free(); err != nil && first == nil {
			first = err
		}
	}
	s.locs = nil
	// Whatever only a device held is gone; the host copy stands (Close synchronized it).
	s.state = newSegments(s.n, hostBit)
	s.version.Add(1)
	return first
}
