package runtime

import (
	"io/fs"
	"strings"
)

// GeneratedPrograms makes the programs of a package's kernels for the code that ampgen
// generates: each of the modules it embeds beside its Go file (see EmbeddedProgram),
// named and attached to the sources they were made from. It remembers the programs it
// made, so that one call gives them all their bounds-checked builds (Checked).
type GeneratedPrograms struct {
	fsys   fs.FS
	prefix string   // the generated Go file's name without .go: each module's file begins with it
	pkg    string   // the kernels' package path
	src    *Sources // what the programs were made from
	made   []generatedProgram
}

// generatedProgram is one program that a GeneratedPrograms made, and the file of its
// module.
type generatedProgram struct {
	p    *Program
	file string
}

// Programs returns the GeneratedPrograms of the kernels of package pkg whose modules are
// in fsys, in the files that ampgen names after the generated Go file (prefix, such as
// amp_gen, for amp_gen.go): prefix, _, the kernel's type and the kinds of its type
// arguments, each after a _, then .spv (amp_gen_Scale.spv, amp_gen_Axpy_float32.spv).
func (s *Sources) Programs(fsys fs.FS, prefix, pkg string) *GeneratedPrograms {
	return &GeneratedPrograms{fsys: fsys, prefix: prefix, pkg: pkg, src: s}
}

// Program returns the program of kernel type typ, which is not generic.
func (g *GeneratedPrograms) Program(typ string) *Program {
	return g.make(typ, "")
}

// Instances returns the programs of generic kernel type typ, one for each of args: the
// kinds of an instance's type arguments, joined by commas ("float32", "int32,float32").
func (g *GeneratedPrograms) Instances(typ string, args ...string) Instances {
	in := make(Instances, len(args))
	for _, a := range args {
		in[a] = g.make(typ, a)
	}
	return in
}

// make makes the program of typ's instance for type arguments args ("" for none).
func (g *GeneratedPrograms) make(typ, args string) *Program {
	file, name := g.prefix+"_"+typ, g.pkg+"."+typ
	if args != "" {
		file += "_" + strings.Map(fileRune, args)
		name += "[" + args + "]"
	}
	file += ".spv"
	p := EmbeddedProgram(g.fsys, file, name).From(g.src)
	g.made = append(g.made, generatedProgram{p, file})
	return p
}

// fileRune is r in a module's file name: letters and digits stay, others become _.
func fileRune(r rune) rune {
	if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
		return r
	}
	return '_'
}

// Checked gives each program that g made its bounds-checked build (Program.Checked): the
// module in fsys whose file is the program's with .check.spv for .spv, which ampgen
// -checked writes.
func (g *GeneratedPrograms) Checked(fsys fs.FS) {
	for _, m := range g.made {
		m.p.Checked = EmbeddedProgram(fsys, strings.TrimSuffix(m.file, ".spv")+".check.spv", m.p.Name+"#checked")
	}
}
