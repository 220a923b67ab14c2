package translate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goamp/goamp/translate/ir"
)

// Import paths of the packages the kernel language knows.
const (
	modPath       = "github.com/goamp/goamp"
	runtimePath   = modPath + "/runtime"
	arrayviewPath = modPath + "/arrayview"
	fmathPath     = modPath + "/fmath"
	vecPath       = modPath + "/vec"
)

// Error is one translation error at a position of the kernel's source, printed as a
// compiler prints it: "file:line:col: message".
type Error struct {
	// Pos is where the construct that cannot be translated starts.
	Pos token.Position
	// Msg says what is wrong and, where there is one, what to write instead.
	Msg string
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Pos, e.Msg) }

// ErrorList is every error of one translation, sorted by position.
type ErrorList []*Error

// Error implements error: the errors one per line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Kernel is one translated kernel: a kernel type of the package, or one instance of a
// generic kernel type.
type Kernel struct {
	// Type is the kernel's Go type name, e.g. "TileAverage" or "addKernel".
	Type string
	// TypeArgs are the type arguments of a generic kernel's instance ("float32"), or nil.
	TypeArgs []string
	// Program is the program's process-unique name: the package path, the type and its
	// type arguments, e.g. "example.com/m.TileAverage" or "example.com/m.addKernel[float32]".
	Program string
	// Tiled says whether the kernel is tiled (a Tiled body) or not (an Each body).
	Tiled bool
	// GLSL is the compute shader, a complete translation unit for glslc.
	GLSL string
	// CheckedGLSL, where Options.Checked asked for it, is the same kernel with bounds
	// checks (ampgen -checked): every view
	// access checks its index against the view's extent, which it reads from one more
	// storage buffer (binding n, after the n data fields), where the device records the
	// first access outside; such an access reads or writes the view's first element
	// instead. runtime.Program.Checked says how a dispatch uses it.
	CheckedGLSL string
	// Files are the files of the kernel's package (full paths, sorted) that its
	// translation read; the generated code records their hash (runtime/ampimpl.GeneratedFrom).
	Files []string
	// IR, where Options.Direct asked for it, is the kernel in the translator's
	// intermediate representation, which CompileDirect writes as SPIR-V; nil
	// where the kernel uses what the direct backend does not cover yet, and
	// Unsupported says what.
	IR          *ir.Kernel
	Unsupported *UnsupportedError
	// Notes say what the kernel does that the user may not mean: a float32 widened to
	// float64 for a math function (math.Sqrt(float64(x))), which makes the kernel need
	// double precision where the fmath function would not. ampgen prints them on stderr;
	// ampgen -strict refuses the package.
	Notes []*Note
	// Indexed says which views the body indexes with indices whose rank the translator
	// can tell, and with which: the generated code records it, and a dispatch that
	// indexes a view with an index of higher rank than the view's is an error.
	Indexed []Indexed
}

// Package is a loaded, type-checked Go package with its kernels translated.
type Package struct {
	// Name and Path are the package's name and import path.
	Name, Path string
	// Dir is the package's directory.
	Dir string
	// Kernels are the package's kernels, sorted by type name and type arguments.
	Kernels []*Kernel
	// Notes say which kernels get no generated fast CPU body (EachTile or EachRange) and
	// why: a hand-written one, or a barrier the fission cannot place.
	Notes []*Note
	cpu   *cpuGen // the generated fast CPU bodies
}

// Options tune Load.
type Options struct {
	// Skip names a file of the package (base name) that Load reads as empty: the
	// generated file of an earlier run, which may be stale and must not shape the new one.
	Skip string
	// Checked asks for each kernel's bounds-checked build too (Kernel.CheckedGLSL).
	Checked bool
	// Direct asks for each kernel's IR too (Kernel.IR), for the direct SPIR-V
	// backend (CompileDirect).
	Direct bool
	// SourceDeps type-checks the package's dependencies from their source. By default
	// Load reads them from the compiler's export data, which go list gets by compiling
	// the package itself too: seconds for a package of a hundred kernels, where reading
	// every dependency (the standard library's among them) from source takes about
	// three, whatever the package's size. For large packages of many kernels.
	SourceDeps bool

	dir string // the package's directory, where other packages are loaded from (Load)
}

