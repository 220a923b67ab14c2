package ampimpl

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/goamp/goamp/internal/srchash"
	"github.com/goamp/goamp/runtime"
)

// Sources is what ampgen generated a package's programs and fast CPU bodies from: the
// package's files that hold its kernels, the functions they call and the types they use,
// and a hash of their contents. Both the GPU body and the fast CPU body come from
// amp_gen.go, so a kernel edited since go generate would run its old code on every
// accelerator, and a comparison of the two would pass. The first dispatch of such a
// program in a binary whose sources are where the build found them (go run, go test, go
// build on the machine that built it) hashes the files once and, where they differ from
// what go generate read, returns a *runtime.StaleError instead of running old code; outside test
// binaries only where the binary was built after the files last changed (else they may be
// newer than its code, and nothing can be told). Elsewhere (a binary run on another
// machine, a -trimpath build) nothing is checked: ampgen -check in CI covers those.
type Sources struct {
	dir   string
	files []string
	hash  string
	once  sync.Once
	err   error
}

// GeneratedFrom records, for the code ampgen generates, the files (space-separated base
// names, in the directory of the calling file) and their hash that the package's programs
// were made from; Programs attaches it to each program it makes.
func GeneratedFrom(files, hash string) *Sources {
	s := &Sources{files: strings.Fields(files), hash: hash}
	if _, file, _, ok := goruntime.Caller(1); ok {
		s.dir = filepath.Dir(file)
	}
	return s
}

// Check returns the *runtime.StaleError of a kernel whose sources changed since go generate, in a
// binary that can read them and was built from them (builtAfter); nil otherwise.
func (s *Sources) Check(kernel string) error {
	if s == nil {
		return nil
	}
	s.once.Do(func() {
		if !filepath.IsAbs(s.dir) || !testing.Testing() && !builtAfter(s.dir, s.files) {
			return
		}
		got, err := srchash.Sum(s.dir, s.files)
		if err != nil || got == s.hash {
			return // not here to read (a build elsewhere), or as generated
		}
		s.err = &runtime.StaleError{Kernel: kernel, Dir: s.dir, Files: s.files}
	})
	return s.err
}

// builtAfter reports whether the running executable was written after each of files (in
// dir) last changed, so that it was built from them as they are.
func builtAfter(dir string, files []string) bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	st, err := os.Stat(exe)
	if err != nil {
		return false
	}
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil || fi.ModTime().After(st.ModTime()) {
			return false
		}
	}
	return true
}
