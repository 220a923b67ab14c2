package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// raceKernels are two tiled kernels: Shift reads its neighbour's element of a tile_static
// array with no barrier after the neighbour's write (a race, which the CPU's fast body,
// running the threads one after another, hides, and a GPU does not), Clean is the same
// with the barrier, and tile_static atomics.
const raceKernels = `package fixture

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Shift has no barrier between its write and its neighbour's read.
type Shift struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Shift) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	l := t.Local[0]
	s[l] = k.In.At(t.Global)
	k.Out.Set(t.Global, s[(l+1)%len(s)])
}

// Clean is Shift with a barrier, and a count kept with atomics.
type Clean struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Clean) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	c := runtime.TileStatic[int32](t, 1)
	l := t.Local[0]
	s[l] = k.In.At(t.Global)
	if l == 0 {
		c[0] = 0
	}
	t.Barrier.Wait()
	if s[(l+1)%len(s)] > 0 {
		runtime.AtomicAdd(c, 0, 1)
	}
	t.Barrier.Wait()
	k.Out.Set(t.Global, s[(l+1)%len(s)]+c[0])
}

// Spill has the first thread of each tile write the next tile's first element too.
type Spill struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Spill) Tiled(t runtime.TiledIndex) {
	k.Out.Set(t.Global, k.In.At(t.Global))
	if t.Local[0] == 0 {
		k.Out.Set(runtime.Idx((t.Global[0]+t.TileExtent.Size())%k.Out.Extent().Dim(0)), 0)
	}
}

// Halves has two indices write each element of Out: the GPU keeps either value.
type Halves struct {
	In  *arrayview.ReadView[int32]
	Out *arrayview.View[int32]
}

// Each is the kernel.
func (k Halves) Each(i runtime.Index) {
	k.Out.Set(runtime.Idx(i[0]/2), k.In.At(i))
}
`

// raceTests runs each kernel once on the CPU accelerator.
const raceTests = `package fixture

import (
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

func run(t *testing.T, k func(*arrayview.ReadView[int32], *arrayview.View[int32]) runtime.TiledKernel) {
	av, err := accelerator.CPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer av.Close()
	in, out := make([]int32, 256), make([]int32, 256)
	for i := range in {
		in[i] = int32(i%7) - 3
	}
	iv, err := arrayview.New(runtime.Ext(256), in)
	require.NoError(t, err)
	ov, err := arrayview.New(runtime.Ext(256), out)
	require.NoError(t, err)
	require.NoError(t, runtime.ParallelForEachTiled(av, runtime.Ext(256).Tile(64), k(iv.ReadOnly(), ov)))
	require.NoError(t, ov.Synchronize())
}

func TestShift(t *testing.T) {
	run(t, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.TiledKernel { return Shift{i, o} })
}

func TestHalves(t *testing.T) {
	av, err := accelerator.CPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer av.Close()
	in, out := make([]int32, 256), make([]int32, 128)
	iv, err := arrayview.New(runtime.Ext(256), in)
	require.NoError(t, err)
	ov, err := arrayview.New(runtime.Ext(128), out)
	require.NoError(t, err)
	require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(256), Halves{iv.ReadOnly(), ov}))
	require.NoError(t, ov.Synchronize())
}

func TestSpill(t *testing.T) {
	run(t, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.TiledKernel { return Spill{i, o} })
}

func TestClean(t *testing.T) {
	run(t, func(i *arrayview.ReadView[int32], o *arrayview.View[int32]) runtime.TiledKernel { return Clean{i, o} })
}
`

// TestRaceDetector: go test -race reports a kernel's race between the threads of a tile as
// a DATA RACE at the kernel's lines, although the kernel has a generated fast CPU body
// (the CPU accelerator runs a goroutine per thread in race builds), and two indices of a
// non-tiled kernel, or two tiles, writing one element (neighbouring indices and tiles run
// on different goroutines, with -cpu 1 too);
// it reports none for the tiled kernel with its barrier, and none with
// GOAMP_RACE_FAST_BODIES=1, which keeps the fast bodies.
func TestRaceDetector(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the race test builds and tests a module with -race")
	}
	gobin, err := exec.LookPath("go")
	require.NoError(t, err, "the test runs the go command")
	if out, err := exec.Command(gobin, "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("the race detector needs cgo")
	}
	dir := fixture(t, raceKernels)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kernel_test.go"), []byte(raceTests), 0o644))
	code, _, stderr := ampgen(dir)
	require.Equal(t, 0, code, stderr)
	gen, err := os.ReadFile(filepath.Join(dir, "amp_gen.go"))
	require.NoError(t, err)
	require.Contains(t, string(gen), "func (k Shift) EachTile(", "Shift has a fast CPU body")
	goTest := func(fast string, run string) (string, error) {
		cmd := exec.Command(gobin, "test", "-race", "-cpu", "1", "-count=1", "-run", run, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS="+goflags(), "GOAMP_RACE_FAST_BODIES="+fast)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goTest("", "TestShift")
	require.Error(t, err, "go test -race of the racy kernel passed:\n%s", out)
	assert.Contains(t, out, "WARNING: DATA RACE")
	assert.Contains(t, out, ".Shift.Tiled()")
	assert.Contains(t, out, "kernel.go:"+lineOf(t, raceKernels, "k.Out.Set(t.Global, s[(l+1)%len(s)])")) // the read
	assert.Contains(t, out, "kernel.go:"+lineOf(t, raceKernels, "s[l] = k.In.At(t.Global)"))             // the write
	out, err = goTest("", "TestHalves")
	require.Error(t, err, "go test -race of two indices writing one element passed:\n%s", out)
	assert.Contains(t, out, ".Halves.Each()")
	assert.Contains(t, out, "kernel.go:"+lineOf(t, raceKernels, "k.Out.Set(runtime.Idx(i[0]/2), k.In.At(i))"))
	out, err = goTest("", "TestSpill") // tiles run on goroutines in turn, whatever -cpu says
	require.Error(t, err, "go test -race of two tiles writing one element passed:\n%s", out)
	assert.Contains(t, out, ".Spill.Tiled()")
	out, err = goTest("", "TestClean")
	require.NoError(t, err, "the kernel with its barrier:\n%s", out)
	out, err = goTest("1", "TestShift")
	require.NoError(t, err, "GOAMP_RACE_FAST_BODIES=1 runs the fast body, which hides the race:\n%s", out)
}

// lineOf returns the number of the first line of src that holds text.
func lineOf(t *testing.T, src, text string) string {
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, text) {
			return strconv.Itoa(i + 1)
		}
	}
	t.Fatalf("no line holds %q", text)
	return ""
}
