package amptest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
)

// EnvRequireVulkan is the environment variable that, when "1", makes Views fail the test
// if no Vulkan accelerator is present.
const EnvRequireVulkan = "GOAMP_REQUIRE_VULKAN"

// EnvSeed is the environment variable that, when set to a number, makes Seed return it.
const EnvSeed = "GOAMP_TEST_SEED"

// maxMismatches is how many mismatching elements Near names before it only counts them.
const maxMismatches = 10

// Views returns a new view (automatic queuing) of every accelerator present
// (accelerator.All): the CPU's first, then each Vulkan device's in enumeration order. The views are closed when the test
// ends. It fails the test when GOAMP_REQUIRE_VULKAN=1 and no Vulkan device is present, and,
// with the validation layer on (GOAMP_VALIDATION=1), when the test ends with messages from
// the layer (it drains them, so a test running in parallel may be the one that reports them).
func Views(t testing.TB) []*accelerator.View {
	t.Helper()
	accs := accelerators(t)
	views := make([]*accelerator.View, 0, len(accs))
	for _, a := range accs {
		v, err := a.CreateView(accelerator.Automatic)
		require.NoError(t, err, "goamp/amptest: a view of %s", a)
		t.Cleanup(func() { assert.NoError(t, v.Close(), "goamp/amptest: closing %s", v) })
		views = append(views, v)
	}
	return views
}

// EachView runs fn as a subtest (or sub-benchmark) of t, named by the accelerator's path,
// on a new view (automatic queuing) of every accelerator present, in Views' order; the view
// is closed, and the error of Close checked, when fn returns. It fails the test as Views
// does when GOAMP_REQUIRE_VULKAN=1 and no Vulkan device is present or, with the validation
// layer on, when the layer reports messages.
func EachView[T interface {
	testing.TB
	Run(name string, f func(T)) bool
}](t T, fn func(t T, av *accelerator.View)) {
	t.Helper()
	for _, a := range accelerators(t) {
		t.Run(a.Path(), func(t T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err, "goamp/amptest: a view of %s", a)
			defer func() { assert.NoError(t, av.Close(), "goamp/amptest: closing %s", av) }()
			fn(t, av)
		})
	}
}

// accelerators returns every accelerator present, the CPU first, after the checks that Views
// and EachView make: Vulkan present when GOAMP_REQUIRE_VULKAN=1, and the validation
// layer's messages reported when the test ends.
func accelerators(t testing.TB) []*accelerator.Accelerator {
	t.Helper()
	if os.Getenv(EnvRequireVulkan) == "1" && accelerator.NoVulkanReason() != nil {
		t.Fatalf("goamp/amptest: %s=1 but no Vulkan accelerator is present: %v", EnvRequireVulkan, accelerator.NoVulkanReason())
	}
	if accelerator.ValidationEnabled() {
		t.Cleanup(func() { // registered first: runs after the views are closed
			for _, msg := range accelerator.ValidationMessages() {
				t.Errorf("goamp/amptest: validation layer: %s", msg)
			}
		})
	}
	cpu := accelerator.CPU()
	accs := []*accelerator.Accelerator{cpu}
	for _, a := range accelerator.All() {
		if a != cpu {
			accs = append(accs, a)
		}
	}
	return accs
}

// Compare runs run on a fresh view of the strict CPU (accelerator.StrictCPU), then of
// every accelerator (see Views), and calls check with the strict CPU's result, the
// reference, and each other accelerator's: the CPU's
// (its fast CPU bodies over the Go slices) and each Vulkan device's. The reference runs the
// kernels' Go definitions as a discrete GPU would (see accelerator.StrictCPU), so that a
// run that forgets Synchronize or Refresh, or reads tile_static memory or discarded data
// before writing it, gives the GPU's answer there, not the host's, and differs from the
// others. run must compute the same
// thing on every view from the same inputs: make the inputs before calling Compare, or from
// a seed (see Seed), and give each run its own output slices and array views, closed before
// it returns: Close brings the results to the Go slices and frees their device memory (a
// Go slice that open array views hold on 31 accelerator views takes no other). When t is a
// *testing.T each run is a subtest named by the accelerator's path; a failed reference run
// stops the test. Compare returns the reference's result.
func Compare[R any](t testing.TB, run func(t testing.TB, av *accelerator.View) R, check func(t testing.TB, cpu, got R)) R {
	t.Helper()
	strict, err := accelerator.StrictCPU().CreateView(accelerator.Automatic)
	require.NoError(t, err, "goamp/amptest: a view of the strict CPU")
	t.Cleanup(func() { assert.NoError(t, strict.Close(), "goamp/amptest: closing %s", strict) })
	views := append([]*accelerator.View{strict}, Views(t)...)
	var cpu R
	if !subtest(t, views[0].Accelerator().Path(), func(t testing.TB) { cpu = run(t, views[0]) }) {
		t.Fatalf("goamp/amptest: the strict CPU run failed: no accelerator compared")
	}
	for _, av := range views[1:] {
		subtest(t, av.Accelerator().Path(), func(t testing.TB) {
			got := run(t, av)
			check(t, cpu, got)
		})
	}
	return cpu
}

