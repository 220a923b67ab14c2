package algo

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// envPipeCacheChild makes TestPipelineCacheChild run: it is the process that the pipeline
// cache test starts.
const envPipeCacheChild = "GOAMP_TEST_PIPECACHE_CHILD"

// TestPipelineCacheChild adds two random vectors on the first Vulkan accelerator and
// checks the sum: the work of one process of TestPipelineCache.
func TestPipelineCacheChild(t *testing.T) {
	if os.Getenv(envPipeCacheChild) != "1" {
		t.Skip("run by TestPipelineCache")
	}
	a := firstVulkan(t)
	av, err := a.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer av.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	n := 1000 + r.IntN(1000)
	x, y, want := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range x {
		x[i], y[i] = r.Int32(), r.Int32()
		want[i] = x[i] + y[i]
	}
	got := make([]int32, n)
	out := arrayview.MustNew(runtime.Ext(n), got)
	require.NoError(t, Add(av, arrayview.MustNew(runtime.Ext(n), x), arrayview.MustNew(runtime.Ext(n), y), out))
	require.NoError(t, out.Synchronize())
	require.Equal(t, want, got)
}

func firstVulkan(t *testing.T) *accelerator.Accelerator {
	for _, a := range accelerator.All() {
		if !a.Traits().HostMemory {
			return a
		}
	}
	if os.Getenv(amptest.EnvRequireVulkan) == "1" {
		t.Fatalf("%s=1 but no Vulkan accelerator: %v", amptest.EnvRequireVulkan, accelerator.NoVulkanReason())
	}
	t.Skip("no Vulkan accelerator")
	return nil
}

// TestPipelineCache runs processes that build pipelines with the on-disk cache in a
// directory of their own: the first writes a cache file; a corrupt file and another
// device's are ignored and replaced; GOAMP_PIPELINE_CACHE=off writes nothing, and unset
// the cache goes under the user's cache directory.
func TestPipelineCache(t *testing.T) {
	firstVulkan(t)
	dir := t.TempDir()
	home := t.TempDir() // the user's cache directory of the children
	removeAtCleanup(t, dir)
	removeAtCleanup(t, home)
	child := func(env string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run", "^TestPipelineCacheChild$", "-test.count", "1")
		cmd.Env = append(os.Environ(), envPipeCacheChild+"=1", accelerator.EnvPipelineCache+"="+env,
			"XDG_CACHE_HOME="+home, "LocalAppData="+home) // os.UserCacheDir's, on Linux and Windows
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	cacheFile := func() (string, []byte) {
		t.Helper()
		files, err := filepath.Glob(filepath.Join(dir, "*.vkcache"))
		require.NoError(t, err)
		require.Len(t, files, 1)
		data, err := os.ReadFile(files[0])
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(data), 32)
		assert.EqualValues(t, 1, binary.LittleEndian.Uint32(data[4:]), "header version")
		return files[0], data
	}
	child(dir)
	path, first := cacheFile()

	r := rand.New(rand.NewPCG(rand.Uint64(), 8))
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(r.Uint32())
	}
	require.NoError(t, os.WriteFile(path, junk, 0o644))
	child(dir)
	_, data := cacheFile()
	assert.Equal(t, first[:32], data[:32], "the corrupt file was not replaced by a valid cache")

	foreign := append([]byte(nil), first...)
	foreign[20] ^= 0xff // another pipelineCacheUUID
	require.NoError(t, os.WriteFile(path, foreign, 0o644))
	child(dir)
	_, data = cacheFile()
	assert.Equal(t, first[:32], data[:32], "another device's cache was not replaced")

	child("off") // (Mesa keeps a shader cache of its own in home: not goamp's)
	assert.NoDirExists(t, filepath.Join(home, "goamp"), "GOAMP_PIPELINE_CACHE=off wrote a cache")
	child("") // the default place: the user's cache directory
	files, err := filepath.Glob(filepath.Join(home, "goamp", "pipelines", "*.vkcache"))
	require.NoError(t, err)
	assert.Len(t, files, 1)
}

