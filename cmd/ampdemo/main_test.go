package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ampdemo")

func TestMain(m *testing.M) {
	flag.Parse()
	amptest.Main(m)
}

// golden names the golden file of a sample on an accelerator: the samples print the same
// everywhere, except that where the storage is host memory (the CPU) no transfers happen
// for discard_data to save.
func golden(name string, a *accelerator.Accelerator) string {
	dir := filepath.Join("..", "..", "testdata", "ampdemo")
	if name == "reduce-row" && a.Traits().HostMemory {
		return filepath.Join(dir, name+".cpu.golden")
	}
	return filepath.Join(dir, name+".golden")
}

// TestSamplesGolden runs every seed sample on every accelerator present and compares its
// output with the golden file.
func TestSamplesGolden(t *testing.T) {
	for _, a := range accelerator.All() {
		for _, s := range samples {
			t.Run(a.Path()+"/"+s.name, func(t *testing.T) {
				var out bytes.Buffer
				require.NoError(t, run(&out, a.Path(), []string{s.name}, false))
				path := golden(s.name, a)
				if *update {
					require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
				}
				want, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.Equal(t, string(want), out.String())
			})
		}
	}
}

func TestColorOnlyOnTerminals(t *testing.T) {
	var plain, color bytes.Buffer
	require.NoError(t, run(&plain, "cpu", []string{"tiling-description"}, false))
	require.NoError(t, run(&color, "cpu", []string{"tiling-description"}, true))
	assert.NotContains(t, plain.String(), "\x1b[")
	assert.Contains(t, color.String(), "\x1b[31mValue:  0      \x1b[0m")
	assert.Contains(t, color.String(), "\x1b[32mValue:  3      \x1b[0m")
	stripped := strings.NewReplacer("\x1b[31m", "", "\x1b[32m", "", "\x1b[0m", "").Replace(color.String())
	assert.Equal(t, plain.String(), stripped)
}

func TestRunErrors(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, "vulkan:42", nil, false)
	assert.ErrorIs(t, err, accelerator.ErrNoSuchAccelerator)
	err = run(&out, "cpu", []string{"no-such-sample"}, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-sample")
	assert.Contains(t, err.Error(), "tile-average")
}

func TestAllSamplesByDefault(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, "cpu", nil, false))
	for _, s := range samples {
		assert.Contains(t, out.String(), "== "+s.name+":")
	}
}
