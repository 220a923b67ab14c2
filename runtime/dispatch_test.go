package runtime_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/testprog"
	amprt "github.com/goamp/goamp/runtime"
)

// TestMain fails the run when the Vulkan validation layer reported anything.
func TestMain(m *testing.M) { amptest.Main(m) }

// devArg is a small but real runtime.Arg over an []int32: a host copy and one device
// buffer per view, uploaded when stale and downloaded when the host needs the data. It
// addresses a section: element (i0, i1, i2) is host[base + i0*s0 + i1*s1 + i2].
type devArg struct {
	rank   int
	access amprt.Access
	home   *accelerator.View
	f64    bool
	base   int
	s0, s1 int

	mu    sync.Mutex
	host  []int32
	bufs  map[*accelerator.View]device.Buffer
	valid map[*accelerator.View]bool // views whose buffer holds the current data
	dirty *accelerator.View          // the view holding the only current copy, or nil
}

// newArg returns a contiguous argument of the given extent.
func newArg(e amprt.Extent, acc amprt.Access) *devArg {
	d := e.Dims()
	a := &devArg{rank: e.Rank(), access: acc, host: make([]int32, e.Size())}
	switch len(d) {
	case 2:
		a.s0 = d[1]
	case 3:
		a.s0, a.s1 = d[1]*d[2], d[2]
	}
	return a
}

// newSection returns a rank-2 or rank-3 argument addressing a section of a larger
// buffer of n elements.
func newSection(rank int, acc amprt.Access, n, base, s0, s1 int) *devArg {
	return &devArg{rank: rank, access: acc, host: make([]int32, n), base: base, s0: s0, s1: s1}
}

func (a *devArg) at(i amprt.Index) int {
	switch a.rank {
	case 1:
		return a.base + i[0]
	case 2:
		return a.base + i[0]*a.s0 + i[1]
	}
	return a.base + i[0]*a.s0 + i[1]*a.s1 + i[2]
}

func (a *devArg) get(i amprt.Index) int32    { return a.host[a.at(i)] }
func (a *devArg) set(i amprt.Index, v int32) { a.host[a.at(i)] = v }

func (a *devArg) ArgInfo() amprt.ArgInfo {
	return amprt.ArgInfo{Rank: a.rank, ElemSize: 4, Access: a.access, Home: a.home, Float64: a.f64}
}

func bytesOf(s []int32) []byte { return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), 4*len(s)) }

// pullLocked makes the host copy current.
func (a *devArg) pullLocked() error {
	if a.dirty == nil {
		return nil
	}
	if err := a.bufs[a.dirty].Download(0, bytesOf(a.host)); err != nil {
		return err
	}
	a.valid[a.dirty] = true
	a.dirty = nil
	return nil
}

func (a *devArg) BindHost(acc amprt.Access) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.pullLocked(); err != nil {
		return err
	}
	if acc&amprt.Write != 0 {
		clear(a.valid)
	}
	return nil
}

func (a *devArg) BindDevice(v *accelerator.View, acc amprt.Access) (amprt.Binding, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.bufs == nil {
		a.bufs = map[*accelerator.View]device.Buffer{}
		a.valid = map[*accelerator.View]bool{}
	}
	b := a.bufs[v]
	if b == nil {
		var err error
		if b, err = device.Of(v).Alloc(uint64(4 * len(a.host))); err != nil {
			return amprt.Binding{}, err
		}
		a.bufs[v] = b
	}
	if a.dirty != v && !a.valid[v] {
		if err := a.pullLocked(); err != nil {
			return amprt.Binding{}, err
		}
		if err := b.Upload(0, bytesOf(a.host)); err != nil {
			return amprt.Binding{}, err
		}
		a.valid[v] = true
	}
	if acc&amprt.Write != 0 {
		clear(a.valid)
		a.dirty = v
	}
	return amprt.Binding{Buffer: b, Range: b.Size(), Base: uint32(a.base),
		Strides: [2]uint32{uint32(a.s0), uint32(a.s1)}}, nil
}

// DeviceCopy is the argument over b's buffer of a strict CPU view (runtime.DeviceCopier).
func (a *devArg) DeviceCopy(b amprt.Binding) any {
	mem := b.Buffer.Bytes()[b.Offset : b.Offset+b.Range]
	return &devArg{rank: a.rank, access: a.access, base: int(b.Base), s0: int(b.Strides[0]), s1: int(b.Strides[1]),
		host: unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(mem))), len(mem)/4)}
}

