package algo

import (
	"github.com/goamp/goamp/half"
	"math"
	"reflect"
	"slices"
	"sync"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/runtime"
)

// Scratch memory is the temporary device data of the algorithms, the one facility they all
// use: Reduce's partial results, the scans' block sums and look-back state, Histogram's
// counters, Sort's keys and digit histograms, Convolve2D's intermediate image and
// coefficients. Allocating and freeing such buffers on every call cost as much as a sort
// itself on an H100 (and a free waits for the device), so they are kept:
//
//   - A buffer belongs to the accelerator view it was taken for (takeScratch). Only the
//     kernels that a call queues on that view write it, and the call gives it back
//     (release) once they are queued: later work on the view runs after them, so the next
//     call may take the buffer at once.
//   - Each accelerator view's idle buffers (at most scratchKeep, the least recently used
//     beyond that freed) are kept by its scratchCache, made on the view's first use and
//     emptied when the view is closed (the view's AtClose, internal/device): every idle buffer is
//     freed then, and a buffer given back later is freed at once.
//   - A buffer is a view over a Go slice of its own, discarded when made: nothing is ever
//     uploaded for it, and only what a call reads back (a result element) is copied to the
//     host. Its contents do not last from call to call unless it was taken with a tag: only
//     a call that asks for the same tag gets it again (Convolve2D's coefficients, which
//     are uploaded only when they change).

// scratchKeep is the most idle buffers an accelerator view keeps (enough for a loop that
// calls every algorithm in turn: Sort and Convolve2D hold two buffers each, the others
// one per element type); concurrent calls make more, freed when given back beyond it.
const scratchKeep = 8

// scratchMinLen is the shortest rank-1 scratch buffer; longer ones are powers of two, so
// that buffers serve calls of nearby lengths.
const scratchMinLen = 1024

// scratchKey says which requests a buffer serves: its element type, its tag, and its
// extent (rank 1: any length up to its own; rank 2: that extent exactly).
type scratchKey struct {
	elem reflect.Type
	tag  string
	rank int
	dims [2]int
}

// serves reports whether a buffer of key k can serve a request for want.
func (k scratchKey) serves(want scratchKey) bool {
	if k.elem != want.elem || k.tag != want.tag || k.rank != want.rank {
		return false
	}
	if k.rank == 1 {
		return k.dims[0] >= want.dims[0]
	}
	return k.dims == want.dims
}

// scratchElem is an element type of scratch buffers: the library's numbers, and the
// narrow elements of MatMulF16 and MatMulI8 (transposed operands).
type scratchElem interface {
	Number | half.Float16 | ~int8
}

// scratchBuf is one scratch buffer: the view v over the Go slice data (which the CPU's fast
// bodies use directly). note is the taker's between calls, like the contents of a tagged
// buffer (0 when the buffer is new).
type scratchBuf[T scratchElem] struct {
	v     *arrayview.View[T]
	data  []T
	note  int
	key   scratchKey
	cache *scratchCache
}

// free closes the buffer's view: its device memory is freed and nothing is copied back; a
// failure to free leaves only a leak.
func (b *scratchBuf[T]) free() {
	b.v.DiscardData()
	_ = b.v.Close()
}

// release gives b back to its accelerator view's cache.
func (b *scratchBuf[T]) release() { b.cache.put(b.key, b, b.free) }

// idleBuf is a buffer waiting in a cache: a *scratchBuf[T] and its free method.
type idleBuf struct {
	key  scratchKey
	buf  any
	free func()
}

// scratchCache holds the idle scratch buffers of one accelerator view, least recently used
// first.
type scratchCache struct {
	mu     sync.Mutex
	idle   []idleBuf
	closed bool // the view was closed: buffers given back are freed
}

// scratchCaches maps each accelerator view that has scratch memory to its *scratchCache.
var scratchCaches sync.Map

// scratchFor returns the scratch cache of av, making it (and registering its emptying at
// av's Close) on first use.
func scratchFor(av *accelerator.View) *scratchCache {
	if c, ok := scratchCaches.Load(av); ok {
		return c.(*scratchCache)
	}
	c, loaded := scratchCaches.LoadOrStore(av, &scratchCache{})
	cache := c.(*scratchCache)
	if !loaded {
		device.Of(av).AtClose(func() {
			scratchCaches.Delete(av)
			cache.close()
		})
	}
	return cache
}

