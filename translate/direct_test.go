package translate_test

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/cmd/ampview/demos"
	"github.com/goamp/goamp/internal/hooks"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate"
	"github.com/goamp/goamp/translate/testdata/corpus"
	"github.com/goamp/goamp/vec"
)

// directDir, where set, is a directory that TestDirectBackend writes each
// covered kernel's direct module into and BenchmarkBackends reads them from
// (GOAMP_DIRECT_SPV), for a machine without the go command to load the corpus.
var directDir = flag.String("direct-spv", "", "write the direct modules into this directory")

// directFile names program's direct module in such a directory.
func directFile(dir, program string) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' {
			return r
		}
		return '_'
	}, program[strings.LastIndex(program, "/")+1:])
	return filepath.Join(dir, name+".spv")
}

// minDirect is how many corpus kernels the direct SPIR-V backend covered when
// this test last grew: the count may rise, never fall.
const minDirect = 83

// caseName is a kernel's name in corpusCases: its type and type arguments.
func caseName(k *translate.Kernel) string {
	if len(k.TypeArgs) == 0 {
		return k.Type
	}
	return k.Type + "[" + strings.Join(k.TypeArgs, ",") + "]"
}

// TestDirectBackend compiles every corpus kernel with the direct SPIR-V
// backend. A kernel it does not cover yet must say which construct; a
// covered one must pass spirv-val (CompileDirect runs it) and run on every
// accelerator with the results of the CPU, on fresh random inputs, as its
// glslc build does in the same run (with -short the direct build alone).
func TestDirectBackend(t *testing.T) {
	if dir := os.Getenv("GOAMP_DIRECT_SPV"); dir != "" {
		runDirect(t, readDirect(t, dir))
		return
	}
	p, err := translate.Load("testdata/corpus", translate.Options{Skip: "amp_gen.go", Direct: true})
	require.NoError(t, err)
	direct := map[string][]byte{}
	var covered []string
	for _, k := range p.Kernels {
		spv, err := translate.CompileDirect(k)
		var u *translate.UnsupportedError
		if errors.As(err, &u) {
			require.NotEmpty(t, u.Construct, k.Program)
			require.Contains(t, u.Error(), k.Program)
			t.Logf("not covered: %s: %s", caseName(k), u.Construct)
			continue
		}
		require.NoError(t, err, k.Program)
		if !testing.Short() {
			glslc, err := translate.Compile(k.Program, k.GLSL)
			require.NoError(t, err, k.Program)
			require.False(t, bytes.Equal(glslc, spv), "%s: the direct build is glslc's", k.Program)
		}
		direct[k.Program] = spv
		covered = append(covered, caseName(k))
		if *directDir != "" {
			require.NoError(t, os.WriteFile(directFile(*directDir, k.Program), spv, 0o644))
		}
	}
	t.Logf("the direct backend covers %d of %d corpus kernels: %s", len(covered), len(p.Kernels),
		strings.Join(covered, " "))
	require.GreaterOrEqual(t, len(covered), minDirect)
	// The held-out kernels outside the corpus (ampview's n-body): each must
	// be covered.
	demos, err := translate.Load("../cmd/ampview/demos", translate.Options{Skip: "amp_gen.go", Direct: true})
	require.NoError(t, err)
	for _, k := range demos.Kernels {
		for _, prog := range heldOut {
			if k.Program == prog {
				spv, err := translate.CompileDirect(k)
				require.NoError(t, err, k.Program)
				direct[k.Program] = spv
				if *directDir != "" {
					require.NoError(t, os.WriteFile(directFile(*directDir, k.Program), spv, 0o644))
				}
			}
		}
	}
	runDirect(t, direct)
}

// heldOut are the corpus cases of kernels outside the corpus's package, by
// case name, with their programs: the direct backend must cover them.
var heldOut = map[string]string{"NBody": "github.com/goamp/goamp/cmd/ampview/demos.NBodyKernel"}

// caseProgram is the program of corpus case name.
func caseProgram(name string) string {
	if p, ok := heldOut[name]; ok {
		return p
	}
	return corpusProgram(name)
}

// corpusProgram is the program name of corpus kernel name (a corpusCase's).
func corpusProgram(name string) string {
	return "github.com/goamp/goamp/translate/testdata/corpus." + name
}

// readDirect reads the direct modules that -direct-spv wrote into dir, by
// program; it requires at least minDirect.
func readDirect(t testing.TB, dir string) map[string][]byte {
	direct := map[string][]byte{}
	for _, c := range corpusCases {
		if spv, err := os.ReadFile(directFile(dir, caseProgram(c.name))); err == nil {
			direct[caseProgram(c.name)] = spv
		}
	}
	require.GreaterOrEqual(t, len(direct), minDirect, "direct modules in %s", dir)
	return direct
}

