package arrayview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/runtime"
)

// span is a contiguous range [lo, hi) of a source's elements.
type span struct{ lo, hi int }

// geom places a view in its source: element i is at base + i0*st[0] + i1*st[1] + i2*st[2],
// with st[rank-1] == 1 and unused strides 0.
type geom struct {
	ext  runtime.Extent
	base int
	st   [3]int
}

func rowMajor(ext runtime.Extent) geom {
	g := geom{ext: ext}
	stride := 1
	for d := ext.Rank() - 1; d >= 0; d-- {
		g.st[d] = stride
		stride *= ext.Dim(d)
	}
	return g
}

func (g *geom) offset(i runtime.Index) int {
	return g.base + i[0]*g.st[0] + i[1]*g.st[1] + i[2]*g.st[2]
}

// footprint lists the view's element ranges in the source, merging adjacent rows.
func (g *geom) footprint() []span {
	r := g.ext.Rank()
	row := g.ext.Dim(r - 1)
	var out []span
	add := func(lo int) {
		if n := len(out); n > 0 && out[n-1].hi == lo {
			out[n-1].hi = lo + row
			return
		}
		out = append(out, span{lo, lo + row})
	}
	switch r {
	case 1:
		add(g.base)
	case 2:
		for a := 0; a < g.ext.Dim(0); a++ {
			add(g.base + a*g.st[0])
		}
	case 3:
		for a := 0; a < g.ext.Dim(0); a++ {
			for b := 0; b < g.ext.Dim(1); b++ {
				add(g.base + a*g.st[0] + b*g.st[1])
			}
		}
	}
	return out
}

// View is a C++ AMP array_view: a rank 1-3 window on a Go slice (or on an Array's data)
// that kernels read and write on any accelerator. Create one with New. Its methods are
// safe for concurrent use; element access from kernels running on the CPU is lock-free.
type View[T any] struct {
	data []T // the whole source as T
	src  *source
	g    geom
	fp   []span
	info elemInfo
	// lim holds the extent's dimensions for index's checks, the largest uint past the rank.
	lim [3]uint
	// hostR and hostW hold the source version at which the host copy was last made
	// current for reading (and writing) through this view: the lock-free fast path.
	hostR, hostW atomic.Uint64
	// closed is set by Close, with src.mu held; methods check it under src.mu.
	closed atomic.Bool
	// leak is the leak report's record of the view (SetLeakReport), nil when it is off.
	leak *leakInfo
	// bound caches the last device binding: while the source's version is unchanged, the
	// same binding needs no coherence work (guarded by src.mu).
	bound struct {
		av  *accelerator.View
		acc runtime.Access
		ver uint64
		b   runtime.Binding
	}
}

// New wraps data, laid out row-major, in a view of extent ext. The slice's length must equal
// ext.Size(). Views made on the same slice, or on slices of memory that an earlier view's
// slice holds (data and then data[4:8], or a row data[i*w:(i+1)*w]), share their coherence
// state, as sections of one view do. A slice that overlaps an open view's memory but does
// not lie in it (data[4:8] and then data[:6], or a slice of another element size over the
// same bytes) is refused with an *OverlapError: make the larger view first, or the smaller
// as its Section.
func New[T any](ext runtime.Extent, data []T) (*View[T], error) {
	info := checkElem[T]()
	if info.err != nil {
		return nil, info.err
	}
	if err := ext.Validate(); err != nil {
		return nil, err
	}
	if len(data) != ext.Size() {
		return nil, &LengthError{Extent: ext, Len: len(data)}
	}
	src, off, err := sourceFor(unsafe.Pointer(unsafe.SliceData(data)), len(data)*info.size, info)
	if err != nil {
		return nil, err
	}
	g := rowMajor(ext)
	g.base = off
	return newView(unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(src.host))), src.n), src, g, info), nil
}

// MustNew is New for data known to be right; it panics on error.
func MustNew[T any](ext runtime.Extent, data []T) *View[T] {
	v, err := New(ext, data)
	if err != nil {
		panic(err)
	}
	return v
}

func newView[T any](data []T, src *source, g geom, info elemInfo) *View[T] {
	v := &View[T]{data: data, src: src, g: g, fp: g.footprint(), info: info, lim: limits(g.ext)}
	v.hostR.Store(^uint64(0))
	v.hostW.Store(^uint64(0))
	src.mu.Lock()
	src.open++
	src.mu.Unlock()
	trackLeak(v)
	return v
}

