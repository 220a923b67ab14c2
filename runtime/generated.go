package runtime

import (
	"fmt"
	"io/fs"

	"github.com/goamp/goamp/runtime/internal/genlink"
)

// init lets the support of generated code (runtime/ampimpl) make embedded programs.
func init() { genlink.EmbeddedProgram = embeddedProgram }

// embeddedProgram is ampimpl.EmbeddedProgram: the program name whose module is file of
// fsys, read on first use (load), with the sources src it was generated from (nil: not
// checked) and how its kernel indexes its views (ix). It panics, naming the file and
// the program, when there is no such file.
func embeddedProgram(fsys fs.FS, file, name string, src genlink.Checker, ix []genlink.Indexed) any {
	if _, err := fs.Stat(fsys, file); err != nil {
		panic(fmt.Errorf("goamp/runtime: the SPIR-V of %s: %w", name, err))
	}
	return &Program{Name: name, generated: true, fsys: fsys, file: file, sources: src, indexed: ix}
}