// goBodies reports whether acc runs kernels' Go bodies (the CPU accelerators).
func goBodies(acc *accelerator.Accelerator) bool {
	t := acc.Traits()
	return t.HostMemory || t.Strict
}

// sync brings the data back to the host.
func (a *devArg) sync() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pullLocked()
}

// free releases the device buffers.
func (a *devArg) free() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for v, b := range a.bufs {
		_ = b.Free()
		delete(a.bufs, v)
	}
}

// iotaK: out[i] = i*Scale + Add + int(FAdd); Note is ignored.
type iotaK struct {
	Out   *devArg
	Scale int32
	Add   uint32
	FAdd  float32
	Note  string `amp:"-"`
}

func (k iotaK) Each(i amprt.Index) {
	k.Out.set(i, int32(i[0])*k.Scale+int32(k.Add)+int32(k.FAdd))
}
func (iotaK) Program() *amprt.Program { return testprog.MustProgram("iota", 1) }

// scaleK: b[i] = a[i] * k (unexported fields).
type scaleK struct {
	a, b *devArg
	k    int32
}

func (k *scaleK) Each(i amprt.Index)    { k.b.set(i, k.a.get(i)*k.k) }
func (*scaleK) Program() *amprt.Program { return testprog.MustProgram("scale", 1) }

// addK: c = a + b*1000 + a tag of the index (ranks 2 and 3).
type addK struct {
	A, B, C amprt.Arg
	prog    *amprt.Program `amp:"-"`
}

func addTag(i amprt.Index, rank int) int32 {
	if rank == 2 {
		return int32(i[0]*100 + i[1])
	}
	return int32(i[0]*10000 + i[1]*100 + i[2])
}

func (k addK) Each(i amprt.Index) {
	a, b, c := k.A.(*devArg), k.B.(*devArg), k.C.(*devArg)
	c.set(i, a.get(i)+b.get(i)*1000+addTag(i, c.rank))
}
func (k addK) Program() *amprt.Program { return k.prog }

// tileK mirrors internal/testprog/tileN.comp.
type tileK struct {
	A, B *devArg
	prog *amprt.Program `amp:"-"`
}

func (k tileK) Program() *amprt.Program { return k.prog }

func tileTag(g, l, t, o amprt.Index, e amprt.Extent) int32 {
	switch e.Rank() {
	case 1:
		return int32(g[0]*7 + l[0]*3 + t[0]*5 + o[0]*11 + e.Dim(0))
	case 2:
		return int32(g[0]*7 + g[1]*13 + l[0]*3 + l[1]*17 + t[0]*5 + t[1]*19 + o[0]*11 + o[1]*23 + e.Dim(0)*29 + e.Dim(1))
	}
	return int32(g[0]*7 + g[1]*13 + g[2]*31 + l[0]*3 + l[1]*17 + l[2]*37 + t[0]*5 + t[1]*19 + t[2]*41 +
		o[0]*11 + o[1]*23 + o[2]*43 + e.Dim(0)*29 + e.Dim(1)*47 + e.Dim(2))
}

func (k tileK) Tiled(t amprt.TiledIndex) {
	n := t.TileExtent.Size()
	s := amprt.TileStatic[int32](t, n)
	l := t.TileExtent.Linear(t.Local)
	s[l] = k.A.get(t.Global)
	t.Barrier.Wait()
	k.B.set(t.Global, s[n-1-l]+s[0]+tileTag(t.Global, t.Local, t.Tile, t.TileOrigin, t.TileExtent))
}

// barrierK mirrors internal/testprog/barriers.comp.
type barrierK struct {
	A, Scratch, B *devArg
	Kind          int32
}

func (barrierK) Program() *amprt.Program { return testprog.MustProgram("barriers", 1) }

