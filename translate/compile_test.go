package translate

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goamp/goamp/amptest"
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

// TestCompileAll compiles corpus kernels' GLSL, one that glslc rejects and one that
// glslc -O crashes on with CompileAll: each kernel gets what Compile gives it, byte for
// byte, and the rejected one Compile's error, which names it.
func TestCompileAll(t *testing.T) {
	if _, err := exec.LookPath("glslc"); err != nil {
		t.Skip(err)
	}
	files, err := filepath.Glob("testdata/corpus/amp_gen_*.comp")
	require.NoError(t, err)
	require.Greater(t, len(files), 8)
	r := rand.New(rand.NewPCG(amptest.Seed(t), 1))
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	var names, glsl []string
	for _, f := range files[:8] {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		names, glsl = append(names, filepath.Base(f)), append(glsl, string(src))
	}
	crash, err := os.ReadFile("testdata/glslc-crash.comp")
	require.NoError(t, err)
	names = append(names, "Bad", "Crash")
	glsl = append(glsl, strings.Replace(glsl[0], "void main() {", "void main() { undeclared = 1;", 1), string(crash))
	spv, errs := CompileAll(names, glsl, 2)
	for i, name := range names[:8] {
		want, err := Compile(name, glsl[i])
		require.NoError(t, err)
		require.NoError(t, errs[i], name)
		require.Equal(t, want, spv[i], "%s: CompileAll's SPIR-V differs from Compile's", name)
	}
	require.ErrorContains(t, errs[8], "glslc rejected the GLSL of Bad")
	require.Nil(t, spv[8])
	require.NoError(t, errs[9])
	require.Equal(t, []byte{0x03, 0x02, 0x23, 0x07}, spv[9][:4], "the SPIR-V magic number")
}

// TestCompileInvalidOptimized compiles the GLSL of a kernel (the kernel fuzzer's seed
// 4004346) whose SPIR-V Debian bookworm's spirv-opt -O makes invalid (a branch to a loop's
// continue target from outside the loop), with Compile and CompileAll: both return the
// unoptimized module, which spirv-val accepts, and not an error.
func TestCompileInvalidOptimized(t *testing.T) {
	for _, tool := range []string{"glslc", "spirv-opt", "spirv-val"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(err)
		}
	}
	src, err := os.ReadFile("testdata/spirv-opt-invalid.comp")
	require.NoError(t, err)
	spv, err := Compile("K4004346", string(src))
	require.NoError(t, err)
	require.NoError(t, Validate("K4004346", spv))
	all, errs := CompileAll([]string{"K4004346"}, []string{string(src)}, 1)
	require.NoError(t, errs[0])
	require.NoError(t, Validate("K4004346", all[0]))
}

// TestCompileOptimizerCrash compiles the GLSL of a kernel (the kernel fuzzer's seed
// 6107148) on whose SPIR-V Debian bookworm's glslc -O and spirv-opt -O both crash, with
// Compile and CompileAll: both return the unoptimized module, which spirv-val accepts,
// and not an error.
func TestCompileOptimizerCrash(t *testing.T) {
	for _, tool := range []string{"glslc", "spirv-opt", "spirv-val"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(err)
		}
	}
	src, err := os.ReadFile("testdata/spirv-opt-crash.comp")
	require.NoError(t, err)
	spv, err := Compile("K6107148", string(src))
	require.NoError(t, err)
	require.NoError(t, Validate("K6107148", spv))
	all, errs := CompileAll([]string{"K6107148"}, []string{string(src)}, 1)
	require.NoError(t, errs[0])
	require.NoError(t, Validate("K6107148", all[0]))
}
