package runtime

import (
	"fmt"
	"strings"
)

// StaleError says that a kernel's source files changed after go generate wrote the GPU
// body and the fast CPU body of its package: both would run the old code. It is returned
// by the first dispatch of each of the package's kernels where the sources can be read
// (in test binaries, and in binaries built after the sources last changed). It matches
// ErrContract.
type StaleError struct {
	// Kernel is the kernel's Go type (the first dispatched of its package).
	Kernel string
	// Dir and Files are the package's directory and the files ampgen read (one hash covers
	// them all, so the message cannot say which of them changed).
	Dir   string
	Files []string
}

// Error implements error.
func (e *StaleError) Error() string {
	what := strings.Join(e.Files, ", ")
	if len(e.Files) > 1 { // one hash covers them all: which of them changed is not known
		what = "one or more of " + what
	}
	return fmt.Sprintf("goamp/runtime: kernel %s: %s changed since go generate wrote amp_gen.go (in %s): "+
		"its GPU and CPU bodies are the old code: run go generate", e.Kernel, what, e.Dir)
}

// Is matches ErrContract.
func (e *StaleError) Is(target error) bool { return target == ErrContract }
