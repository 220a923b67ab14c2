package runtime

import "sync"

// TileFrame is what the EachTile methods that ampgen generates start from: one tile's
// extent, size and origin, and the bounds of the loops over its threads. The methods
// read its fields in their loops' headers; the loops' indices stay scalars of their own.
type TileFrame struct {
	// Ext is the tile's extent (TiledExtent.Tile).
	Ext Extent
	// Size is the number of the tile's threads: Ext.Size() for a valid tile.
	Size int
	// O0, O1 and O2 are the global index of the tile's first thread (TileOrigin), per
	// dimension.
	O0, O1, O2 int
	// N0, N1 and N2 are the tile's dimensions, 1 past its rank: the loops over a tile's
	// threads nest one per dimension, so that a thread's local index is the loops'
	// variables.
	N0, N1, N2 int
}

// Frame returns the TileFrame of tile (a tile's coordinates, as TileCount counts them) of
// a valid t. It is small enough to be inlined into the generated methods.
func (t TiledExtent) Frame(tile Index) TileFrame {
	d := t.Tile.d // 0 past a valid tile's rank
	n0, n1, n2 := d[0], max(d[1], 1), max(d[2], 1)
	return TileFrame{Ext: t.Tile, Size: n0 * n1 * n2, O0: tile[0] * d[0], O1: tile[1] * d[1], O2: tile[2] * d[2], N0: n0, N1: n1, N2: n2}
}

// Origin is the global index of the tile's first thread: O0, O1 and O2.
func (f *TileFrame) Origin() Index { return Index{f.O0, f.O1, f.O2} }

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