// runDirect runs every corpus case whose program has a direct module, on
// every accelerator, its glslc build and its direct build each compared with
// the CPU's.
func runDirect(t *testing.T, direct map[string][]byte) {
	var covered []string
	for _, c := range corpusCases {
		if _, ok := direct[caseProgram(c.name)]; ok {
			covered = append(covered, c.name)
		}
	}
	require.Len(t, covered, len(direct), "every direct module has a corpus case to run")
	cases := map[string]corpusCase{}
	for _, c := range corpusCases {
		cases[c.name] = c
	}
	backends := []string{"glslc", "direct"}
	if testing.Short() { // TestCorpus runs the glslc builds
		backends = backends[1:]
	}
	seed := amptest.Seed(t)
	for _, name := range covered {
		c := cases[name]
		t.Run(name, func(t *testing.T) {
			for _, backend := range backends {
				t.Run(backend, func(t *testing.T) {
					if backend == "direct" {
						hooks.ProgramSPIRV.Store(&direct)
						defer hooks.ProgramSPIRV.Store(nil)
					}
					amptest.Compare(t, func(t testing.TB, av *accelerator.View) any {
						return c.run(t, av, rand.New(rand.NewPCG(seed, 1)))
					}, c.cmp)
				})
			}
		})
	}
}

// TestDirectSubstituted checks that the direct builds are what the GPU runs
// under the hook: Axpy[float32] given Axpy[int32]'s direct build is refused
// by the dispatch contract (its Alpha is an int), on every Vulkan device.
func TestDirectSubstituted(t *testing.T) {
	var direct map[string][]byte
	if dir := os.Getenv("GOAMP_DIRECT_SPV"); dir != "" {
		direct = readDirect(t, dir)
	} else {
		p, err := translate.Load("testdata/corpus", translate.Options{Skip: "amp_gen.go", Direct: true})
		require.NoError(t, err)
		direct = map[string][]byte{}
		for _, k := range p.Kernels {
			if caseName(k) == "Axpy[int32]" {
				direct[k.Program], err = translate.CompileDirect(k)
				require.NoError(t, err)
			}
		}
	}
	ints := direct[corpusProgram("Axpy[int32]")]
	require.NotNil(t, ints)
	swap := map[string][]byte{corpusProgram("Axpy[float32]"): ints}
	hooks.ProgramSPIRV.Store(&swap)
	defer hooks.ProgramSPIRV.Store(nil)
	ran := 0
	for _, av := range amptest.Views(t) {
		if av.Accelerator().Path() == "cpu" {
			continue
		}
		x := in(t, []float32{1, 2, 3}, 3)
		y, data := inout(t, []float32{4, 5, 6}, 3)
		err := runtime.ParallelForEach(av, runtime.Ext(3), corpus.Axpy[float32]{X: x, Y: y, Alpha: 2})
		var ce *runtime.ContractError
		require.ErrorAs(t, err, &ce, av.String())
		assert.Contains(t, err.Error(), "Alpha int", av.String())
		sync(t, y)
		assert.Equal(t, []float32{4, 5, 6}, data, "the output is left as it was")
		ran++
	}
	require.Positive(t, ran, "no Vulkan device: set GOAMP_REQUIRE_VULKAN=1 with lavapipe installed")
}

