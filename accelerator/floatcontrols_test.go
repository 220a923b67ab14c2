package accelerator

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floatControlsOf lists a module's SignedZeroInfNanPreserve widths and whether it
// declares the capability and the SPV_KHR_float_controls extension.
func floatControlsOf(t *testing.T, spv []byte) (widths []uint32, capability, extension bool) {
	_, insts, err := spvwords.Parse(spv)
	require.NoError(t, err)
	for _, in := range insts {
		switch {
		case in.Op == spirv.OpExecutionMode && in.Args[1] == spvModeSZInfNan:
			widths = append(widths, in.Args[2])
		case in.Op == spirv.OpCapability && in.Args[0] == spvCapSZInfNan:
			capability = true
		case in.Op == spirv.OpExtension:
			extension = true
		}
	}
	return widths, capability, extension
}

// TestFitFloatControls strips the modes a device cannot keep from a kernel ampgen wrote
// (one that computes in float32 and float64), and only those; spirv-val, where present,
// accepts each result.
func TestFitFloatControls(t *testing.T) {
	spv, err := os.ReadFile("../translate/testdata/corpus/amp_gen_FloatRules.spv")
	require.NoError(t, err)
	w, c, e := floatControlsOf(t, spv)
	require.ElementsMatch(t, []uint32{32, 64}, w)
	require.True(t, c && e)
	cases := []struct {
		name      string
		keep      [3]bool
		widths    []uint32
		capAndExt bool
		unchanged bool
	}{
		{"all kept", [3]bool{true, true, true}, []uint32{32, 64}, true, true},
		{"32 and 64 kept", [3]bool{false, true, true}, []uint32{32, 64}, true, true},
		{"64 dropped", [3]bool{true, true, false}, []uint32{32}, true, false},
		{"32 dropped", [3]bool{false, false, true}, []uint32{64}, true, false},
		{"none kept", [3]bool{}, nil, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := append([]byte(nil), spv...)
			got := fitFloatControls(in, c.keep)
			assert.Equal(t, spv, in, "the input changed")
			w, capability, extension := floatControlsOf(t, got)
			assert.ElementsMatch(t, c.widths, w)
			assert.Equal(t, c.capAndExt, capability)
			assert.Equal(t, c.capAndExt, extension)
			if c.unchanged {
				assert.Equal(t, spv, got)
				return
			}
			assert.Less(t, len(got), len(spv))
			if val, err := exec.LookPath("spirv-val"); err == nil {
				f := filepath.Join(t.TempDir(), "m.spv")
				require.NoError(t, os.WriteFile(f, got, 0o644))
				out, err := exec.Command(val, "--target-env", "vulkan1.1", f).CombinedOutput()
				assert.NoError(t, err, "%s", out)
			}
		})
	}
	for _, b := range [][]byte{nil, {1, 2, 3}, make([]byte, 24)} {
		assert.Equal(t, b, fitFloatControls(b, [3]bool{}))
	}
}
