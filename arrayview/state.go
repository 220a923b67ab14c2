package arrayview

import "sort"

// segments maps element ranges of a source to validity masks: bit 0 is the host, bit k is
// the k-th accelerator view the source was used on. Segment i covers [start[i], start[i+1])
// (the last one runs to n). A mask of 0 means discarded: no location holds meaningful data.
type segments struct {
	start []int
	mask  []uint32
	n     int
}

func newSegments(n int, mask uint32) segments {
	return segments{start: []int{0}, mask: []uint32{mask}, n: n}
}

func (s *segments) end(i int) int {
	if i+1 < len(s.start) {
		return s.start[i+1]
	}
	return s.n
}

// find returns the segment containing element at.
func (s *segments) find(at int) int {
	return sort.Search(len(s.start), func(i int) bool { return s.start[i] > at }) - 1
}

// split makes at a segment boundary and returns the index of the segment starting there.
func (s *segments) split(at int) int {
	if at >= s.n {
		return len(s.start)
	}
	i := s.find(at)
	if s.start[i] == at {
		return i
	}
	s.start = append(s.start, 0)
	s.mask = append(s.mask, 0)
	copy(s.start[i+2:], s.start[i+1:])
	copy(s.mask[i+2:], s.mask[i+1:])
	s.start[i+1] = at
	s.mask[i+1] = s.mask[i]
	return i + 1
}

// each calls fn for every segment piece inside [lo, hi).
func (s *segments) each(lo, hi int, fn func(lo, hi int, m uint32)) {
	for i := s.find(lo); i < len(s.start) && s.start[i] < hi; i++ {
		fn(max(lo, s.start[i]), min(hi, s.end(i)), s.mask[i])
	}
}

// update applies f to the masks of [lo, hi) and reports whether any mask changed.
func (s *segments) update(lo, hi int, f func(uint32) uint32) bool {
	changed := false
	// Fast path: the range lies inside one segment whose mask does not change.
	if i := s.find(lo); s.end(i) >= hi && f(s.mask[i]) == s.mask[i] {
		return false
	}
	a := s.split(lo)
	b := s.split(hi)
	for i := a; i < b; i++ {
		if m := f(s.mask[i]); m != s.mask[i] {
			s.mask[i] = m
			changed = true
		}
	}
	s.merge(max(a-1, 0), min(b+1, len(s.start)))
	return changed
}

// merge joins neighbouring segments with equal masks among segments a..b-1.
func (s *segments) merge(a, b int) {
	w := a
	for i := a + 1; i < len(s.start); i++ {
		if i < b && s.mask[i] == s.mask[w] {
			continue
		}
		w++
		s.start[w], s.mask[w] = s.start[i], s.mask[i]
	}
	s.start = s.start[:w+1]
	s.mask = s.mask[:w+1]
}
