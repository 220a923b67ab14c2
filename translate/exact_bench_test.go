package translate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkExactFloats runs the exactness pass over every kernel of the
// corpus, once per iteration.
func BenchmarkExactFloats(b *testing.B) {
	files, err := filepath.Glob("testdata/corpus/*.spv")
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
			exactFloats(spv)
		}
	}
}