func (k barrierK) Tiled(t amprt.TiledIndex) {
	g, l, n := t.Global[0], t.Local[0], t.TileExtent.Dim(0)
	s := amprt.TileStatic[int32](t, n)
	v := k.A.host[g]
	s[l] = v
	k.Scratch.host[g] = v
	amprt.AllMemoryFence(t)
	amprt.GlobalMemoryFence(t)
	amprt.TileStaticMemoryFence(t)
	switch k.Kind {
	case 0:
		t.Barrier.Wait()
	case 1:
		t.Barrier.WaitWithAllMemoryFence()
	case 2:
		t.Barrier.WaitWithGlobalMemoryFence()
	default:
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	var r int32
	if k.Kind != 2 {
		r += s[n-1-l]
	}
	if k.Kind != 3 {
		r += k.Scratch.host[t.TileOrigin[0]+n-1-l] * 1000
	}
	k.B.host[g] = r
}

// eachView runs f on the default view of every accelerator present and the strict CPU, in
// a subtest (or a sub-benchmark) each.
func eachView[T interface {
	testing.TB
	Run(name string, f func(T)) bool
}](t T, f func(t T, v *accelerator.View)) {
	for _, a := range append(accelerator.All(), accelerator.StrictCPU()) {
		t.Run(a.Path(), func(t T) {
			v, err := a.DefaultView()
			require.NoError(t, err)
			f(t, v)
		})
	}
}

func TestParallelForEachIota(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		// 64*70000+3 points: 70001 workgroups, more than lavapipe's 65535 per axis.
		const n = 64*70000 + 3
		out := newArg(amprt.Ext(n), amprt.Write)
		defer out.free()
		for i := range out.host {
			out.host[i] = -1
		}
		k := iotaK{Out: out, Scale: 3, Add: 5, FAdd: 2.5, Note: "ignored"}
		require.NoError(t, amprt.ParallelForEach(v, amprt.Ext(n), k))
		require.NoError(t, out.sync())
		bad := 0
		for i, got := range out.host {
			if want := int32(i*3 + 7); got != want {
				if bad++; bad < 5 {
					t.Errorf("out[%d] = %d, want %d", i, got, want)
				}
			}
		}
		assert.Zero(t, bad, "elements wrong")
	})
}

func TestParallelForEachSections(t *testing.T) {
	for _, rank := range []int{2, 3} {
		t.Run(fmt.Sprintf("rank%d", rank), func(t *testing.T) {
			eachView(t, func(t *testing.T, v *accelerator.View) {
				var ext amprt.Extent
				var a, b, c *devArg
				if rank == 2 {
					ext = amprt.Ext(5, 7)
					a = newSection(2, amprt.Read, 9*9, 2*9+1, 9, 0) // rows of 9, starting at (2, 1)
					b = newArg(ext, amprt.Read)
					c = newSection(2, amprt.Write, 3+5*8, 3, 8, 0)
				} else {
					ext = amprt.Ext(3, 4, 5)
					a = newSection(3, amprt.Read, 5*6*7, 1*42+2*7+1, 42, 7)
					b = newArg(ext, amprt.Read)
					c = newSection(3, amprt.Write, 3*4*6+4, 4, 24, 6)
				}
				defer a.free()
				defer b.free()
				defer c.free()
				for i := range a.host {
					a.host[i] = int32(i * 3)
				}
				for i := range b.host {
					b.host[i] = int32(i + 1)
				}
				for i := range c.host {
					c.host[i] = -7
				}
				k := addK{A: a, B: b, C: c, prog: testprog.MustProgram(fmt.Sprintf("add%d", rank), rank)}
				require.NoError(t, amprt.ParallelForEach(v, ext, k))
				require.NoError(t, c.sync())
				touched := map[int]bool{}
				for p := range ext.Size() {
					i := ext.Delinearize(p)
					want := a.get(i) + b.get(i)*1000 + addTag(i, rank)
					require.Equal(t, want, c.get(i), "c%v", i)
					touched[c.at(i)] = true
				}
				for j, x := range c.host {
					if !touched[j] {
						require.Equal(t, int32(-7), x, "element %d outside the section was written", j)
					}
				}
			})
		})
	}
}

// tileExpect computes tileN.comp.s output independently of both executors.
func tileExpect(te amprt.TiledExtent, in *devArg) []int32 {
	out := make([]int32, te.Extent.Size())
	tile := te.Tile
	n := tile.Size()
	for p := range te.Extent.Size() {
		g := te.Extent.Delinearize(p)
		var l, tl, o amprt.Index
		for d := range tile.Rank() {
			l[d], tl[d] = g[d]%tile.Dim(d), g[d]/tile.Dim(d)
			o[d] = tl[d] * tile.Dim(d)
		}
		mirror := o.Add(tile.Delinearize(n - 1 - tile.Linear(l)))
		out[p] = in.get(mirror) + in.get(o) + tileTag(g, l, tl, o, tile)
	}
	return out
}

