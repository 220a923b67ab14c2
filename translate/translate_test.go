package translate_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/translate"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestCorpusGolden translates every corpus kernel and compares its GLSL with the golden
// file ampgen -glsl writes beside the package (testdata/corpus/amp_gen_TYPE.comp).
func TestCorpusGolden(t *testing.T) {
	p, err := translate.Load("testdata/corpus", translate.Options{Skip: "amp_gen.go"})
	require.NoError(t, err)
	require.NotEmpty(t, p.Kernels)
	seen := map[string]bool{}
	for _, k := range p.Kernels {
		name := "amp_gen_" + k.Type + strings.Join(append([]string{""}, k.TypeArgs...), "_") + ".comp"
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata/corpus", name)
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(k.GLSL), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, string(want), k.GLSL, "run go test ./translate -update after an intended change")
		})
	}
	files, err := filepath.Glob("testdata/corpus/amp_gen_*.comp")
	require.NoError(t, err)
	for _, f := range files {
		require.True(t, seen[filepath.Base(f)], "%s has no kernel", f)
	}
}

// TestNegative checks that each construct outside the kernel language is reported at its
// position with its message (testdata/negative/errors.golden).
func TestNegative(t *testing.T) {
	_, err := translate.Load("testdata/negative", translate.Options{})
	var list translate.ErrorList
	require.True(t, errors.As(err, &list), "want an ErrorList, got %v", err)
	var b strings.Builder
	for _, e := range list {
		e.Pos.Filename = filepath.Base(e.Pos.Filename)
		b.WriteString(e.Error() + "\n")
	}
	path := "testdata/negative/errors.golden"
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), b.String())
}
