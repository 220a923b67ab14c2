package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sentinel errors. The structured error types of this package match them
// through their Is methods, so callers can test with errors.Is.
var (
	// ErrInvalidExtent reports an extent whose rank is not 1, 2 or 3, or
	// that has a dimension smaller than 1. It is matched by *ExtentError.
	ErrInvalidExtent = errors.New("goamp/runtime: invalid extent")

	// ErrInvalidComputeDomain reports a tiled compute domain that breaks
	// one of C++ AMP's tiling rules. It is matched by *ComputeDomainError.
	ErrInvalidComputeDomain = errors.New("goamp/runtime: invalid compute domain")

	// ErrKernelPanic reports a kernel body that panicked. It is matched by
	// *KernelPanicError.
	ErrKernelPanic = errors.New("goamp/runtime: kernel panicked")

	// ErrBarrierDivergence reports a tile whose threads did not all reach
	// the same barriers: a thread returned while others waited at a
	// barrier, or threads waited a different number of times. It is
	// matched by *BarrierDivergenceError.
	ErrBarrierDivergence = errors.New("goamp/runtime: barrier divergence")

	// ErrNilKernel reports a nil kernel given to an executor. It is matched by
	// *NilKernelError.
	ErrNilKernel = errors.New("goamp/runtime: nil kernel")
)

// ExtentError describes an invalid Extent. It matches ErrInvalidExtent.
type ExtentError struct {
	// Rank is the rank the extent was built with (possibly 0 or > 3).
	Rank int
	// Dims are the recorded dimensions (at most 3).
	Dims []int
	// Reason says what is wrong, with the numbers involved.
	Reason string
}

// Error implements error.
func (e *ExtentError) Error() string {
	return fmt.Sprintf("goamp/runtime: invalid extent %s: %s", formatDims(e.Dims, e.Rank), e.Reason)
}

// Is reports whether target is ErrInvalidExtent.
func (e *ExtentError) Is(target error) bool { return target == ErrInvalidExtent }

// ComputeDomainError describes a TiledExtent that breaks one of C++ AMP's
// tiling rules. It matches ErrInvalidComputeDomain, and unwraps to the
// underlying *ExtentError when the extent itself is invalid.
type ComputeDomainError struct {
	// Extent and Tile are the compute domain that was rejected.
	Extent Extent
	Tile   Extent
	// Reason says what is wrong, with the numbers involved.
	Reason string
	// Dim is the dimension concerned, or -1 when the rule is not about a
	// single dimension.
	Dim int
	// Limit is the bound the value breaks: MaxTileThreads, MaxTileD0Rank3,
	// 1 (the smallest tile dimension), the extent rank for a rank
	// mismatch, or the tile dimension an extent dimension must be a
	// multiple of; 0 for an invalid extent.
	Limit int
	// Value is the offending value: the thread count, the tile dimension,
	// the tile rank, or the extent dimension that is not divisible.
	Value int
	// Err is the underlying cause, if any (an *ExtentError).
	Err error
}

// Error implements error.
func (e *ComputeDomainError) Error() string {
	return "goamp/runtime: invalid compute domain: " + e.Reason
}

// Is reports whether target is ErrInvalidComputeDomain.
func (e *ComputeDomainError) Is(target error) bool { return target == ErrInvalidComputeDomain }

// Unwrap returns the underlying cause, if any.
func (e *ComputeDomainError) Unwrap() error { return e.Err }

// KernelPanicError reports a kernel body that panicked (or called
// runtime.Goexit). It matches ErrKernelPanic and unwraps to Value when Value
// is an error.
type KernelPanicError struct {
	// Kernel is the kernel's type, where the dispatch knew it (RunCPU does not).
	Kernel string
	// Value is the value passed to panic.
	Value any
	// Global is the global index of the thread that panicked. Where a fast CPU body ran
	// (RangeKernel.EachRange, TileKernel.EachTile: one call for many threads), it is the
	// first index of the range or the tile's origin, the closest the executor knows; but
	// for an access outside a view (a *BoundsError), which the executor traces to its
	// thread by running the range's or tile's threads again one by one.
	Global Index
	// Stack is the goroutine stack captured when the panic was recovered.
	Stack []byte

	rank int    // rank of Global, for formatting; 0 means unknown
	body string // "range" or "tile" where a fast CPU body ran many threads from Global
}