// Load loads the Go package in dir (with go/packages: parsed and type-checked against its
// module), finds its kernels and translates each to GLSL. A kernel is a named struct type
// of the package with an Each(runtime.Index) or Tiled(runtime.TiledIndex) method and no
// Program method of its own outside the Skip file; its Go body and what it calls are
// translated. Errors in the Go code are returned as they are; constructs outside the
// kernel language are an ErrorList with file:line:col positions.
func Load(dir string, opt Options) (*Package, error) {
	cfg := &packages.Config{
		Mode: loadMode,
		Dir:  dir,
	}
	if opt.SourceDeps {
		cfg.Mode |= packages.NeedDeps
	}
	if opt.Skip != "" {
		gen := filepath.Join(dir, opt.Skip)
		if b, err := os.ReadFile(gen); err == nil {
			cfg.Overlay = map[string][]byte{gen: []byte(packageClause(b))}
		}
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("goamp/translate: loading %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("goamp/translate: %s holds %d packages, want 1", dir, len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		return nil, fmt.Errorf("goamp/translate: package %s does not compile:\n%s", p.PkgPath, errorLines(p.Errors))
	}
	out := &Package{Name: p.Name, Path: p.PkgPath, Dir: dir}
	if len(p.GoFiles) > 0 {
		out.Dir = filepath.Dir(p.GoFiles[0])
	}
	opt.dir = out.Dir
	ks, err := translatePackage(p.Fset, p.Types, p.TypesInfo, p.Syntax, opt)
	out.Kernels = ks
	if err == nil {
		pi := newPkgInfo(p.Fset, p.Types, p.TypesInfo, p.Syntax, opt.Skip)
		pi.importer = importerOf(p)
		out.cpu = pi.cpuBodies()
		out.Notes = out.cpu.notes
	}
	return out, err
}

// importerOf gives the packages p imports, as go/packages loaded them.
func importerOf(p *packages.Package) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if ip := p.Imports[path]; ip != nil && ip.Types != nil {
			return ip.Types, nil
		}
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		return nil, fmt.Errorf("goamp/translate: %s does not import %s", p.PkgPath, path)
	})
}

// importerFunc is a types.Importer.
type importerFunc func(path string) (*types.Package, error)

// Import implements types.Importer.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// packageClause returns the package clause of Go source b, so that an overlaid file
// still belongs to its package.
func packageClause(b []byte) string {
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "package" {
			return "package " + f[1] + "\n"
		}
	}
	return ""
}

// loadMode is what go/packages loads of a package to translate: its syntax and types
// (Load; and other packages' for their functions, foreign.go).
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedImports

// pkgInfo is what the translation of one package shares.
type pkgInfo struct {
	fset  *token.FileSet
	pkg   *types.Package
	info  *types.Info
	funcs map[*types.Func]*ast.FuncDecl // every function and method declared in the package
	skip  string
	files []*ast.File
	// importer gives the packages the package imports, for type-checking it again with a
	// file added (inlineTiled); nil where Load did not set it.
	importer types.Importer
	// checked: translate each kernel's bounds-checked build too (Options.Checked).
	checked bool
	// direct: lower each kernel to the IR too (Options.Direct).
	direct bool
	// foreign holds the other packages loaded from source for their functions (in the
	// kernel's package's pkgInfo); homePkg is the kernel's package's pkgInfo (in theirs).
	foreign *foreignPkgs
	homePkg *pkgInfo
}

// newPkgInfo indexes the package's function declarations.
func newPkgInfo(fset *token.FileSet, pkg *types.Package, info *types.Info, files []*ast.File, skip string) *pkgInfo {
	pi := &pkgInfo{fset: fset, pkg: pkg, info: info, funcs: map[*types.Func]*ast.FuncDecl{}, skip: skip, files: files}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					pi.funcs[fn] = fd
				}
			}
		}
	}
	return pi
}

