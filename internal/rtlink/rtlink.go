// Package rtlink is the private link between package runtime and goamp's packages above
// it: what runtime's dispatcher offers the algorithm library and goamp's tests, and not
// programs (the view a kernel's data chooses, the split of a job over several views
// with the throughput measured on each, a kernel run by its per-thread Go definition).
// Package runtime installs a Link, typed by its Block, when it is loaded.
package rtlink

import "github.com/goamp/goamp/accelerator"

// Link is what package runtime gives goamp's packages. B is runtime's Block, which this
// package cannot name (runtime imports it).
type Link[B any] struct {
	// ChooseView applies C++ AMP's rule for the accelerator view a kernel runs on, the
	// rule ParallelForEach applies, for code that needs the view before it dispatches
	// (scratch memory, tile sizes, a mismatch reported before an output is discarded):
	// view when it is not nil, else the view the data arguments live on (homes[i] is
	// argument i's ArgInfo().Home; all must agree), else the default view of the default
	// accelerator. An argument that lives on another view than the one chosen first is
	// a *runtime.AcceleratorMismatchError: its Kernel is kernel, its Field names[i] for
	// argument i, and its WantFrom "the view passed to CALLER" or "field NAME" for the
	// argument the view came from.
	ChooseView func(kernel, caller string, view *accelerator.View, names []string,
		homes []*accelerator.View) (*accelerator.View, error)
	// Blocks cuts rows rows into contiguous blocks over views, each a multiple of unit
	// rows (but the last block, which ends at rows), in proportion to the throughput
	// measured for the job key on each view's accelerator (equal shares until measured).
	// A view whose share rounds to no rows gets no block. No view, a nil or repeated
	// view, rows < 1 or unit < 1 is a *runtime.SplitError; a closed view is its error.
	Blocks func(key string, views []*accelerator.View, rows, unit int) ([]B, error)
	// RunBlocks runs f for every block at once, each in its own goroutine, and returns
	// when every f has returned: on a GPU that is when the block's work is queued, on
	// the CPU when it is done. It then measures each block (on a GPU until the work
	// queued on its view completes) and folds rowWork work units per row of the block
	// into the throughput of key on the block's accelerator. The errors of all blocks
	// are joined.
	RunBlocks func(key string, blocks []B, rowWork float64, f func(B) error) error
	// Throughput returns the throughput measured for the job key on acc (work units per
	// second), and whether one was measured.
	Throughput func(key string, acc *accelerator.Accelerator) (float64, bool)
	// ResetThroughput forgets the throughput measured for the job key (for every key
	// when key is ""): the next Blocks for it gives equal shares again.
	ResetThroughput func(key string)
	// PerThread wraps kernel (an IndexKernel or a TiledKernel) so that the CPU executor
	// runs its Go definition once per thread, never its fast CPU body (RangeKernel,
	// TileKernel), as a race build does: the conformance tests check that both bodies
	// agree. The result implements both runtime.IndexKernel and runtime.TiledKernel.
	PerThread func(kernel any) any
}

// link is the Link that Set installed, of its type.
var link any

// Set installs l; package runtime calls it in its init.
func Set[B any](l Link[B]) { link = l }

// Get returns the Link that Set installed; B must be runtime's Block.
func Get[B any]() Link[B] { return link.(Link[B]) }
