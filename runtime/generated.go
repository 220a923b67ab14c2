package runtime

import (
	"fmt"
	"io/fs"
)

// EmbeddedProgram is MustProgram of the SPIR-V module in file of fsys, for the code that
// ampgen (cmd/ampgen) generates: it embeds each kernel's module as a .spv file beside
// amp_gen.go and makes the kernel's Program from it when the package is initialized.
// It panics, naming the file and the program, when the file cannot be read or does not
// hold a valid module.
func EmbeddedProgram(fsys fs.FS, file, name string) *Program {
	spirv, err := fs.ReadFile(fsys, file)
	if err != nil {
		panic(fmt.Errorf("goamp/runtime: the SPIR-V of %s: %w", name, err))
	}
	return MustProgram(name, spirv, 0)
}