func TestParallelForEachTiledSharedMemory(t *testing.T) {
	tests := []struct {
		name string
		te   amprt.TiledExtent
	}{
		{"rank1 1024", amprt.Ext(4096).Tile(1024)},
		{"rank2 32x32", amprt.Ext(64, 96).Tile(32, 32)},
		{"rank3 64x4x4", amprt.Ext(128, 8, 8).Tile(64, 4, 4)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.te.Extent.Rank()
			prog := testprog.MustProgram(fmt.Sprintf("tile%d", r), r)
			var results [][]int32
			eachView(t, func(t *testing.T, v *accelerator.View) {
				in, out := newArg(tt.te.Extent, amprt.Read), newArg(tt.te.Extent, amprt.Write)
				defer in.free()
				defer out.free()
				for i := range in.host {
					in.host[i] = int32(i*7%1000 + 1)
				}
				err := amprt.ParallelForEachTiled(v, tt.te, tileK{A: in, B: out, prog: prog})
				amptest.SkipUnsupported(t, err) // a device whose workgroups are smaller
				require.NoError(t, err)
				require.NoError(t, out.sync())
				want := tileExpect(tt.te, in)
				for i := range want {
					require.Equal(t, want[i], out.host[i], "out[%d]", i)
				}
				results = append(results, out.host)
			})
			for _, res := range results[1:] {
				assert.Equal(t, results[0], res, "accelerators disagree")
			}
		})
	}
}

func TestParallelForEachBarrierKinds(t *testing.T) {
	const tile, n = 256, 256 * 8
	for kind, name := range []string{"wait", "all memory", "global memory", "tile_static memory"} {
		t.Run(name, func(t *testing.T) {
			eachView(t, func(t *testing.T, v *accelerator.View) {
				in := newArg(amprt.Ext(n), amprt.Read)
				scratch := newArg(amprt.Ext(n), amprt.ReadWrite)
				out := newArg(amprt.Ext(n), amprt.Write)
				defer in.free()
				defer scratch.free()
				defer out.free()
				for i := range in.host {
					in.host[i] = int32(i%97 + 1)
				}
				k := barrierK{A: in, Scratch: scratch, B: out, Kind: int32(kind)}
				require.NoError(t, amprt.ParallelForEachTiled(v, amprt.Ext(n).Tile(tile), k))
				require.NoError(t, out.sync())
				for g := range n {
					m := g/tile*tile + tile - 1 - g%tile
					var want int32
					if kind != 2 {
						want += in.host[m]
					}
					if kind != 3 {
						want += in.host[m] * 1000
					}
					require.Equal(t, want, out.host[g], "out[%d]", g)
				}
			})
		})
	}
}

// TestParallelForEachBatch runs two dispatches in one batch, the second reading what the
// first wrote, with no Wait between them.
func TestParallelForEachBatch(t *testing.T) {
	amptest.EachView(t, func(t *testing.T, v *accelerator.View) {
		const n = 5000
		a, b := newArg(amprt.Ext(n), amprt.ReadWrite), newArg(amprt.Ext(n), amprt.Write)
		defer a.free()
		defer b.free()
		// Allocate and upload b first, so that only dispatches remain.
		_, err := b.BindDevice(v, amprt.Write)
		if !v.Accelerator().Traits().HostMemory {
			require.NoError(t, err)
		}
		before := v.Stats()
		require.NoError(t, amprt.ParallelForEach(v, amprt.Ext(n), iotaK{Out: a, Scale: 2, Add: 1}))
		require.NoError(t, amprt.ParallelForEach(v, amprt.Ext(n), &scaleK{a: a, b: b, k: -3}))
		after := v.Stats()
		if !v.Accelerator().Traits().HostMemory {
			assert.Equal(t, before.Dispatches+2, after.Dispatches)
			if v.Accelerator().SupportsCPUSharedMemory() {
				assert.Equal(t, before.Submits, after.Submits, "the dispatches must not submit")
			}
		}
		require.NoError(t, b.sync())
		for i := range n {
			require.Equal(t, int32((2*i+1)*-3), b.host[i], "b[%d]", i)
		}
	})
}

// TestParallelForEachViewChoice checks C++ AMP's rule: the view passed, else the
// arguments' home view, else the default accelerator's default view.
func TestParallelForEachViewChoice(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		out := newArg(amprt.Ext(100), amprt.Write)
		defer out.free()
		out.home = v
		before := v.Stats()
		require.NoError(t, amprt.ParallelForEach(nil, amprt.Ext(100), iotaK{Out: out, Scale: 1}))
		assert.Equal(t, before.Dispatches+1, v.Stats().Dispatches, "ran on the home view")
		require.NoError(t, out.sync())
		assert.Equal(t, int32(99), out.host[99])
	})
	t.Run("default", func(t *testing.T) {
		out := newArg(amprt.Ext(10), amprt.Write)
		defer out.free()
		require.NoError(t, amprt.ParallelForEach(nil, amprt.Ext(10), iotaK{Out: out, Scale: 2}))
		require.NoError(t, out.sync())
		assert.Equal(t, int32(18), out.host[9])
	})
}

