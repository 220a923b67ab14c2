package runtime_test

import (
	"os"
	"path/filepath"
	"testing"

	amprt "github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

// BenchmarkReadInterface reads the interface of every kernel of the
// translator's corpus, once per iteration.
func BenchmarkReadInterface(b *testing.B) {
	files, err := filepath.Glob("../translate/testdata/corpus/*.spv")
	require.NoError(b, err)
	require.NotEmpty(b, files)
	var mods [][]byte
	for _, f := range files {
		spv, err := os.ReadFile(f)
		require.NoError(b, err)
		mods = append(mods, spv)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, spv := range mods {
			if _, err := amprt.ReadInterface(spv); err != nil {
				b.Fatal(err)
			}
		}
	}
}
