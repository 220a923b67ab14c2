package runtime

import (
	"fmt"
	"sync"
)

// Scratch keeps buffers of the fast CPU bodies that ampgen generates (a tiled kernel's
// tile_static slices and the slices of its variables kept per thread, whose lengths are
// known only when a tile runs) for reuse by later tiles, so that a tile does not allocate
// them afresh and the garbage collector has less to do. The zero Scratch is ready to use;
// it is safe for concurrent use. User code has no reason to use it.
type Scratch[T any] struct {
	pool sync.Pool // of *[]T
}

// Get returns n zeroed elements (fresh, as TileStatic's are) and stores in *held the
// buffer behind them, which Put hands back. It panics, as TileStatic does, if n is
// negative.
func (s *Scratch[T]) Get(held **[]T, n int) []T {
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
	*held = p
	return *p
}

// Put hands back the buffer that Get stored in *held, if any, and clears *held.
func (s *Scratch[T]) Put(held **[]T) {
	if *held != nil {
		s.pool.Put(*held)
		*held = nil
	}
}
