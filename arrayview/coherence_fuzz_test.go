package arrayview_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/fuzzin"
	"github.com/goamp/goamp/internal/testprog"
	"github.com/goamp/goamp/runtime"
)

// fzScale writes Dst[i] = Src[i] * K (internal/testprog/scale.comp).
type fzScale struct {
	Src *arrayview.ReadView[int32]
	Dst *arrayview.View[int32]
	K   int32
}

func (k fzScale) Each(i runtime.Index)    { k.Dst.Set(i, k.Src.At(i)*k.K) }
func (fzScale) Program() *runtime.Program { return testprog.MustProgram("scale", 1) }

// fzAdd2 writes C[i] = A[i] + B[i]*1000 + i0*100 + i1 (internal/testprog/add2.comp).
type fzAdd2 struct {
	A, B *arrayview.ReadView[int32]
	C    *arrayview.View[int32]
}

func (k fzAdd2) Each(i runtime.Index) {
	k.C.Set(i, k.A.At(i)+k.B.At(i)*1000+int32(i[0])*100+int32(i[1]))
}
func (fzAdd2) Program() *runtime.Program { return testprog.MustProgram("add2", 2) }

// hostLoc is the model's location bit of the Go slice (and of the CPU accelerator, which
// works on it); Vulkan accelerator view k of a run is bit 2<<k.
const hostLoc = 1

// cohModel is the plain model of one Go slice seen through views: per element, its value
// (when known: not discarded since it was last written) and the set of locations that hold
// it (bit hostLoc: the slice itself).
type cohModel struct {
	val   []int32
	known []bool
	valid []uint32
}

// read is a read of the elements at offs at location bit: a location that lacks an element
// that some location holds gets it, through the host.
func (m *cohModel) read(offs []int, bit uint32) {
	for _, o := range offs {
		if v := m.valid[o]; v != 0 && v&bit == 0 {
			m.valid[o] = v | bit | hostLoc
		}
	}
}

// write is a read-write access at location bit: afterwards only bit holds the elements.
func (m *cohModel) write(offs []int, bit uint32) {
	m.read(offs, bit)
	for _, o := range offs {
		m.valid[o] = bit
	}
}

// evict is the close of the accelerator view of location bit: what only it held comes home.
func (m *cohModel) evict(bit uint32) {
	for o, v := range m.valid {
		if v&bit != 0 {
			m.valid[o] = (v | hostLoc) &^ bit
		}
	}
}

// check compares every element that the model says the slice holds with its value.
func (m *cohModel) check(t *testing.T, data []int32, what string) {
	for o, v := range m.valid {
		if v&hostLoc != 0 && m.known[o] {
			require.Equal(t, m.val[o], data[o], "element %d after %s (locations %b)", o, what, v)
		}
	}
}

// compare checks values read through a view (at offs) against the known elements.
func (m *cohModel) compare(t *testing.T, offs []int, got []int32, what string) {
	for k, o := range offs {
		if m.known[o] {
			require.Equal(t, m.val[o], got[k], "element %d (offset %d) read by %s", k, o, what)
		}
	}
}

// cohView is an open view of the fuzzed slice and its model.
type cohView struct {
	v *arrayview.View[int32]
	m mview
}

// cohRun is one run of FuzzCoherence.
type cohRun struct {
	t     *testing.T
	in    *fuzzin.Input
	rows  int
	cols  int
	data  []int32
	aux   []int32 // kernel inputs, never written
	auxV  [2]*arrayview.View[int32]
	views []*cohView
	avs   []*accelerator.View // the CPU's first, then Vulkan ones
	m     cohModel
}

