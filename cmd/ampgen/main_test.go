package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goamp/goamp/shaders/include"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// root is the goamp checkout: this test's package is cmd/ampgen.
func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return r
}

// copyTree copies the regular files under src to dst, skipping what skip says.
func copyTree(t *testing.T, src, dst string, skip func(rel string) bool) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil || skip(rel) {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	}))
}

// replaceDirective rewrites dir/go.mod's replace directive of goamp to the checkout.
func replaceDirective(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, "go.mod")
	mod, err := os.ReadFile(path)
	require.NoError(t, err)
	re := regexp.MustCompile(`(?m)^replace github.com/goamp/goamp => .*$`)
	require.Regexp(t, re, string(mod))
	mod = re.ReplaceAll(mod, []byte("replace github.com/goamp/goamp => "+root(t)))
	require.NoError(t, os.WriteFile(path, mod, 0o644))
}

// goflags is GOFLAGS with -mod=mod added: the copied module's go.sum may lack entries
// that the checkout's current dependencies need.
func goflags() string { return strings.TrimSpace(os.Getenv("GOFLAGS") + " -mod=mod") }

// TestUserModule is the acceptance test: testdata/usermod, a module outside
// goamp's packages with a tiled kernel (tile_static memory, barriers, atomics, fmath), is
// copied to a temporary directory, generated with go generate (ampgen) and tested with
// go test, which runs the kernel on every accelerator present through goamp's public
// conformance helper (amptest.Compare: each result against the CPU's), and the CPU's
// result against a Go reference, then again in a build with -tags goampcheck (its
// generate line runs ampgen -checked, for the bounds-checked builds). The environment is
// inherited: GOAMP_VALIDATION and GOAMP_REQUIRE_VULKAN reach its tests, and
// CGO_ENABLED=0 makes it a CPU-only run. It builds a module from scratch, so -short skips it.
func TestUserModule(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the user module test builds and tests a module (go generate, go test)")
	}
	gobin, err := exec.LookPath("go")
	require.NoError(t, err, "the test runs the go command")
	dir := t.TempDir()
	copyTree(t, filepath.Join(root(t), "testdata", "usermod"), dir, func(rel string) bool {
		return rel == ".gitignore" || strings.HasPrefix(filepath.Base(rel), "amp_gen")
	})
	replaceDirective(t, dir)
	for _, args := range [][]string{{"generate", "./..."}, {"test", "-count=1", "./..."}, {"test", "-count=1", "-tags", "goampcheck", "./..."}} {
		cmd := exec.Command(gobin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS="+goflags())
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s in a copy of testdata/usermod:\n%s", strings.Join(args, " "), out)
		t.Logf("go %s:\n%s", strings.Join(args, " "), out)
		if args[0] == "generate" {
			require.FileExists(t, filepath.Join(dir, "amp_gen.go"), "go generate ran ampgen")
		}
	}
	// A kernel's file edited after go generate: the generated bodies are the old code, and
	// the tests say so instead of running it on every accelerator.
	f, err := os.OpenFile(filepath.Join(dir, "quantize.go"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\n// Edited after go generate.\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	cmd := exec.Command(gobin, "test", "-count=1", "-run", "TestQuantize", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS="+goflags())
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the stale kernel ran:\n%s", out)
	assert.Contains(t, string(out), "changed since go generate wrote amp_gen.go")
	assert.Contains(t, string(out), "run go generate")
}

// scaleKernel is the fixture package's source: one kernel in the kernel language.
const scaleKernel = `package fixture

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Scale multiplies X by A.
type Scale struct {
	X *arrayview.View[float32]
	A float32
}

// Each is the kernel.
func (k Scale) Each(i runtime.Index) { k.X.Set(i, k.A*k.X.At(i)) }
`

// fixture makes a module in a temporary directory that requires the checkout, with
// kernel.go holding src, and returns the directory. It sets GOFLAGS for the package
// loader that run uses.
func fixture(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(root(t), "testdata", "usermod", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	replaceDirective(t, dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kernel.go"), []byte(src), 0o644))
	t.Setenv("GOFLAGS", goflags())
	return dir
}

// ampgen runs the command with args and returns its exit status, stdout and stderr.
func ampgen(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestGenerateAndCheck(t *testing.T) {
	dir := fixture(t, scaleKernel)
	code, _, stderr := ampgen("-check", dir)
	assert.Equal(t, 1, code, "no generated file yet")
	assert.Contains(t, stderr, "amp_gen.go is stale: run go generate in")

	code, _, stderr = ampgen(dir)
	require.Equal(t, 0, code, stderr)
	gen, err := os.ReadFile(filepath.Join(dir, "amp_gen.go"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(gen), "// Code generated by ampgen"), "generated-file header")
	assert.Contains(t, string(gen), "func (Scale) Program() *amprt.Program")
	assert.Contains(t, string(gen), "//go:embed amp_gen_Scale.spv\n")
	assert.Contains(t, string(gen), `.Programs(ampgenSPIRV, "amp_gen", "example.com/usermod")`)
	assert.Contains(t, string(gen), "var ampgenScale = ampgenPrograms.Program(\"Scale\",\n\tampimpl.Indexed{Field: \"X\", Thread: true})\n")
	spv, err := os.ReadFile(filepath.Join(dir, "amp_gen_Scale.spv"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(spv), 4)
	assert.Equal(t, []byte{0x03, 0x02, 0x23, 0x07}, spv[:4], "a SPIR-V module (its magic number) beside the Go file")
	matches, err := filepath.Glob(filepath.Join(dir, "*.comp"))
	require.NoError(t, err)
	assert.Empty(t, matches, "no GLSL without -glsl")

	code, _, stderr = ampgen("-check", dir)
	assert.Equal(t, 0, code, "fresh: %s", stderr)
	assert.Empty(t, stderr)
	again, err := os.ReadFile(filepath.Join(dir, "amp_gen.go"))
	require.NoError(t, err)
	assert.Equal(t, gen, again, "-check writes nothing")

	// The committed SPIR-V is not what the kernel compiles to (edited by hand, or left
	// behind by an edit whose amp_gen.go was regenerated): -check says so without
	// rewriting it, and generating restores it.
	stale := append(append([]byte(nil), spv...), 0, 0, 0, 0)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "amp_gen_Scale.spv"), stale, 0o644))
	code, _, stderr = ampgen("-check", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "amp_gen_Scale.spv is stale: run go generate in")
	againSPV, err := os.ReadFile(filepath.Join(dir, "amp_gen_Scale.spv"))
	require.NoError(t, err)
	assert.Equal(t, stale, againSPV, "-check writes nothing")
	code, _, stderr = ampgen(dir)
	require.Equal(t, 0, code, stderr)
	regen, err := os.ReadFile(filepath.Join(dir, "amp_gen_Scale.spv"))
	require.NoError(t, err)
	assert.Equal(t, spv, regen)

	// The kernel changes: amp_gen.go (its CPU body) and its SPIR-V are stale.
	changed := strings.Replace(scaleKernel, "k.A*k.X.At(i)", "k.A*k.X.At(i)+1", 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kernel.go"), []byte(changed), 0o644))
	code, _, stderr = ampgen("-check", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "is stale: run go generate in")
	code, _, stderr = ampgen(dir)
	require.Equal(t, 0, code, stderr)
	regen, err = os.ReadFile(filepath.Join(dir, "amp_gen_Scale.spv"))
	require.NoError(t, err)
	assert.NotEqual(t, spv, regen)
	code, _, _ = ampgen("-check", dir)
	assert.Equal(t, 0, code)

	// A .spv file of no kernel (one that was renamed or removed) is an orphan: -check
	// names it, and generating removes it.
	orphan := filepath.Join(dir, "amp_gen_Gone.spv")
	require.NoError(t, os.WriteFile(orphan, spv, 0o644))
	code, _, stderr = ampgen("-check", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "amp_gen_Gone.spv belongs to no kernel: run go generate in")
	assert.FileExists(t, orphan, "-check writes nothing")
	code, _, stderr = ampgen(dir)
	require.Equal(t, 0, code, stderr)
	assert.NoFileExists(t, orphan)
	code, _, _ = ampgen("-check", dir)
	assert.Equal(t, 0, code)
}

func TestOutputName(t *testing.T) {
	dir := fixture(t, scaleKernel)
	code, _, stderr := ampgen("-o", "kernels_gen.go", dir)
	require.Equal(t, 0, code, stderr)
	assert.FileExists(t, filepath.Join(dir, "kernels_gen.go"))
	assert.FileExists(t, filepath.Join(dir, "kernels_gen_Scale.spv"))
	assert.NoFileExists(t, filepath.Join(dir, "amp_gen.go"))
	code, _, _ = ampgen("-o", "kernels_gen.go", "-check", dir)
	assert.Equal(t, 0, code)
}

func TestKeepGLSL(t *testing.T) {
	dir := fixture(t, scaleKernel)
	code, _, stderr := ampgen("-glsl", dir)
	require.Equal(t, 0, code, stderr)
	glsl, err := os.ReadFile(filepath.Join(dir, "amp_gen_Scale.comp"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(glsl), "#version 450\n"))
	assert.Contains(t, string(glsl), "example.com/usermod.Scale")
	assert.Regexp(t, `float A;`, string(glsl), "the scalar field is a push constant")
	assert.FileExists(t, filepath.Join(dir, "amp_gen.go"))

	// The GLSL compiles as it is, with the flags ampgen uses.
	if _, err := exec.LookPath("glslc"); err == nil {
		out, err := exec.Command("glslc", "-O", "--target-env=vulkan1.1", "-fshader-stage=compute",
			"-o", filepath.Join(dir, "k.spv"), filepath.Join(dir, "amp_gen_Scale.comp")).CombinedOutput()
		assert.NoError(t, err, "%s", out)
	}
}

// handKernel is a hand-written GLSL kernel against amp.glsl, as README shows.
const handKernel = `#version 450
#include "amp.glsl"
AMP_BUFFER(0, , float, x);
AMP_PUSH_BEGIN AmpView xv; float a; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	x[ampAt1(amp.xv, i)] *= amp.a;
}
`

func TestAmpGLSL(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := ampgen("-amp-glsl", dir)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout, "-amp-glsl alone generates nothing")
	b, err := os.ReadFile(filepath.Join(dir, "amp.glsl"))
	require.NoError(t, err)
	assert.Equal(t, include.AmpGLSL, string(b))

	// The documented compile command builds a hand-written kernel against it.
	if _, err := exec.LookPath("glslc"); err == nil {
		src := filepath.Join(dir, "scale.comp")
		require.NoError(t, os.WriteFile(src, []byte(handKernel), 0o644))
		out, err := exec.Command("glslc", "-O", "--target-env=vulkan1.1", "-I", dir,
			"-o", filepath.Join(dir, "scale.spv"), src).CombinedOutput()
		assert.NoError(t, err, "%s", out)
	}

	code, _, stderr = ampgen("-amp-glsl", filepath.Join(dir, "no", "such", "dir"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "ampgen:")
}

func TestKernelErrors(t *testing.T) {
	src := strings.Replace(scaleKernel, "func (k Scale) Each(i runtime.Index) { k.X.Set(i, k.A*k.X.At(i)) }",
		"func (k Scale) Each(i runtime.Index) {\n\tm := map[int]float32{}\n\tk.X.Set(i, k.A*m[0])\n}", 1)
	dir := fixture(t, src)
	code, _, stderr := ampgen(dir)
	assert.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 2, stderr)
	assert.Regexp(t, `^\S*kernel\.go:16:2: maps are not in the kernel language$`, lines[0])
	assert.Regexp(t, `^\S*kernel\.go:17:17: indexing a map\[int\]float32 is not in the kernel language$`, lines[1])
	assert.NoFileExists(t, filepath.Join(dir, "amp_gen.go"))
}

func TestNoKernels(t *testing.T) {
	dir := fixture(t, "// Package fixture has no kernel.\npackage fixture\n\n// Answer is not a kernel.\nconst Answer = 42\n")
	code, stdout, stderr := ampgen(dir)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "example.com/usermod has no kernels to translate")
	assert.NoFileExists(t, filepath.Join(dir, "amp_gen.go"))
}

func TestBadFlag(t *testing.T) {
	code, _, stderr := ampgen("-no-such-flag")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "usage: ampgen")
}

// TestNoGlslc runs ampgen with a PATH that has the go command (the package loader needs
// it) and no glslc: the error names the Debian package to install.
func TestNoGlslc(t *testing.T) {
	gobin, err := exec.LookPath("go")
	require.NoError(t, err)
	gobin, err = filepath.Abs(gobin)
	require.NoError(t, err)
	dir := fixture(t, scaleKernel)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(gobin, filepath.Join(bin, "go")))
	t.Setenv("PATH", bin)
	_, err = exec.LookPath("glslc")
	require.Error(t, err, "glslc is off PATH")

	code, _, stderr := ampgen(dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "glslc not found on PATH: install Debian's glslc package (apt-get install glslc)")
	assert.NoFileExists(t, filepath.Join(dir, "amp_gen.go"))
}

