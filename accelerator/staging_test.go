package accelerator

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForceStaging: with staging forced, every Vulkan view's buffers are unmapped
// device-local memory whose data moves through the view's staging buffers, on unified
// memory too; without it, buffers on unified memory are mapped. Data round-trips either
// way, in sizes that take a part of one staging buffer and more than all of them (so that
// a staging buffer is reused).
func TestForceStaging(t *testing.T) {
	saved, savedSize := forceStaging, stagingSize
	defer func() { forceStaging, stagingSize = saved, savedSize }()
	stagingSize = 64 << 10 // several staging buffers with little data
	r := rand.New(rand.NewPCG(rand.Uint64(), 5))
	for _, a := range All() {
		if a.IsCPU() { // no Vulkan device
			continue
		}
		for _, force := range []bool{false, true} {
			forceStaging = force
			v, err := a.CreateView(Automatic)
			require.NoError(t, err)
			for _, size := range []int{4100, stagingSlots*stagingSize + 4100} {
				b, err := v.alloc(uint64(size))
				require.NoError(t, err)
				mapped := a.SupportsCPUSharedMemory() && !force
				assert.Equal(t, mapped, b.HostMapped(), "%s, forced %v: mapped", a.Path(), force)
				src := make([]byte, size+8) // whole words, then cut
				for i := 0; i < size; i += 8 {
					binary.LittleEndian.PutUint64(src[i:], r.Uint64())
				}
				src = src[:size]
				up := v.Stats()
				require.NoError(t, b.Upload(0, src))
				dst := make([]byte, size-8)
				require.NoError(t, b.Download(8, dst))
				require.Equal(t, src[8:], dst, "%s, forced %v, %d bytes", a.Path(), force, size)
				// The staged path submits its copies; the mapped one submits nothing.
				assert.Equal(t, !mapped, v.Stats().Submits > up.Submits, "%s, forced %v: staging copies submitted", a.Path(), force)
				v.mu.Lock()
				staged := v.staging[0].buf != nil
				v.mu.Unlock()
				assert.Equal(t, !mapped, staged, "%s, forced %v: staging buffers made", a.Path(), force)
				require.NoError(t, b.Free())
			}
			require.NoError(t, v.Close())
		}
	}
}

// TestForceStagingEnv: GOAMP_FORCE_STAGING=1 forces staging, anything else does not: this
// process and a child started with the other setting (it is read once, at start) agree.
func TestForceStagingEnv(t *testing.T) {
	if want := os.Getenv("GOAMP_TEST_STAGING_WANT"); want != "" {
		assert.Equal(t, want == "1", forceStaging)
		for _, a := range All() {
			if a.IsCPU() { // no Vulkan device
				continue
			}
			v, err := a.CreateView(Automatic)
			require.NoError(t, err)
			b, err := v.alloc(4096)
			require.NoError(t, err)
			assert.Equal(t, a.SupportsCPUSharedMemory() && want != "1", b.HostMapped(), a.Path())
			require.NoError(t, b.Free())
			require.NoError(t, v.Close())
		}
		return
	}
	assert.Equal(t, os.Getenv(EnvForceStaging) == "1", forceStaging, "this process")
	env, want := "1", "1"
	if forceStaging {
		env, want = "yes", "0" // not "1": no staging forced
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestForceStagingEnv$", "-test.v")
	cmd.Env = append(os.Environ(), EnvForceStaging+"="+env, "GOAMP_TEST_STAGING_WANT="+want,
		EnvValidation+"=0") // the layer is not what this checks, and slow to load
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s=%q: %s", EnvForceStaging, env, out)
	assert.Contains(t, string(out), "--- PASS: TestForceStagingEnv")
}