// Overlap reports whether views a and b, of any element types, share memory: they were made
// from one another (Section, Project) or over slices of one memory, and an element of the
// one lies in the other. Nil and zero views share nothing. Functions that read one view
// while writing another (algo's MatMul, Transpose, Convolve2D, SortPairs) use it to refuse
// arguments whose writes would land in what they still read.
func Overlap[T, U any](a *View[T], b *View[U]) bool {
	if a == nil || b == nil || a.src == nil || a.src != b.src {
		return false
	}
	// Footprints list their ranges in ascending order (strides are positive): merge them.
	for i, j := 0, 0; i < len(a.fp) && j < len(b.fp); {
		x, y := a.fp[i], b.fp[j]
		if x.lo < y.hi && y.lo < x.hi {
			return true
		}
		if x.hi <= y.hi {
			i++
		} else {
			j++
		}
	}
	return false
}

// SameElements reports whether a and b are views of the same elements of the same data in
// the same row-major order (the same view, or sections of the same place), so that an
// operation may read each element of one and write the same element of the other in
// place. Views of overlapping but different elements are Overlap and not SameElements.
func SameElements[T, U any](a *View[T], b *View[U]) bool {
	if a == nil || b == nil || a.src == nil || a.src != b.src {
		return false
	}
	return slices.Equal(a.fp, b.fp)
}

// Extent is the view's extent (the zero Extent for a nil view).
func (v *View[T]) Extent() runtime.Extent {
	if v == nil {
		return runtime.Extent{}
	}
	return v.g.ext
}

// Rank is the view's rank (0 for a nil view).
func (v *View[T]) Rank() int { return v.Extent().Rank() }

// String describes the view.
func (v *View[T]) String() string {
	var z T
	if v == nil {
		return fmt.Sprintf("View[%T](nil)", z)
	}
	return fmt.Sprintf("View[%T]%v", z, v.g.ext)
}

// Section returns the view of extent ext starting at origin, sharing this view's data.
func (v *View[T]) Section(origin runtime.Index, ext runtime.Extent) (*View[T], error) {
	if v == nil || v.src == nil {
		return nil, zeroError("Section")
	}
	if err := ext.Validate(); err != nil {
		return nil, err
	}
	if ext.Rank() != v.Rank() {
		return nil, &RangeError{What: fmt.Sprintf("section %v at %v", ext, origin[:ext.Rank()]), Extent: v.g.ext,
			Reason: fmt.Sprintf("a rank-%d section of a rank-%d view of extent %v (a section has its view's rank)",
				ext.Rank(), v.g.ext.Rank(), v.g.ext)}
	}
	if v.closed.Load() {
		return nil, v.closedError("Section")
	}
	for d := 0; d < ext.Rank(); d++ {
		// origin+extent may overflow: compare the origin with the room the extent leaves.
		if origin[d] < 0 || origin[d] > v.g.ext.Dim(d)-ext.Dim(d) {
			return nil, &RangeError{What: fmt.Sprintf("section %v at %v", ext, origin[:ext.Rank()]), Extent: v.g.ext}
		}
	}
	g := v.g
	g.base = v.g.offset(origin)
	g.ext = ext
	return newView(v.data, v.src, g, v.info), nil
}

// Project returns the rank N-1 view at index i of dimension 0 (C++ AMP's view[i]).
func (v *View[T]) Project(i int) (*View[T], error) {
	if v == nil || v.src == nil {
		return nil, zeroError("Project")
	}
	r := v.Rank()
	if r < 2 {
		return nil, &RangeError{What: fmt.Sprintf("projection at %d", i), Extent: v.g.ext,
			Reason: fmt.Sprintf("a rank-1 view of extent %v has no projection (its elements are At(runtime.Idx(%d)))", v.g.ext, i)}
	}
	if i < 0 || i >= v.g.ext.Dim(0) {
		return nil, &RangeError{What: fmt.Sprintf("projection at %d", i), Extent: v.g.ext}
	}
	if v.closed.Load() {
		return nil, v.closedError("Project")
	}
	dims := v.g.ext.Dims()[1:]
	g := geom{ext: runtime.Ext(dims...), base: v.g.base + i*v.g.st[0], st: [3]int{v.g.st[1], v.g.st[2], 0}}
	return newView(v.data, v.src, g, v.info), nil
}