// close frees the idle buffers and makes put free the ones given back later.
func (c *scratchCache) close() {
	c.mu.Lock()
	idle := c.idle
	c.idle, c.closed = nil, true
	c.mu.Unlock()
	for _, b := range idle {
		b.free()
	}
}

// take removes and returns the smallest idle buffer that serves want (nil if none).
func (c *scratchCache) take(want scratchKey) any {
	c.mu.Lock()
	defer c.mu.Unlock()
	best := -1
	for i, b := range c.idle {
		if b.key.serves(want) && (best < 0 || b.key.dims[0] < c.idle[best].key.dims[0]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	b := c.idle[best]
	c.idle = slices.Delete(c.idle, best, best+1)
	return b.buf
}

// put makes buf idle, most recently used; beyond scratchKeep idle buffers, the least
// recently used is freed (after a close, buf itself).
func (c *scratchCache) put(key scratchKey, buf any, free func()) {
	c.mu.Lock()
	var drop func()
	if c.closed {
		drop = free
	} else {
		c.idle = append(c.idle, idleBuf{key, buf, free})
		if len(c.idle) > scratchKeep {
			drop = c.idle[0].free
			c.idle = slices.Delete(c.idle, 0, 1)
		}
	}
	c.mu.Unlock()
	if drop != nil {
		drop()
	}
}

// takeScratch returns a scratch buffer of av for elements of type T with extent ext (rank
// 1: at least ext's length; rank 2: exactly ext), holding the contents it was given back
// with when tag is not empty: an idle one that serves the request, else a new one.
// Release gives it back.
func takeScratch[T scratchElem](av *accelerator.View, ext runtime.Extent, tag string) (*scratchBuf[T], error) {
	want := scratchKey{elem: reflect.TypeFor[T](), tag: tag, rank: ext.Rank(), dims: [2]int{ext.Dim(0)}}
	if want.rank == 2 {
		want.dims[1] = ext.Dim(1)
	}
	maxLen, err := scratchMaxLen[T](av, ext)
	if err != nil {
		return nil, err
	}
	cache := scratchFor(av)
	if b := cache.take(want); b != nil {
		return b.(*scratchBuf[T]), nil
	}
	if want.rank == 1 {
		size := scratchMinLen
		for size < want.dims[0] {
			size *= 2
		}
		size = max(min(size, maxLen), want.dims[0])
		want.dims[0], ext = size, runtime.Ext(size)
	}
	data := make([]T, ext.Size())
	v, err := arrayview.New(ext, data)
	if err != nil {
		return nil, err
	}
	v.DiscardData()
	return &scratchBuf[T]{v: v, data: data, key: want, cache: cache}, nil
}

// scratchMaxLen returns the most elements of type T that one scratch buffer of av may hold:
// on a device, as many as one storage-buffer binding covers (maxStorageBufferRange); where
// the storage is host memory (accelerator.Traits.HostMemory), no binding limits it. A
// request for more is refused with a *arrayview.TooLargeError before anything is
// allocated, and rank-1 lengths are rounded up to no more than it: a buffer that no kernel
// can bind is never made, so it can neither stay held by a call that failed nor be handed
// to a later call.
func scratchMaxLen[T scratchElem](av *accelerator.View, ext runtime.Extent) (int, error) {
	if av.Accelerator().Traits().HostMemory {
		return math.MaxInt, nil
	}
	limit := av.Accelerator().Limits().MaxStorageBufferRange
	esize := int(reflect.TypeFor[T]().Size())
	maxLen := int(limit) / esize
	if ext.Size() > maxLen {
		return 0, &arrayview.TooLargeError{Bytes: uint64(ext.Size()) * uint64(esize), Limit: limit, View: av.String()}
	}
	return maxLen, nil
}

// scratchSection returns the first n elements of a rank-1 scratch buffer of av, never read
// before the kernels write them, and the function that gives them back: it discards and
// closes the section (nothing is copied back), keeping the first error in *err, and
// releases the buffer.
func scratchSection[T scratchElem](av *accelerator.View, n int) (*arrayview.View[T], func(*error), error) {
	b, err := takeScratch[T](av, runtime.Ext(n), "")
	if err != nil {
		return nil, nil, err
	}
	sec, err := b.v.Section(runtime.Idx(0), runtime.Ext(n))
	if err != nil {
		b.release()
		return nil, nil, err
	}
	sec.DiscardData()
	return sec, func(err *error) {
		sec.DiscardData()
		cerr := sec.Close()
		b.release()
		if *err == nil {
			*err = cerr
		}
	}, nil
}
