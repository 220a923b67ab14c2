package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/device"
)

// One job over several accelerators.
//
// C++ AMP ran a program on every accelerator a machine had by giving each accelerator view
// its own parallel_for_each over its part of the data. ParallelForEachOn does that for
// one kernel: it cuts dimension 0 of the domain into contiguous blocks, one per
// accelerator view, in proportion to the throughput measured for that kernel on each
// (equal shares until measured), asks the caller for the block's kernel (its views cut to
// the block's sections), and runs the blocks at once. The data's coherence does the rest:
// each view's section is valid where its block ran, reads copy what a location lacks,
// and results reach the host as for one view.

// Block is one accelerator view's part of a domain split over several (ParallelForEachOn,
// ParallelForEachTiledOn): the rows [Lo, Hi) of the domain's dimension 0.
type Block struct {
	// Index is the block's position among the blocks of its split, from 0.
	Index int
	// View runs the block.
	View *accelerator.View
	// Lo and Hi are the block's first row and the row past its last.
	Lo, Hi int
}

// Rows is the block's number of rows, Hi - Lo.
func (b Block) Rows() int { return b.Hi - b.Lo }

// Of returns the domain e with dimension 0 cut to the block's rows: the domain of the
// block's kernel, which indexes its sections from 0.
func (b Block) Of(e Extent) Extent {
	e.d[0] = b.Hi - b.Lo
	return e
}

// SplitError says a split over accelerator views cannot be made: no view, a nil or
// repeated view, or no rows. It matches ErrInvalidSplit.
type SplitError struct {
	// Views names the accelerator views given.
	Views []string
	// Rows and Unit are the rows to split and the multiple each block must have.
	Rows, Unit int
	// Reason says what is wrong, with the values involved.
	Reason string
}

// ErrInvalidSplit is matched by *SplitError.
var ErrInvalidSplit = errors.New("goamp/runtime: invalid split over accelerator views")

// Error implements error.
func (e *SplitError) Error() string {
	return fmt.Sprintf("goamp/runtime: cannot split %d rows (in units of %d) over %v: %s", e.Rows, e.Unit, e.Views, e.Reason)
}

// Is matches ErrInvalidSplit.
func (e *SplitError) Is(target error) bool { return target == ErrInvalidSplit }

// rates holds the measured throughput (work units per second) of each job key on each
// accelerator (by path), as an exponentially weighted mean of the blocks run.
var rates = struct {
	sync.Mutex
	m map[string]map[string]float64
}{m: map[string]map[string]float64{}}

// throughput returns the throughput measured for the job key on acc (work units per
// second, as runBlocks records it), and whether one was measured.
func throughput(key string, acc *accelerator.Accelerator) (float64, bool) {
	rates.Lock()
	defer rates.Unlock()
	r, ok := rates.m[key][acc.Path()]
	return r, ok
}

// resetThroughput forgets the throughput measured for the job key (for every key when key
// is ""): the next split for it gives equal shares again.
func resetThroughput(key string) {
	rates.Lock()
	defer rates.Unlock()
	if key == "" {
		clear(rates.m)
		return
	}
	delete(rates.m, key)
}

// recordThroughput folds a measurement into the throughput of the job key on acc: work
// units done in d. runBlocks records each block it runs. A non-positive work or duration
// is ignored.
func recordThroughput(key string, acc *accelerator.Accelerator, work float64, d time.Duration) {
	if work <= 0 || d <= 0 {
		return
	}
	r := work / d.Seconds()
	rates.Lock()
	defer rates.Unlock()
	m := rates.m[key]
	if m == nil {
		m = map[string]float64{}
		rates.m[key] = m
	}
	if old, ok := m[acc.Path()]; ok {
		r = (old + r) / 2
	}
	m[acc.Path()] = r
}

// weights returns each view's share of work for key: its measured throughput, or the mean
// of the measured ones (1 when none is) for a view not yet measured.
func weights(key string, views []*accelerator.View) []float64 {
	w := make([]float64, len(views))
	var sum float64
	var known int
	for i, v := range views {
		if r, ok := throughput(key, v.Accelerator()); ok {
			w[i], sum, known = r, sum+r, known+1
		}
	}
	mean := 1.0
	if known > 0 {
		mean = sum / float64(known)
	}
	for i := range w {
		if w[i] == 0 {
			w[i] = mean
		}
	}
	return w
}

// splitBlocks cuts rows rows into contiguous blocks over views, each a multiple of unit rows
// (but the last block, which ends at rows), in proportion to the throughput measured for
// the job key on each view's accelerator (equal shares until measured). A view whose
// share rounds to no rows gets no block. No view, a nil or repeated view, rows < 1 or
// unit < 1 is a *SplitError; a closed view is its error (ErrViewClosed).
func splitBlocks(key string, views []*accelerator.View, rows, unit int) ([]Block, error) {
	if err := checkSplit(views, rows, unit); err != nil {
		return nil, err
	}
	count := shareUnits((rows+unit-1)/unit, weights(key, views))
	var blocks []Block
	lo := 0
	for i, v := range views {
		if count[i] == 0 {
			continue
		}
		hi := min(lo+count[i]*unit, rows)
		blocks = append(blocks, Block{Index: len(blocks), View: v, Lo: lo, Hi: hi})
		lo = hi
	}
	return blocks, nil
}