func TestParallelForEachAcceleratorMismatch(t *testing.T) {
	cpu := accelerator.CPU()
	v1, err := cpu.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	v2, err := cpu.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer v1.Close()
	defer v2.Close()
	pairs := [][2]*accelerator.View{{v1, v2}}
	if all := accelerator.All(); len(all) > 1 {
		g, err := all[0].DefaultView()
		require.NoError(t, err)
		pairs = append(pairs, [2]*accelerator.View{g, v1})
	}
	for _, p := range pairs {
		t.Run(p[0].Accelerator().Path()+"+"+p[1].Accelerator().Path(), func(t *testing.T) {
			a, b := newArg(amprt.Ext(8), amprt.Read), newArg(amprt.Ext(8), amprt.Write)
			a.home, b.home = p[0], p[1]
			err := amprt.ParallelForEach(nil, amprt.Ext(8), &scaleK{a: a, b: b, k: 2})
			me := requireErrorAs[*amprt.AcceleratorMismatchError](t, err, amprt.ErrAcceleratorMismatch)
			assert.Same(t, p[0], me.Want)
			assert.Same(t, p[1], me.Got)
			assert.Equal(t, "b", me.Field)
			assert.Contains(t, err.Error(), p[0].String())
			assert.Contains(t, err.Error(), p[1].String())
			assert.Contains(t, err.Error(), "field a")

			// The view passed disagrees with an argument's home.
			b.home = nil
			err = amprt.ParallelForEach(p[1], amprt.Ext(8), &scaleK{a: a, b: b, k: 2})
			require.ErrorAs(t, err, &me)
			assert.Equal(t, "the view passed to ParallelForEach", me.WantFrom)
			assert.Equal(t, "a", me.Field)
		})
	}
}

// Kernels with bad fields.
type (
	intFieldK struct {
		Out *devArg
		N   int64
	}
	nestedK struct {
		Out   *devArg
		Inner struct {
			X int32
			B bool
		}
	}
	arrayK struct {
		Out *devArg
		W   [2]int
	}
	bigK struct {
		Out *devArg
		W   [25]float32
	}
	tooManyK struct {
		A, B, C, D, E, F, G, H *devArg
	}
	funcK    func(amprt.Index)
	cpuOnlyK struct{ Out *devArg }
	noProgK  struct{ Out *devArg }
	sharedK  struct {
		A, B *devArg
		prog *amprt.Program `amp:"-"`
	}
	float64K struct { // the fields of iota.comp.s push constants
		Out   *devArg
		Scale int32
		Add   uint32
		FAdd  float32
	}
	wrongAccK struct{ Out *devArg }
)

func (intFieldK) Each(amprt.Index)          {}
func (nestedK) Each(amprt.Index)            {}
func (arrayK) Each(amprt.Index)             {}
func (bigK) Each(amprt.Index)               {}
func (bigK) Program() *amprt.Program        { return testprog.MustProgram("iota", 1) }
func (tooManyK) Each(amprt.Index)           {}
func (tooManyK) Program() *amprt.Program    { return testprog.MustProgram("iota", 1) }
func (f funcK) Each(i amprt.Index)          { f(i) }
func (k cpuOnlyK) Each(i amprt.Index)       { k.Out.set(i, int32(i[0])) }
func (noProgK) Each(amprt.Index)            {}
func (noProgK) Program() *amprt.Program     { return nil }
func (sharedK) SharedBytes(tile [3]int) int { return 1 << 30 }
func (k sharedK) Program() *amprt.Program   { return k.prog }
func (sharedK) Tiled(amprt.TiledIndex)      {}
func (k float64K) Each(i amprt.Index)       { k.Out.set(i, 1) }
func (float64K) Program() *amprt.Program    { return testprog.MustProgram("iota", 1) }
func (wrongAccK) Each(amprt.Index)          {}
func (wrongAccK) Program() *amprt.Program   { return testprog.MustProgram("iota", 1) }
func (k tooManyK) fill(e amprt.Extent) tooManyK {
	k.A, k.B, k.C, k.D = newArg(e, amprt.Read), newArg(e, amprt.Read), newArg(e, amprt.Read), newArg(e, amprt.Read)
	k.E, k.F, k.G, k.H = newArg(e, amprt.Read), newArg(e, amprt.Read), newArg(e, amprt.Read), newArg(e, amprt.Write)
	return k
}

