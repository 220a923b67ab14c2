package translate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/runtime/ampimpl"
)

// TestGenVersion: the translator writes the version of generated code that the
// runtime supports.
func TestGenVersion(t *testing.T) {
	assert.Equal(t, ampimpl.Version, genVersion)
}

// TestStaleGeneratedFileFails builds examples/tilesum (through an overlay, at another
// path) with its amp_gen.go as ampgen writes it, which builds, and with the version
// check of the version before, which fails to compile saying to run go generate.
func TestStaleGeneratedFileFails(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	src := filepath.Join(root, "examples", "tilesum")
	gen, err := os.ReadFile(filepath.Join(src, "amp_gen.go"))
	require.NoError(t, err)
	current := versionCheck(genVersion)
	require.Contains(t, string(gen), current, "examples/tilesum/amp_gen.go is stale: run go generate")
	for _, c := range []struct {
		version int
		fails   bool
	}{{genVersion, false}, {genVersion - 1, true}, {genVersion + 1, true}} {
		tmp := t.TempDir()
		file := filepath.Join(tmp, "amp_gen.go")
		stale := strings.Replace(string(gen), current, versionCheck(c.version), 1)
		require.NoError(t, os.WriteFile(file, []byte(stale), 0o644))
		dir := filepath.Join(root, "translate", "testdata", "versioncheck")
		replace := map[string]string{filepath.Join(dir, "amp_gen.go"): file}
		ents, err := os.ReadDir(src)
		require.NoError(t, err)
		for _, e := range ents {
			if n := e.Name(); n != "amp_gen.go" && !strings.HasSuffix(n, "_test.go") {
				replace[filepath.Join(dir, n)] = filepath.Join(src, n)
			}
		}
		overlay, err := json.Marshal(map[string]any{"Replace": replace})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(tmp, "overlay.json"), overlay, 0o644))
		cmd := exec.Command(goTool, "build", "-overlay", filepath.Join(tmp, "overlay.json"), dir)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if !c.fails {
			require.NoError(t, err, "%s", out)
			continue
		}
		require.Error(t, err, "version %d built", c.version)
		assert.Contains(t, string(out), "amp_gen.go:", "%s", out)
		assert.Contains(t, string(out), "undefined: ampimpl.V", "%s", out)
		assert.Contains(t, string(out), "_RunGoGenerate", "%s", out)
	}
}
