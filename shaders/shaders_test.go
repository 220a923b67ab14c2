package shaders_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goamp/goamp/shaders"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEverySourceEmbedded checks that every GLSL source has embedded SPIR-V and back.
func TestEverySourceEmbedded(t *testing.T) {
	srcs, err := filepath.Glob("glsl/*.comp")
	require.NoError(t, err)
	require.NotEmpty(t, srcs)
	var want []string
	for _, s := range srcs {
		want = append(want, strings.TrimSuffix(filepath.Base(s), ".comp"))
	}
	assert.ElementsMatch(t, want, shaders.Names())
	for _, n := range shaders.Names() {
		p, err := shaders.Program(n, 0)
		require.NoError(t, err, n)
		assert.Equal(t, n, p.Name)
		require.GreaterOrEqual(t, len(p.SPIRV), 20)
		assert.Equal(t, uint32(0x07230203), binary.LittleEndian.Uint32(p.SPIRV), "SPIR-V magic of %s", n)
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
