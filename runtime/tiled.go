package runtime

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/goamp/goamp/internal/poison"
)

// Tiling limits, as in C++ AMP.
const (
	// MaxTileThreads is the largest number of threads in one tile (the
	// product of the tile dimensions).
	MaxTileThreads = 1024
	// MaxTileD0Rank3 is the largest dimension 0 of a rank-3 tile.
	MaxTileD0Rank3 = 64
)

// TiledExtent is a tiled compute domain, like C++ AMP's
// tiled_extent<D0, D1, D2>: an Extent split into tiles of shape Tile. The
// rank of Tile is the number of tile dimensions given, and must equal the
// rank of Extent. Build one with Extent.Tile; check it with Validate.
type TiledExtent struct {
	// Extent is the whole index space.
	Extent Extent
	// Tile holds the tile dimensions.
	Tile Extent
}

// round returns t with each extent dimension rounded with f, for the
// dimensions whose tile dimension is usable.
func (t TiledExtent) round(f func(d, tile int) int) TiledExtent {
	out := t
	for k := range t.Extent.stored() {
		if td := t.Tile.Dim(k); td >= 1 {
			out.Extent.d[k] = f(t.Extent.d[k], td)
		}
	}
	return out
}

// ceilDiv returns d / q rounded up, for d >= 0 and q >= 1, without overflow.
func ceilDiv(d, q int) int {
	n := d / q
	if d%q != 0 {
		n++
	}
	return n
}

// Pad returns t with every extent dimension rounded up to a multiple of the
// tile dimension, like C++ AMP's tiled_extent::pad. Kernels run on a padded
// domain must check that their global index is inside the original extent.
// A dimension whose padded size would overflow int is left as it is, so that
// Validate reports it (not divisible by its tile dimension).
func (t TiledExtent) Pad() TiledExtent {
	return t.round(func(d, tile int) int {
		if d <= 0 {
			return d
		}
		if n := ceilDiv(d, tile); n <= math.MaxInt/tile {
			return n * tile
		}
		return d
	})
}

// Truncate returns t with every extent dimension rounded down to a multiple
// of the tile dimension, like C++ AMP's tiled_extent::truncate. The points
// cut off must be handled separately. An extent dimension smaller than its
// tile dimension becomes 0, which Validate reports.
func (t TiledExtent) Truncate() TiledExtent {
	return t.round(func(d, tile int) int {
		if d <= 0 {
			return d
		}
		return d / tile * tile
	})
}

// Validate enforces C++ AMP's tiling rules: the extent is valid; the tile
// rank equals the extent rank; every tile dimension is at least 1; a tile has
// at most MaxTileThreads threads; a rank-3 tile has dimension 0 at most
// MaxTileD0Rank3; and every extent dimension is divisible by its tile
// dimension. It returns a *ComputeDomainError (matching
// ErrInvalidComputeDomain) naming the numbers involved.
func (t TiledExtent) Validate() error {
	bad := func(reason string, dim, limit, value int, cause error) error {
		return &ComputeDomainError{Extent: t.Extent, Tile: t.Tile, Reason: reason,
			Dim: dim, Limit: limit, Value: value, Err: cause}
	}
	if err := t.Extent.Validate(); err != nil {
		reason := err.Error()
		if ee, ok := err.(*ExtentError); ok {
			reason = ee.Reason
		}
		return bad(fmt.Sprintf("extent %s: %s", t.Extent, reason), -1, 0, 0, err)
	}
	r := t.Extent.rank
	if t.Tile.rank != r {
		return bad(fmt.Sprintf("tile rank %d does not match extent rank %d", t.Tile.rank, r),
			-1, r, t.Tile.rank, nil)
	}
	for k, td := range t.Tile.d[:r] {
		if td < 1 {
			return bad(fmt.Sprintf("tile %s has dimension %d = %d; every tile dimension must be >= 1", t.Tile, k, td),
				k, 1, td, nil)
		}
	}
	if threads := t.Tile.Size(); threads == 0 || threads > MaxTileThreads {
		count := fmt.Sprint(threads)
		if threads == 0 { // the product overflows int
			threads, count = math.MaxInt, "more than "+fmt.Sprint(math.MaxInt)
		}
		return bad(fmt.Sprintf("tile %s has %s threads; the limit is %d", formatTimes(t.Tile.Dims()), count, MaxTileThreads),
			-1, MaxTileThreads, threads, nil)
	}
	if r == 3 && t.Tile.d[0] > MaxTileD0Rank3 {
		return bad(fmt.Sprintf("tile %s has dimension 0 = %d; the limit for rank-3 tiles is %d",
			formatTimes(t.Tile.Dims()), t.Tile.d[0], MaxTileD0Rank3),
			0, MaxTileD0Rank3, t.Tile.d[0], nil)
	}
	for k := range r {
		if rem := t.Extent.d[k] % t.Tile.d[k]; rem != 0 {
			return bad(fmt.Sprintf("extent %s is not divisible by tile %s in dimension %d: %d %% %d = %d; use Pad or Truncate",
				t.Extent, t.Tile, k, t.Extent.d[k], t.Tile.d[k], rem),
				k, t.Tile.d[k], t.Extent.d[k], nil)
		}
	}
	return nil
}

