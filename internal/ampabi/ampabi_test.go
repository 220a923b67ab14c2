package ampabi_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/goamp/goamp/internal/ampabi"
	amprt "github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAmpGLSL compiles a kernel written against the GLSL include amp.glsl and
// checks that what it declares is this package's contract: the AmpViews and
// scalars at their push offsets, the buffers at their bindings, the
// workgroup size at its SpecIds.
func TestAmpGLSL(t *testing.T) {
	if _, err := exec.LookPath("glslc"); err != nil {
		t.Skip("glslc is not installed")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "k.comp")
	require.NoError(t, os.WriteFile(src, []byte(`#version 450
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, xs);
AMP_BUFFER(1, , float, ys);
AMP_BUFFER(2, writeonly, uint, zs);
AMP_PUSH_BEGIN AmpView x; AmpView y; AmpView z; int n; float a; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	ys[ampAt1(amp.y, i)] = float(xs[ampAt1(amp.x, i)] + amp.n) * amp.a;
	zs[ampAt1(amp.z, i)] = amp.x.pad + amp.y.s0 + amp.z.s1;
}
`), 0o644))
	spv := filepath.Join(dir, "k.spv")
	out, err := exec.Command("glslc", "-fshader-stage=compute", "-I", "../../shaders/include",
		"-o", spv, src).CombinedOutput()
	require.NoError(t, err, string(out))
	data, err := os.ReadFile(spv)
	require.NoError(t, err)
	in, err := amprt.ReadInterface(data)
	require.NoError(t, err)

	assert.Equal(t, [3]int{ampabi.SpecLocalSizeX, ampabi.SpecLocalSizeY, ampabi.SpecLocalSizeZ},
		in.LocalSizeSpecIDs)
	require.Len(t, in.Buffers, 3)
	for n, b := range in.Buffers {
		assert.Equal(t, ampabi.DataBinding(n), b.Binding, "buffer %d", n)
	}
	require.NotNil(t, in.Push)
	ms := in.Push.Block.Members
	require.Len(t, ms, 1+3+2)
	assert.Equal(t, 0, ms[0].Offset, "domain")
	for k := range 3 {
		m := ms[1+k]
		assert.Equal(t, ampabi.ViewOffset(k), m.Offset, "view %d", k)
		for w, name := range map[int]string{ampabi.ViewBase: "base", ampabi.ViewS0: "s0",
			ampabi.ViewS1: "s1", ampabi.ViewE0: "pad"} {
			assert.Equal(t, name, m.Type.Members[w].Name)
			assert.Equal(t, 4*w, m.Type.Members[w].Offset)
		}
	}
	assert.Equal(t, ampabi.ScalarOffset(3), ms[4].Offset, "first scalar")
	assert.Equal(t, ampabi.ScalarOffset(3)+ampabi.ScalarBytes, ms[5].Offset, "second scalar")
}

func TestCheckWords(t *testing.T) {
	for _, c := range []struct{ views, loopCap, words, ext21 int }{
		{0, 8, 9, -1}, {1, 11, 12, -1}, {3, 17, 18, 15},
	} {
		assert.Equal(t, c.loopCap, ampabi.CheckLoopCap(c.views))
		assert.Equal(t, c.words, ampabi.CheckWords(c.views))
		if c.ext21 >= 0 {
			assert.Equal(t, c.ext21, ampabi.CheckExtent(2, 1))
		}
	}
	// The header's fields fit before the extents and do not overlap.
	assert.Equal(t, ampabi.CheckHeaderWords, ampabi.CheckLength+1)
	assert.Equal(t, ampabi.CheckThread, ampabi.CheckIndex+3)
	assert.Equal(t, ampabi.CheckLength, ampabi.CheckThread+3)
}