// FuzzCoherence decodes a sequence of operations on views of one Go slice (sections,
// projections, Set, At, Data, ReadData, CopyTo, kernels on every accelerator view (the
// CPU's, and two of each Vulkan device: automatic and immediate queuing), DiscardData,
// Synchronize, SynchronizeTo, direct writes with Refresh, Close of views and of accelerator
// views) and checks, after every step, what each read returns and every element that the
// slice should hold against a plain model; in the end every view is closed and the slice
// holds every element not discarded.
func FuzzCoherence(f *testing.F) {
	for _, s := range [][]byte{
		{2, 8, 1, 2, 3, 4, 4, 1, 2, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0, 6, 1, 3, 1, 0},
		{3, 5, 9, 9, 9, 9, 0, 0, 1, 1, 2, 2, 4, 0, 2, 1, 1, 1, 1, 1, 1, 3, 0, 1, 12, 0, 6, 0},
		{1, 15, 7, 0, 0, 0, 5, 1, 4, 1, 2, 1, 0, 0, 0, 3, 1, 4, 4, 2, 0, 1, 5, 5, 5, 5, 13, 1, 10, 1},
		{3, 3, 4, 3, 2, 1, 1, 1, 4, 2, 2, 1, 9, 9, 9, 9, 8, 0, 7, 7, 7, 7, 7, 7, 3, 0, 5, 11, 1, 0},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := newCohRun(t, b)
		for step := 0; step < 32 && r.in.More(); step++ {
			what := r.step()
			t.Log(what) // printed when the run fails: the steps that led there
			r.m.check(t, r.data, what)
		}
		for len(r.views) > 0 {
			r.closeView(0)
		}
		r.m.check(t, r.data, "closing every view")
		for o, v := range r.m.valid {
			require.Equal(t, uint32(hostLoc), v, "element %d is held elsewhere than the slice once every view is closed", o)
		}
	})
}

// newCohRun makes the slice, its model, the kernels' input slice and the accelerator views.
func newCohRun(t *testing.T, b []byte) *cohRun {
	in := fuzzin.New(b)
	r := &cohRun{t: t, in: in, rows: 1 + in.N(4), cols: 1 + in.N(16)}
	n := r.rows * r.cols
	seed := in.Int32()
	r.data, r.aux = make([]int32, n), make([]int32, n)
	r.m = cohModel{val: make([]int32, n), known: make([]bool, n), valid: make([]uint32, n)}
	for k := range r.data {
		r.data[k], r.aux[k] = seed+int32(k)*7+1, int32(k)*13-seed
		r.m.val[k], r.m.known[k], r.m.valid[k] = r.data[k], true, hostLoc
	}
	r.auxV[0] = arrayview.MustNew(runtime.Ext(n), r.aux)
	r.auxV[1] = arrayview.MustNew(runtime.Ext(r.rows, r.cols), r.aux)
	t.Cleanup(func() {
		require.NoError(t, r.auxV[0].Close())
		require.NoError(t, r.auxV[1].Close())
	})
	for _, av := range amptest.Views(t) {
		r.avs = append(r.avs, av)
		if !av.Accelerator().Traits().HostMemory {
			r.avs = append(r.avs, r.newView(av.Accelerator(), accelerator.Immediate))
		}
	}
	r.openRoots()
	return r
}

// newView makes an accelerator view of a, closed when the test ends.
func (r *cohRun) newView(a *accelerator.Accelerator, mode accelerator.QueuingMode) *accelerator.View {
	av, err := a.CreateView(mode)
	require.NoError(r.t, err)
	r.t.Cleanup(func() { require.NoError(r.t, av.Close()) })
	return av
}

// bit is the model's location of accelerator view k.
func (r *cohRun) bit(k int) uint32 {
	if r.avs[k].Accelerator().Traits().HostMemory {
		return hostLoc
	}
	return 1 << k
}

// openRoots opens a rank-2 and a rank-1 view of the whole slice.
func (r *cohRun) openRoots() {
	r.views = append(r.views,
		&cohView{arrayview.MustNew(runtime.Ext(r.rows, r.cols), r.data), rootModel([]int{r.rows, r.cols})},
		&cohView{arrayview.MustNew(runtime.Ext(len(r.data)), r.data), rootModel([]int{len(r.data)})})
}

// pick returns an open view chosen by the input.
func (r *cohRun) pick() *cohView { return r.views[r.in.N(len(r.views))] }