// translatePackage finds the kernels of a package and translates each instance.
func translatePackage(fset *token.FileSet, pkg *types.Package, info *types.Info, files []*ast.File, opt Options) ([]*Kernel, error) {
	pi := newPkgInfo(fset, pkg, info, files, opt.Skip)
	pi.checked = opt.Checked
	pi.direct = opt.Direct
	pi.foreign = newForeignPkgs(opt.dir)
	var kernels []*Kernel
	var errs ErrorList
	names := pkg.Scope().Names()
	for _, name := range names {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		body, tiled := pi.kernelBody(named)
		if body == nil {
			continue
		}
		insts, err := pi.instances(named)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, targs := range insts {
			k, err := pi.translate(named, body, tiled, targs)
			if err != nil {
				var l ErrorList
				if errors.As(err, &l) {
					errs = append(errs, l...)
					continue
				}
				return nil, err
			}
			kernels = append(kernels, k)
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool {
			a, b := errs[i].Pos, errs[j].Pos
			if a.Filename != b.Filename {
				return a.Filename < b.Filename
			}
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Column < b.Column
		})
		return kernels, dedupe(errs)
	}
	return kernels, nil
}

// dedupe keeps the first error of each source line: the others are most often the same
// construct seen again (a declaration and its initializer, a generic kernel's instances).
func dedupe(l ErrorList) ErrorList {
	out := l[:0]
	seen := map[string]bool{}
	for _, e := range l {
		if s := fmt.Sprintf("%s:%d", e.Pos.Filename, e.Pos.Line); !seen[s] {
			seen[s] = true
			out = append(out, e)
		}
	}
	return out
}

// kernelBody returns the Each or Tiled method declaration of a kernel type, or nil when
// the type is not a kernel to translate (no such method, or a hand-written Program
// method outside the generated file).
func (pi *pkgInfo) kernelBody(named *types.Named) (*ast.FuncDecl, bool) {
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil, false
	}
	var body *ast.FuncDecl
	tiled := false
	for i := range named.NumMethods() {
		m := named.Method(i)
		fd := pi.funcs[m]
		if fd == nil {
			continue
		}
		switch m.Name() {
		case "Program":
			if filepath.Base(pi.fset.Position(fd.Pos()).Filename) != pi.skip {
				return nil, false
			}
		case "Each", "Tiled":
			sig := m.Type().(*types.Signature)
			want := "Index"
			if m.Name() == "Tiled" {
				want = "TiledIndex"
			}
			if sig.Params().Len() == 1 && sig.Results().Len() == 0 && isRuntime(sig.Params().At(0).Type(), want) {
				if body == nil || m.Name() == "Tiled" {
					body, tiled = fd, m.Name() == "Tiled"
				}
			}
		}
	}
	return body, tiled
}

// isRuntime reports whether t is the named type runtime.name.
func isRuntime(t types.Type, name string) bool { return isNamed(t, runtimePath, name) }

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == path && o.Name() == name
}

// instances lists the type-argument lists a kernel type is translated for: none for a
// plain type; for a generic type, every combination of the core types of its type
// parameters' constraints (each a union of terms of the kernel language's number types).
func (pi *pkgInfo) instances(named *types.Named) ([][]types.Type, *Error) {
	tps := named.TypeParams()
	if tps == nil || tps.Len() == 0 {
		return [][]types.Type{nil}, nil
	}
	out := [][]types.Type{nil}
	for i := range tps.Len() {
		tp := tps.At(i)
		terms, ok := unionTerms(tp.Constraint())
		if !ok || len(terms) == 0 {
			return nil, &Error{Pos: pi.fset.Position(tp.Obj().Pos()), Msg: fmt.Sprintf(
				"type parameter %s of kernel %s: its constraint must be a union of number types' terms "+
					"(ampgen translates one GPU body per term)", tp.Obj().Name(), named.Obj().Name())}
		}
		var next [][]types.Type
		for _, prefix := range out {
			for _, t := range terms {
				next = append(next, append(append([]types.Type(nil), prefix...), t))
			}
		}
		out = next
	}
	return out, nil
}

// unionTerms returns the types of a constraint's union terms (through embedded
// interfaces), with ~T as T.
func unionTerms(c types.Type) ([]types.Type, bool) {
	it, ok := c.Underlying().(*types.Interface)
	if !ok {
		return nil, false
	}
	var out []types.Type
	for i := range it.NumEmbeddeds() {
		switch e := it.EmbeddedType(i).(type) {
		case *types.Union:
			for j := range e.Len() {
				t := e.Term(j).Type()
				if _, ok := t.Underlying().(*types.Basic); !ok {
					return nil, false
				}
				out = append(out, t.Underlying())
			}
		default:
			sub, ok := unionTerms(e)
			if !ok {
				return nil, false
			}
			out = append(out, sub...)
		}
	}
	return out, true
}
