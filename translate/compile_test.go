package translate

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCompileCrash compiles the GLSL of a kernel that Debian bookworm's glslc -O crashes
// on (SIGSEGV; the kernel fuzzer's): Compile optimizes it apart, with glslc then
// spirv-opt, and returns SPIR-V that spirv-val accepts.
func TestCompileCrash(t *testing.T) {
	if _, err := exec.LookPath("glslc"); err != nil {
		t.Skip(err)
	}
	glsl, err := os.ReadFile("testdata/glslc-crash.comp")
	require.NoError(t, err)
	spv, err := Compile("glslc-crash", string(glsl))
	require.NoError(t, err)
	require.Greater(t, len(spv), 20)
	require.Equal(t, []byte{0x03, 0x02, 0x23, 0x07}, spv[:4], "the SPIR-V magic number")
}