// step runs one operation decoded from the input and says what it was.
func (r *cohRun) step() string {
	t, in := r.t, r.in
	if len(r.views) == 0 {
		r.openRoots()
		return "opening the whole-slice views again"
	}
	cv := r.pick()
	offs := cv.m.offsets()
	switch in.N(16) {
	case 0:
		return r.section(cv)
	case 1:
		return r.project(cv)
	case 2:
		k, x := in.N(len(offs)), in.Int32()
		cv.v.Set(cv.m.index(k), x)
		r.m.write(offs, hostLoc)
		r.m.val[offs[k]], r.m.known[offs[k]] = x, true
		return fmt.Sprintf("Set(%v, %d) on %v", cv.m.index(k), x, cv)
	case 3:
		k := in.N(len(offs))
		got := cv.v.At(cv.m.index(k))
		r.m.read(offs, hostLoc)
		r.m.compare(t, offs[k:k+1], []int32{got}, fmt.Sprintf("At(%v) on %v", cv.m.index(k), cv))
		return "At"
	case 4:
		return r.kernel(cv, offs)
	case 5:
		cv.v.DiscardData()
		for _, o := range offs {
			r.m.valid[o], r.m.known[o] = 0, false
		}
		return fmt.Sprintf("DiscardData on %v", cv)
	case 6:
		require.NoError(t, cv.v.Synchronize())
		r.m.read(offs, hostLoc)
		return fmt.Sprintf("Synchronize on %v", cv)
	case 7:
		return r.refresh(cv, offs)
	case 8:
		return r.dataWrite(cv, offs)
	case 9:
		return r.copyOut(cv, offs)
	case 10:
		k := in.N(len(r.avs))
		require.NoError(t, cv.v.SynchronizeTo(r.avs[k]))
		r.m.read(offs, r.bit(k))
		return fmt.Sprintf("SynchronizeTo(%v) on %v", r.avs[k], cv)
	case 11:
		r.closeView(slices.Index(r.views, cv))
		return fmt.Sprintf("Close of %v", cv)
	case 12:
		return r.closeAcceleratorView()
	case 13:
		return r.copyFrom(cv, offs)
	case 14:
		return r.copyView(cv, offs)
	}
	k := in.N(len(r.avs))
	require.NoError(t, r.avs[k].Wait())
	return fmt.Sprintf("Wait on %v", r.avs[k])
}

// String describes the view for the messages.
func (cv *cohView) String() string {
	return fmt.Sprintf("the view %v at offset %d, strides %v", cv.m.dims, cv.m.base, cv.m.st[:len(cv.m.dims)])
}

// section opens a section of cv (at most 8 views are open).
func (r *cohRun) section(cv *cohView) string {
	if len(r.views) >= 8 {
		return "nothing (8 views open)"
	}
	var origin runtime.Index
	ext := make([]int, len(cv.m.dims))
	for d, n := range cv.m.dims {
		origin[d] = r.in.N(n)
		ext[d] = 1 + r.in.N(n-origin[d])
	}
	s, err := cv.v.Section(origin, runtime.Ext(ext...))
	require.NoError(r.t, err)
	ms, err := cv.m.section(origin, ext)
	require.NoError(r.t, err)
	r.views = append(r.views, &cohView{s, ms})
	return fmt.Sprintf("Section(%v, %v) of %v", origin[:len(ext)], ext, cv)
}

// project opens a projection of cv, when it has rank 2.
func (r *cohRun) project(cv *cohView) string {
	if len(r.views) >= 8 || len(cv.m.dims) < 2 {
		return "nothing (no projection)"
	}
	i := r.in.N(cv.m.dims[0])
	p, err := cv.v.Project(i)
	require.NoError(r.t, err)
	mp, err := cv.m.project(i)
	require.NoError(r.t, err)
	r.views = append(r.views, &cohView{p, mp})
	return fmt.Sprintf("Project(%d) of %v", i, cv)
}

// refresh writes one element of cv's range in the slice directly, after a Synchronize or
// not, and calls Refresh: the slice is then the truth for the whole range.
func (r *cohRun) refresh(cv *cohView, offs []int) string {
	if r.in.N(2) == 0 {
		require.NoError(r.t, cv.v.Synchronize())
		r.m.read(offs, hostLoc)
		r.m.check(r.t, r.data, "Synchronize before Refresh")
	}
	k, x := r.in.N(len(offs)), r.in.Int32()
	r.data[offs[k]] = x
	cv.v.Refresh()
	for _, o := range offs {
		r.m.valid[o], r.m.val[o], r.m.known[o] = hostLoc, r.data[o], true
	}
	return fmt.Sprintf("a direct write of %d at %d and Refresh on %v", x, offs[k], cv)
}

