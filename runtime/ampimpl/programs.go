package ampimpl

import (
	"io/fs"
	"reflect"
	"strings"

	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/runtime/internal/genlink"
)

// EmbeddedProgram is the program name whose SPIR-V module is file of fsys: ampgen embeds
// each kernel's module as a .spv file beside amp_gen.go and makes the kernel's Program
// from it when the package is initialized. It panics, naming the file and the program,
// when there is no such file. The module is read, and its name registered as
// runtime.NewProgram does, when the program is first used (Interface, a dispatch), so
// that a package's start-up costs no parsing: a module that is not valid is the first
// dispatch's error. A contract mismatch of such a program says to run go generate.
func EmbeddedProgram(fsys fs.FS, file, name string) *runtime.Program {
	return embedded(fsys, file, name, nil, nil)
}

// embedded is EmbeddedProgram with the sources the program was made from (nil: none)
// and how its kernel indexes its views.
func embedded(fsys fs.FS, file, name string, src *Sources, ix []Indexed) *runtime.Program {
	var c genlink.Checker
	if src != nil {
		c = src
	}
	var gix []genlink.Indexed
	for _, x := range ix {
		gix = append(gix, genlink.Indexed(x))
	}
	return genlink.EmbeddedProgram(fsys, file, name, c, gix).(*runtime.Program)
}

// Indexed is how a kernel's body indexes one of its views, where ampgen can tell the
// indices' ranks: a dispatch whose kernel indexes a view of rank r with an index of
// higher rank (the thread's index of a domain of rank 2 on a view of rank 1,
// runtime.Idx(a, b) on a view of rank 1) is a *runtime.IndexRankError on every
// accelerator, before anything runs.
type Indexed struct {
	// Field is the view's field.
	Field string
	// Thread says that the body indexes it with the thread's index (the Each body's
	// index, or its TiledIndex's Global, Local, Tile or TileOrigin), of the domain's
	// rank.
	Thread bool
	// Rank is the largest rank of the body's other indices of the view whose rank ampgen
	// can tell (runtime.Idx(a, b): 2), or 0.
	Rank int
}

// Instances are the programs of a generic kernel type, one for each instance ampgen
// built, keyed by the kinds of its type arguments joined by commas ("float32",
// "int32,float32"). The Program methods of generic kernels look their instance up with
// Of.
type Instances map[string]*runtime.Program

// Of returns the program of the instance whose type arguments are types, or nil when
// ampgen built none for their kinds.
func (in Instances) Of(types ...reflect.Type) *runtime.Program {
	if len(types) == 1 {
		return in[types[0].Kind().String()]
	}
	kinds := make([]string, len(types))
	for i, t := range types {
		kinds[i] = t.Kind().String()
	}
	return in[strings.Join(kinds, ",")]
}

// Programs makes the programs of a package's kernels: each of the modules it embeds
// beside its Go file (see EmbeddedProgram), named and attached to the sources they were
// made from. It remembers the programs it made, so that one call gives them all their
// bounds-checked builds (Checked).
type Programs struct {
	fsys   fs.FS
	prefix string   // the generated Go file's name without .go: each module's file begins with it
	pkg    string   // the kernels' package path
	src    *Sources // what the programs were made from
	made   []made
}

// made is one program that a Programs made, the file of its module and how its kernel
// indexes its views.
type made struct {
	p    *runtime.Program
	file string
	ix   []Indexed
}

// Programs returns the Programs of the kernels of package pkg whose modules are in
// fsys, in the files that ampgen names after the generated Go file (prefix, such as
// amp_gen, for amp_gen.go): prefix, _, the kernel's type and the kinds of its type
// arguments, each after a _, then .spv (amp_gen_Scale.spv, amp_gen_Axpy_float32.spv).
func (s *Sources) Programs(fsys fs.FS, prefix, pkg string) *Programs {
	return &Programs{fsys: fsys, prefix: prefix, pkg: pkg, src: s}
}

// Program returns the program of kernel type typ, which is not generic, whose body
// indexes its views as ix says.
func (g *Programs) Program(typ string, ix ...Indexed) *runtime.Program {
	return g.make(typ, "", ix)
}

// Instances returns the programs of generic kernel type typ, one for each of args: the
// kinds of an instance's type arguments, joined by commas ("float32", "int32,float32").
// The type's body indexes its views as ix says.
func (g *Programs) Instances(typ string, args []string, ix ...Indexed) Instances {
	in := make(Instances, len(args))
	for _, a := range args {
		in[a] = g.make(typ, a, ix)
	}
	return in
}

// make makes the program of typ's instance for type arguments args ("" for none).
func (g *Programs) make(typ, args string, ix []Indexed) *runtime.Program {
	file, name := g.prefix+"_"+typ, g.pkg+"."+typ
	if args != "" {
		file += "_" + strings.Map(fileRune, args)
		name += "[" + args + "]"
	}
	file += ".spv"
	p := embedded(g.fsys, file, name, g.src, ix)
	g.made = append(g.made, made{p, file, ix})
	return p
}

// fileRune is r in a module's file name: letters and digits stay, others become _.
func fileRune(r rune) rune {
	if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
		return r
	}
	return '_'
}

// Checked gives each program that g made its bounds-checked build
// (runtime.Program.Checked): the module in fsys whose file is the program's with
// .check.spv for .spv, which ampgen -checked writes.
func (g *Programs) Checked(fsys fs.FS) {
	for _, m := range g.made {
		m.p.Checked = embedded(fsys, strings.TrimSuffix(m.file, ".spv")+".check.spv", m.p.Name+"#checked", nil, m.ix)
	}
}
