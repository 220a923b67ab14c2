package translate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
)

// The fission splits a Tiled body at its own barriers only, so a kernel that calls a
// function holding barriers (a tile reduction written once, given a tile_static array) got
// no fast CPU body and ran 20-70x slower on the CPU, per thread. inlineTiled writes such a
// body again with those calls expanded in place (their parameters bound, their locals
// renamed, their final return assigned to the call's results), type-checks it as a method
// of the kernel in a file added to the package, and gives that to the fission. The GPU
// body is untouched: it is translated from the kernel as written.

// errNoInline says why a body cannot be expanded; the kernel keeps the fission's note.
var errNoInline = errors.New("cannot inline")

// inliner expands the calls of functions with barriers in one Tiled body.
type inliner struct {
	g      *cpuGen
	fis    *fission // its callee and funcHasBarrier, over the package as it is
	kernel *types.Named
	n      int // expansions so far: the suffix of each one's names
	busy   map[*types.Func]bool
}

// inlineTiled returns the kernel's Tiled body with the calls of the package's functions
// that hold barriers expanded, type-checked as the method ampInlinedTiled of the kernel in
// a file added to the package, and the cpuGen that reads that package; nil where the body
// calls no such function or cannot be expanded.
func (g *cpuGen) inlineTiled(named *types.Named, decl *ast.FuncDecl) (*cpuGen, *types.Named, *ast.FuncDecl) {
	in := &inliner{g: g, fis: &fission{pkgInfo: g.pkgInfo, barF: map[*types.Func]bool{}}, kernel: named,
		busy: map[*types.Func]bool{}}
	if !in.hasBarrierCall(decl.Body) || g.importer == nil {
		return nil, nil, nil
	}
	src, err := g.source(decl.Pos())
	if err != nil {
		return nil, nil, nil
	}
	body, err := in.stmts(decl.Body.List, map[types.Object]string{})
	if err != nil {
		return nil, nil, nil
	}
	recv := string(src[g.fset.Position(decl.Recv.Pos()).Offset:g.fset.Position(decl.Recv.End()).Offset])
	params := string(src[g.fset.Position(decl.Type.Params.Pos()).Offset:g.fset.Position(decl.Type.Params.End()).Offset])
	method := fmt.Sprintf("func %s ampInlinedTiled%s {\n%s}\n", recv, params, body)
	file := fmt.Sprintf("package %s\n\n%s\n%s", g.pkg.Name(), g.importsFor(method), method)
	name := filepath.Join(filepath.Dir(g.fset.Position(decl.Pos()).Filename), "ampgen_inlined_"+named.Obj().Name()+".go")
	f, err := parser.ParseFile(g.fset, name, file, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes: map[ast.Node]*types.Scope{}, Instances: map[*ast.Ident]types.Instance{}}
	files := append(slices.Clone(g.files), f)
	pkg, err := (&types.Config{Importer: g.importer}).Check(g.pkg.Path(), g.fset, files, info)
	if err != nil {
		return nil, nil, nil
	}
	pi := newPkgInfo(g.fset, pkg, info, files, g.skip)
	pi.importer = g.importer
	cg := &cpuGen{pkgInfo: pi, imports: g.imports, taken: g.taken, srcs: g.srcs}
	cg.srcs[name] = []byte(file)
	nn, _ := pkg.Scope().Lookup(named.Obj().Name()).Type().(*types.Named)
	d := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	if nn == nil {
		return nil, nil, nil
	}
	return cg, nn, d
}

// importsFor is the import declaration of the generated file: the package's imports whose
// names text uses.
func (g *cpuGen) importsFor(text string) string {
	seen := map[string]bool{}
	var specs []string
	for _, f := range g.files {
		for _, is := range f.Imports {
			path := strings.Trim(is.Path.Value, `"`)
			name := filepath.Base(path)
			if is.Name != nil {
				name = is.Name.Name
			} else if p := g.importedPackage(path); p != nil {
				name = p.Name()
			}
			if seen[name] || name == "_" || name == "." || !strings.Contains(text, name+".") {
				continue
			}
			seen[name] = true
			specs = append(specs, name+" "+is.Path.Value)
		}
	}
	if len(specs) == 0 {
		return ""
	}
	return "import (\n\t" + strings.Join(specs, "\n\t") + "\n)\n"
}

