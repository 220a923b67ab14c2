package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { amptest.Main(m) }

// TestEveryKernelEveryAccelerator runs every case at small sizes on every accelerator;
// measure checks each result against its Go reference.
func TestEveryKernelEveryAccelerator(t *testing.T) {
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			dir := t.TempDir()
			ref := filepath.Join(dir, "ref.json")
			require.NoError(t, os.WriteFile(ref, []byte(`{"sizes": {"n": 3000, "mat": 33, "img": 40}, "results": [{"kernel": "vadd-f32", "rate": 2.5, "unit": "GB/s"}]}`), 0o644))
			out := filepath.Join(dir, "out.json")
			var table, progress bytes.Buffer
			o := options{path: a.Path(), sizes: sizes{N: 3000, Mat: 33, Img: 40}, reps: 1, ref: ref, jsonOut: out, profile: true}
			require.NoError(t, run(&table, &progress, o))
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			var rep Report
			require.NoError(t, json.Unmarshal(b, &rep))
			require.Len(t, rep.Results, len(cases))
			for _, r := range rep.Results {
				if r.Unsupported != "" { // a device without a feature the kernel needs
					assert.False(t, a.Traits().HostMemory, "%s: the CPU has every feature", r.Kernel)
					assert.Contains(t, table.String(), "unsupported: "+r.Unsupported)
					continue
				}
				assert.True(t, r.Checked, r.Kernel)
				assert.Positive(t, r.Rate, r.Kernel)
				if a.Limits().TimestampValidBits != 0 {
					assert.Positive(t, r.DeviceSec, "%s: device time from timestamps", r.Kernel)
				} else {
					assert.Zero(t, r.DeviceSec, "%s: no device timestamps, no device time", r.Kernel)
				}
				assert.Contains(t, table.String(), r.Kernel)
				assert.Positive(t, r.Flops, "%s: flops", r.Kernel)
				assert.Positive(t, r.Bytes, "%s: bytes", r.Kernel)
				if r.Kernel == "vadd-f32" {
					assert.InDelta(t, r.Rate/2.5, r.Ratio, 1e-9)
				}
			}
			assert.Contains(t, progress.String(), "[1/")
		})
	}
}

func TestUnknownKernel(t *testing.T) {
	err := run(&bytes.Buffer{}, &bytes.Buffer{}, options{path: "cpu", kernels: []string{"nope"}, reps: 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nope")
}