// TileCount returns the number of tiles in each dimension: the extent
// dimension divided by the tile dimension, rounded up (the count Pad would
// give). Dimensions whose tile dimension is smaller than 1 count 0.
func (t TiledExtent) TileCount() Index {
	var c Index
	for k := range t.Extent.stored() {
		if td := t.Tile.Dim(k); td >= 1 && t.Extent.d[k] > 0 {
			c[k] = ceilDiv(t.Extent.d[k], td)
		}
	}
	return c
}

// Tiles returns the total number of tiles, or 0 when the tile rank does not
// match the extent rank or the extent is invalid.
func (t TiledExtent) Tiles() int {
	if t.Extent.Validate() != nil || t.Tile.rank != t.Extent.rank {
		return 0
	}
	c := t.TileCount()
	n := 1
	for k := range t.Extent.rank {
		n *= c[k]
	}
	return n
}

// TileSize returns the number of threads in one tile (the product of the
// tile dimensions), or 0 when the tile dimensions are invalid.
func (t TiledExtent) TileSize() int { return t.Tile.Size() }

// String formats the domain like "(4, 6) tiled (2, 2)".
func (t TiledExtent) String() string {
	return t.Extent.String() + " tiled " + t.Tile.String()
}

// counts returns the grid of tiles as an Extent.
func (t TiledExtent) counts() Extent {
	c := t.TileCount()
	return Ext(c[:t.Extent.rank]...)
}

// TiledIndex is the index of one thread of a tiled kernel, like C++ AMP's
// tiled_index<D0, D1, D2>. Global = TileOrigin + Local and TileOrigin =
// Tile * TileExtent (component-wise).
type TiledIndex struct {
	// Global is the thread's index in the whole compute domain.
	Global Index
	// Local is the thread's index within its tile.
	Local Index
	// Tile is the tile's index in the grid of tiles.
	Tile Index
	// TileOrigin is the global index of the tile's first thread.
	TileOrigin Index
	// TileExtent is the shape of a tile.
	TileExtent Extent
	// Barrier synchronizes the threads of the tile.
	Barrier Barrier

	thread *threadState
}

// threadState is the per-thread state of a tiled kernel thread.
type threadState struct {
	tile    *tileState
	local   Index
	nstatic int // number of TileStatic calls made so far in this tile
}

// Barrier is the barrier of one tile, like C++ AMP's tile_barrier. It is a
// small value holding a pointer to the tile's shared state; copies refer to
// the same barrier. Every thread of the tile must call the same wait
// methods the same number of times; otherwise the executor reports
// ErrBarrierDivergence. The zero Barrier (outside a tiled kernel) does
// nothing.
type Barrier struct {
	s *tileState
}

// Wait blocks until every thread of the tile has called Wait, like C++
// AMP's tile_barrier::wait. It also orders all memory accesses made before
// it against those made after it, in every thread of the tile.
func (b Barrier) Wait() {
	if b.s != nil {
		b.s.wait()
	}
}

// WaitWithAllMemoryFence is a barrier with a fence on global and tile_static
// memory. On the CPU it is the same as Wait.
func (b Barrier) WaitWithAllMemoryFence() { b.Wait() }

// WaitWithGlobalMemoryFence is a barrier with a fence on global memory. On
// the CPU it is the same as Wait.
func (b Barrier) WaitWithGlobalMemoryFence() { b.Wait() }

// WaitWithTileStaticMemoryFence is a barrier with a fence on tile_static
// memory. On the CPU it is the same as Wait.
func (b Barrier) WaitWithTileStaticMemoryFence() { b.Wait() }

// fallbackFence serves the fences of a TiledIndex that has no tile.
var fallbackFence atomic.Int64

// fence performs a sequentially consistent atomic operation on the tile's
// fence word.
func fence(t TiledIndex) {
	if t.thread != nil && t.thread.tile != nil {
		t.thread.tile.fence.Add(1)
		return
	}
	fallbackFence.Add(1)
}

// AllMemoryFence orders the calling thread's accesses to global and
// tile_static memory without waiting for the other threads, like C++ AMP's
// all_memory_fence. On the CPU it is an atomic operation on the tile's state.
func AllMemoryFence(t TiledIndex) { fence(t) }

// GlobalMemoryFence orders the calling thread's accesses to global memory
// without waiting for the other threads, like C++ AMP's global_memory_fence.
func GlobalMemoryFence(t TiledIndex) { fence(t) }

// TileStaticMemoryFence orders the calling thread's accesses to tile_static
// memory without waiting for the other threads, like C++ AMP's
// tile_static_memory_fence.
func TileStaticMemoryFence(t TiledIndex) { fence(t) }