func (v *View[T]) index(i runtime.Index) int {
	if uint(i[0]) >= v.lim[0] || uint(i[1]) >= v.lim[1] || uint(i[2]) >= v.lim[2] {
		outside(i, v.g.ext, v)
	}
	return v.g.offset(i)
}

// limits returns the bounds index checks an index against: e's dimensions, and past its
// rank 1, so that a component there must be 0 (an index of a higher rank than the view's
// is an error, not an element of its first row).
func limits(e runtime.Extent) [3]uint {
	lim := [3]uint{1, 1, 1}
	for d := range min(e.Rank(), 3) {
		lim[d] = uint(e.Dim(d))
	}
	return lim
}

// outside panics with the *runtime.BoundsError of index i outside extent e of the view
// whose ArgInfo().Key is key. It is a function of its own so that index, which every At
// and Set calls, does not move i to the heap.
func outside(i runtime.Index, e runtime.Extent, key any) {
	panic(&runtime.BoundsError{Index: i, Extent: e, Key: key})
}

// At returns the element at i, first bringing the host copy up to date if a device holds
// newer data. It panics with a *runtime.BoundsError if i lies outside the extent, as a
// slice index does (an index of a higher rank than the view's, with a component past its
// rank that is not 0, lies outside), and if the view is closed.
func (v *View[T]) At(i runtime.Index) T {
	if v.hostR.Load() != v.src.version.Load() {
		v.mustHost("At", runtime.Read)
	}
	return v.data[v.index(i)]
}

// Set stores x at i on the host, making the host copy the only valid one for this view's
// range. It panics as At does if i lies outside the extent, and if the view is closed.
func (v *View[T]) Set(i runtime.Index, x T) {
	if v.hostW.Load() != v.src.version.Load() {
		v.mustHost("Set", runtime.ReadWrite)
	}
	v.data[v.index(i)] = x
}

func (v *View[T]) mustHost(op string, acc runtime.Access) {
	if err := v.host(op, acc); err != nil {
		if errors.Is(err, ErrClosed) || errors.Is(err, ErrNoHostCopy) {
			panic(err) // a kernel's *runtime.KernelPanicError unwraps to it
		}
		panic(fmt.Sprintf("goamp/arrayview: bringing %v to the host: %v", v, err))
	}
}

// zeroError is the error of operation op on a nil or zero view, one not made by New,
// MustNew, NewArray or a method of a view.
func zeroError(op string) error {
	return &ArgumentError{Func: op, Reason: "the view is nil or zero; make views with New, MustNew, NewArray, Section or Project"}
}

// closedError is the error of operation op on the closed view.
func (v *View[T]) closedError(op string) error { return &ClosedError{View: v.String(), Op: op} }

// host makes the host copy of the view current for access acc and arms the fast path; op
// names the operation for the error of a closed view.
func (v *View[T]) host(op string, acc runtime.Access) error {
	if v == nil || v.src == nil {
		return zeroError(op)
	}
	v.src.mu.Lock()
	defer v.src.mu.Unlock()
	return v.hostLocked(op, acc)
}

// hostLocked is host with v.src.mu held.
func (v *View[T]) hostLocked(op string, acc runtime.Access) error {
	s := v.src
	if v.closed.Load() {
		return v.closedError(op)
	}
	if err := s.acquire(nil, acc, v.fp); err != nil {
		return err
	}
	ver := s.version.Load()
	v.hostR.Store(ver)
	if acc&runtime.Write != 0 {
		v.hostW.Store(ver)
	}
	return nil
}

// Synchronize copies data that a device modified back to the Go slice, for this view's range.
// It returns an error matching ErrClosed on a closed view, and an *ArgumentError on a nil
// or zero one.
func (v *View[T]) Synchronize() error { return v.host("Synchronize", runtime.Read) }

// SynchronizeTo makes accelerator view av hold the current data of this view's range. A
// closed av is an error matching accelerator.ErrViewClosed, on the CPU as on GPUs.
func (v *View[T]) SynchronizeTo(av *accelerator.View) error {
	if v == nil || v.src == nil {
		return zeroError("SynchronizeTo")
	}
	if av != nil {
		if err := device.Of(av).CheckOpen(); err != nil {
			return err
		}
	}
	v.src.mu.Lock()
	defer v.src.mu.Unlock()
	if v.closed.Load() {
		return v.closedError("SynchronizeTo")
	}
	return v.src.acquire(av, runtime.Read, v.fp)
}

