package runtime_test

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	amprt "github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/runtime/ampimpl"
)

// countingFS is an fs.FS that counts the files read from it.
type countingFS struct {
	fstest.MapFS
	reads atomic.Int32
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.reads.Add(1)
	return c.MapFS.ReadFile(name)
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.reads.Add(1)
	return c.MapFS.Open(name)
}

func (c *countingFS) Stat(name string) (fs.FileInfo, error) {
	return c.MapFS.Stat(name)
}

// TestEmbeddedProgramLazy: an embedded program reads its module on first use, not
// when it is made (a package's initialization), and reads the interface that
// NewProgram reads from the same module, once however many first uses there are at
// once; its first dispatch runs it.
func TestEmbeddedProgramLazy(t *testing.T) {
	spirv := contractSPIRV(t, "scaled_add")
	fsys := &countingFS{MapFS: fstest.MapFS{"amp_gen_L.spv": {Data: spirv}}}
	p := ampimpl.EmbeddedProgram(fsys, "amp_gen_L.spv", "example.com/lazy.L")
	assert.Zero(t, fsys.reads.Load(), "EmbeddedProgram read the module")
	assert.Empty(t, p.SPIRV)
	var wg sync.WaitGroup
	for range 4 { // first uses at once read the module once
		wg.Go(func() { _, _ = p.Interface() })
	}
	wg.Wait()
	in, err := p.Interface()
	require.NoError(t, err)
	assert.Equal(t, int32(1), fsys.reads.Load())
	want, err := amprt.ReadInterface(spirv)
	require.NoError(t, err)
	assert.Equal(t, want, in)
	assert.Equal(t, spirv, p.SPIRV)
	_, err = p.Interface()
	require.NoError(t, err)
	assert.Equal(t, int32(1), fsys.reads.Load(), "the module is read once")
	eachView(t, func(t *testing.T, av *accelerator.View) {
		rng := rand.New(rand.NewPCG(rand.Uint64(), 7))
		xs, ys, x, y := scaledAddViews(t, rng, 100+rng.IntN(100))
		checkScaledAdd(t, av, x, y, xs, ys, p, false)
	})
}

// TestEmbeddedProgramErrors: an embedded program whose file is missing panics when
// it is made, naming it; one whose module is not valid, or whose name another module
// has, is its first dispatch's error, and the data is intact.
func TestEmbeddedProgramErrors(t *testing.T) {
	fsys := fstest.MapFS{
		"amp_gen_Bad.spv": {Data: []byte{3, 2, 35, 7, 0, 0}},
		"amp_gen_Dup.spv": {Data: contractSPIRV(t, "scaled_add")},
	}
	assert.PanicsWithError(t,
		"goamp/runtime: the SPIR-V of example.com/e.None: open amp_gen_None.spv: file does not exist",
		func() { ampimpl.EmbeddedProgram(fsys, "amp_gen_None.spv", "example.com/e.None") })
	_, err := amprt.NewProgram("example.com/e.Dup", contractSPIRV(t, "scaled_sub"), 0)
	require.NoError(t, err)
	for _, c := range []struct {
		file, name string
		want       error
	}{
		{"amp_gen_Bad.spv", "example.com/e.Bad", amprt.ErrInvalidSPIRV},
		{"amp_gen_Dup.spv", "example.com/e.Dup", amprt.ErrDuplicateProgram},
	} {
		p := ampimpl.EmbeddedProgram(fsys, c.file, c.name)
		eachView(t, func(t *testing.T, av *accelerator.View) {
			rng := rand.New(rand.NewPCG(rand.Uint64(), 9))
			xs, ys, x, y := scaledAddViews(t, rng, 64)
			k := scaledAdd{X: x.ReadOnly(), Y: y, Alpha: 2, prog: p}
			err := amprt.ParallelForEach(av, x.Extent(), k)
			require.Error(t, err)
			assert.True(t, errors.Is(err, c.want), "%v", err)
			var ke *amprt.KernelError
			require.ErrorAs(t, err, &ke)
			assert.Contains(t, err.Error(), c.name)
			assert.Equal(t, xs, hostData(t, x))
			assert.Equal(t, ys, hostData(t, y))
		})
	}
}
