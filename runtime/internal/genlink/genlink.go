// Package genlink links package runtime and the support of generated code
// (runtime/ampimpl), which imports runtime: runtime sets EmbeddedProgram when it is
// initialized, so that ampimpl makes programs with what runtime keeps unexported.
package genlink

import "io/fs"

// Checker is what a generated program's sources answer at its first dispatch: nil, or
// the error to return instead of running old code.
type Checker interface {
	Check(kernel string) error
}

// Indexed is how a generated kernel indexes one of its views (ampimpl.Indexed).
type Indexed struct {
	Field  string
	Thread bool
	Rank   int
}

// EmbeddedProgram makes the *runtime.Program (returned as any) name whose SPIR-V
// module is file of fsys, generated from sources src (nil: not checked), whose kernel
// indexes its views as ix says. Package runtime sets it.
var EmbeddedProgram func(fsys fs.FS, file, name string, src Checker, ix []Indexed) any