// Future is the result of an asynchronous operation (C++ AMP completion_future).
type Future struct {
	done chan struct{}
	err  error
}

// Wait blocks until the operation has finished or ctx is done.
func (f *Future) Wait(ctx context.Context) error {
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Done reports whether the operation has finished.
func (f *Future) Done() bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

func async(fn func() error) *Future {
	f := &Future{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		defer func() { // a panic here would end the program: Wait returns it instead
			if r := recover(); r != nil {
				f.err = fmt.Errorf("goamp/arrayview: panic in an asynchronous operation: %v", r)
			}
		}()
		f.err = fn()
	}()
	return f
}

// SynchronizeAsync starts Synchronize and returns its future.
func (v *View[T]) SynchronizeAsync() *Future { return async(v.Synchronize) }

// Refresh tells the view that the Go slice was changed directly, behind its back: the host
// copy becomes the only valid one for this view's range. It panics on a closed view.
func (v *View[T]) Refresh() { v.set("Refresh", hostBit) }

// DiscardData declares the view's current contents meaningless: no device access uploads
// them and no synchronization copies them back, until the next write makes them valid. It
// panics on a closed view (Discard returns the error instead).
func (v *View[T]) DiscardData() { v.set("DiscardData", 0) }

// Discard is DiscardData that returns an error instead of panicking: a *ClosedError
// (matching ErrClosed) on a closed view, an *ArgumentError on a nil or zero one. Code
// handed a view it did not make, such as a library function, calls Discard, since a
// Close may come before it or race with it.
func (v *View[T]) Discard() error {
	if v == nil || v.src == nil {
		return zeroError("Discard")
	}
	return v.trySet("Discard", 0)
}

// set gives the view's range the mask m, for operation op; it panics on a closed view.
func (v *View[T]) set(op string, m uint32) {
	if err := v.trySet(op, m); err != nil {
		panic(err)
	}
}

// trySet is set returning the *ClosedError of a closed view.
func (v *View[T]) trySet(op string, m uint32) error {
	v.src.mu.Lock()
	defer v.src.mu.Unlock()
	if v.closed.Load() {
		return v.closedError(op)
	}
	v.src.setLocked(v.fp, m)
	return nil
}

// Data brings the host copy up to date and returns the view's elements as a slice of the
// underlying data, for views whose elements are contiguous (rank 1, or full rows). Writes
// through the slice are seen by later kernels, since Data marks the host copy as modified.
func (v *View[T]) Data() ([]T, error) { return v.hostSlice("Data", runtime.ReadWrite) }

// ReadData is Data for reading only: it brings the host copy up to date without marking it
// modified, so device copies stay valid. The slice must not be written. CPU kernel bodies
// use it to loop over their inputs.
func (v *View[T]) ReadData() ([]T, error) { return v.hostSlice("ReadData", runtime.Read) }

// hostSlice is Data (op "Data", acc ReadWrite) and ReadData (op "ReadData", acc Read).
func (v *View[T]) hostSlice(op string, acc runtime.Access) ([]T, error) {
	if v == nil || v.src == nil {
		return nil, zeroError(op)
	}
	if len(v.fp) != 1 {
		return nil, &RangeError{What: fmt.Sprintf("%s of section %v", op, v.g.ext), Extent: v.g.ext,
			Reason: "its rows are apart in its data, not one slice: use CopyTo or CopyFrom"}
	}
	if err := v.host(op, acc); err != nil {
		return nil, err
	}
	return v.data[v.fp[0].lo:v.fp[0].hi:v.fp[0].hi], nil
}

// CopyTo copies the view's elements, row-major, into dst, which must hold exactly
// Extent().Size() elements.
func (v *View[T]) CopyTo(dst []T) error {
	if v == nil || v.src == nil {
		return zeroError("CopyTo")
	}
	if len(dst) != v.g.ext.Size() {
		return &LengthError{Extent: v.g.ext, Len: len(dst)}
	}
	if v.src.host == nil {
		return v.deviceTransfer("CopyTo", dst, false)
	}
	if err := v.host("CopyTo", runtime.Read); err != nil {
		return err
	}
	k := 0
	for _, r := range v.fp {
		k += copy(dst[k:], v.data[r.lo:r.hi])
	}
	return nil
}

// deviceTransfer copies the elements of a view of a device-only array (NewDeviceArray)
// from its view's buffers into buf (CopyTo), or from buf into them (up: CopyFrom),
// row-major, with no host copy between; op names the operation for a closed view's error.
func (v *View[T]) deviceTransfer(op string, buf []T, up bool) error {
	s := v.src
	s.mu.Lock()
	defer s.mu.Unlock()
	if v.closed.Load() {
		return v.closedError(op)
	}
	acc := runtime.Read
	if up {
		acc = runtime.ReadWrite
		s.setLocked(v.fp, 0) // every element is overwritten: nothing to keep
	}
	if err := s.acquire(s.home, acc, v.fp); err != nil {
		return err
	}
	_, l, err := s.bit(s.home)
	if err != nil {
		return err
	}
	k := 0
	for _, r := range v.fp {
		err := l.each(r.lo, r.hi, s.n, s.esize, func(b device.Buffer, off uint64, lo, hi int) error {
			part := buf[k+lo-r.lo : k+hi-r.lo]
			bytes := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(part))), len(part)*s.esize)
			if up {
				return b.Upload(off, bytes)
			}
			return b.Download(off, bytes)
		})
		if err != nil {
			return err
		}
		k += r.hi - r.lo
	}
	return nil
}

