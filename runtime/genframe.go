package runtime

import "sync"

// Frame is where the EachTile methods that ampgen generates begin tile (a tile's
// coordinates, as TileCount counts them) of a valid t: the tile's size (its threads, as
// t.Tile.Size()), the global index of its first thread (TileOrigin) and its dimensions, 1
// past its rank: the loops over a tile's threads nest one per dimension, so that a
// thread's local index is the loops' variables. The methods keep them as scalars, so that
// the compiler keeps them in registers; Frame is small enough to be inlined.
func (t TiledExtent) Frame(tile Index) (size, o0, o1, o2, n0, n1, n2 int) {
	d := t.Tile.d // 0 past a valid tile's rank
	n0, n1, n2 = d[0], max(d[1], 1), max(d[2], 1)
	return n0 * n1 * n2, tile[0] * d[0], tile[1] * d[1], tile[2] * d[2], n0, n1, n2
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

// Take returns n zeroed elements, as Get does, and records in h the buffer behind them,
// which h.Release hands back.
func (s *Scratch[T]) Take(h *Held, n int) []T {
	var p *[]T
	buf := s.Get(&p, n)
	h.hold(heldBuf{&s.pool, p})
	return buf
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
