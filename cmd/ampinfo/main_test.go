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
