package runtime_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amprt "github.com/goamp/goamp/runtime"
)

// TestFrame checks the scalars that TiledExtent.Frame returns of a tile: its size, its
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
		size, o0, o1, o2, n0, n1, n2 := c.dom.Frame(c.tile)
		assert.Equal(t, c.size, size)
		assert.Equal(t, c.dom.Tile.Size(), size)
		assert.Equal(t, c.origin, amprt.Idx(o0, o1, o2))
		assert.Equal(t, c.origin, c.dom.TileOrigin(c.tile))
		assert.Equal(t, c.n, [3]int{n0, n1, n2})
	}
}

// TestHeld checks that Scratch.Take returns zeroed buffers of the length asked for, more
// than a Held keeps inline too, and that Release hands them all back, once.
func TestHeld(t *testing.T) {
	var a amprt.Scratch[int32]
	var b amprt.Scratch[float64]
	for range 3 {
		var h amprt.Held
		for i := range 12 {
			x, y := a.Take(&h, i), b.Take(&h, 2*i)
			require.Len(t, x, i)
			require.Len(t, y, 2*i)
			assert.Equal(t, make([]int32, i), x)
			assert.Equal(t, make([]float64, 2*i), y)
			for j := range x {
				x[j] = 7
			}
			for j := range y {
				y[j] = 7
			}
		}
		h.Release()
		h.Release() // nothing held: no effect
	}
	var h amprt.Held
	assert.PanicsWithValue(t, "goamp/runtime: TileStatic: negative length -3", func() { a.Take(&h, -3) })
}

// TestGeneratedPrograms checks that GeneratedPrograms finds each module by the file name
// that ampgen gives it, names the programs after their kernels and gives them their
// bounds-checked builds.
func TestGeneratedPrograms(t *testing.T) {
	spirv := contractSPIRV(t, "scaled_add")
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
	g := amprt.GeneratedFrom("gen_test.go", "").Programs(fsys, "gen", "example.com/gentest")
	p := g.Program("Plain")
	in := g.Instances("Generic", "int32,float32", "float32")
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