// importedPackage returns the package the package imports by path, or nil.
func (g *cpuGen) importedPackage(path string) *types.Package {
	for _, p := range g.pkg.Imports() {
		if p.Path() == path {
			return p
		}
	}
	return nil
}

// hasBarrierCall reports whether n calls a function of the package that holds a barrier
// or takes the TiledIndex (callee).
func (in *inliner) hasBarrierCall(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if c, ok := x.(*ast.CallExpr); ok && !found {
			if fn, _ := in.callee(c); fn != nil {
				found = true
			}
		}
		return !found
	})
	return found
}

// callee returns the function of the package that c calls, and its declaration, where it
// holds a barrier (directly or through the functions it calls) or takes the TiledIndex;
// nil otherwise.
func (in *inliner) callee(c *ast.CallExpr) (*types.Func, *ast.FuncDecl) {
	fn := in.fis.callee(c)
	if fn == nil || fn.Pkg() != in.g.pkg {
		return nil, nil
	}
	decl := in.g.funcs[fn]
	if decl == nil || decl.Body == nil || !in.takesTile(decl) && !in.fis.funcHasBarrier(fn) {
		return nil, nil
	}
	return fn, decl
}

// takesTile reports whether the function takes the TiledIndex, which the fission does not
// let a body pass on.
func (in *inliner) takesTile(decl *ast.FuncDecl) bool {
	for _, f := range decl.Type.Params.List {
		if isRuntime(in.g.info.TypeOf(f.Type), "TiledIndex") {
			return true
		}
	}
	return false
}

// stmts writes a statement list with ren's names, the calls of functions with barriers
// expanded.
func (in *inliner) stmts(list []ast.Stmt, ren map[types.Object]string) (string, error) {
	var b strings.Builder
	for _, s := range list {
		if err := in.stmt(&b, s, ren); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// stmt writes one statement (see stmts).
func (in *inliner) stmt(b *strings.Builder, s ast.Stmt, ren map[types.Object]string) error {
	if !in.hasBarrierCall(s) {
		if as, ok := s.(*ast.AssignStmt); ok && in.allNew(as) {
			// a, b := x, y as two statements: the fission classifies a statement's
			// variables together (a uniform n and a per-thread l in one := would both be
			// per-thread), and new variables are not in scope on their right side.
			for i, l := range as.Lhs {
				b.WriteString(in.text(l, ren, nil) + " := " + in.text(as.Rhs[i], ren, nil) + "\n")
			}
			return nil
		}
		b.WriteString(in.text(s, ren, nil) + "\n")
		return nil
	}
	switch x := s.(type) {
	case *ast.ExprStmt:
		if c, ok := unparen(x.X).(*ast.CallExpr); ok {
			if fn, _ := in.callee(c); fn != nil {
				return in.expand(b, c, nil, token.ASSIGN, ren)
			}
		}
	case *ast.AssignStmt:
		if len(x.Rhs) == 1 && (x.Tok == token.DEFINE || x.Tok == token.ASSIGN) {
			if c, ok := unparen(x.Rhs[0]).(*ast.CallExpr); ok {
				if fn, _ := in.callee(c); fn != nil {
					lhs := make([]string, len(x.Lhs))
					for i, l := range x.Lhs {
						lhs[i] = in.text(l, ren, nil)
					}
					return in.expand(b, c, lhs, x.Tok, ren)
				}
			}
		}
	case *ast.BlockStmt:
		body, err := in.stmts(x.List, ren)
		b.WriteString("{\n" + body + "}\n")
		return err
	case *ast.ForStmt:
		return in.wrapped(b, x, x.Body, ren)
	case *ast.RangeStmt:
		return in.wrapped(b, x, x.Body, ren)
	case *ast.IfStmt:
		if x.Else == nil && !in.hasBarrierCall(x.Cond) && (x.Init == nil || !in.hasBarrierCall(x.Init)) {
			return in.wrapped(b, x, x.Body, ren)
		}
		return errNoInline
	}
	return in.hoist(b, s, ren)
}

// allNew reports whether as is a := of several values that defines every variable it
// assigns.
func (in *inliner) allNew(as *ast.AssignStmt) bool {
	if as.Tok != token.DEFINE || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" || in.g.info.Defs[id] == nil {
			return false
		}
	}
	return true
}

