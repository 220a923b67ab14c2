package algo

import (
	"math"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Views larger than one binding.
//
// A kernel binds each view as one storage-buffer range, which a device limits to
// maxStorageBufferRange bytes (128 MiB on lavapipe, 4 GiB on an H100), while one buffer
// may be as large as maxMemoryAllocationSize (2 GiB on lavapipe; much more on a GPU). The
// built-ins documented as taking views of any length split such a view into windows of
// at most windowLen elements, each a section that binds its own range of the buffer, and
// run their kernels window by window: Add and Fill elementwise, Reduce by combining the
// windows' results, the scans by adding the running total of the windows before to each
// window, Sort by sorting each window and merging the sorted runs (mergeRuns). A section
// made for a window is released with arrayview.View.Release, so nothing is copied back to
// the host on its account.

// windowLen returns the most elements of T that one binding on av may cover, rounded
// down to a multiple of 4096 elements, less the device's offset alignment (a section's
// binding starts at an aligned offset before it); 0 where no binding limits a view (the
// CPU, whose storage is host memory). hooks.window, when set, replaces it on every
// accelerator so that tests reach the split paths with short views.
func windowLen[T Number](av *accelerator.View) int {
	if hooks.window > 0 {
		return hooks.window
	}
	acc := av.Accelerator()
	if acc.Traits().HostMemory {
		return 0
	}
	var z T
	lim := uint64(acc.Limits().MaxStorageBufferRange)
	align := max(uint64(acc.Limits().MinStorageBufferAlign), 1)
	if lim <= align {
		return 0
	}
	w := (lim - align) / uint64(unsafe.Sizeof(z)) / 4096 * 4096
	return int(min(w, math.MaxInt32))
}

// splitLen is the window length for the n elements of views on av, or 0 when each view
// binds whole: n fits in one binding and no view's copy on av is cut into allocations
// that the view spans (arrayview.View.BindEnd).
func splitLen[T Number](av *accelerator.View, n int, views ...*arrayview.View[T]) int {
	w := windowLen[T](av)
	if w == 0 {
		return 0
	}
	if n > w {
		return w
	}
	for _, v := range views {
		if v != nil && v.BindEnd(av, 0) < n {
			return w
		}
	}
	return 0
}

// inWindows calls f for each window [lo, hi) of at most w of the n elements, with the
// sections [lo, hi) of views (one section for a view passed twice), and releases the
// sections after f returns. A window also ends where a view's run bindable on av ends
// (a chunk of a copy larger than one device allocation). It stops at the first error.
func inWindows[T Number](av *accelerator.View, n, w int, views []*arrayview.View[T], f func(lo, hi int, secs []*arrayview.View[T]) error) error {
	for lo := 0; lo < n; {
		hi := windowEnd(av, lo, n, w, views)
		secs, err := sections(views, lo, hi)
		if err == nil {
			err = f(lo, hi, secs)
		}
		if rerr := releaseAll(secs); err == nil {
			err = rerr
		}
		if err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// windowEnd is the end of inWindows' window from lo.
func windowEnd[T Number](av *accelerator.View, lo, n, w int, views []*arrayview.View[T]) int {
	hi := min(lo+w, n)
	for _, v := range views {
		if v != nil {
			hi = min(hi, max(v.BindEnd(av, lo), lo+1))
		}
	}
	return hi
}

// windowBounds returns the bounds of inWindows' windows: 0, each window's end.
func windowBounds[T Number](av *accelerator.View, n, w int, views []*arrayview.View[T]) []int {
	b := []int{0}
	for lo := 0; lo < n; lo = b[len(b)-1] {
		b = append(b, windowEnd(av, lo, n, w, views))
	}
	return b
}

// sections returns the sections [lo, hi) of views, one per distinct view; on an error
// it releases those already made. A nil entry stays nil.
func sections[T Number](views []*arrayview.View[T], lo, hi int) ([]*arrayview.View[T], error) {
	secs := make([]*arrayview.View[T], len(views))
	for i, v := range views {
		for j := range i {
			if views[j] == v {
				secs[i] = secs[j]
			}
		}
		if secs[i] != nil || v == nil {
			continue
		}
		s, err := v.Section(runtime.Idx(lo), runtime.Ext(hi-lo))
		if err != nil {
			return nil, joinErr(err, releaseAll(secs))
		}
		secs[i] = s
	}
	return secs, nil
}

// releaseAll releases each distinct non-nil section of secs and returns the first error.
func releaseAll[T Number](secs []*arrayview.View[T]) error {
	var first error
	for i, s := range secs {
		dup := s == nil
		for j := range i {
			dup = dup || secs[j] == s
		}
		if dup {
			continue
		}
		if err := s.Release(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// joinErr returns err, or else other.
func joinErr(err, other error) error {
	if err != nil {
		return err
	}
	return other
}

// ewRun checks the rank-1 views named names (one length, at most maxLen), chooses the
// accelerator view as op's kernels do and calls run with the views and their length, or,
// for views longer than one binding or ewMaxLen, with their sections window by window.
func ewRun[T Number](av *accelerator.View, op string, names []string, views []*arrayview.View[T],
	run func(av *accelerator.View, v []*arrayview.View[T], n int) error) error {
	n, err := ewSameLen(op, names, views...)
	if err != nil {
		return err
	}
	out := len(views) - 1 // the view written
	for i, v := range views[:out] {
		if arrayview.Overlap(views[out], v) && !arrayview.SameElements(views[out], v) {
			return shapeErr(op, "%s shares memory with %s without being the same elements (a shifted section or slice "+
				"of it): %s may be %s itself, else give it data of its own", names[out], names[i], names[out], names[i])
		}
	}
	args := make([]runtime.Arg, len(views))
	for i, v := range views {
		args[i] = v
	}
	if av, err = chooseView("algo."+op, op, av, names, args...); err != nil {
		return err
	}
	w := splitLen(av, n, views...)
	if n > ewMaxLen && (w == 0 || w > ewMaxLen) {
		w = ewMaxLen
	}
	if w == 0 {
		return run(av, views, n)
	}
	return inWindows(av, n, w, views, func(lo, hi int, s []*arrayview.View[T]) error { return run(av, s, hi-lo) })
}

// reduceWindows is Reduce of the n elements of in, window by window of w elements. Every
// window's passes are queued before anything is read: each window's last pass writes its
// value to one of the first windows elements of one scratch view, which the host then
// reads at once and combines in window order.
func reduceWindows[T Number](av *accelerator.View, in *arrayview.View[T], op Op, n, w int) (T, error) {
	var zero T
	bounds := windowBounds(av, n, w, []*arrayview.View[T]{in})
	size := len(bounds) - 1
	for i := range len(bounds) - 1 {
		size += planScratch(reducePlan(av.Accelerator(), bounds[i+1]-bounds[i]))
	}
	s, err := takeScratch[T](av, runtime.Ext(size), "")
	if err != nil {
		return zero, err
	}
	defer s.release()
	at, k := len(bounds)-1, 0
	err = inWindows(av, n, w, []*arrayview.View[T]{in}, func(lo, hi int, sec []*arrayview.View[T]) error {
		plan := reducePlan(av.Accelerator(), hi-lo)
		_, err := reducePassesTo(av, sec[0].ReadOnly(), 0, hi-lo, op, plan, s, at, k)
		at, k = at+planScratch(plan), k+1
		return err
	})
	if err != nil {
		return zero, err
	}
	part := make([]T, k)
	sec, err := s.v.Section(runtime.Idx(0), runtime.Ext(k))
	if err != nil {
		return zero, err
	}
	err = sec.CopyTo(part)
	if rerr := sec.Release(); err == nil {
		err = rerr
	}
	acc := part[0]
	for _, x := range part[1:] {
		acc = combine(op, acc, x)
	}
	return acc, err
}

// scanWindows is runScan of the n elements of in into out, window by window of w
// elements: each window is scanned by itself, then the running total of the windows
// before it is added to it (fillKernel with Add).
func scanWindows[T Number](av *accelerator.View, in, out *arrayview.View[T], n, w int, exclusive bool) error {
	var carry T
	return inWindows(av, n, w, []*arrayview.View[T]{in, out}, func(lo, hi int, s []*arrayview.View[T]) error {
		var last T // the window's last input, read before an in-place scan overwrites it
		if exclusive {
			var err error
			if last, err = readOne(s[0], hi-lo-1); err != nil {
				return err
			}
		}
		if err := runScan(av, s[0], s[1], exclusive); err != nil {
			return err
		}
		if lo > 0 {
			dom, threads := ewGrid(hi - lo)
			k := fillKernel[T]{V: s[1], N: int32(hi - lo), Value: carry, Threads: int32(threads), Add: 1}
			if err := dispatchTiled(av, dom, k); err != nil {
				return err
			}
		}
		end, err := readOne(s[1], hi-lo-1)
		carry = end + last
		return err
	})
}