// shareUnits shares units among len(w) takers in proportion to the weights w (all > 0),
// by largest remainder: each gets the floor of its share, and the units left go to the
// largest fractions, the first taker first on a tie.
func shareUnits(units int, w []float64) []int {
	var total float64
	for _, x := range w {
		total += x
	}
	count := make([]int, len(w))
	frac := make([]float64, len(w))
	left := units
	for i, x := range w {
		share := float64(units) * x / total
		count[i] = min(int(math.Floor(share)), left)
		frac[i] = share - float64(count[i])
		left -= count[i]
	}
	order := make([]int, len(w))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(frac[b], frac[a]) })
	for j := 0; left > 0; j, left = j+1, left-1 {
		count[order[j%len(order)]]++
	}
	return count
}

// checkSplit checks splitBlocks' arguments.
func checkSplit(views []*accelerator.View, rows, unit int) error {
	names := make([]string, len(views))
	for i, v := range views {
		names[i] = fmt.Sprint(v)
	}
	fail := func(format string, args ...any) error {
		return &SplitError{Views: names, Rows: rows, Unit: unit, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case len(views) == 0:
		return fail("no accelerator view")
	case rows < 1:
		return fail("no rows")
	case unit < 1:
		return fail("a unit must be at least 1 row")
	}
	for i, v := range views {
		if v == nil {
			return fail("view %d is nil", i)
		}
		if j := slices.Index(views, v); j != i {
			return fail("views %d and %d are the same view; give each accelerator view once", j, i)
		}
	}
	for _, v := range views { // before any block runs: a closed view must not leave a job half done
		if err := device.Of(v).CheckOpen(); err != nil {
			return err
		}
	}
	return nil
}

// runBlocks runs f for every block at once, each in its own goroutine, and returns when
// every f has returned: on a GPU that is when the block's work is queued, on the CPU when
// it is done. It then measures each block: on the CPU f's own time, on a GPU the time
// from f's start to the completion of the work queued on the block's view (a marker
// waited for in the background); recordThroughput folds rowWork work units per row of the
// block, over that time, into the throughput of key on the block's accelerator, which
// the next splitBlocks for key divides by. The errors of all blocks are joined.
func runBlocks(key string, blocks []Block, rowWork float64, f func(Block) error) error {
	errs := make([]error, len(blocks))
	var wg sync.WaitGroup
	for i, b := range blocks {
		wg.Go(func() {
			start := time.Now()
			if errs[i] = f(b); errs[i] != nil {
				return
			}
			work := rowWork * float64(b.Rows())
			acc := b.View.Accelerator()
			if acc.Traits().HostMemory {
				recordThroughput(key, acc, work, time.Since(start))
				return
			}
			m, err := b.View.CreateMarker()
			if err != nil {
				errs[i] = err
				return
			}
			go func() {
				if m.Wait(context.Background()) == nil {
					recordThroughput(key, acc, work, time.Since(start))
				}
			}()
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// keyOf is the throughput key of the kernel type K.
func keyOf[K any]() string { return reflect.TypeFor[K]().String() }

// ParallelForEachOn runs one kernel over domain on several accelerator views at once, as
// C++ AMP programs ran a parallel_for_each per accelerator: it cuts dimension 0 of domain
// into contiguous blocks (in proportion to the throughput measured for the kernel
// type K on each view's accelerator), calls split for each block to get the block's
// kernel, and runs it over the block's domain (Block.Of: the rows Hi - Lo) on the block's
// view, all blocks at once. It returns when every block is queued (done, on
// the CPU); results reach the host as for one view (Synchronize, Data, Close).
//
// split gives the block its data: the sections of the kernel's views that hold the
// block's rows (arrayview's View.Section), and whole views that every block reads. Each
// block's kernel indexes its own sections from 0; a kernel that uses its index's value for
// more than addressing (C++ AMP's idx[0] * k) takes the block's first row, b.Lo, as a
// scalar field. A kernel must write only within its block's sections: those are what stay
// valid where the block ran; two blocks writing the same elements leave either's values.
//
// Errors: a *SplitError for bad views or an empty domain, a closed view's error (both
// before any block runs), a domain's own errors (as ParallelForEach), and the errors of
// split and of each block's dispatch, joined.
func ParallelForEachOn[K IndexKernel](views []*accelerator.View, domain Extent, split func(Block) (K, error)) error {
	if err := validateDomain(domain); err != nil {
		return err
	}
	blocks, err := splitBlocks(keyOf[K](), views, domain.d[0], 1)
	if err != nil {
		return err
	}
	rowWork := float64(domain.Size() / domain.d[0])
	return runBlocks(keyOf[K](), blocks, rowWork, func(b Block) error {
		k, err := split(b)
		if err != nil {
			return err
		}
		return ParallelForEach(b.View, b.Of(domain), k)
	})
}

// ParallelForEachTiledOn is ParallelForEachOn for a tiled kernel: blocks are whole tiles
// of dimension 0 (a multiple of the tile's dimension 0 rows), so no tile is cut, and each
// block's domain is the block's rows tiled as domain is.
func ParallelForEachTiledOn[K TiledKernel](views []*accelerator.View, domain TiledExtent, split func(Block) (K, error)) error {
	if err := domain.Validate(); err != nil {
		return err
	}
	blocks, err := splitBlocks(keyOf[K](), views, domain.Extent.d[0], domain.Tile.d[0])
	if err != nil {
		return err
	}
	rowWork := float64(domain.Extent.Size() / domain.Extent.d[0])
	return runBlocks(keyOf[K](), blocks, rowWork, func(b Block) error {
		k, err := split(b)
		if err != nil {
			return err
		}
		return ParallelForEachTiled(b.View, TiledExtent{Extent: b.Of(domain.Extent), Tile: domain.Tile}, k)
	})
}