// widenKernel takes square roots and floors of float32 values through math's float64
// functions (lines 18 and 23), which ampgen notes, beside a float64 capture's own square
// root (line 19), which it leaves alone.
const widenKernel = `package fixture

import (
	"math"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Root takes square roots.
type Root struct {
	X *arrayview.View[float32]
	D float64
}

// Each is the kernel.
func (k Root) Each(i runtime.Index) {
	r := float32(math.Sqrt(float64(k.X.At(i))))
	k.X.Set(i, r+float32(math.Sqrt(k.D))+floor(r))
}

func floor(x float32) float32 {
	return float32(math.Floor(float64(x)))
}
`

// TestWidenedFloat64: a float32 widened to float64 for a math function is noted on
// stderr with its position and the fmath function to call instead, once per call (the
// float64 capture's own math.Sqrt is not); -strict makes each an error and writes nothing;
// a math function GLSL lacks for doubles names its fmath counterpart.
func TestWidenedFloat64(t *testing.T) {
	dir := fixture(t, widenKernel)
	code, stdout, stderr := ampgen("-checked", dir)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 2, stderr)
	assert.Regexp(t, `^ampgen: \S*kernel\.go:18:15: Root: math\.Sqrt\(float64\(\.\.\.\)\) widens a float32 to float64, `+
		`so the kernel needs double precision .*: use fmath\.Sqrt, which stays float32`, lines[0])
	assert.Regexp(t, `^ampgen: \S*kernel\.go:23:17: Root: math\.Floor\(float64\(\.\.\.\)\) .*: use fmath\.Floor,`, lines[1])
	assert.NotContains(t, stdout, "widens")
	assert.FileExists(t, filepath.Join(dir, "amp_gen.go"))

	code, _, stderr = ampgen("-check", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr, "-check says only what is stale")

	strict := fixture(t, widenKernel)
	code, _, stderr = ampgen("-strict", strict)
	assert.Equal(t, 1, code)
	lines = strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 2, stderr)
	assert.Regexp(t, `^\S*kernel\.go:18:15: Root: math\.Sqrt\(float64\(\.\.\.\)\) .* \(ampgen -strict\)$`, lines[0])
	assert.NoFileExists(t, filepath.Join(strict, "amp_gen.go"))

	exp := fixture(t, strings.Replace(widenKernel, "math.Floor(float64(x))", "math.Exp(float64(x))", 1))
	code, _, stderr = ampgen(exp)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "kernel.go:23:17: math.Exp has no GLSL equivalent for float64; use fmath.Exp on float32")
}

