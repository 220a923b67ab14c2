package translate_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/translate"
)

// TestFissionNotes checks that each kernel of testdata/fission that cannot get a generated
// fast CPU body gets none, with ampgen's note saying why, and that those that can get one.
func TestFissionNotes(t *testing.T) {
	p, err := translate.Load("testdata/fission", translate.Options{})
	require.NoError(t, err)
	want := []struct{ kernel, note string }{
		{"Clash", "kernels.go:83:2: Clash: no CPU body generated, the per-thread executor runs it: the name ampL is one the generated body uses"},
		{"CountSetInIf", "kernels.go:41:2: CountSetInIf: no CPU body generated, the per-thread executor runs it: a barrier in a loop whose init"},
		{"EarlyT", "EarlyT: no CPU body generated, the per-thread executor runs it: the TiledIndex t passed on or copied"},
		{"Hand", "kernels.go:70:1: Hand: keeps its hand-written EachTile (runtime.TileKernel); no CPU body generated"},
		{"SwitchBarrier", "kernels.go:19:2: SwitchBarrier: no CPU body generated, the per-thread executor runs it: a barrier inside a switch statement"},
	}
	require.Len(t, p.Notes, len(want))
	for i, w := range want {
		t.Run(w.kernel, func(t *testing.T) {
			assert.Contains(t, p.Notes[i].String(), w.note)
			assert.Equal(t, w.kernel, p.Notes[i].Kernel)
		})
	}
	files := make([]string, len(p.Kernels))
	for i, k := range p.Kernels {
		files[i] = translate.SPIRVFile("amp_gen.go", k)
	}
	src, err := p.GoFile(files)
	require.NoError(t, err)
	methods := strings.Count(string(src), ") EachTile(")
	assert.Equal(t, 2, methods, "Good and PassT (its method expanded in place) get a generated EachTile")
	assert.Contains(t, string(src), "func (k Good) EachTile(ampDomain amprt.TiledExtent, ampTile amprt.Index) {")
	assert.Contains(t, string(src), "func (k PassT) EachTile(ampDomain amprt.TiledExtent, ampTile amprt.Index) {")
}

// TestSourceDeps loads testdata/fission with its dependencies read from export data and
// from source (Options.SourceDeps): the kernels' GLSL and the generated Go file are the
// same.
func TestSourceDeps(t *testing.T) {
	var glsl, gofile [2]string
	for i, src := range []bool{false, true} {
		p, err := translate.Load("testdata/fission", translate.Options{SourceDeps: src})
		require.NoError(t, err)
		files := make([]string, len(p.Kernels))
		for j, k := range p.Kernels {
			files[j] = translate.SPIRVFile("amp_gen.go", k)
			glsl[i] += k.GLSL
		}
		b, err := p.GoFile(files)
		require.NoError(t, err)
		gofile[i] = string(b)
	}
	require.NotEmpty(t, glsl[0])
	require.Equal(t, glsl[0], glsl[1])
	require.Equal(t, gofile[0], gofile[1])
}
