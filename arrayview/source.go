package arrayview

import (
	"fmt"
	goruntime "runtime"
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

// bit returns the mask bit of location v (nil or a CPU view is the host); s.mu is held.
func (s *source) bit(v *accelerator.View) (uint32, *location, error) {
	if v == nil || v.Accelerator().IsCPU() {
		return hostBit, nil, nil
	}
	for k, l := range s.locs {
		if l.view == v {
			return 1 << (k + 1), l, nil
		}
	}
	if len(s.locs) >= 31 {
		return 0, nil, fmt.Errorf("goamp/arrayview: a source may be used on at most 31 accelerator views")
	}
	buf, err := v.Alloc(uint64(len(s.host)))
	if err != nil {
		return 0, nil, err
	}
	l := &location{view: v, buf: buf}
	s.locs = append(s.locs, l)
	return 1 << len(s.locs), l, nil
}

func (s *source) loc(m uint32) *location {
	for k, l := range s.locs {
		if m&(1<<(k+1)) != 0 {
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
func (s *source) set(fp []span, m uint32) {
	s.mu.Lock()
	defer s.mu.Unlock()
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
