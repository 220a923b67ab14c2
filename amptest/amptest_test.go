package amptest_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
)

func TestMain(m *testing.M) { amptest.Main(m) }

// recorder is a testing.TB that records failures instead of reporting them; FailNow ends
// the goroutine that calls it, as testing's does. The embedded TB is the real test's, for
// Cleanup, TempDir and the methods testing.TB keeps private.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	msgs   []string
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
	r.failed = true
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); r.FailNow() }

func (r *recorder) Fatal(args ...any) { r.Error(args...); r.FailNow() }

func (r *recorder) Fail() { r.mu.Lock(); r.failed = true; r.mu.Unlock() }

func (r *recorder) FailNow() { r.Fail(); goruntime.Goexit() }

func (r *recorder) Failed() bool { r.mu.Lock(); defer r.mu.Unlock(); return r.failed }

func (r *recorder) Logf(string, ...any) {}

func (r *recorder) Log(...any) {}

// record runs f with a recorder on a goroutine of its own and returns the recorder.
func record(t *testing.T, f func(t testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func (r *recorder) text() string { return strings.Join(r.msgs, "\n") }

func TestNear(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	base := make([]float64, 50)
	for i := range base {
		base[i] = (r.Float64() - 0.5) * 1e3
	}
	shifted := func(i int, d float64) []float64 {
		s := append([]float64(nil), base...)
		s[i] += d
		return s
	}
	i := r.IntN(len(base))
	for _, c := range []struct {
		name      string
		cpu, got  []float64
		abs, rel  float64
		wantFail  bool
		wantTexts []string
	}{
		{"same", base, append([]float64(nil), base...), 0, 0, false, nil},
		{"within abs", base, shifted(i, 0.5e-3), 1e-3, 0, false, nil},
		{"within rel", base, shifted(i, 0.9e-3*math.Abs(base[i])), 0, 1e-3, false, nil},
		{"outside", base, shifted(i, 1), 1e-3, 1e-6, true, []string{fmt.Sprintf("element %d: strict cpu %v, got %v", i, base[i], base[i]+1)}},
		{"NaN matches NaN", []float64{1, nan}, []float64{1, nan}, 0, 0, false, nil},
		{"NaN against a number", []float64{2, nan}, []float64{2, 3}, 1, 1, true, []string{"element 1: strict cpu NaN, got 3"}},
		{"number against NaN", []float64{2, 3}, []float64{2, nan}, 1, 1, true, []string{"element 1: strict cpu 3, got NaN"}},
		{"same infinity", []float64{inf, -inf}, []float64{inf, -inf}, 0, 0, false, nil},
		{"other infinity", []float64{inf}, []float64{-inf}, 1, 1, true, []string{"element 0: strict cpu +Inf, got -Inf"}},
		{"length", base, base[:10], 1, 1, true, []string{"returned 10 elements, the strict CPU 50"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := record(t, func(t testing.TB) { amptest.Near[float64](c.abs, c.rel)(t, c.cpu, c.got) })
			assert.Equal(t, c.wantFail, rec.Failed(), rec.text())
			for _, w := range c.wantTexts {
				assert.Contains(t, rec.text(), w)
			}
		})
	}
}

// TestNearManyMismatches checks that Near names the first ten mismatches and counts them all.
func TestNearManyMismatches(t *testing.T) {
	n := 20 + rand.IntN(100)
	cpu, got := make([]float32, n), make([]float32, n)
	for i := range cpu {
		cpu[i] = rand.Float32()
		got[i] = cpu[i] + 1
	}
	rec := record(t, func(t testing.TB) { amptest.Near[float32](1e-6, 1e-6)(t, cpu, got) })
	require.Len(t, rec.msgs, 11)
	assert.Contains(t, rec.msgs[9], "element 9:")
	assert.Contains(t, rec.msgs[10], fmt.Sprintf("%d of %d elements differ", n, n))
}

func TestEqual(t *testing.T) {
	a := []int32{rand.Int32(), rand.Int32(), rand.Int32()}
	b := append([]int32(nil), a...)
	assert.False(t, record(t, func(t testing.TB) { amptest.Equal(t, a, b) }).Failed())
	b[1]++
	rec := record(t, func(t testing.TB) { amptest.Equal(t, a, b) })
	assert.True(t, rec.Failed())
	assert.Contains(t, rec.text(), "differs from the strict CPU's")
}

// TestViews checks that Views gives the CPU first, one fresh view per accelerator, and
// closes them at the end of the test.
func TestViews(t *testing.T) {
	var views []*accelerator.View
	t.Run("use", func(t *testing.T) {
		views = amptest.Views(t)
		require.Len(t, views, len(accelerator.All()))
		assert.Equal(t, "cpu", views[0].Accelerator().Path())
		seen := map[string]bool{}
		for _, v := range views {
			assert.False(t, seen[v.Accelerator().Path()], "one view per accelerator")
			seen[v.Accelerator().Path()] = true
			def, err := v.Accelerator().DefaultView()
			require.NoError(t, err)
			assert.NotSame(t, def, v, "a fresh view, not the default one")
			require.NoError(t, v.Flush())
		}
	})
	for _, v := range views {
		assert.ErrorIs(t, v.Flush(), accelerator.ErrViewClosed, "closed at the end of the test")
	}
}

// TestEachView checks that EachView runs fn once per accelerator, the CPU first, in a
// subtest named by its path, on a fresh view of it that is closed when fn returns; and that
// it serves benchmarks too.
func TestEachView(t *testing.T) {
	var paths, names []string
	var views []*accelerator.View
	amptest.EachView(t, func(t *testing.T, av *accelerator.View) {
		paths = append(paths, av.Accelerator().Path())
		names = append(names, t.Name())
		def, err := av.Accelerator().DefaultView()
		require.NoError(t, err)
		assert.NotSame(t, def, av, "a fresh view, not the default one")
		require.NoError(t, av.Flush())
		views = append(views, av)
	})
	require.Len(t, paths, len(accelerator.All()))
	assert.Equal(t, "cpu", paths[0])
	for i, v := range views {
		assert.Equal(t, t.Name()+"/"+paths[i], names[i])
		assert.ErrorIs(t, v.Flush(), accelerator.ErrViewClosed, "closed when fn returned")
	}
	ran := 0
	testing.Benchmark(func(b *testing.B) {
		amptest.EachView(b, func(b *testing.B, av *accelerator.View) {
			if b.N == 1 { // a sub-benchmark runs at least once with N = 1
				ran++
			}
			for range b.N {
				require.NoError(b, av.Flush())
			}
		})
	})
	assert.Equal(t, len(accelerator.All()), ran)
}

// TestViewsRequireVulkan checks that GOAMP_REQUIRE_VULKAN=1 fails a run without Vulkan (a
// CGO_ENABLED=0 build, or a machine without a device) and passes one with it.
func TestViewsRequireVulkan(t *testing.T) {
	t.Setenv(amptest.EnvRequireVulkan, "1")
	rec := record(t, func(t testing.TB) { amptest.Views(t) })
	if accelerator.NoVulkanReason() != nil {
		assert.True(t, rec.Failed())
		assert.Contains(t, rec.text(), "GOAMP_REQUIRE_VULKAN=1 but no Vulkan accelerator is present")
	} else {
		assert.False(t, rec.Failed(), rec.text())
	}
}

// TestCompare checks that Compare runs on every accelerator, the strict CPU first, hands
// check its result, and returns it.
func TestCompare(t *testing.T) {
	want := rand.Int64()
	var ran []string
	var checked int
	cpu := amptest.Compare(t, func(t testing.TB, av *accelerator.View) int64 {
		ran = append(ran, av.Accelerator().Path())
		return want
	}, func(t testing.TB, cpu, got int64) {
		checked++
		assert.Equal(t, want, cpu)
		amptest.Equal(t, cpu, got)
	})
	assert.Equal(t, want, cpu)
	require.Len(t, ran, len(accelerator.All())+1)
	assert.Equal(t, []string{accelerator.StrictCPUPath, accelerator.CPUPath}, ran[:2])
	assert.Equal(t, len(ran)-1, checked)
}

// TestCompareReports checks that a result differing from the strict CPU's fails the test,
// and a failed strict CPU run stops it before any accelerator runs. A recorder is no
// *testing.T, so the runs happen inline.
func TestCompareReports(t *testing.T) {
	{
		rec := record(t, func(t testing.TB) {
			amptest.Compare(t, func(t testing.TB, av *accelerator.View) []float32 {
				if av.Accelerator().Traits().Strict {
					return []float32{1, 2}
				}
				return []float32{1, 3}
			}, amptest.Near[float32](0.1, 0))
		})
		assert.True(t, rec.Failed())
		assert.Contains(t, rec.text(), "element 1: strict cpu 2, got 3")
	}
	runs := 0
	rec := record(t, func(t testing.TB) {
		amptest.Compare(t, func(t testing.TB, av *accelerator.View) int {
			runs++
			t.Fatalf("run fails on %s", av.Accelerator().Path())
			return 0
		}, amptest.Equal[int])
	})
	assert.True(t, rec.Failed())
	assert.Equal(t, 1, runs, "only the strict CPU ran")
	assert.Contains(t, rec.text(), "run fails on cpu:strict")
}

func TestSeed(t *testing.T) {
	t.Setenv(amptest.EnvSeed, "12345")
	assert.Equal(t, uint64(12345), amptest.Seed(t))
	t.Setenv(amptest.EnvSeed, "x")
	rec := record(t, func(t testing.TB) { amptest.Seed(t) })
	assert.True(t, rec.Failed())
	assert.Contains(t, rec.text(), `GOAMP_TEST_SEED="x" is not an unsigned integer`)
	t.Setenv(amptest.EnvSeed, "")
	assert.NotEqual(t, amptest.Seed(t), amptest.Seed(t), "random seeds (equal once in 2^64)")
}

// TestExample runs the Example's conformance test.
func TestExample(t *testing.T) { testTileSum(t) }