// wrapped writes a statement whose body holds the calls (a loop, an if): its head as it
// is, then its body expanded.
func (in *inliner) wrapped(b *strings.Builder, s ast.Stmt, body *ast.BlockStmt, ren map[types.Object]string) error {
	head := in.text(s, ren, map[ast.Node]string{body: "{"})
	inner, err := in.stmts(body.List, ren)
	b.WriteString(head + "\n" + inner + "}\n")
	return err
}

// hoist writes a statement that uses the single result of one call of a function with
// barriers: the call expanded into a variable first, then the statement with the variable
// for the call (the call's arguments are evaluated before the statement's other operands,
// which in the kernel language have no side effects but atomics: those statements stay
// unexpanded).
func (in *inliner) hoist(b *strings.Builder, s ast.Stmt, ren map[types.Object]string) error {
	var calls []*ast.CallExpr
	atomic := false
	ast.Inspect(s, func(x ast.Node) bool {
		if c, ok := x.(*ast.CallExpr); ok {
			if fn, _ := in.callee(c); fn != nil {
				calls = append(calls, c)
				return false
			}
			if id := calleeIdent(c); id != nil && strings.HasPrefix(id.Name, "Atomic") {
				atomic = true
			}
		}
		_, ctl := x.(ast.Stmt)
		return x == s || !ctl
	})
	if len(calls) != 1 || atomic {
		return errNoInline
	}
	if tup, ok := in.g.info.TypeOf(calls[0]).(*types.Tuple); ok && tup.Len() != 1 {
		return errNoInline
	}
	in.n++
	v := fmt.Sprintf("ampRet%d", in.n)
	if err := in.expand(b, calls[0], []string{v}, token.DEFINE, ren); err != nil {
		return err
	}
	b.WriteString(in.text(s, ren, map[ast.Node]string{calls[0]: v}) + "\n")
	return nil
}

// expand writes the body of the function c calls with its parameters bound to c's
// arguments and its names made unique; its final return assigns (tok) to lhs, or is
// dropped where lhs is nil.
func (in *inliner) expand(b *strings.Builder, c *ast.CallExpr, lhs []string, tok token.Token, ren map[types.Object]string) error {
	fn, decl := in.callee(c)
	list, ret, ok := bodyAndReturn(decl)
	if in.busy[fn] || c.Ellipsis.IsValid() || !ok {
		return errNoInline
	}
	in.n++
	inner, err := in.bind(b, c, decl, fmt.Sprintf("_amp%d", in.n), ren)
	if err != nil {
		return err
	}
	in.busy[fn] = true
	defer delete(in.busy, fn)
	body, err := in.stmts(list, inner)
	if err != nil {
		return err
	}
	b.WriteString(body)
	if ret == nil || len(ret.Results) == 0 {
		return nil
	}
	vals := make([]string, len(ret.Results))
	for j, r := range ret.Results {
		vals[j] = in.text(r, inner, nil)
	}
	if lhs == nil {
		lhs = make([]string, len(vals))
		for j := range lhs {
			lhs[j] = "_"
		}
		tok = token.ASSIGN
	}
	if len(ret.Results) == 1 && len(lhs) > 1 { // return g(x): a call with several results
		return errNoInline
	}
	fmt.Fprintf(b, "%s %s %s\n", strings.Join(lhs, ", "), tok, strings.Join(vals, ", "))
	return nil
}

