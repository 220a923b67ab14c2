package srchash

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSum: the hash changes with a file's contents and with the list's order, not with
// anything else; a missing file is an error.
func TestSum(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) { require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644)) }
	write("a.go", "package a\n")
	write("b.go", "package a\n\nconst N = 3\n")
	h1, err := Sum(dir, []string{"a.go", "b.go"})
	require.NoError(t, err)
	again, err := Sum(dir, []string{"a.go", "b.go"})
	require.NoError(t, err)
	assert.Equal(t, h1, again)
	swapped, err := Sum(dir, []string{"b.go", "a.go"})
	require.NoError(t, err)
	assert.NotEqual(t, h1, swapped)
	write("b.go", "package a\n\nconst N = 4\n")
	h2, err := Sum(dir, []string{"a.go", "b.go"})
	require.NoError(t, err)
	assert.NotEqual(t, h1, h2)
	write("c.go", "package a\n") // a file not listed changes nothing
	h3, err := Sum(dir, []string{"a.go", "b.go"})
	require.NoError(t, err)
	assert.Equal(t, h2, h3)
	write("b.go", "package a\r\n\r\nconst N = 4\r\n") // a CRLF checkout of the same file
	crlf, err := Sum(dir, []string{"a.go", "b.go"})
	require.NoError(t, err)
	assert.Equal(t, h2, crlf)
	_, err = Sum(dir, []string{"a.go", "missing.go"})
	assert.Error(t, err)
}