// subtest runs f as a subtest named name when t is a *testing.T, else (a benchmark, a fuzz
// target) in t itself, and reports whether f passed.
func subtest(t testing.TB, name string, f func(t testing.TB)) bool {
	if tt, ok := t.(*testing.T); ok {
		return tt.Run(name, func(t *testing.T) { f(t) })
	}
	f(t)
	return !t.Failed()
}

// Equal is a check for Compare: got must equal the reference's result deeply (testify's
// assert.Equal, which prints a diff). Floating-point results that a GPU rounds differently,
// or NaNs, need Near.
func Equal[R any](t testing.TB, cpu, got R) {
	t.Helper()
	assert.Equal(t, cpu, got, "goamp/amptest: the accelerator's result differs from the strict CPU's")
}

// Near returns a check for Compare of floating-point slices: each element of got must lie
// within abs + rel*|cpu| of the reference's (the strict CPU's) element. NaN matches NaN only, and an infinity only
// the same infinity. A mismatch names the index and both values (the first ten mismatches,
// then how many there are).
func Near[F ~float32 | ~float64](abs, rel float64) func(t testing.TB, cpu, got []F) {
	return func(t testing.TB, cpu, got []F) {
		t.Helper()
		if len(cpu) != len(got) {
			t.Errorf("goamp/amptest: the accelerator returned %d elements, the strict CPU %d", len(got), len(cpu))
			return
		}
		bad := 0
		for i := range cpu {
			w, g := float64(cpu[i]), float64(got[i])
			if near(w, g, abs, rel) {
				continue
			}
			if bad < maxMismatches {
				t.Errorf("goamp/amptest: element %d: strict cpu %v, got %v (difference %g, tolerance %g)", i, w, g, math.Abs(g-w), abs+rel*math.Abs(w))
			}
			bad++
		}
		if bad > maxMismatches {
			t.Errorf("goamp/amptest: %d of %d elements differ from the strict CPU's (the first %d above)", bad, len(cpu), maxMismatches)
		}
	}
}

// near reports whether g is within abs + rel*|w| of w, NaN matching NaN and infinities
// matching themselves.
func near(w, g, abs, rel float64) bool {
	switch {
	case math.IsNaN(w) || math.IsNaN(g):
		return math.IsNaN(w) && math.IsNaN(g)
	case math.IsInf(w, 0) || math.IsInf(g, 0):
		return w == g
	}
	return math.Abs(g-w) <= abs+rel*math.Abs(w)
}

// Seed returns a seed for a test's random inputs and logs it: GOAMP_TEST_SEED, when set,
// else a random one. Running a failed test again with GOAMP_TEST_SEED=<the logged seed>
// gives it the same inputs.
func Seed(t testing.TB) uint64 {
	t.Helper()
	if s, ok := os.LookupEnv(EnvSeed); ok && s != "" {
		seed, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("goamp/amptest: %s=%q is not an unsigned integer", EnvSeed, s)
		}
		t.Logf("seed %d (from %s)", seed, EnvSeed)
		return seed
	}
	seed := rand.Uint64()
	t.Logf("seed %d (%s=%d replays it)", seed, EnvSeed, seed)
	return seed
}

// Main runs the tests of a package and fails the run (exit status 1) when the validation
// layer (GOAMP_VALIDATION=1) reported messages that no test drained, printing each. Use it
// as the package's TestMain:
//
//	func TestMain(m *testing.M) { amptest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	for _, msg := range accelerator.ValidationMessages() {
		fmt.Fprintln(os.Stderr, "goamp/amptest: validation layer:", msg)
		code = 1
	}
	os.Exit(code)
}