// Close synchronizes what a device modified back to the host (nothing, if it was
// discarded) and, when no other view of the same data is open, frees its device memory.
// Closing a closed view does nothing; closing a nil or zero one is an *ArgumentError.
// Close does not wait for a kernel that another goroutine is running on the CPU
// accelerator over the view: close a view after the dispatches that use it have returned.
func (v *View[T]) Close() error { return v.close("Close", true) }

// Release closes the view without synchronizing it: what a device modified in its range
// stays on the device, where the other open views of the same data (the view it was made
// from, other sections) still see it, and reaches the host through them (Synchronize,
// Data, Close). It is the way to drop a section made only to bind part of a larger view
// to a kernel without copying that part back. When no other view of the data is open,
// Release is Close. Releasing a closed view does nothing; releasing a nil or zero one is
// an *ArgumentError.
func (v *View[T]) Release() error { return v.close("Release", false) }

// close is Close (sync) and Release (not sync, unless v is its data's last open view).
func (v *View[T]) close(op string, sync bool) error {
	if v == nil || v.src == nil {
		return zeroError(op)
	}
	s := v.src
	s.mu.Lock()
	defer s.mu.Unlock()
	if v.closed.Load() {
		return nil
	}
	if !sync && s.open > 1 {
		v.markClosed()
		return nil
	}
	var err error
	if s.home == nil { // an array's host copy is its own: no one sees it once it is closed
		fp := v.fp
		if s.open == 1 {
			// The last open view of the data: what a released view left on a device, outside
			// this one, comes home too before release frees the device copies.
			fp = []span{{0, s.n}}
		}
		err = s.acquire(nil, runtime.Read, fp)
	}
	v.markClosed()
	if rerr := s.release(); err == nil {
		err = rerr
	}
	return err
}

// markClosed marks v closed (for the leak report too), disarms the fast paths of At and
// Set and counts it out of its source's open views; the source's mu is held.
func (v *View[T]) markClosed() {
	v.closed.Store(true)
	if v.leak != nil {
		v.leak.closed.Store(true)
	}
	v.hostR.Store(^uint64(0))
	v.hostW.Store(^uint64(0))
	v.src.open--
}

// ReadOnly returns a read-only handle on the view (C++ AMP array_view<const T>). A kernel
// field of that type is bound for reading only, so a dispatch never marks the data modified
// and never copies it back. The handle shares the view's lifetime: it needs no Close of
// its own.
func (v *View[T]) ReadOnly() *ReadView[T] { return &ReadView[T]{v: v} }

// ArgInfo describes the view as a read-write kernel argument (runtime.Arg).
func (v *View[T]) ArgInfo() runtime.ArgInfo {
	if v == nil || v.src == nil { // a nil or zero view: BindHost and BindDevice say so
		info := checkElem[T]()
		return runtime.ArgInfo{Rank: 1, ElemSize: info.size, Elem: info.typ, Access: runtime.ReadWrite, Float64: info.float64,
			Float16: info.float16, Int8: info.int8}
	}
	return runtime.ArgInfo{Rank: v.Rank(), Extent: v.g.ext, ElemSize: v.info.size, Elem: v.info.typ, Access: runtime.ReadWrite, Home: v.src.home,
		Float64: v.info.float64, Float16: v.info.float16, Int8: v.info.int8, Key: v}
}