// dataWrite writes one element through Data (an error for a view that is not contiguous).
func (r *cohRun) dataWrite(cv *cohView, offs []int) string {
	d, err := cv.v.Data()
	if !cv.m.contiguous() {
		require.ErrorIs(r.t, err, arrayview.ErrOutOfRange)
		return "Data of a view that is not contiguous"
	}
	require.NoError(r.t, err)
	require.Len(r.t, d, len(offs))
	r.m.read(offs, hostLoc)
	r.m.compare(r.t, offs, d, fmt.Sprintf("Data on %v", cv))
	r.m.write(offs, hostLoc)
	k, x := r.in.N(len(offs)), r.in.Int32()
	d[k] = x
	r.m.val[offs[k]], r.m.known[offs[k]] = x, true
	return fmt.Sprintf("a write of %d at %d through Data on %v", x, k, cv)
}

// copyOut reads cv through ReadData (when contiguous) or CopyTo.
func (r *cohRun) copyOut(cv *cohView, offs []int) string {
	var got []int32
	what := fmt.Sprintf("CopyTo on %v", cv)
	if r.in.N(2) == 0 && cv.m.contiguous() {
		d, err := cv.v.ReadData()
		require.NoError(r.t, err)
		got, what = d, fmt.Sprintf("ReadData on %v", cv)
	} else {
		got = make([]int32, len(offs))
		require.NoError(r.t, cv.v.CopyTo(got))
	}
	r.m.read(offs, hostLoc)
	r.m.compare(r.t, offs, got, what)
	return what
}

// closeView closes the i-th open view; closing the last one makes the slice the only
// location of every element.
func (r *cohRun) closeView(i int) {
	cv := r.views[i]
	require.NoError(r.t, cv.v.Close(), "Close of %v", cv)
	r.m.read(cv.m.offsets(), hostLoc)
	r.views = slices.Delete(r.views, i, i+1)
	if len(r.views) == 0 {
		r.m.check(r.t, r.data, fmt.Sprintf("Close of the last view, %v", cv))
		for o := range r.m.valid {
			r.m.valid[o] = hostLoc
		}
	}
}

// closeAcceleratorView closes an accelerator view, whose results come home, and puts a new
// one of the same accelerator and queuing mode in its place.
func (r *cohRun) closeAcceleratorView() string {
	k := r.in.N(len(r.avs))
	av := r.avs[k]
	require.NoError(r.t, av.Close())
	if !av.Accelerator().Traits().HostMemory {
		r.m.evict(r.bit(k))
	}
	r.avs[k] = r.newView(av.Accelerator(), av.Mode())
	return fmt.Sprintf("Close of %v", av)
}

// kernelInput is what a kernel reads: a view of the extent it writes, its elements' values
// and whether each is known, and its offsets in the fuzzed slice (nil for the input slice).
type kernelInput struct {
	v     *arrayview.View[int32]
	vals  []int32
	known []bool
	offs  []int
}

// auxSection opens a section of the input slice of dimensions dims, decoding its origin.
func (r *cohRun) auxSection(dims []int) kernelInput {
	root := rootModel([]int{len(r.aux)})
	if len(dims) == 2 {
		root = rootModel([]int{r.rows, r.cols})
	}
	var origin runtime.Index
	for d, n := range dims {
		origin[d] = r.in.N(root.dims[d] - n + 1)
	}
	v, err := r.auxV[len(dims)-1].Section(origin, runtime.Ext(dims...))
	require.NoError(r.t, err)
	m, err := root.section(origin, dims)
	require.NoError(r.t, err)
	in := kernelInput{v: v, vals: make([]int32, m.size()), known: make([]bool, m.size())}
	for k, o := range m.offsets() {
		in.vals[k], in.known[k] = r.aux[o], true
	}
	return in
}

