package ampimpl

import (
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/goamp/goamp/internal/srchash"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSourcesCheck: in a test binary, sources as generated pass; a file changed since is a
// *StaleError (ErrContract) naming the kernel and the files; sources this binary cannot
// read (a build elsewhere) are not checked; a program without sources is not either.
func TestSourcesCheck(t *testing.T) {
	dir, file := kernelsFile(t)
	hash, err := srchash.Sum(dir, []string{"kernels.go"})
	require.NoError(t, err)
	fresh := func(d string) *Sources { return &Sources{dir: d, files: []string{"kernels.go"}, hash: hash} }

	assert.NoError(t, fresh(dir).Check("K"), "as generated")
	assert.NoError(t, fresh(filepath.Join(dir, "elsewhere")).Check("K"), "sources not here")
	assert.NoError(t, (*Sources)(nil).Check("K"), "no sources recorded")

	require.NoError(t, os.WriteFile(file, []byte("package k\n\n// edited\n"), 0o644))
	err = fresh(dir).Check("K")
	var se *runtime.StaleError
	require.ErrorAs(t, err, &se)
	assert.True(t, errors.Is(err, runtime.ErrContract))
	assert.Equal(t, []string{"kernels.go"}, se.Files)
	assert.Contains(t, err.Error(), "kernel K: kernels.go changed since go generate wrote amp_gen.go")
	assert.Contains(t, err.Error(), "run go generate")
	two := &runtime.StaleError{Kernel: "K", Dir: dir, Files: []string{"a.go", "b.go"}}
	assert.Contains(t, two.Error(), "kernel K: one or more of a.go, b.go changed since go generate", "one hash: which file is not known")

	s := GeneratedFrom("a.go b.go", "h")
	assert.Equal(t, []string{"a.go", "b.go"}, s.files)
	_, self, _, _ := goruntimeCaller()
	assert.Equal(t, filepath.Dir(self), s.dir, "the directory of the file that calls GeneratedFrom")
}

// TestBuiltAfter: outside test binaries sources are checked only where the executable
// was written after they last changed: a file newer than the binary (edited since the
// build) is not checked, one older is, and a missing one is not.
func TestBuiltAfter(t *testing.T) {
	dir, file := kernelsFile(t)
	future := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(file, future, future))
	assert.False(t, builtAfter(dir, []string{"kernels.go"}), "changed after the build")
	past := time.Unix(1e9, 0)
	require.NoError(t, os.Chtimes(file, past, past))
	assert.True(t, builtAfter(dir, []string{"kernels.go"}), "unchanged since the build")
	assert.False(t, builtAfter(dir, []string{"kernels.go", "missing.go"}))
}

// kernelsFile writes a kernels.go of package k in a new temporary folder and returns both.
// They are removed at cleanup one by one, so that TempDir's cleanup finds its folder empty:
// on Windows, RemoveAll deletes what a folder holds through FileDispositionInformationEx,
// which Wine 8 lacks (make test-wine), while Remove uses DeleteFile and RemoveDirectory.
func kernelsFile(t *testing.T) (dir, file string) {
	dir = t.TempDir()
	file = filepath.Join(dir, "kernels.go")
	require.NoError(t, os.WriteFile(file, []byte("package k\n"), 0o644))
	t.Cleanup(func() { assert.NoError(t, errors.Join(os.Remove(file), os.Remove(dir))) })
	return dir, file
}

// goruntimeCaller is runtime.Caller(1) of the test, for the directory GeneratedFrom sees.
func goruntimeCaller() (uintptr, string, int, bool) { return goruntime.Caller(1) }