// DeviceCopy returns a view of the same extent over b, a binding of the view on a strict
// CPU accelerator view (accelerator.StrictCPU), whose elements are the device copy's: the
// kernel that the strict accelerator runs holds it in place of v (runtime.DeviceCopier).
// It lives for one dispatch and needs no Close.
func (v *View[T]) DeviceCopy(b runtime.Binding) any { return v.deviceCopy(b) }

// deviceCopy is DeviceCopy's view.
func (v *View[T]) deviceCopy(b runtime.Binding) *View[T] {
	mem := b.Buffer.Bytes()[b.Offset : b.Offset+b.Range]
	n := len(mem) / v.info.size
	src := &source{host: mem, esize: v.info.size, n: n, typ: v.info.typ, open: 1}
	src.state = newSegments(n, hostBit)
	g := geom{ext: v.g.ext, base: int(b.Base), st: v.g.st}
	data := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(mem))), n)
	return &View[T]{data: data, src: src, g: g, fp: g.footprint(), info: v.info, lim: v.lim} // hostR, hostW: 0, current
}

// BindHost makes the host copy current for a dispatch on the CPU (runtime.Arg).
func (v *View[T]) BindHost(acc runtime.Access) error { return v.host("BindHost", acc) }

// BindDevice makes av's buffer current for a dispatch and says where the view lies in it
// (runtime.Arg).
func (v *View[T]) BindDevice(av *accelerator.View, acc runtime.Access) (runtime.Binding, error) {
	if v == nil || v.src == nil {
		return runtime.Binding{}, zeroError("BindDevice")
	}
	if v.closed.Load() {
		return runtime.Binding{}, v.closedError("BindDevice")
	}
	if av == nil || av.Accelerator().Traits().HostMemory {
		return runtime.Binding{}, fmt.Errorf("goamp/arrayview: BindDevice needs a Vulkan accelerator view, got %v", av)
	}
	s := v.src
	s.mu.Lock()
	defer s.mu.Unlock()
	if v.closed.Load() {
		return runtime.Binding{}, v.closedError("BindDevice")
	}
	if c := &v.bound; c.av == av && c.acc == acc && c.ver == s.version.Load() {
		return c.b, nil
	}
	if err := v.checkSpan(av); err != nil { // before acquire allocates or copies anything
		return runtime.Binding{}, err
	}
	if err := s.acquire(av, acc, v.fp); err != nil {
		return runtime.Binding{}, err
	}
	b, err := v.binding(av)
	if err == nil {
		v.bound.av, v.bound.acc, v.bound.ver, v.bound.b = av, acc, s.version.Load(), b
	}
	return b, err
}

// binding says where the view lies in av's copy; v.src.mu is held. A view of a copy of
// one chunk binds the whole buffer where the device's maxStorageBufferRange allows, else
// its own window; a view of a copy of several chunks binds its window of the chunk that
// holds it, and one that spans chunks is an *AllocationSpanError.
func (v *View[T]) binding(av *accelerator.View) (runtime.Binding, error) {
	s := v.src
	_, l, _ := s.bit(av)
	es := uint64(s.esize)
	lo, hi := v.fp[0].lo, v.fp[len(v.fp)-1].hi
	k, _ := l.span(lo, s.n)
	base := uint64(k * l.per) // the chunk's first element
	limit := av.Accelerator().Limits().MaxStorageBufferRange
	b := runtime.Binding{Buffer: l.chunks[k], Range: l.chunks[k].Size(), Base: uint32(uint64(v.g.base) - base),
		Strides: [2]uint32{uint32(v.g.st[0]), uint32(v.g.st[1])}}
	if b.Range <= uint64(limit) {
		return b, nil
	}
	// Bind the view's own window: an offset that is a multiple of both the element size
	// and the device's offset alignment.
	align := av.Accelerator().Limits().MinStorageBufferAlign
	if align == 0 {
		align = 1
	}
	step := lcm(es, align)
	b.Offset = (uint64(lo) - base) * es / step * step
	b.Range = (uint64(hi)-base)*es - b.Offset
	b.Base = uint32(uint64(v.g.base) - base - b.Offset/es)
	if b.Range > uint64(limit) {
		return runtime.Binding{}, &TooLargeError{Bytes: b.Range, Limit: limit, View: av.String()}
	}
	return b, nil
}