// input returns what a kernel writing cv reads: an open view of the fuzzed slice of the
// same extent that shares no element with cv, or a section of the input slice.
func (r *cohRun) input(cv *cohView, offs []int) kernelInput {
	w := r.pick()
	if !slices.Equal(w.m.dims, cv.m.dims) {
		return r.auxSection(cv.m.dims)
	}
	woffs := w.m.offsets()
	for _, o := range woffs {
		if slices.Contains(offs, o) {
			return r.auxSection(cv.m.dims)
		}
	}
	in := kernelInput{v: w.v, vals: make([]int32, len(woffs)), known: make([]bool, len(woffs)), offs: woffs}
	for k, o := range woffs {
		in.vals[k], in.known[k] = r.m.val[o], r.m.known[o]
	}
	return in
}

// kernel runs a kernel that writes every element of cv on an accelerator view: iota (rank
// 1), scale (rank 1, reading another view) or add2 (rank 2, reading two).
func (r *cohRun) kernel(cv *cohView, offs []int) string {
	k := r.in.N(len(r.avs))
	av, bit := r.avs[k], r.bit(k)
	vals, known := make([]int32, len(offs)), make([]bool, len(offs))
	var kern runtime.IndexKernel
	var ins []kernelInput
	switch {
	case len(cv.m.dims) == 1 && r.in.N(2) == 0:
		scale, add := r.in.Int32(), uint32(r.in.Int32())
		kern = iota{Out: cv.v, Scale: scale, Add: add}
		for i := range vals {
			vals[i], known[i] = int32(i)*scale+int32(add), true
		}
	case len(cv.m.dims) == 1:
		a, c := r.input(cv, offs), r.in.Int32()
		kern, ins = fzScale{Src: a.v.ReadOnly(), Dst: cv.v, K: c}, []kernelInput{a}
		for i := range vals {
			vals[i], known[i] = a.vals[i]*c, a.known[i]
		}
	default:
		a, b := r.input(cv, offs), r.auxSection(cv.m.dims)
		kern, ins = fzAdd2{A: a.v.ReadOnly(), B: b.v.ReadOnly(), C: cv.v}, []kernelInput{a, b}
		for i := range vals {
			x := cv.m.index(i)
			vals[i], known[i] = a.vals[i]+b.vals[i]*1000+int32(x[0])*100+int32(x[1]), a.known[i]
		}
	}
	require.NoError(r.t, runtime.ParallelForEach(av, cv.v.Extent(), kern))
	for _, in := range ins {
		if in.offs != nil {
			r.m.read(in.offs, bit)
		} else {
			require.NoError(r.t, in.v.Close()) // while the kernel may still run
		}
	}
	r.m.write(offs, bit)
	for i, o := range offs {
		r.m.val[o], r.m.known[o] = vals[i], known[i]
	}
	return fmt.Sprintf("%T on %v writing %v", kern, av, cv)
}

// copyFrom overwrites cv with values decoded from the input (CopyFrom).
func (r *cohRun) copyFrom(cv *cohView, offs []int) string {
	src := make([]int32, len(offs))
	for k := range src {
		src[k] = r.in.Int32()
	}
	require.NoError(r.t, cv.v.CopyFrom(src))
	for k, o := range offs {
		r.m.valid[o], r.m.val[o], r.m.known[o] = hostLoc, src[k], true
	}
	return fmt.Sprintf("CopyFrom on %v", cv)
}

// copyView copies another open view of the same extent (it may overlap) into cv, with Copy
// or CopyAsync.
func (r *cohRun) copyView(cv *cohView, offs []int) string {
	w := r.pick()
	if !slices.Equal(w.m.dims, cv.m.dims) {
		return "nothing (no view of the same extent to copy)"
	}
	woffs := w.m.offsets()
	vals, known := make([]int32, len(woffs)), make([]bool, len(woffs))
	for k, o := range woffs {
		vals[k], known[k] = r.m.val[o], r.m.known[o]
	}
	what := fmt.Sprintf("Copy of %v into %v", w, cv)
	if r.in.N(2) == 0 {
		require.NoError(r.t, arrayview.Copy(cv.v, w.v))
	} else {
		require.NoError(r.t, arrayview.CopyAsync(cv.v, w.v).Wait(context.Background()))
		what = "CopyAsync: " + what
	}
	r.m.read(woffs, hostLoc)
	for k, o := range offs {
		r.m.valid[o], r.m.val[o], r.m.known[o] = hostLoc, vals[k], known[k]
	}
	return what
}