// TileStatic returns tile_static storage of n values of type T shared by the
// threads of t's tile, like a C++ AMP tile_static array. The k-th call made
// by a thread returns the k-th allocation of its tile, so every thread of
// the tile must make the same TileStatic calls (same T, same n, same order);
// a mismatch is a kernel bug and panics (the executor reports it as a
// *KernelPanicError). The storage is fresh and zeroed for each tile (poisoned on the
// strict CPU accelerator: NaN, 0xdeadbeef; a GPU's holds what was there). Writes
// by one thread are visible to the others after a barrier. Outside a tiled
// kernel (zero TiledIndex) it returns private storage.
func TileStatic[T any](t TiledIndex, n int) []T {
	if n < 0 {
		panic(fmt.Sprintf("goamp/runtime: TileStatic: negative length %d", n))
	}
	th := t.thread
	if th == nil || th.tile == nil {
		return make([]T, n)
	}
	s := th.tile
	k := th.nstatic
	th.nstatic++
	s.staticMu.Lock()
	if k == len(s.statics) {
		data := make([]T, n)
		if s.poisoned {
			poison.Slice(data)
		}
		s.statics = append(s.statics, staticAlloc{data: data, n: n})
	}
	a := s.statics[k]
	s.staticMu.Unlock()
	data, ok := a.data.([]T)
	if !ok || a.n != n {
		panic(fmt.Sprintf("goamp/runtime: TileStatic call %d in tile %s: thread %s asked for %T of length %d, "+
			"but the tile's allocation is %T of length %d; every thread of a tile must make the same TileStatic calls in the same order",
			k, formatIndex(s.tile, s.rank), formatIndex(th.local, s.rank), []T(nil), n, a.data, a.n))
	}
	return data
}

// staticAlloc is one TileStatic allocation of a tile.
type staticAlloc struct {
	data any // a []T
	n    int
}

// tileAbort is the panic value that unwinds a thread whose tile barrier was
// broken (by a panic or a divergence in another thread of the tile).
type tileAbort struct{}

// phase is one use of a tile barrier. done is closed exactly once, under
// the tile mutex: when the last thread arrives, or when the barrier is
// broken, in which case broken is set before the close.
type phase struct {
	done   chan struct{}
	broken bool
}

// tileState is the state shared by the threads of one tile: its barrier,
// its tile_static storage and its first error.
type tileState struct {
	n      int   // threads in the tile
	rank   int   // rank of the domain
	tile   Index // index of the tile in the grid of tiles
	origin Index // global index of the tile's first thread

	fence atomic.Int64 // target of the memory fences

	mu      sync.Mutex
	arrived int // threads waiting at the current phase
	exited  int // threads that have returned from the kernel
	phase   *phase
	err     error // first error; once set the barrier is broken

	// staticMu guards statics. It is not mu: a thread that takes a lock another thread
	// released after its accesses is ordered after them for the race detector, so taking
	// mu (which a thread's exit takes) in TileStatic would hide the races between a thread
	// that has finished and one that starts later (see EnvRaceFastBodies).
	staticMu sync.Mutex
	statics  []staticAlloc
	// poisoned says the tile_static storage starts as poison, not zeros (the strict CPU
	// accelerator), as a GPU's holds what was there before.
	poisoned bool
}

// newTileState returns the state of a tile of n threads.
func newTileState(n, rank int, tile, origin Index) *tileState {
	return &tileState{n: n, rank: rank, tile: tile, origin: origin,
		phase: &phase{done: make(chan struct{})}}
}

// divergence builds the tile's barrier divergence error.
func (s *tileState) divergence(reason string) error {
	return &BarrierDivergenceError{Tile: s.tile, TileOrigin: s.origin, Reason: reason, rank: s.rank}
}

// breakLocked records err as the tile's error and releases the threads
// waiting at the barrier. s.mu must be held.
func (s *tileState) breakLocked(err error) {
	if s.err != nil {
		return
	}
	s.err = err
	s.phase.broken = true
	close(s.phase.done)
}

// wait is the barrier. It unwinds the calling thread with a tileAbort panic
// when the barrier is broken.
func (s *tileState) wait() {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		panic(tileAbort{})
	}
	if s.exited > 0 {
		s.breakLocked(s.divergence(fmt.Sprintf(
			"a thread waited at a barrier after %d of %d threads had returned from the kernel", s.exited, s.n)))
		s.mu.Unlock()
		panic(tileAbort{})
	}
	p := s.phase
	s.arrived++
	if s.arrived == s.n {
		s.arrived = 0
		s.phase = &phase{done: make(chan struct{})}
		close(p.done)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	<-p.done
	if p.broken {
		panic(tileAbort{})
	}
}

// exit records that a thread returned from the kernel; r is what recover
// returned (nil for a normal return).
func (s *tileState) exit(th *threadState, r any, stack []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exited++
	switch r.(type) {
	case nil:
		if s.arrived > 0 && s.err == nil {
			s.breakLocked(s.divergence(fmt.Sprintf(
				"thread %s returned from the kernel while %d of %d threads were waiting at a barrier",
				formatIndex(th.local, s.rank), s.arrived, s.n)))
		}
	case tileAbort:
		// Unwound by a broken barrier: the cause is already recorded.
	default:
		s.breakLocked(&KernelPanicError{Value: r, Global: s.origin.Add(th.local), Stack: stack, rank: s.rank})
	}
}

// result returns the tile's error, if any.
func (s *tileState) result() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
