package translate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Note is what ampgen says about a kernel without refusing it (a kernel that gets no
// generated fast CPU body, Package.Notes; a construct the user may not mean,
// Kernel.Notes), printed as "file:line:col: Kernel: message".
type Note struct {
	// Pos is where the reason is: the construct the fission cannot handle, the
	// hand-written method, the call.
	Pos token.Position
	// Kernel is the kernel's type name.
	Kernel string
	// Msg says what ampgen noticed.
	Msg string
}

// String formats the note as a compiler prints a message.
func (n *Note) String() string { return fmt.Sprintf("%s: %s: %s", n.Pos, n.Kernel, n.Msg) }

// cpuMethod is the generated fast CPU body of one kernel type: an EachTile method
// (runtime.TileKernel) or an EachRange method (runtime.RangeKernel).
type cpuMethod struct {
	typ  string
	code string
}

// cpuGen writes the fast CPU bodies of a package's kernels; the bodies share the
// generated file's imports.
type cpuGen struct {
	*pkgInfo
	imports map[string]string // import path -> name in the generated file
	taken   map[string]bool   // names of imports, and names the bodies use
	srcs    map[string][]byte // source files by name
	methods []cpuMethod
	notes   []*Note
}

// genNames are the names the generated bodies declare; a kernel body that uses one gets
// no generated body.
var genNames = []string{"ampDomain", "ampTile", "ampExt", "ampSize", "ampOrigin", "ampLocals", "ampLocal", "ampN0", "ampN1", "ampN2", "ampI0", "ampI1", "ampI2",
	"ampGlobal", "ampDone", "ampL", "ampD", "ampK", "ampLo", "ampHi", "ampIdx", "ampRank", "ampO0", "ampO1", "ampO2",
	"ampG0", "ampG1", "ampG2", "ampJ", "ampRange"}

// cpuBodies generates the fast CPU bodies of the package's kernels, in kernel type
// order, and the notes ampgen prints about kernels that get none.
func (pi *pkgInfo) cpuBodies() *cpuGen {
	g := &cpuGen{pkgInfo: pi, imports: map[string]string{runtimePath: "amprt"},
		taken: map[string]bool{"amprt": true, "ampimpl": true, "reflect": true}, srcs: map[string][]byte{}}
	type kernel struct {
		named *types.Named
		decl  *ast.FuncDecl
		tiled bool
	}
	var ks []kernel
	for _, name := range pi.pkg.Scope().Names() {
		tn, ok := pi.pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if named, ok := tn.Type().(*types.Named); ok {
			if decl, tiled := pi.kernelBody(named); decl != nil {
				ks = append(ks, kernel{named, decl, tiled})
				ast.Inspect(decl.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if _, pkg := pi.info.Uses[id].(*types.PkgName); !pkg {
							g.taken[id.Name] = true
						}
					}
					return true
				})
			}
		}
		g.taken[name] = true
	}
	for _, k := range ks {
		g.kernel(k.named, k.decl, k.tiled)
	}
	return g
}

// kernel generates the CPU body of one kernel type, or a note saying why there is none.
func (g *cpuGen) kernel(named *types.Named, decl *ast.FuncDecl, tiled bool) {
	name := named.Obj().Name()
	method, iface := "EachRange", "RangeKernel"
	if tiled {
		method, iface = "EachTile", "TileKernel"
	}
	for i := range named.NumMethods() {
		if m := named.Method(i); m.Name() == method && g.funcs[m] != nil {
			g.notes = append(g.notes, &Note{Pos: g.fset.Position(g.funcs[m].Pos()), Kernel: name,
				Msg: fmt.Sprintf("keeps its hand-written %s (runtime.%s); no CPU body generated", method, iface)})
			return
		}
	}
	var code string
	var ferr *fissionError
	if tiled {
		code, ferr = g.tileBody(named, decl)
		if ferr != nil { // a call of a function with barriers? The body with it expanded
			if cg, nn, d := g.inlineTiled(named, decl); cg != nil {
				c, err := cg.tileBody(nn, d)
				if err == nil {
					code, ferr = c, nil
				} else {
					ferr = &fissionError{pos: ferr.pos, msg: ferr.msg + "; with such calls expanded in place, " + err.msg}
				}
			}
		}
	} else {
		code, ferr = g.rangeBody(named, decl)
	}
	if ferr != nil {
		g.notes = append(g.notes, &Note{Pos: g.fset.Position(ferr.pos), Kernel: name,
			Msg: "no CPU body generated, the per-thread executor runs it: " + ferr.msg})
		return
	}
	g.methods = append(g.methods, cpuMethod{typ: name, code: code})
}

