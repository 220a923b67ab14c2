package ampimpl_test

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amprt "github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/runtime/ampimpl"
)

// contractSPIRV reads a module of runtime's tests (make shaders compiles it).
func contractSPIRV(t testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "contract", "scaled_add.spv"))
	require.NoError(t, err)
	return b
}

// TestFrame checks the scalars that Frame returns of a tile: its size, its
// origin (TileOrigin's) and its dimensions, 1 past its rank.
func TestFrame(t *testing.T) {
	for _, c := range []struct {
		dom    amprt.TiledExtent
		tile   amprt.Index
		size   int
		origin amprt.Index
		n      [3]int
	}{
		{amprt.Ext(64).Tile(16), amprt.Idx(3), 16, amprt.Idx(48), [3]int{16, 1, 1}},
		{amprt.Ext(8, 12).Tile(4, 6), amprt.Idx(1, 1), 24, amprt.Idx(4, 6), [3]int{4, 6, 1}},
		{amprt.Ext(4, 6, 8).Tile(2, 3, 4), amprt.Idx(1, 0, 1), 24, amprt.Idx(2, 0, 4), [3]int{2, 3, 4}},
	} {
		size, o0, o1, o2, n0, n1, n2 := ampimpl.Frame(c.dom, c.tile)
		assert.Equal(t, c.size, size)
		assert.Equal(t, c.dom.Tile.Size(), size)
		assert.Equal(t, c.origin, amprt.Idx(o0, o1, o2))
		assert.Equal(t, c.origin, ampimpl.TileOrigin(c.dom, c.tile))
		assert.Equal(t, c.n, [3]int{n0, n1, n2})
	}
}

// TestGeneratedPrograms checks that Programs finds each module by the file name
// that ampgen gives it, names the programs after their kernels and gives them their
// bounds-checked builds.
func TestGeneratedPrograms(t *testing.T) {
	spirv := contractSPIRV(t)
	fsys := fstest.MapFS{
		"gen_Plain.spv":                 {Data: spirv},
		"gen_Generic_int32_float32.spv": {Data: spirv},
		"gen_Generic_float32.spv":       {Data: spirv},
	}
	checked := fstest.MapFS{
		"gen_Plain.check.spv":                 {Data: spirv},
		"gen_Generic_int32_float32.check.spv": {Data: spirv},
		"gen_Generic_float32.check.spv":       {Data: spirv},
	}
	g := ampimpl.GeneratedFrom("gen_test.go", "").Programs(fsys, "gen", "example.com/gentest")
	p := g.Program("Plain")
	in := g.Instances("Generic", []string{"int32,float32", "float32"})
	assert.Equal(t, "example.com/gentest.Plain", p.Name)
	require.Len(t, in, 2)
	assert.Equal(t, "example.com/gentest.Generic[int32,float32]", in["int32,float32"].Name)
	assert.Equal(t, "example.com/gentest.Generic[float32]", in["float32"].Name)
	g.Checked(checked)
	for _, q := range []*amprt.Program{p, in["int32,float32"], in["float32"]} {
		require.NotNil(t, q.Checked)
		assert.Equal(t, q.Name+"#checked", q.Checked.Name)
	}
	assert.Panics(t, func() { g.Program("Missing") })
}