// bodyAndReturn splits a function's body into its statements and its final return (nil
// where it has none); ok is false where it returns anywhere else or has named results.
func bodyAndReturn(decl *ast.FuncDecl) (list []ast.Stmt, ret *ast.ReturnStmt, ok bool) {
	list = decl.Body.List
	if n := len(list); n > 0 {
		if ret, _ = list[n-1].(*ast.ReturnStmt); ret != nil {
			list = list[:n-1]
		}
	}
	early := false
	ast.Inspect(&ast.BlockStmt{List: list}, func(x ast.Node) bool {
		_, r := x.(*ast.ReturnStmt)
		_, lit := x.(*ast.FuncLit)
		early = early || r
		return !early && !lit
	})
	named := decl.Type.Results != nil && len(decl.Type.Results.List) > 0 && len(decl.Type.Results.List[0].Names) > 0
	return list, ret, !early && !named
}

// bind writes the bindings of decl's value parameters to c's arguments (p_ampN := arg)
// and returns the names of decl's receiver, parameters and locals in the expansion: the
// receiver is the call's receiver expression, the TiledIndex and tile_static arrays the
// caller's, the rest their names with suffix.
func (in *inliner) bind(b *strings.Builder, c *ast.CallExpr, decl *ast.FuncDecl, suffix string,
	ren map[types.Object]string) (map[types.Object]string, error) {
	inner := map[types.Object]string{}
	if decl.Recv != nil && len(decl.Recv.List[0].Names) == 1 {
		sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, errNoInline
		}
		r := decl.Recv.List[0].Names[0]
		if o := in.g.info.Defs[r]; types.Identical(o.Type(), in.kernel) {
			inner[o] = in.text(sel.X, ren, nil) // the kernel: its fields are read-only
		} else { // a value receiver is a copy
			inner[o] = r.Name + suffix
			fmt.Fprintf(b, "%s := %s\n", r.Name+suffix, in.text(sel.X, ren, nil))
		}
	}
	i := 0
	for _, field := range decl.Type.Params.List {
		ty := in.g.info.TypeOf(field.Type)
		_, slice := ty.Underlying().(*types.Slice)
		byName := slice || isRuntime(ty, "TiledIndex")
		for _, n := range field.Names {
			if i >= len(c.Args) {
				return nil, errNoInline
			}
			arg := in.text(c.Args[i], ren, nil)
			o := in.g.info.Defs[n]
			switch {
			case o == nil || n.Name == "_":
			case byName: // the TiledIndex and tile_static arrays keep the caller's names
				if _, ok := unparen(c.Args[i]).(*ast.Ident); !ok {
					return nil, errNoInline
				}
				inner[o] = arg
			default:
				inner[o] = n.Name + suffix
				fmt.Fprintf(b, "%s := %s\n", n.Name+suffix, arg)
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if o := in.g.info.Defs[id]; o != nil && inner[o] == "" && id.Name != "_" {
				inner[o] = id.Name + suffix
			}
		}
		return true
	})
	return inner, nil
}

// text returns n's source with the names of ren's objects replaced, and the nodes of repl
// replaced whole.
func (in *inliner) text(n ast.Node, ren map[types.Object]string, repl map[ast.Node]string) string {
	src, err := in.g.source(n.Pos())
	if err != nil {
		return ""
	}
	off := func(p token.Pos) int { return in.g.fset.Position(p).Offset }
	type edit struct {
		lo, hi int
		s      string
	}
	var edits []edit
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil {
			return false
		}
		if s, ok := repl[x]; ok {
			edits = append(edits, edit{off(x.Pos()), off(x.End()), s})
			return false
		}
		if id, ok := x.(*ast.Ident); ok {
			o := in.g.info.Uses[id]
			if o == nil {
				o = in.g.info.Defs[id]
			}
			if s, ok := ren[o]; ok && o != nil {
				edits = append(edits, edit{off(id.Pos()), off(id.End()), s})
			}
		}
		return true
	})
	var b strings.Builder
	at := off(n.Pos())
	for _, e := range edits {
		b.WriteString(string(src[at:e.lo]) + e.s)
		at = e.hi
	}
	b.WriteString(string(src[at:off(n.End())]))
	return b.String()
}