func TestParallelForEachKernelErrors(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		out := newArg(amprt.Ext(4), amprt.Write)
		defer out.free()
		kernelErr := func(t *testing.T, err error, kernel, field, ftype, msg string) {
			t.Helper()
			ke := requireErrorAs[*amprt.KernelError](t, err, amprt.ErrInvalidKernel)
			assert.Equal(t, kernel, ke.Kernel)
			assert.Equal(t, field, ke.Field)
			assert.Equal(t, ftype, ke.FieldType)
			assert.Contains(t, err.Error(), msg)
		}
		e := amprt.Ext(4)
		kernelErr(t, amprt.ParallelForEach(v, e, intFieldK{Out: out}), "runtime_test.intFieldK", "N", "int64", "int32, uint32, float32, float64, int")
		kernelErr(t, amprt.ParallelForEach(v, e, &intFieldK{Out: out}), "*runtime_test.intFieldK", "N", "int64", "field N (int64)")
		kernelErr(t, amprt.ParallelForEach(v, e, nestedK{Out: out}), "runtime_test.nestedK", "Inner", "struct { X int32; B bool }", "only int32, uint32 and float32")
		kernelErr(t, amprt.ParallelForEach(v, e, arrayK{Out: out}), "runtime_test.arrayK", "W", "[2]int", "pushed to the GPU as it lies in memory")
		if !v.Accelerator().IsCPU() {
			kernelErr(t, amprt.ParallelForEach(v, e, bigK{Out: out}), "runtime_test.bigK", "", "", "1 data arguments and 100 bytes of scalar fields need 144 bytes")
		}
		kernelErr(t, amprt.ParallelForEach(v, e, funcK(func(amprt.Index) {})), "runtime_test.funcK", "", "", "must be a struct")
		kernelErr(t, amprt.ParallelForEach(v, e, iotaK{}), "runtime_test.iotaK", "Out", "*runtime_test.devArg", "data argument is nil")
		kernelErr(t, amprt.ParallelForEach(v, e, addK{A: out, B: nil, C: out}), "runtime_test.addK", "B", "runtime.Arg", "nil")
		kernelErr(t, amprt.ParallelForEach(v, e, addK{A: out, B: (*devArg)(nil), C: out}), "runtime_test.addK", "B", "runtime.Arg", "nil")
		kernelErr(t, amprt.ParallelForEach(v, e, tooManyK{}.fill(e)), "runtime_test.tooManyK", "", "", "8 data arguments and 0 bytes of scalar fields need 144 bytes")
		if err := amprt.ParallelForEach(v, e, noProgK{Out: out}); goBodies(v.Accelerator()) {
			assert.NoError(t, err, "the CPU runs the Go body")
		} else {
			kernelErr(t, err, "runtime_test.noProgK", "", "", "no program")
		}
		bad := newArg(e, 0)
		kernelErr(t, amprt.ParallelForEach(v, e, wrongAccK{Out: bad}), "runtime_test.wrongAccK", "Out", "*runtime_test.devArg", "Access is 0")
		assert.ErrorIs(t, amprt.ParallelForEach(v, e, nil), amprt.ErrNilKernel)
		assert.ErrorIs(t, amprt.ParallelForEach(v, e, (*scaleK)(nil)), amprt.ErrNilKernel)
		assert.ErrorIs(t, amprt.ParallelForEachTiled(v, e.Tile(2), nil), amprt.ErrNilKernel)
		var nk *amprt.NilKernelError
		require.ErrorAs(t, amprt.ParallelForEach(v, e, (*scaleK)(nil)), &nk)
		assert.Equal(t, "*runtime_test.scaleK", nk.Type)

		// A kernel without a GPU body runs on the CPU only.
		err := amprt.ParallelForEach(v, e, cpuOnlyK{Out: out})
		if goBodies(v.Accelerator()) { // the goroutine executors run Go bodies
			require.NoError(t, err)
			require.NoError(t, out.sync())
			assert.Equal(t, []int32{0, 1, 2, 3}, out.host)
		} else {
			kernelErr(t, err, "runtime_test.cpuOnlyK", "", "", "no GPU body")
			assert.ErrorIs(t, err, accelerator.ErrUnsupportedFeature)
		}

		// float64 data on a device without double precision.
		f := newArg(e, amprt.Write)
		f.f64 = true
		defer f.free()
		err = amprt.ParallelForEach(v, e, float64K{Out: f})
		if v.Accelerator().SupportsDoublePrecision() {
			assert.NoError(t, err)
		} else {
			assert.ErrorIs(t, err, accelerator.ErrUnsupportedFeature)
			assert.ErrorContains(t, err, "field Out")
		}

		// A cancelled context.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		assert.ErrorIs(t, amprt.ParallelForEachContext(ctx, v, e, iotaK{Out: out}), context.Canceled)
	})
}