// Error implements error.
func (e *KernelPanicError) Error() string {
	k := "kernel"
	if e.Kernel != "" {
		k += " " + e.Kernel
	}
	if e.body != "" {
		return fmt.Sprintf("goamp/runtime: %s panicked in the %s of threads from global index %s (a fast CPU body): %v",
			k, e.body, formatIndex(e.Global, e.rank), e.Value)
	}
	return fmt.Sprintf("goamp/runtime: %s panicked at global index %s: %v", k, formatIndex(e.Global, e.rank), e.Value)
}

// Is reports whether target is ErrKernelPanic.
func (e *KernelPanicError) Is(target error) bool { return target == ErrKernelPanic }

// BoundsError is the Value of the *KernelPanicError of an access outside a view (or a
// tile_static or local array) in a kernel: a view access outside the view's extent, an
// index of a higher rank than the view's with a component past its rank that is not 0
// (At(Idx(2, 5)) of a rank-1 view), or an index past an array's length. The CPU
// accelerators return it (the view's At, Set and their fast-body forms panic with it) and
// so does a bounds-checked GPU dispatch (Program.Checked), the first the device recorded;
// the *KernelPanicError's Global names the thread.
type BoundsError struct {
	// Kernel is the kernel's type. Field is the data field accessed, or "tile_static
	// array k" (k counts the kernel's tile_static arrays in declaration order from 0), or
	// "an array or Index"; either is empty outside a dispatch (a host's At).
	Kernel, Field string
	// Index is the index accessed (its components past Extent's rank are as the kernel
	// gave them).
	Index Index
	// Extent is the view's extent, or the array's length.
	Extent Extent
	// Key is, on the CPU, the accessed argument's ArgInfo().Key, by which the dispatcher
	// names Field; it is nil in a bounds-checked GPU dispatch's error.
	Key any
}

// Error implements error.
func (e *BoundsError) Error() string {
	r := max(e.Extent.Rank(), 1)
	n := r // as the CPU's message writes it: [-1 -1] of a rank-2 view
	for d := r; d < len(e.Index); d++ {
		if e.Index[d] != 0 {
			n = d + 1
		}
	}
	var b strings.Builder
	b.WriteString("goamp/runtime: ")
	if e.Kernel != "" {
		fmt.Fprintf(&b, "kernel %s: ", e.Kernel)
	}
	fmt.Fprintf(&b, "index %v", e.Index[:n])
	if e.Field != "" {
		fmt.Fprintf(&b, " of field %s", e.Field)
	}
	fmt.Fprintf(&b, " is outside its extent %s", e.Extent)
	if n > r {
		fmt.Fprintf(&b, " (a rank-%d index of a rank-%d view: its components past the view's rank must be 0)", n, r)
	}
	if e.Key == nil {
		b.WriteString(" (a bounds-checked GPU dispatch)")
	}
	return b.String()
}

// DivideError is the Value of the *KernelPanicError of a bounds-checked GPU dispatch (see
// Program.Checked) in which an integer division or remainder had a zero divisor, which
// panics on the CPU (Go's "integer divide by zero"). The division gave the dividend (a
// divisor of 1) and the dispatch's outputs are undefined, as after a panic on the CPU.
type DivideError struct {
	// Kernel is the kernel's type.
	Kernel string
}

// Error implements error.
func (e *DivideError) Error() string {
	return fmt.Sprintf("goamp/runtime: kernel %s: integer divide by zero (a bounds-checked GPU dispatch)", e.Kernel)
}

