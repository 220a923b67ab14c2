package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONListsEveryAccelerator(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, true, false))
	var r Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &r), "ampinfo -json is valid JSON")
	all := accelerator.All()
	require.Len(t, r.Accelerators, len(all))
	defaults := 0
	for i, p := range r.Accelerators {
		assert.Equal(t, all[i].Path(), p.Path)
		if p.Default {
			defaults++
			assert.Equal(t, r.Default, p.Path)
		}
	}
	assert.Equal(t, 1, defaults, "exactly one default")
	for i, p := range r.Accelerators {
		assert.Equal(t, all[i].Supports8BitStorage(), p.Storage8, p.Path)
		assert.Equal(t, all[i].Supports16BitStorage(), p.Storage16, p.Path)
		assert.Len(t, p.CooperativeMatrices, len(all[i].CooperativeMatricesKHR()), p.Path)
	}
	assert.Equal(t, "cpu", r.Accelerators[len(r.Accelerators)-1].Path)
}

func TestTextMarksDefault(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var out bytes.Buffer
		require.NoError(t, run(&out, false, verbose))
		assert.Contains(t, out.String(), "[default]")
		assert.Contains(t, out.String(), "cpu: CPU (goroutines")
		for _, a := range accelerator.All() {
			assert.Contains(t, out.String(), a.Path()+": "+a.Description())
		}
		if verbose {
			assert.Contains(t, out.String(), "timestamp period")
		}
	}
}

// TestTextShapes writes an accelerator with cooperative matrices: the narrow types' rows,
// and one shape a line under the extension's name.
func TestTextShapes(t *testing.T) {
	p := accelerator.Properties{Path: "vulkan:9", Storage8: true, Int8: true, Storage16: true,
		CooperativeMatrices: []string{"16x16x16 float16*float16+float32->float32", "16x16x32 int8*int8+int32->int32"}}
	var out bytes.Buffer
	writeText(&out, p, false)
	assert.Contains(t, out.String(), "    8-bit storage / int8:      yes / yes\n")
	assert.Contains(t, out.String(), "    16-bit storage / float16:  yes / no\n")
	assert.Contains(t, out.String(), "    cooperative matrices:      16x16x16 float16*float16+float32->float32\n"+
		"                               16x16x32 int8*int8+int32->int32\n")
	assert.NotContains(t, out.String(), "(NV)")
}

func TestBadDefaultEnv(t *testing.T) {
	t.Setenv(accelerator.EnvDefault, "vulkan:77")
	err := run(&bytes.Buffer{}, false, false)
	assert.ErrorIs(t, err, accelerator.ErrNoSuchAccelerator)
}

// TestNoVulkan runs ampinfo's main in a child process that cannot load the Vulkan loader:
// it lists only the CPU, says why, and exits 0.
func TestNoVulkan(t *testing.T) {
	if os.Getenv("AMPINFO_CHILD") == "1" {
		main()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoVulkan$")
	cmd.Env = append(os.Environ(), "AMPINFO_CHILD=1", accelerator.EnvLibrary+"=libvulkan-absent.so.1", accelerator.EnvDefault+"=")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "No Vulkan accelerator: goamp/vk: vulkan unavailable")
	assert.Contains(t, string(out), "cpu: CPU (goroutines")
	assert.Contains(t, string(out), "[default]")
	assert.NotContains(t, string(out), "vulkan:0")
}
