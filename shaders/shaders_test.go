package shaders_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/shaders"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// variant is a line of glsl/variants.txt: a program compiled from another source with
// preprocessor definitions.
type variant struct {
	out, src string
	defs     []string
}

// readVariants parses glsl/variants.txt.
func readVariants(t *testing.T) []variant {
	b, err := os.ReadFile("glsl/variants.txt")
	require.NoError(t, err)
	var vs []variant
	for i, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		require.GreaterOrEqual(t, len(f), 2, "variants.txt:%d: OUTPUT SOURCE [NAME[=VALUE]...]", i+1)
		vs = append(vs, variant{f[0], f[1], f[2:]})
	}
	return vs
}

// TestVariants checks glsl/variants.txt: each variant's source is a .comp or .glsl file of
// glsl/, its output names no other program, and its definitions are NAME or NAME=VALUE.
func TestVariants(t *testing.T) {
	vs := readVariants(t)
	require.NotEmpty(t, vs)
	seen := map[string]bool{}
	for _, v := range vs {
		assert.False(t, seen[v.out], "variant %s listed twice", v.out)
		seen[v.out] = true
		assert.NoFileExists(t, filepath.Join("glsl", v.out+".comp"), "variant %s is also a source", v.out)
		assert.FileExists(t, filepath.Join("glsl", v.src), "the source of variant %s", v.out)
		assert.Contains(t, []string{".comp", ".glsl"}, filepath.Ext(v.src), "the source of variant %s", v.out)
		for _, d := range v.defs {
			name, _, _ := strings.Cut(d, "=")
			assert.Regexp(t, `^[A-Za-z_][A-Za-z0-9_]*$`, name, "definition %q of variant %s", d, v.out)
		}
	}
}

// TestEverySourceEmbedded checks that every GLSL source and every variant has embedded
// SPIR-V and back, of a version before 1.6.
func TestEverySourceEmbedded(t *testing.T) {
	srcs, err := filepath.Glob("glsl/*.comp")
	require.NoError(t, err)
	require.NotEmpty(t, srcs)
	var want []string
	for _, s := range srcs {
		want = append(want, strings.TrimSuffix(filepath.Base(s), ".comp"))
	}
	for _, v := range readVariants(t) {
		want = append(want, v.out)
	}
	assert.ElementsMatch(t, want, shaders.Names())
	for _, n := range shaders.Names() {
		p, err := shaders.Program(n, 0)
		require.NoError(t, err, n)
		assert.Equal(t, n, p.Name)
		require.GreaterOrEqual(t, len(p.SPIRV), 20)
		assert.Equal(t, uint32(spirv.MagicNumber), binary.LittleEndian.Uint32(p.SPIRV), "SPIR-V magic of %s", n)
		// Before SPIR-V 1.6 a device runs a pipeline (created without the varying-size
		// flag, as the runtime creates them) at its reported subgroup size, which the
		// sorts' programs are chosen by (sort_rank.glsl); from 1.6 on it may vary it.
		assert.Less(t, binary.LittleEndian.Uint32(p.SPIRV[4:]), uint32(0x00010600), "SPIR-V version of %s", n)
		again, err := shaders.Program(n, 0)
		require.NoError(t, err)
		assert.Same(t, p, again)
	}
}

func TestProgramErrors(t *testing.T) {
	_, err := shaders.Program("no_such_kernel", 0)
	require.ErrorIs(t, err, shaders.ErrNoProgram)
	assert.Contains(t, err.Error(), "no_such_kernel")
	assert.Contains(t, err.Error(), "sort_load")
	_, err = shaders.Program("../spv/sort_load", 0)
	assert.ErrorIs(t, err, shaders.ErrNoProgram)
	p1, err := shaders.Program("sort_load", 1)
	require.NoError(t, err)
	p0, err := shaders.Program("sort_load", 0)
	require.NoError(t, err)
	assert.Equal(t, 1, p1.Rank)
	assert.Equal(t, p0.Name, p1.Name)
	assert.Panics(t, func() { shaders.MustProgram("nope", 0) })
}

func TestIncludeExists(t *testing.T) {
	b, err := os.ReadFile("include/amp.glsl")
	require.NoError(t, err)
	for _, s := range []string{"struct AmpView", "AMP_PUSH_BEGIN", "AMP_PUSH_END", "AMP_WORKGROUP", "ampIndex1", "ampWaitWithTileStaticMemoryFence"} {
		assert.Contains(t, string(b), s)
	}
}