// checkSpan returns an *AllocationSpanError if the view's elements span two chunks of
// its data's copy on av; v.src.mu is held.
func (v *View[T]) checkSpan(av *accelerator.View) error {
	s := v.src
	_, l, err := s.bit(av)
	if err != nil {
		return err
	}
	lo, hi := v.fp[0].lo, v.fp[len(v.fp)-1].hi
	if _, end := l.span(lo, s.n); hi > end {
		return &AllocationSpanError{Lo: lo - v.g.base, Hi: hi - v.g.base, ChunkBytes: uint64(l.per) * uint64(s.esize), View: av.String()}
	}
	return nil
}

// BindEnd returns, for element i of the view's row-major elements, the end j (at most the
// view's size) of the longest run [i, j) that a rank-1 section of those elements may bind
// on av as one kernel argument: within one chunk of the data's copy there and within the
// device's maxStorageBufferRange (less its offset alignment). Code that splits a long
// view into sections for kernels (package algo's windows) cuts it at these ends. On an
// accelerator whose storage is host memory nothing limits a binding: BindEnd returns the
// view's size. A nil, zero or closed view, or i outside [0, size), returns i.
func (v *View[T]) BindEnd(av *accelerator.View, i int) int {
	if v == nil || v.src == nil || v.closed.Load() || av == nil || i < 0 || i >= v.g.ext.Size() {
		return i
	}
	n := v.g.ext.Size()
	if av.Accelerator().Traits().HostMemory {
		return n
	}
	s := v.src
	es := uint64(s.esize)
	lim := av.Accelerator().Limits()
	align := max(uint64(lim.MinStorageBufferAlign), 1)
	span := max((uint64(lim.MaxStorageBufferRange)-min(align, uint64(lim.MaxStorageBufferRange)))/es, 1)
	j := i + int(min(span, uint64(n-i)))
	if len(v.fp) == 1 { // contiguous: cut at the chunk's end as well
		at := v.g.base + i
		per := chunkLen(av.Accelerator(), s.n, s.esize)
		j = min(j, i+(at/per+1)*per-at)
	}
	return j
}

func lcm(a, b uint64) uint64 {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// ReadView is a read-only view (C++ AMP array_view<const T>), made by View.ReadOnly.
type ReadView[T any] struct{ v *View[T] }

// ReadData returns the view's elements for reading (see View.ReadData).
func (r *ReadView[T]) ReadData() ([]T, error) { return r.v.ReadData() }

// At returns the element at i (see View.At).
func (r *ReadView[T]) At(i runtime.Index) T { return r.v.At(i) }

// Extent is the view's extent.
func (r *ReadView[T]) Extent() runtime.Extent { return r.v.g.ext }

// Synchronize brings the host copy up to date (see View.Synchronize).
func (r *ReadView[T]) Synchronize() error { return r.v.Synchronize() }

// CopyTo copies the view's elements into dst (see View.CopyTo).
func (r *ReadView[T]) CopyTo(dst []T) error { return r.v.CopyTo(dst) }

// View is the writable view the handle reads.
func (r *ReadView[T]) View() *View[T] { return r.v }

// ArgInfo describes the view as a read-only kernel argument (runtime.Arg).
func (r *ReadView[T]) ArgInfo() runtime.ArgInfo {
	var v *View[T]
	if r != nil {
		v = r.v
	}
	i := v.ArgInfo()
	i.Access = runtime.Read
	return i
}

// BindHost prepares the host copy for reading (runtime.Arg).
func (r *ReadView[T]) BindHost(runtime.Access) error { return r.v.BindHost(runtime.Read) }

// BindDevice prepares a device copy for reading (runtime.Arg).
func (r *ReadView[T]) BindDevice(av *accelerator.View, _ runtime.Access) (runtime.Binding, error) {
	return r.v.BindDevice(av, runtime.Read)
}

// DeviceCopy returns a read-only handle on View.DeviceCopy's view (runtime.DeviceCopier).
func (r *ReadView[T]) DeviceCopy(b runtime.Binding) any { return &ReadView[T]{v: r.v.deviceCopy(b)} }