// BenchmarkBackends alternates each iteration between a kernel's glslc build
// and its direct build on the first Vulkan device (a dispatch and its
// outputs' synchronization each), and reports both times and their ratio:
// kernels without tiles on 2^20 points, MatMul 256x256x256 in 16x16 tiles,
// Stencil 1024x1024 in 16x16 tiles, Bitonic on 2^16 keys in tiles of 1024,
// TileSum on 2^20, ampview's NBodyKernel on 4096 bodies in tiles of 256.
func BenchmarkBackends(b *testing.B) {
	direct := directModules(b)
	var gpu *accelerator.View
	var err error
	for _, a := range accelerator.All() {
		if !a.Traits().HostMemory {
			gpu, err = a.CreateView(accelerator.Automatic)
			require.NoError(b, err)
			defer gpu.Close()
			break
		}
	}
	if gpu == nil {
		b.Skip("no Vulkan device")
	}
	const n = 1 << 20
	r := rand.New(rand.NewPCG(1, 2))
	ints := func() *arrayview.ReadView[int32] {
		return newView(b, divisorsOf(randInts(r, n, -1e6, 1e6)), n).ReadOnly()
	}
	floats := func() *arrayview.ReadView[float32] { return newView(b, randFloats(r, n, -2, 2), n).ReadOnly() }
	fo, io := newView(b, make([]float32, n), n), newView(b, make([]int32, n), n)
	uo1, uo2 := newView(b, make([]uint32, n), n), newView(b, make([]uint32, n), n)
	const m, s = 256, 1024 // MatMul's and Stencil's sides
	square := func() *arrayview.ReadView[float32] { return newView(b, randFloats(r, m*m, -1, 1), m, m).ReadOnly() }
	mo, so := newView(b, make([]float32, m*m), m, m), newView(b, make([]float32, s*s), s, s)
	keys := newView(b, randInts(r, n/16, -1e6, 1e6), n/16) // sorted by tiles of 1024 after the first run
	sums := newView(b, make([]int32, 2*n/256), 2*n/256)
	const nb = 4096 // bodies
	vel, np := newView(b, randVec4s(r, nb, -1, 1), nb), newView(b, make([]vec.Float4, nb), nb)
	for _, c := range []struct {
		name string
		run  func(*accelerator.View, bool) error
	}{
		{"Axpy[float32]", rangeRun(runtime.Ext(n), corpus.Axpy[float32]{X: floats(), Y: fo, Alpha: 1.5}, fo)},
		{"Divide", rangeRun(runtime.Ext(n), corpus.Divide{A: ints(), B: ints(), Out: io}, io)},
		{"Control", rangeRun(runtime.Ext(n), corpus.Control{In: ints(), Out: io, N: 40}, io)},
		{"MinMax", rangeRun(runtime.Ext(n), corpus.MinMax{A: floats(), B: floats(), Lo: uo1, Hi: uo2}, uo1, uo2)},
		{"MatMul", tiledRun(runtime.Ext(m, m).Tile(corpus.MatMulTS, corpus.MatMulTS),
			corpus.MatMul{A: square(), B: square(), C: mo, K: m}, mo)},
		{"Stencil", tiledRun(runtime.Ext(s, s).Tile(16, 16),
			corpus.Stencil{In: newView(b, randFloats(r, s*s, -1, 1), s, s).ReadOnly(), Out: so, Rows: s, Cols: s}, so)},
		{"Bitonic", tiledRun(runtime.Ext(n/16).Tile(1024), corpus.Bitonic{Keys: keys}, keys)},
		{"TileSum", tiledRun(runtime.Ext(n).Tile(256), corpus.TileSum{In: ints(), Sums: sums,
			Total: newView(b, make([]int32, 1), 1)}, sums)},
		{"NBody", tiledRun(runtime.Ext(nb).Tile(256), demos.NBodyKernel{Pos: newView(b, randVec4s(r, nb, -4, 4),
			nb).ReadOnly(), Vel: vel, NewPos: np, Dt: 0.01, Eps2: 0.05, Bodies: nb}, vel, np)},
	} {
		b.Run(c.name, func(b *testing.B) {
			var t [2]time.Duration
			for i := range 2 * (b.N + 1) {
				if i%2 == 1 {
					hooks.ProgramSPIRV.Store(&direct)
				}
				start := time.Now()
				err := c.run(gpu, false)
				if i >= 2 { // the first round warms both builds' pipelines
					t[i%2] += time.Since(start)
				}
				hooks.ProgramSPIRV.Store(nil)
				require.NoError(b, err)
			}
			b.ReportMetric(float64(t[0].Nanoseconds())/float64(b.N), "ns/glslc")
			b.ReportMetric(float64(t[1].Nanoseconds())/float64(b.N), "ns/direct")
			b.ReportMetric(float64(t[1])/float64(t[0]), "direct/glslc")
		})
	}
}

// divisorsOf replaces the zeros of s by 7, in place.
func divisorsOf(s []int32) []int32 {
	for i := range s {
		if s[i] == 0 {
			s[i] = 7
		}
	}
	return s
}

// directModules returns the corpus's direct modules by program: read from
// GOAMP_DIRECT_SPV where it names a directory (TestDirectBackend -direct-spv
// wrote them), else compiled from the corpus's source.
func directModules(b *testing.B) map[string][]byte {
	direct := map[string][]byte{}
	if dir := os.Getenv("GOAMP_DIRECT_SPV"); dir != "" {
		return readDirect(b, dir)
	}
	for _, dir := range []string{"testdata/corpus", "../cmd/ampview/demos"} {
		p, err := translate.Load(dir, translate.Options{Skip: "amp_gen.go", Direct: true})
		require.NoError(b, err)
		for _, k := range p.Kernels {
			if spv, err := translate.CompileDirect(k); err == nil {
				direct[k.Program] = spv
			}
		}
	}
	return direct
}