// removeAtCleanup removes dir and what it holds at the test's cleanup, deepest first, one
// Remove at a time, so that TempDir's own cleanup finds its folder empty: on Windows,
// RemoveAll deletes what a folder holds through FileDispositionInformationEx, which Wine 8
// lacks (make test-wine), while Remove uses DeleteFile and RemoveDirectory.
func removeAtCleanup(t *testing.T, dir string) {
	t.Cleanup(func() {
		var paths []string
		require.NoError(t, filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
			paths = append(paths, p)
			return err
		}))
		for _, p := range slices.Backward(paths) {
			require.NoError(t, os.Remove(p))
		}
	})
}

// TestColdStartChild times this process's first MatMul (256^3 float32, on a view of the
// first Vulkan accelerator opened beforehand) from the call to its result on the host, and
// a second one on new data, and prints both for BenchmarkColdStart. With
// GOAMP_TEST_COLD_PREWARM=1 an Add of a few elements runs first, so that the first MatMul
// finds the view's buffers and staging memory set up and pays for its pipeline alone.
func TestColdStartChild(t *testing.T) {
	if os.Getenv(envPipeCacheChild) != "time" {
		t.Skip("run by BenchmarkColdStart")
	}
	av, err := firstVulkan(t).CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer av.Close()
	r := rand.New(rand.NewPCG(rand.Uint64(), 9))
	if os.Getenv("GOAMP_TEST_COLD_PREWARM") == "1" {
		x := arrayview.MustNew(runtime.Ext(4), []float32{1, 2, 3, 4})
		require.NoError(t, Add(av, x, x, x))
		require.NoError(t, x.Synchronize())
	}
	for _, name := range []string{"first", "second"} {
		const n = 256
		a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
		for i := range a {
			a[i], b[i] = r.Float32(), r.Float32()
		}
		start := time.Now()
		cv := arrayview.MustNew(runtime.Ext(n, n), c)
		require.NoError(t, MatMul(av, arrayview.MustNew(runtime.Ext(n, n), a), arrayview.MustNew(runtime.Ext(n, n), b), cv))
		require.NoError(t, cv.Synchronize())
		fmt.Printf("%s-call-ms %.3f\n", name, float64(time.Since(start).Microseconds())/1e3)
	}
}

// BenchmarkColdStart runs processes whose first MatMul builds its pipelines, with the
// on-disk pipeline cache off and on (warm: written by a process before the timed ones),
// and reports the first call's time (first-ms: from the call to the result on the host)
// and the second's (second-ms); "prewarm" runs an Add before them (TestColdStartChild).
// Drivers keep shader caches of their own (Mesa's, NVIDIA's): turn them off to see what
// goamp's cache alone saves (MESA_SHADER_CACHE_DISABLE=true, __GL_SHADER_DISK_CACHE=0).
func BenchmarkColdStart(b *testing.B) {
	if os.Getenv(envPipeCacheChild) != "" {
		b.Skip("a child process")
	}
	dir := b.TempDir()
	for _, c := range []struct{ name, cache, prewarm string }{
		{"cache=off", "off", "0"}, {"cache=on", dir, "0"}, {"cache=on,prewarm", dir, "1"},
	} {
		b.Run(c.name, func(b *testing.B) {
			run := func() (first, second float64) {
				cmd := exec.Command(os.Args[0], "-test.run", "^TestColdStartChild$", "-test.count", "1", "-test.v")
				cmd.Env = append(os.Environ(), envPipeCacheChild+"=time", accelerator.EnvPipelineCache+"="+c.cache,
					"GOAMP_TEST_COLD_PREWARM="+c.prewarm)
				out, err := cmd.CombinedOutput()
				require.NoError(b, err, "%s", out)
				return childMs(b, out, "first-call-ms "), childMs(b, out, "second-call-ms ")
			}
			run() // warms the cache (and the OS's file cache)
			var first, second float64
			for b.Loop() {
				f, s := run()
				first, second = first+f, second+s
			}
			b.ReportMetric(first/float64(b.N), "first-ms")
			b.ReportMetric(second/float64(b.N), "second-ms")
		})
	}
}

// childMs finds the number after prefix in a child's output.
func childMs(b *testing.B, out []byte, prefix string) float64 {
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			require.NoError(b, err)
			return ms
		}
	}
	b.Fatalf("no %q in the child's output:\n%s", prefix, out)
	return 0
}