// NilKernelError says an executor was given a nil kernel: an untyped nil, or a nil
// pointer of a kernel type. It matches ErrNilKernel.
type NilKernelError struct {
	// Type is the kernel's type, e.g. "*pkg.Scale"; "" for an untyped nil.
	Type string
}

// Error implements error.
func (e *NilKernelError) Error() string {
	if e.Type == "" {
		return ErrNilKernel.Error()
	}
	return fmt.Sprintf("%v (a nil %s)", ErrNilKernel, e.Type)
}

// Is matches ErrNilKernel.
func (e *NilKernelError) Is(target error) bool { return target == ErrNilKernel }

// nilKernel is the *NilKernelError of kernel k, naming its type where it has one.
func nilKernel(k any) error {
	if k == nil {
		return &NilKernelError{}
	}
	return &NilKernelError{Type: fmt.Sprintf("%T", k)}
}

// ShiftError is the Value of the *KernelPanicError of a bounds-checked GPU dispatch (see
// Program.Checked) in which a shift had a negative count, which panics on the CPU (Go's
// "negative shift amount"). The shift gave its operand unshifted and the dispatch's outputs
// are undefined, as after a panic on the CPU.
type ShiftError struct {
	// Kernel is the kernel's type.
	Kernel string
	// Count is the negative count.
	Count int
}

// Error implements error.
func (e *ShiftError) Error() string {
	return fmt.Sprintf("goamp/runtime: kernel %s: negative shift amount %d (a bounds-checked GPU dispatch)", e.Kernel, e.Count)
}

// LoopLimitError is the Value of the *KernelPanicError of a bounds-checked GPU dispatch
// (see Program.Checked) on a device that ends a thread's loops after a number of
// iterations in all (accelerator.Limits.MaxLoopIterations: lavapipe) where a thread's
// loops reached that number: they may have ended early, without an error in an ordinary
// build, and the dispatch's outputs are undefined.
type LoopLimitError struct {
	// Kernel is the kernel's type.
	Kernel string
	// Limit is the device's cap.
	Limit int
}

// Error implements error.
func (e *LoopLimitError) Error() string {
	return fmt.Sprintf("goamp/runtime: kernel %s: a thread's loops reached %d iterations, where the device ends them "+
		"(accelerator.Limits.MaxLoopIterations): they may have stopped early (a bounds-checked GPU dispatch)", e.Kernel, e.Limit)
}

// Unwrap returns Value when it is an error, else nil.
func (e *KernelPanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// BarrierDivergenceError reports a tile whose threads did not all reach the
// same barriers. It matches ErrBarrierDivergence.
type BarrierDivergenceError struct {
	// Tile is the index of the tile in the grid of tiles.
	Tile Index
	// TileOrigin is the global index of the tile's first thread.
	TileOrigin Index
	// Reason says what happened.
	Reason string

	rank int // rank of Tile, for formatting; 0 means unknown
}

// Error implements error.
func (e *BarrierDivergenceError) Error() string {
	return fmt.Sprintf("goamp/runtime: barrier divergence in tile %s (origin %s): %s",
		formatIndex(e.Tile, e.rank), formatIndex(e.TileOrigin, e.rank), e.Reason)
}

// Is reports whether target is ErrBarrierDivergence.
func (e *BarrierDivergenceError) Is(target error) bool { return target == ErrBarrierDivergence }

// formatDims formats dims as "(4, 6)", adding ", ..." when rank says there
// were more dimensions than recorded.
func formatDims(dims []int, rank int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range dims {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if rank > len(dims) {
		if len(dims) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	b.WriteByte(')')
	return b.String()
}

// formatIndex formats the first rank entries of i; rank outside 1..3
// formats all three.
func formatIndex(i Index, rank int) string {
	if rank < 1 || rank > 3 {
		rank = 3
	}
	return formatDims(i[:rank], rank)
}

// formatTimes formats dims as "64x32".
func formatTimes(dims []int) string {
	s := make([]string, len(dims))
	for i, d := range dims {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, "x")
}
