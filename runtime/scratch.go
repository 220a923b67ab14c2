package runtime

import (
	"fmt"
	"sync"
)

// Scratch keeps buffers of the fast CPU bodies that ampgen generates (a tiled kernel's
// tile_static slices and the slices of its variables kept per thread, whose lengths are
// known only when a tile runs) for reuse by later tiles, so that a tile does not allocate
// them afresh and the garbage collector has less to do. A generated EachTile takes its
// buffers with Take into one Held and hands them all back with one deferred
// Held.Release. The zero Scratch is ready to use; it is safe for concurrent use. User
// code has no reason to use it.
type Scratch[T any] struct {
	pool sync.Pool // of *[]T
}

// Take returns n zeroed elements (fresh, as TileStatic's are) and records in h the
// buffer behind them, which h.Release hands back. It panics, as TileStatic does, if n is
// negative.
func (s *Scratch[T]) Take(h *Held, n int) []T {
	if n < 0 {
		panic(fmt.Sprintf("goamp/runtime: TileStatic: negative length %d", n))
	}
	p, _ := s.pool.Get().(*[]T)
	if p == nil || cap(*p) < n {
		p = new([]T)
		*p = make([]T, n)
	} else {
		*p = (*p)[:n]
		clear(*p)
	}
	h.hold(heldBuf{&s.pool, p})
	return *p
}

// heldInline is how many buffers a Held keeps without allocating.
const heldInline = 8

// Held is what an EachTile method that ampgen generates took from its package's
// Scratches (Scratch.Take): one deferred Release hands every buffer back for later
// tiles. The zero Held holds nothing; a Held is used by one goroutine.
type Held struct {
	n    int
	bufs [heldInline]heldBuf
	more []heldBuf // those past heldInline
}

// heldBuf is one buffer a Held holds and the pool it goes back to.
type heldBuf struct {
	pool *sync.Pool
	buf  any // a *[]T
}

// hold records a buffer that Release hands back.
func (h *Held) hold(b heldBuf) {
	if h.n < heldInline {
		h.bufs[h.n] = b
		h.n++
		return
	}
	h.more = append(h.more, b)
}

// Release hands every buffer that h holds back to its Scratch and leaves h empty.
func (h *Held) Release() {
	for i := range h.n {
		h.bufs[i].pool.Put(h.bufs[i].buf)
		h.bufs[i] = heldBuf{}
	}
	for _, b := range h.more {
		b.pool.Put(b.buf)
	}
	h.n, h.more = 0, nil
}