func TestParallelForEachDomainErrors(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		lim := v.Accelerator().Limits()
		domainErr := func(t *testing.T, err error, dim, limit, value int, msg string) {
			t.Helper()
			ce := requireErrorAs[*amprt.ComputeDomainError](t, err, amprt.ErrInvalidComputeDomain)
			assert.Equal(t, dim, ce.Dim, "Dim")
			assert.Equal(t, limit, ce.Limit, "Limit")
			assert.Equal(t, value, ce.Value, "Value")
			assert.Contains(t, err.Error(), msg)
		}
		prog := func(r int) *amprt.Program { return testprog.MustProgram(fmt.Sprintf("tile%d", r), r) }
		in, out := newArg(amprt.Ext(4), amprt.Read), newArg(amprt.Ext(4), amprt.Write)
		defer in.free()
		defer out.free()
		k := func(r int) tileK { return tileK{A: in, B: out, prog: prog(r)} }

		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(64, 64).Tile(32, 64), k(2)), -1, 1024, 2048, "tile 32x64 has 2048 threads; the limit is 1024")
		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(128, 2, 2).Tile(128, 2, 2), k(3)), 0, 64, 128, "dimension 0 = 128; the limit for rank-3 tiles is 64")
		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(10).Tile(4), k(1)), 0, 4, 10, "10 % 4 = 2")
		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(8, 8).Tile(4), k(2)), -1, 2, 1, "tile rank 1 does not match extent rank 2")
		// The program's rank against the domain's (C++ AMP: index<N> must match extent<N>).
		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(8).Tile(4), k(2)), -1, 2, 1, "program testprog/tile2 is written for rank 2, the domain (8) has rank 1")
		domainErr(t, amprt.ParallelForEach(v, amprt.Ext(4, 4), iotaK{Out: out}), -1, 1, 2, "written for rank 1")
		err := amprt.ParallelForEach(v, amprt.Ext(0), iotaK{Out: out})
		domainErr(t, err, -1, 0, 0, "extent (0): dimension 0 is 0")
		assert.ErrorIs(t, err, amprt.ErrInvalidExtent)
		// Shared memory beyond the device's.
		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(8).Tile(4), sharedK{A: in, B: out, prog: prog(1)}), -1, int(lim.MaxSharedMemory), 1<<30,
			fmt.Sprintf("uses %d bytes of shared memory for tile 4; the device's maxComputeSharedMemorySize is %d", 1<<30, lim.MaxSharedMemory))

		if !v.Accelerator().Traits().Wide {
			return // the CPU's limits are C++ AMP's; the rest would run for hours
		}
		// More tiles than the device's maxComputeWorkGroupCount[0].
		n := int(lim.MaxWorkgroupCount[0]) + 1
		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(n).Tile(1), k(1)), 0, int(lim.MaxWorkgroupCount[0]), n,
			fmt.Sprintf("has %d tiles in dimension 0; the device's maxComputeWorkGroupCount[0] is %d", n, lim.MaxWorkgroupCount[0]))
		domainErr(t, amprt.ParallelForEachTiled(v, amprt.Ext(2, n*2).Tile(1, 2), k(2)), 1, int(lim.MaxWorkgroupCount[0]), n,
			"in dimension 1; the device's maxComputeWorkGroupCount[0]")
		// Past 2^31-1 points, a dispatch cannot be indexed (GPU indices are signed 32-bit ints).
		domainErr(t, amprt.ParallelForEach(v, amprt.Ext(1<<20, 1<<13), iotaAny{iotaK{Out: out}}), -1, 1<<31-1, 1<<33, "a GPU dispatch handles at most 2147483647")
	})
}

// iotaAny is iotaK with a program of any rank, for domain tests.
type iotaAny struct{ iotaK }

func (iotaAny) Program() *amprt.Program { return testprog.MustProgram("iota", 0) }

