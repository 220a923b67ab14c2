// Package amptest is goamp's conformance helper, as gonum's testblas is for BLAS
// implementations: from a test of your own, it runs a kernel on every accelerator present
// (each Vulkan device and the CPU accelerators) and compares each accelerator's result
// with the strict CPU accelerator's (accelerator.StrictCPU), which runs the kernel's Go
// definition per thread over device copies of its views, as a discrete GPU would: a test
// that forgets Synchronize or Refresh, or reads tile_static memory or discarded data
// before writing it, fails there instead of passing by the CPU's shared memory. The plain
// CPU accelerator, compared with it, runs the fast CPU body ampgen generates (a kernel
// edited since go generate fails with a *runtime.StaleError instead of running its old
// code).
//
//	func TestScale(t *testing.T) {
//		seed := amptest.Seed(t) // logged; GOAMP_TEST_SEED=<seed> replays a failure
//		amptest.Compare(t, func(t testing.TB, av *accelerator.View) []float32 {
//			r := rand.New(rand.NewPCG(seed, 0)) // the same inputs on every accelerator
//			...                                  // array views, runtime.ParallelForEach(av, ...), Close
//			return out
//		}, amptest.Near[float32](1e-6, 1e-5))
//	}
//
// Views returns a fresh view of every accelerator (accelerator.All), the CPU's first,
// closed when the test ends; Compare calls run on the strict CPU, then on each of them, and
// check on each other
// accelerator's result in a subtest named by its path ("vulkan:0"). Equal and Near are
// ready-made checks; Compare returns the strict CPU's result, for a check against a plain Go
// reference. EachView runs a test (or a benchmark) of its own in a subtest per accelerator,
// on a fresh view closed when the subtest ends.
//
// The environment decides what a run proves. GOAMP_REQUIRE_VULKAN=1 makes Views fail the
// test (EachView too) when no Vulkan device is present (in CI, so that a missing driver cannot turn the
// comparison into a CPU-only run that passes). GOAMP_VALIDATION=1 turns on the Khronos
// validation layer; a test that used Views then fails on any message the layer reported
// while it ran, and Main fails the test binary on any message left over. go test -race
// makes the CPU accelerator run a kernel's threads on goroutines of their own (see
// runtime.EnvRaceFastBodies), so that a race between them, which gives a GPU another
// result than the CPU's with no error, is reported as a DATA RACE at the kernel's lines;
// go test -tags goampcheck runs the bounds-checked GPU bodies of packages generated with
// ampgen -checked.
//
// The helpers take testing.TB, so benchmarks can use Views too; testify is used inside but
// is not part of the API. The package imports accelerator only: kernels, views and
// dispatches are the caller's.
package amptest
