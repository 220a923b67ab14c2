package runtime

import (
	"context"
	"errors"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// IndexKernel is the CPU body of a non-tiled kernel: Each is called once for
// every index of the compute domain, from many goroutines at once.
type IndexKernel interface {
	Each(idx Index)
}

// TiledKernel is the CPU body of a tiled kernel: Tiled is called once for
// every thread of every tile. The threads of a tile run concurrently, one
// goroutine each, and can meet at t.Barrier and share TileStatic storage.
type TiledKernel interface {
	Tiled(t TiledIndex)
}

// maxLiveThreads caps the number of thread goroutines RunTiledCPU keeps
// alive at once (workers x tile size), well below the race detector's limit
// of 8128 live goroutines. A single 1024-thread tile already has more
// runnable goroutines than there are CPUs.
const maxLiveThreads = 4096

// chunksPerWorker is how many chunks RunCPU makes per worker, so that
// uneven work balances and cancellation is noticed between chunks.
const chunksPerWorker = 8

// errGoexit is the KernelPanicError value for a kernel that called
// runtime.Goexit (for example through testing.T.FailNow).
const errGoexit = "kernel called runtime.Goexit"

// firstError records the first error of a run and tells workers to stop.
type firstError struct {
	stop atomic.Bool
	mu   sync.Mutex
	err  error
}

// set records err if it is the first error and tells the workers to stop.
func (f *firstError) set(err error) {
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
	f.stop.Store(true)
}

// get returns the first error recorded, or nil.
func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// startRun checks what RunCPU and RunTiledCPU are given: a kernel (nilKernel says it is
// missing), a valid domain and a live context (nil means context.Background()).
func startRun(ctx context.Context, nilKernel bool, validate func() error) (context.Context, error) {
	if nilKernel {
		return nil, &NilKernelError{}
	}
	if err := validate(); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return ctx, ctx.Err()
}

// noWorkerState is shareWork's start for workers that keep no state.
func noWorkerState() (struct{}, func()) { return struct{}{}, func() {} }

// minChunk is the fewest points RunCPU gives one worker.
const minChunk = 2048

// RunCPU runs k.Each for every index of domain on the CPU. The index space
// is split into contiguous row-major chunks handed out to GOMAXPROCS worker
// goroutines (in a build with the race detector, single indices in turn: see
// EnvRaceFastBodies). It returns the *ExtentError of an invalid domain, a
// *KernelPanicError when the kernel panics (the run stops), or ctx.Err()
// when ctx is cancelled before every chunk was handed out.
func RunCPU(ctx context.Context, domain Extent, k IndexKernel) error {
	ctx, err := startRun(ctx, k == nil, domain.Validate)
	if err != nil {
		return err
	}
	n := domain.Size()
	// Small domains are not worth waking every core for: each worker gets at least
	// minChunk points.
	workers := min(goruntime.GOMAXPROCS(0), (n+minChunk-1)/minChunk)
	chunk := max(1, (n+workers*chunksPerWorker-1)/(workers*chunksPerWorker))
	if raceThreads { // single indices, run by Each (the definition names the user's lines)
		chunk, k = 1, eachOnly{k}
	}
	chunks := (n + chunk - 1) / chunk

	return shareWork(ctx, workers, chunks, noWorkerState, func(_ struct{}, c int, errs *firstError) bool {
		lo := c * chunk
		return runChunk(domain, k, lo, min(lo+chunk, n), errs)
	})
}

// eachOnly hides a kernel's RangeKernel body: in a race build RunCPU calls Each, the
// definition, so that the race detector names the kernel's own lines.
type eachOnly struct{ IndexKernel }

// raceWorkers is the fewest goroutines shareWork uses in a race build, whatever
// GOMAXPROCS is.
const raceWorkers = 4

// workShare is what shareWork's workers share: the next item, the first error and the
// workers' group. It is pooled, so that a run does not allocate it.
type workShare struct {
	next atomic.Int64
	errs firstError
	wg   sync.WaitGroup
}

var sharedWork = sync.Pool{New: func() any { return new(workShare) }}

// release resets sh, whose workers have all returned, and gives it back to the pool.
func (sh *workShare) release() {
	sh.next.Store(0)
	sh.errs.stop.Store(false)
	sh.errs.err = nil
	sharedWork.Put(sh)
}

// shareWork has workers goroutines take the items 0..items-1 in turn and call do on
// each, until do returns false (it reported an error to errs) or ctx is cancelled. Each
// worker gets its own state from start, released by the function start returns. It
// returns the first error.
//
// In a race build (raceThreads) at least raceWorkers goroutines take the items in a fixed
// turn (worker w the items w, w+workers, ...), not from a shared counter, whose atomic
// updates would order one worker's finished items before another's later ones: so
// neighbouring indices and tiles run on goroutines that nothing orders, and what two of
// them write to one element is a DATA RACE, as it is a race on a GPU.
func shareWork[W any](ctx context.Context, workers, items int, start func() (W, func()), do func(w W, item int, errs *firstError) bool) error {
	sh := sharedWork.Get().(*workShare)
	defer sh.release()
	next, errs, wg := &sh.next, &sh.errs, &sh.wg
	if raceThreads {
		workers = min(max(workers, raceWorkers), items)
	}
	for k := range workers {
		wg.Go(func() {
			w, stop := start()
			defer stop()
			for turn := k; !errs.stop.Load(); turn += workers {
				if err := ctx.Err(); err != nil {
					errs.set(err)
					return
				}
				i := turn
				if !raceThreads {
					i = int(next.Add(1) - 1)
				}
				if i >= items || !do(w, i, errs) {
					return
				}
			}
		})
	}
	wg.Wait()
	return errs.get()
}

// runChunk calls k.Each for the row-major offsets lo..hi-1 of domain. It
// reports a panic (or Goexit) to errs and returns false.
func runChunk(domain Extent, k IndexKernel, lo, hi int, errs *firstError) (ok bool) {
	idx := domain.Delinearize(lo)
	if rk, yes := k.(RangeKernel); yes && !perThread(k) {
		defer func() {
			if !ok {
				r := recover()
				if err := locateRange(domain, k, lo, hi, r); err != nil {
					errs.set(err)
					return
				}
				errs.set(panicError(r, idx, domain.rank, "range"))
			}
		}()
		rk.EachRange(domain, lo, hi)
		return true
	}
	defer func() {
		if ok {
			return
		}
		r := recover()
		var stack []byte
		if r == nil {
			r = errGoexit
		} else {
			stack = debug.Stack()
		}
		errs.set(&KernelPanicError{Value: r, Global: idx, Stack: stack, rank: domain.rank})
	}()
	for i := lo; i < hi; i++ {
		k.Each(idx)
		domain.next(&idx)
	}
	return true
}

// RunTiledCPU runs k.Tiled for every thread of the tiled domain on the CPU.
// Whole tiles are handed out to at most GOMAXPROCS worker goroutines; each
// worker keeps one goroutine per thread of a tile, reused from tile to tile,
// and the threads of a tile meet at its barrier and share its TileStatic
// storage, fresh for each tile. A kernel with a fast body (TileKernel) runs
// whole tiles on the worker goroutines instead, but in a build with the race
// detector (see EnvRaceFastBodies).
//
// It returns the *ComputeDomainError of an invalid domain, a
// *KernelPanicError when a kernel thread panics, a *BarrierDivergenceError
// when the threads of a tile do not reach the same barriers, or ctx.Err()
// when ctx is cancelled before every tile was handed out. A panic or a
// divergence unblocks the tile's other threads and stops the run.
func RunTiledCPU(ctx context.Context, domain TiledExtent, k TiledKernel) error {
	return runTiledCPU(ctx, domain, k, false)
}

// runTiledCPU is RunTiledCPU, with the tiles' tile_static memory poisoned where poisoned
// is set (the strict CPU accelerator).
func runTiledCPU(ctx context.Context, domain TiledExtent, k TiledKernel, poisoned bool) error {
	ctx, err := startRun(ctx, k == nil, domain.Validate)
	if err != nil {
		return err
	}
	tiles := domain.Tiles()
	size := domain.TileSize()
	grid := domain.counts()
	if tk, ok := k.(TileKernel); ok && !perThread(k) && !raceThreads {
		return runWholeTiles(ctx, domain, tk, tiles, grid)
	}
	workers := min(goruntime.GOMAXPROCS(0), tiles, max(1, maxLiveThreads/size))
	start := func() (*tileWorker, func()) {
		w := startTileWorker(k, domain.Tile)
		return w, w.stop
	}
	return shareWork(ctx, workers, tiles, start, func(w *tileWorker, t int, errs *firstError) bool {
		tile := grid.Delinearize(t)
		var origin Index
		for d := range domain.Tile.rank {
			origin[d] = tile[d] * domain.Tile.d[d]
		}
		s := newTileState(size, domain.Tile.rank, tile, origin)
		s.poisoned = poisoned
		w.run(s)
		if err := s.result(); err != nil {
			errs.set(err)
			return false
		}
		return true
	})
}

// round is one tile handed by a worker to its thread goroutines. The worker
// fills s and next, then closes ready; a nil s tells the threads to exit.
type round struct {
	ready chan struct{}
	s     *tileState
	next  *round
}

// newRound returns an unpublished round.
func newRound() *round { return &round{ready: make(chan struct{})} }

// tileWorker runs tiles one after another on a fixed set of thread
// goroutines, one per thread of a tile.
type tileWorker struct {
	k        TiledKernel
	tileExt  Extent
	cur      *round         // the next round to publish
	tileDone sync.WaitGroup // threads still running the current tile
	exited   sync.WaitGroup // thread goroutines still alive
}

// startTileWorker starts one thread goroutine per point of tileExt.
func startTileWorker(k TiledKernel, tileExt Extent) *tileWorker {
	w := &tileWorker{k: k, tileExt: tileExt, cur: newRound()}
	first := w.cur
	for j := range tileExt.Size() {
		local := tileExt.Delinearize(j)
		w.exited.Go(func() { w.thread(first, local) })
	}
	return w
}

// run runs one tile and waits for all its threads to return.
func (w *tileWorker) run(s *tileState) {
	r := w.cur
	w.cur = newRound()
	r.s, r.next = s, w.cur
	w.tileDone.Add(s.n)
	close(r.ready)
	w.tileDone.Wait()
}

// stop ends the thread goroutines and waits for them to exit.
func (w *tileWorker) stop() {
	close(w.cur.ready)
	w.exited.Wait()
}

// thread is the loop of one thread goroutine: it runs its local index of
// every tile the worker publishes, starting with round first.
func (w *tileWorker) thread(first *round, local Index) {
	th := &threadState{local: local}
	for r := first; ; r = r.next {
		<-r.ready
		if r.s == nil {
			return
		}
		w.runThread(r.s, th)
	}
}

// runThread runs one thread of tile s and records how it ended.
func (w *tileWorker) runThread(s *tileState, th *threadState) {
	th.tile, th.nstatic = s, 0
	t := TiledIndex{
		Global:     s.origin.Add(th.local),
		Local:      th.local,
		Tile:       s.tile,
		TileOrigin: s.origin,
		TileExtent: w.tileExt,
		Barrier:    Barrier{s: s},
		thread:     th,
	}
	completed := false
	defer func() {
		defer w.tileDone.Done()
		var r any
		var stack []byte
		if !completed {
			r = recover()
			switch r.(type) {
			case nil:
				r = errGoexit
			case tileAbort:
			default:
				stack = debug.Stack()
			}
		}
		s.exit(th, r, stack)
		th.tile = nil
	}()
	w.k.Tiled(t)
	completed = true
}

// RangeKernel is an optional faster CPU body of a non-tiled kernel: EachRange does what
// Each does for every row-major offset lo..hi-1 of the domain, in one call, so that it can
// loop over slices without a call per index. RunCPU uses it when the kernel has it. Each
// stays the kernel's definition (and what single-source translation reads); the
// conformance tests check that both bodies agree.
type RangeKernel interface {
	IndexKernel
	EachRange(domain Extent, lo, hi int)
}

// TileKernel is an optional faster CPU body of a tiled kernel: EachTile runs every thread
// of the tile at index tile on the calling goroutine, its barriers turned into the
// boundaries between loops over the tile's threads and its tile_static storage into
// local slices. RunTiledCPU uses it when the kernel has it, with no thread goroutines and
// no barriers. Tiled stays the kernel's definition (see RangeKernel).
type TileKernel interface {
	TiledKernel
	EachTile(domain TiledExtent, tile Index)
}

// perThreadKernel wraps a kernel so that the CPU executor ignores its RangeKernel or
// TileKernel body and runs Each or Tiled per index, as the GPU does. Tests use it
// (rtlink's PerThread) to check that the fast bodies agree with the definition.
type perThreadKernel struct{ Kernel any }

// Each forwards to the wrapped kernel's Each.
func (p perThreadKernel) Each(i Index) { p.Kernel.(IndexKernel).Each(i) }

// Tiled forwards to the wrapped kernel's Tiled.
func (p perThreadKernel) Tiled(t TiledIndex) { p.Kernel.(TiledKernel).Tiled(t) }

// EnvRaceFastBodies, set to "1" in a build with the race detector, keeps the CPU
// accelerator on tiled kernels' fast bodies (TileKernel) and on contiguous chunks of
// indices, which it otherwise leaves for a goroutine per thread of a tile (RunTiledCPU) and
// single indices in turn (RunCPU): for test suites whose kernels are known to be free of
// races and run too slowly that way.
const EnvRaceFastBodies = "GOAMP_RACE_FAST_BODIES"

// raceThreads is set in a build with the race detector, unless EnvRaceFastBodies is "1":
// RunTiledCPU then runs each thread of a tile on a goroutine of its own even where the
// kernel has a fast body, so that the race detector sees the threads' accesses to
// tile_static memory and views as concurrent where no barrier orders them; RunCPU runs
// single indices, and shareWork hands indices and tiles out in a fixed turn to several
// goroutines. A kernel that reads what another thread of its tile wrote without a barrier
// between runs "correctly" in a fast body, whose threads run one after another, and
// differently on a GPU; under go test -race it is reported as a DATA RACE at the kernel's
// line.
var raceThreads = raceBuild && os.Getenv(EnvRaceFastBodies) != "1"

func perThread(k any) bool {
	_, ok := k.(perThreadKernel)
	return ok
}

// panicError is the error of a fast CPU body's panic, recovered as r: body ("range" or
// "tile") ran many threads from at, which one panicked the executor does not know.
func panicError(r any, at Index, rank int, body string) error {
	var stack []byte
	if r == nil {
		r = errGoexit
	} else {
		stack = debug.Stack()
	}
	return &KernelPanicError{Value: r, Global: at, Stack: stack, rank: rank, body: body}
}

// runWholeTiles hands whole tiles to GOMAXPROCS workers that each call EachTile.
func runWholeTiles(ctx context.Context, domain TiledExtent, k TileKernel, tiles int, grid Extent) error {
	return shareWork(ctx, min(goruntime.GOMAXPROCS(0), tiles), tiles, noWorkerState, func(_ struct{}, t int, errs *firstError) bool {
		return runOneTile(domain, k, grid.Delinearize(t), errs)
	})
}

func runOneTile(domain TiledExtent, k TileKernel, tile Index, errs *firstError) (ok bool) {
	defer func() {
		if !ok {
			r := recover()
			var origin Index
			for d := range domain.Tile.rank {
				origin[d] = tile[d] * domain.Tile.d[d]
			}
			if err := locateTile(domain, k, tile, origin, r); err != nil {
				errs.set(err)
				return
			}
			errs.set(panicError(r, origin, domain.Tile.rank, "tile"))
		}
	}()
	k.EachTile(domain, tile)
	return true
}

// locateRange finds the thread of an access outside a view (r, a *BoundsError) that the
// fast body of k met somewhere in the offsets lo..hi-1 of domain: it runs Each for them
// in turn and returns the *KernelPanicError of the first that panics with a *BoundsError,
// naming its index; nil if r is another panic or no thread panics so. The threads run a
// second time: the dispatch's outputs are undefined after a panic in any case.
func locateRange(domain Extent, k IndexKernel, lo, hi int, r any) error {
	if _, ok := r.(*BoundsError); !ok {
		return nil
	}
	idx := domain.Delinearize(lo)
	for range hi - lo {
		if err := eachBounds(k, idx, domain.rank); err != nil {
			return err
		}
		domain.next(&idx)
	}
	return nil
}

// eachBounds runs k.Each(idx) and returns the *KernelPanicError of a panic with a
// *BoundsError, or nil.
func eachBounds(k IndexKernel, idx Index, rank int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*BoundsError); ok {
				err = &KernelPanicError{Value: r, Global: idx, Stack: debug.Stack(), rank: rank}
			}
		}
	}()
	k.Each(idx)
	return nil
}

// locateTile is locateRange for the tile at index tile of a tiled kernel's fast body: it
// runs the tile's threads on goroutines of their own, as RunTiledCPU runs a kernel
// without a fast body, and returns the error of the one whose access was outside a view.
func locateTile(domain TiledExtent, k TiledKernel, tile, origin Index, r any) error {
	if _, ok := r.(*BoundsError); !ok {
		return nil
	}
	w := startTileWorker(k, domain.Tile)
	defer w.stop()
	s := newTileState(domain.TileSize(), domain.Tile.rank, tile, origin)
	w.run(s)
	var pe *KernelPanicError
	if err := s.result(); errors.As(err, &pe) {
		if _, ok := pe.Value.(*BoundsError); ok {
			return err
		}
	}
	return nil
}