// BenchmarkDispatch records back-to-back dispatches of a tiny kernel, waiting only at
// the end: the per-dispatch cost of ParallelForEach and the command stream.
func BenchmarkDispatch(b *testing.B) {
	eachView(b, func(b *testing.B, v *accelerator.View) {
		out := newArg(amprt.Ext(64), amprt.Write)
		defer out.free()
		k := iotaK{Out: out, Scale: 1}
		require.NoError(b, amprt.ParallelForEach(v, amprt.Ext(64), k))
		require.NoError(b, v.Wait())
		b.ReportAllocs()
		b.ResetTimer()
		t0 := time.Now()
		for b.Loop() {
			if err := amprt.ParallelForEach(v, amprt.Ext(64), k); err != nil {
				b.Fatal(err)
			}
		}
		require.NoError(b, v.Wait())
		// b.Loop stops the benchmark's timer before the wait: count it here.
		b.ReportMetric(float64(time.Since(t0).Nanoseconds())/float64(b.N), "ns/dispatch")
	})
}

// BenchmarkDispatchWait is one dispatch and a wait for it per op: the round-trip latency.
func BenchmarkDispatchWait(b *testing.B) {
	eachView(b, func(b *testing.B, v *accelerator.View) {
		out := newArg(amprt.Ext(64), amprt.Write)
		defer out.free()
		k := iotaK{Out: out, Scale: 1}
		b.ReportAllocs()
		for b.Loop() {
			if err := amprt.ParallelForEach(v, amprt.Ext(64), k); err != nil {
				b.Fatal(err)
			}
			if err := v.Wait(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/dispatch")
	})
}

// TestParallelForEachEmbedded runs a kernel whose captures come from an embedded struct.
func TestParallelForEachEmbedded(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		out := newArg(amprt.Ext(100), amprt.Write)
		defer out.free()
		require.NoError(t, amprt.ParallelForEach(v, amprt.Ext(100), iotaAny{iotaK{Out: out, Scale: 4, Add: 1}}))
		require.NoError(t, out.sync())
		for i, x := range out.host {
			require.Equal(t, int32(4*i+1), x)
		}
	})
}

// TestDispatchValidationOn makes sure the validation layer really watches these tests
// when asked for.
func TestDispatchValidationOn(t *testing.T) {
	if os.Getenv(accelerator.EnvValidation) == "1" && os.Getenv("GOAMP_REQUIRE_VULKAN") == "1" {
		require.True(t, accelerator.ValidationEnabled())
	}
}

// farK records whether its CPU body saw an index outside [0, n) and stops the run at its
// first call with a panic: a domain past 2^31-1 points would take minutes to run through.
type farK struct {
	iotaK
	n   int           `amp:"-"`
	bad *atomic.Int64 `amp:"-"`
}

func (k farK) Each(i amprt.Index) {
	if i[0] < 0 || i[0] >= k.n {
		k.bad.Add(1)
	}
	panic("stop")
}
func (farK) Program() *amprt.Program { return testprog.MustProgram("iota", 1) }

// TestParallelForEachIndexRange: GPU indices are 32-bit signed ints, so a domain of more
// than 2^31-1 points is refused on Vulkan, before anything is bound (Out has 4 elements),
// with a *ComputeDomainError naming the numbers; the CPU runs it (here stopped at once).
func TestParallelForEachIndexRange(t *testing.T) {
	for _, v := range amptest.Views(t) {
		t.Run(v.Accelerator().Path(), func(t *testing.T) {
			out := newArg(amprt.Ext(4), amprt.Write)
			defer out.free()
			for _, n := range []int{1<<31 + 64, 1 << 31, 1<<32 + 64} {
				k := farK{iotaK: iotaK{Out: out}, n: n, bad: new(atomic.Int64)}
				err := amprt.ParallelForEach(v, amprt.Ext(n), k)
				if goBodies(v.Accelerator()) { // the goroutine executors have no 32-bit indices
					var pe *amprt.KernelPanicError
					require.ErrorAs(t, err, &pe, "the CPU runs %d points", n)
					assert.Zero(t, k.bad.Load(), "indices outside [0, %d)", n)
					continue
				}
				var ce *amprt.ComputeDomainError
				require.ErrorAs(t, err, &ce, "%d points", n)
				require.ErrorIs(t, err, amprt.ErrInvalidComputeDomain)
				assert.Equal(t, math.MaxInt32, ce.Limit)
				assert.Equal(t, n, ce.Value)
				assert.ErrorContains(t, err, fmt.Sprintf("extent (%d) has %d points; a GPU dispatch handles at most 2147483647", n, n))
			}
		})
	}
}