// source returns the text of the file holding pos.
func (g *cpuGen) source(pos token.Pos) ([]byte, error) {
	fn := g.fset.Position(pos).Filename
	if b, ok := g.srcs[fn]; ok {
		return b, nil
	}
	b, err := os.ReadFile(fn)
	if err != nil {
		return nil, err
	}
	g.srcs[fn] = b
	return b, nil
}

// importName returns the name the generated file imports pkg under, adding the import.
func (g *cpuGen) importName(pkg *types.Package) string {
	if n, ok := g.imports[pkg.Path()]; ok {
		return n
	}
	n := pkg.Name()
	for i := 2; g.taken[n]; i++ {
		n = fmt.Sprintf("amp%s%d", pkg.Name(), i)
	}
	g.taken[n] = true
	g.imports[pkg.Path()] = n
	return n
}

// importList returns the generated bodies' imports other than the runtime, sorted by
// path, as import specs.
func (g *cpuGen) importList() []string {
	var out []string
	for path, n := range g.imports {
		if path == runtimePath {
			continue
		}
		spec := fmt.Sprintf("%q", path)
		if n != filepath.Base(path) {
			spec = n + " " + spec
		}
		out = append(out, spec)
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(importPath(a), importPath(b)) })
	return out
}

// importPath returns the quoted path of an import spec.
func importPath(spec string) string { return spec[strings.IndexByte(spec, '"'):] }

// recvText returns the receiver of decl as written ("k Axpy[T]"), with name standing in
// for a missing or blank receiver name.
func recvText(src []byte, fset *token.FileSet, decl *ast.FuncDecl, name string) (string, string) {
	f := decl.Recv.List[0]
	typ := string(src[fset.Position(f.Type.Pos()).Offset:fset.Position(f.Type.End()).Offset])
	if len(f.Names) == 1 && f.Names[0].Name != "_" {
		return f.Names[0].Name + " " + typ, f.Names[0].Name
	}
	return name + " " + typ, name
}

// rangeBody writes the EachRange method of a non-tiled kernel: a loop over a chunk of
// the domain. Where it can, the loop runs Each's statements themselves with the views read
// and written through their arrayview.Host, taken once before the loop (hostRangeBody);
// elsewhere it calls Each directly (the compiler can inline it), with no interface call
// per index.
func (g *cpuGen) rangeBody(named *types.Named, decl *ast.FuncDecl) (string, *fissionError) {
	src, err := g.source(decl.Pos())
	if err != nil {
		return "", &fissionError{pos: decl.Pos(), msg: err.Error()}
	}
	recv, k := recvText(src, g.fset, decl, "ampK")
	var b strings.Builder
	fmt.Fprintf(&b, "// EachRange is %s's fast CPU body (runtime.RangeKernel), generated by ampgen: it runs Each\n", named.Obj().Name())
	b.WriteString("// for the row-major offsets lo..hi-1 of the domain, without an interface call per index.\n")
	fmt.Fprintf(&b, "func (%s) EachRange(ampDomain amprt.Extent, ampLo, ampHi int) {\n", recv)
	if body, ok := g.hostRangeBody(named, decl, src); ok {
		b.WriteString(body)
		return b.String(), nil
	}
	b.WriteString("ampIdx := ampDomain.Delinearize(ampLo)\n")
	b.WriteString("for range ampHi - ampLo {\n")
	fmt.Fprintf(&b, "%s.Each(ampIdx)\n", k)
	b.WriteString("ampimpl.Next(&ampIdx, ampDomain)\n}\n}\n")
	return b.String(), nil
}

