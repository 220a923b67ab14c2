package translate_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/internal/hooks"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate"
	"github.com/goamp/goamp/translate/testdata/corpus"
)

// minDirect is how many corpus kernels the direct SPIR-V backend covered when
// this test last grew: the count may rise, never fall.
const minDirect = 10

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
// glslc build does in the same run.
func TestDirectBackend(t *testing.T) {
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
		glslc, err := translate.Compile(k.Program, k.GLSL)
		require.NoError(t, err, k.Program)
		require.False(t, bytes.Equal(glslc, spv), "%s: the direct build is glslc's", k.Program)
		direct[k.Program] = spv
		covered = append(covered, caseName(k))
	}
	t.Logf("the direct backend covers %d of %d corpus kernels: %s", len(covered), len(p.Kernels),
		strings.Join(covered, " "))
	require.GreaterOrEqual(t, len(covered), minDirect)

	cases := map[string]corpusCase{}
	for _, c := range corpusCases {
		cases[c.name] = c
	}
	seed := amptest.Seed(t)
	for _, name := range covered {
		c, ok := cases[name]
		require.True(t, ok, "covered kernel %s has no corpus case to run", name)
		t.Run(name, func(t *testing.T) {
			for _, backend := range []string{"glslc", "direct"} {
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
	p, err := translate.Load("testdata/corpus", translate.Options{Skip: "amp_gen.go", Direct: true})
	require.NoError(t, err)
	var ints []byte
	var float *translate.Kernel
	for _, k := range p.Kernels {
		switch caseName(k) {
		case "Axpy[int32]":
			ints, err = translate.CompileDirect(k)
			require.NoError(t, err)
		case "Axpy[float32]":
			float = k
		}
	}
	require.NotNil(t, ints)
	require.NotNil(t, float)
	swap := map[string][]byte{float.Program: ints}
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
