// Package srchash hashes the source files a generated file was made from: ampgen
// (translate) records the hash in amp_gen.go, and the runtime recomputes it in test
// binaries to find kernels edited since go generate (runtime.Sources). It imports only the
// standard library, so that both may use it.
package srchash

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// Sum is the hash of files (base names) in dir: sha256 of each file's name, length and
// contents, in the order given, hex-encoded. Line ends count as "\n" however the checkout
// wrote them (git's autocrlf), so that a CRLF checkout of generated code is not stale.
func Sum(dir string, files []string) (string, error) {
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