// hostRangeBody writes the rest of EachRange (after its opening line) with Each's
// statements in the loop, its views' At and Set on their Hosts (as EachTile does: no
// check of the view's state per access), a return as the next index, and the copies of
// the kernel methods it calls that take the Hosts. ok is false where that cannot be
// written: Each uses a name the generated body declares, or reads no view through At.
func (g *cpuGen) hostRangeBody(named *types.Named, decl *ast.FuncDecl, src []byte) (string, bool) {
	f := &fission{pkgInfo: g.pkgInfo, decl: decl}
	if r := decl.Recv.List[0]; len(r.Names) == 1 {
		f.recv = g.info.Defs[r.Names[0]]
	}
	e := &emitter{fission: f, g: g, src: src, lifted: map[types.Object]string{}, labels: map[int]string{0: "ampRange"},
		named: named, region: &fnode{kind: nRegion}}
	e.checkNames()
	if f.err != nil {
		return "", false
	}
	e.plan()
	if len(e.views) == 0 {
		return "", false
	}
	var b strings.Builder
	e.viewHosts(&b)
	param := types.Object(nil)
	if p := decl.Type.Params.List[0]; len(p.Names) == 1 && p.Names[0].Name != "_" {
		param = g.info.Defs[p.Names[0]]
	}
	uses := 0
	if param != nil && !writesTo(f.assignments(decl.Body), param) {
		e.rangeIdx = param
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && param != nil && g.info.Uses[id] == param {
			uses++
		}
		return true
	})
	var body strings.Builder
	for _, st := range decl.Body.List {
		body.WriteString(e.text(st) + "\n")
	}
	// The index's components step in row-major order, the last fastest; past the domain's
	// rank they stay 0 (ampN1, ampN2 are then 1).
	b.WriteString("ampI0, ampI1, ampI2, ampN1, ampN2 := ampimpl.Start3(ampDomain, ampLo)\n")
	returns := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		_, ok := n.(*ast.ReturnStmt)
		returns = returns || ok
		return !returns
	})
	if returns {
		b.WriteString("ampRange:\n")
	}
	b.WriteString("for ampJ := ampLo; ampJ < ampHi; ampJ, ampI0, ampI1, ampI2 = ampimpl.Next3(ampJ, ampI0, ampI1, ampI2, ampN1, ampN2) {\n")
	if uses > e.rangeUse { // Each's index is used whole, or written: a fresh copy per index
		fmt.Fprintf(&b, "%s := amprt.Index{ampI0, ampI1, ampI2}\n", param.Name())
	}
	b.WriteString(body.String())
	b.WriteString("}\n}\n")
	e.region = nil // a helper's return is its own
	for _, h := range e.helperSeq {
		e.helperMethod(&b, h)
	}
	return b.String(), f.err == nil
}

// tileBody writes the EachTile method of a tiled kernel by loop fission at its barriers.
func (g *cpuGen) tileBody(named *types.Named, decl *ast.FuncDecl) (string, *fissionError) {
	src, err := g.source(decl.Pos())
	if err != nil {
		return "", &fissionError{pos: decl.Pos(), msg: err.Error()}
	}
	f := &fission{pkgInfo: g.pkgInfo, decl: decl, tileV: map[types.Object]bool{}, statics: map[types.Object]bool{},
		tileS: map[ast.Stmt]bool{}, locals: map[types.Object]bool{}, barF: map[*types.Func]bool{}}
	if r := decl.Recv.List[0]; len(r.Names) == 1 {
		f.recv = g.info.Defs[r.Names[0]]
	}
	if p := decl.Type.Params.List[0]; len(p.Names) == 1 {
		f.tidx = g.info.Defs[p.Names[0]]
	}
	nodes := f.analyse()
	if f.err == nil && len(f.regions) == 0 {
		f.fail(decl.Pos(), "the body has no statement a thread runs")
	}
	e := &emitter{fission: f, g: g, src: src, lifted: map[types.Object]string{}, labels: map[int]string{}, named: named}
	if f.err == nil {
		e.checkNames()
	}
	if f.err != nil {
		return "", f.err
	}
	e.lift()
	e.plan()
	return e.method(named, nodes), f.err
}

// writesTo reports whether any of the assignments writes o (or an element of it).
func writesTo(as []assignment, o types.Object) bool {
	for _, a := range as {
		if slices.Contains(a.targets, o) {
			return true
		}
	}
	return false
}