// scaleMain is a program that runs the fixture's Scale kernel on the CPU and prints the
// result, or the dispatch's error with exit status 1.
const scaleMain = `package main

import (
	"fmt"
	"os"

	"example.com/usermod"
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

func main() {
	av, err := accelerator.CPU().DefaultView()
	if err != nil {
		panic(err)
	}
	x := []float32{1, 2, 3}
	v := arrayview.MustNew(runtime.Ext(3), x)
	if err := runtime.ParallelForEach(av, v.Extent(), fixture.Scale{X: v, A: 2}); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println(v.Synchronize(), x)
}
`

// TestStaleProgram: a program (not a test) built from a kernel edited after go generate
// refuses to run the old code: go run reports the *runtime.StaleError. Before, it
// printed the old kernel's result.
func TestStaleProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a program twice (go run)")
	}
	gobin, err := exec.LookPath("go")
	require.NoError(t, err, "the test runs the go command")
	dir := fixture(t, scaleKernel)
	code, _, stderr := ampgen(dir)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "cmd", "scale"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cmd", "scale", "main.go"), []byte(scaleMain), 0o644))
	run := func() (string, error) {
		cmd := exec.Command(gobin, "run", "./cmd/scale")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	require.NoError(t, err, out)
	assert.Equal(t, "<nil> [2 4 6]\n", out, "as generated")

	changed := strings.Replace(scaleKernel, "k.A*k.X.At(i)", "k.A*k.X.At(i)+1", 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kernel.go"), []byte(changed), 0o644))
	out, err = run()
	require.Error(t, err, "the old kernel ran:\n%s", out)
	assert.Contains(t, out, "kernel fixture.Scale: kernel.go changed since go generate wrote amp_gen.go")
	assert.Contains(t, out, "run go generate")

	code, _, stderr = ampgen(dir)
	require.Equal(t, 0, code, stderr)
	out, err = run()
	require.NoError(t, err, out)
	assert.Equal(t, "<nil> [3 5 7]\n", out, "generated again: the new kernel")
}

// TestBackendSPIRV runs ampgen -backend=spirv with no glslc on PATH: it writes
// the kernel's SPIR-V itself, spirv-valid, and -check with the same backend
// finds it fresh. A kernel outside the direct backend's slice is an error that
// names the construct, and nothing is written.
func TestBackendSPIRV(t *testing.T) {
	gobin, err := exec.LookPath("go")
	require.NoError(t, err)
	gobin, err = filepath.Abs(gobin)
	require.NoError(t, err)
	val, valErr := exec.LookPath("spirv-val")
	dir := fixture(t, scaleKernel)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(gobin, filepath.Join(bin, "go")))
	t.Setenv("PATH", bin)

	code, _, stderr := ampgen("-backend=spirv", dir)
	require.Equal(t, 0, code, stderr)
	spv := filepath.Join(dir, "amp_gen_Scale.spv")
	require.FileExists(t, spv)
	require.FileExists(t, filepath.Join(dir, "amp_gen.go"))
	code, _, stderr = ampgen("-backend=spirv", "-check", dir)
	assert.Equal(t, 0, code, stderr)
	if valErr == nil {
		out, err := exec.Command(val, "--target-env", "vulkan1.1", spv).CombinedOutput()
		assert.NoError(t, err, string(out))
	}

	div := fixture(t, strings.Replace(scaleKernel, "k.A*k.X.At(i)", "k.X.At(i)/0.5", 1))
	code, _, stderr = ampgen("-backend=spirv", div)
	require.Equal(t, 0, code, stderr, "float division is in the slice")
	arr := fixture(t, strings.Replace(scaleKernel, "k.A*k.X.At(i)", "[2]float32{k.A, 1}[0]*k.X.At(i)", 1))
	code, _, stderr = ampgen("-backend=spirv", arr)
	require.Equal(t, 0, code, stderr, "array literals are in the slice")
	exp := fixture(t, strings.Replace(strings.Replace(scaleKernel, "k.A*k.X.At(i)", "fmath.Exp(k.A)*k.X.At(i)", 1),
		"import (", "import (\n\t\"github.com/goamp/goamp/fmath\"", 1))
	code, _, stderr = ampgen("-backend=spirv", exp)
	assert.Equal(t, 1, code)
	assert.Regexp(t, `kernel.go:\d+:\d+: example.com/usermod.Scale: the direct SPIR-V backend does not cover `+
		`the call of fmath.Exp yet`, stderr)
	assert.NoFileExists(t, filepath.Join(exp, "amp_gen.go"))

	code, _, stderr = ampgen("-backend=llvm", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "-backend=llvm: want glslc or spirv")
	code, _, stderr = ampgen("-backend=spirv", "-checked", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "-checked needs -backend=glslc")
}
