package translate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
)

// emitter writes the Go source of one fissioned tiled kernel. Statements are copied from
// the kernel's source with edits: the TiledIndex's fields become the tile's and thread's
// indices, tile_static allocations become make, the variables kept per thread become
// slice elements, and a thread's return ends its turn in the region loop.
type emitter struct {
	*fission
	g         *cpuGen
	src       []byte
	lifted    map[types.Object]string   // variable -> its per-thread slice
	remat     map[types.Object]ast.Expr // variable carried across barriers by recomputing it: its value
	labels    map[int]string            // region -> its loop's label, where a return needs one
	done      bool                      // a return before a later region: threads keep a done flag
	region    *fnode                    // the region being written
	views     map[types.Object]string   // view field -> its arrayview.Host in the body
	viewOrder []types.Object            // the view fields with a Host, in order of first use
	viewSel   map[*ast.SelectorExpr]string
	named     *types.Named
	helpers   map[*types.Func]*helper // kernel methods the body calls, copied to take Hosts
	scratch   []string                // element types of the buffers taken from runtime.Scratch, one per Scratch
	helperSeq []*helper
	// rangeIdx, in an EachRange body (hostRangeBody), is Each's index parameter where the
	// body never assigns it: its components are the scalars ampI0..ampI2.
	rangeIdx types.Object
	rangeUse int // the uses of rangeIdx written as the scalars
	// bare holds the expressions that stand bare in an if, for or switch header, where a
	// composite literal must be parenthesized to parse (bareInHeaders).
	bare map[ast.Node]bool
}

// helper is a kernel method that reads or writes views, called from the tiled body: the
// generated body calls a copy of it that takes the views' Hosts as its first parameters.
type helper struct {
	fn    *types.Func
	decl  *ast.FuncDecl
	recv  types.Object
	src   []byte
	name  string
	views []types.Object // the view fields it reaches, in order of first use
}

// checkNames fails when the body uses a name the generated body declares.
func (e *emitter) checkNames() {
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			for _, g := range genNames {
				if id.Name == g || strings.HasPrefix(id.Name, "ampRegion") || strings.HasPrefix(id.Name, "ampView") ||
					strings.HasPrefix(id.Name, "ampHeld") {
					e.fail(id.Pos(), "the name %s is one the generated body uses", id.Name)
				}
			}
		}
		return true
	})
}

// regionLocals returns the thread variables a region's statements refer to.
func (e *emitter) regionLocals(r *fnode) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, s := range r.stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if o := e.obj(id); e.locals[o] && !e.tileV[o] {
					out[o] = true
				}
			}
			return true
		})
	}
	return out
}

// lift chooses the variables kept in per-thread slices: those that more than one region
// refers to, and the others a := or var statement declares with one of them.
func (e *emitter) lift() {
	seen := map[types.Object]int{}
	for _, r := range e.regions {
		for o := range e.regionLocals(r) {
			seen[o]++
		}
	}
	lift := map[types.Object]bool{}
	for o, n := range seen {
		lift[o] = n > 1
	}
	byName := map[string]map[types.Object]bool{}
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if o := e.obj(id); o != nil {
				if byName[id.Name] == nil {
					byName[id.Name] = map[types.Object]bool{}
				}
				byName[id.Name][o] = true
			}
		}
		return true
	})
	var objs []types.Object
	for o, l := range lift {
		if l {
			objs = append(objs, o)
		}
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Pos() < objs[j].Pos() })
	e.remat = map[types.Object]ast.Expr{}
	for _, o := range objs { // in source order: a value may read variables recomputed before it
		if v := e.rematValue(o, byName); v != nil {
			e.remat[o] = v
		}
	}
	used := map[string]bool{}
	for _, o := range objs {
		if e.remat[o] != nil {
			continue
		}
		conflict := func(name string) bool {
			for x := range byName[name] {
				if x != o {
					return true
				}
			}
			return used[name]
		}
		name := o.Name() + "PerThread"
		for i := 2; conflict(name); i++ {
			name = fmt.Sprintf("%sPerThread%d", o.Name(), i)
		}
		used[name] = true
		e.lifted[o] = name
	}
}

// rematValue returns the value that defines o when o can be carried across barriers by
// recomputing it in each region that reads it instead of keeping it per thread (as
// OpenCL CPU compilers rematerialize the work-item id): o is defined once, by a := at the
// top of a region, from constants, the thread's and tile's indices, the kernel's scalar
// fields, tile variables written once and variables recomputed so themselves, with no
// call but conversions, min and max; and every name in the value means one object in the
// whole body, so that its text means the same wherever it is written again.
func (e *emitter) rematValue(o types.Object, byName map[string]map[types.Object]bool) ast.Expr {
	if e.writes[o] != 1 {
		return nil
	}
	var val ast.Expr
	for _, r := range e.regions {
		for _, s := range r.stmts {
			as, ok := s.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
				continue
			}
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && e.info.Defs[id] == o {
					val = as.Rhs[i]
				}
			}
		}
	}
	if val == nil {
		return nil
	}
	ok := every(val, func(n ast.Node) (bool, bool) {
		switch x := n.(type) {
		case *ast.Ident:
			return e.rematIdent(x, byName), true
		case *ast.SelectorExpr:
			if e.isTiledField(x, "Local", "Global", "Tile", "TileOrigin") {
				return true, false
			}
			id, isID := unparen(x.X).(*ast.Ident)
			f, isVar := e.info.Uses[x.Sel].(*types.Var)
			basic := false
			if isVar {
				_, basic = f.Type().Underlying().(*types.Basic)
			}
			return isID && e.recv != nil && e.obj(id) == e.recv && isVar && f.IsField() && basic && len(byName[id.Name]) == 1, false
		case *ast.IndexExpr:
			sel, isSel := unparen(x.X).(*ast.SelectorExpr)
			_, isConst := constIndex(e.info, x.Index)
			return isSel && isConst && e.isTiledField(sel, "Local", "Global", "Tile", "TileOrigin"), false
		case *ast.CallExpr:
			return e.info.Types[x.Fun].IsType() || e.isBuiltin(x.Fun, "min", "max"), true
		case *ast.BinaryExpr, *ast.UnaryExpr, *ast.ParenExpr, *ast.BasicLit:
			return true, true
		}
		return false, false
	})
	if !ok {
		return nil
	}
	return val
}

// rematIdent reports whether identifier x may appear in a recomputed value (rematValue).
func (e *emitter) rematIdent(x *ast.Ident, byName map[string]map[types.Object]bool) bool {
	switch o := e.obj(x).(type) {
	case *types.Const, *types.TypeName, *types.Builtin, *types.Nil:
		return o.Parent() == types.Universe || o.Parent() == e.pkg.Scope() || len(byName[x.Name]) == 1
	case *types.Var:
		if len(byName[x.Name]) != 1 {
			return false
		}
		return (e.tileV[o] && e.writes[o] == 1) || e.remat[o] != nil
	}
	return false
}

// isBuiltin reports whether fun names one of the builtins given.
func (e *emitter) isBuiltin(fun ast.Expr, names ...string) bool {
	id, ok := unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	if _, b := e.obj(id).(*types.Builtin); !b {
		return false
	}
	for _, n := range names {
		if id.Name == n {
			return true
		}
	}
	return false
}

// plan decides the done flags, the labels and which indices the regions need.
func (e *emitter) plan() {
	for _, r := range e.regions {
		for _, s := range r.stmts {
			e.scanRegion(r, s)
		}
	}
	e.views, e.viewSel = map[types.Object]string{}, map[*ast.SelectorExpr]string{}
	e.helpers = map[*types.Func]*helper{}
	e.bare = map[ast.Node]bool{}
	bareInHeaders(e.decl.Body, e.bare)
	ast.Inspect(e.decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			e.noteHelper(c)
			if f, fsel := e.viewAccess(c); f != nil {
				if e.views[f] == "" {
					e.views[f] = "ampView" + f.Name()
					e.viewOrder = append(e.viewOrder, f)
				}
				e.viewSel[fsel] = e.views[f]
			}
		}
		return true
	})
}

// viewAccess returns the kernel's view field that c calls At or Set of (k.V.At(i),
// k.V.Set(i, x)) and the field's selector, or nil: the generated body reads and writes
// such a view through its arrayview.Host.
func (e *emitter) viewAccess(c *ast.CallExpr) (types.Object, *ast.SelectorExpr) {
	sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "At" && sel.Sel.Name != "Set") {
		return nil, nil
	}
	m, ok := e.info.Uses[sel.Sel].(*types.Func)
	if !ok || m.Pkg() == nil || m.Pkg().Path() != arrayviewPath {
		return nil, nil
	}
	fsel, ok := unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	id, ok := unparen(fsel.X).(*ast.Ident)
	if !ok || e.recv == nil || e.obj(id) != e.recv {
		return nil, nil
	}
	f, ok := e.info.Uses[fsel.Sel].(*types.Var)
	if !ok || !f.IsField() {
		return nil, nil
	}
	return f, fsel
}

// scanRegion looks through one statement of region r for returns.
func (e *emitter) scanRegion(r *fnode, s ast.Stmt) {
	inspectLoops(s, 0, func(x ast.Node, loops int) bool {
		if _, ok := x.(*ast.ReturnStmt); ok {
			if r.inLoop || r.id != len(e.regions)-1 {
				e.done = true
			}
			if loops > 0 {
				e.labels[r.id] = fmt.Sprintf("ampRegion%d", r.id)
			}
		}
		return true
	})
}

// isTiledField reports whether sel is t.F for one of the field names given.
func (e *emitter) isTiledField(sel *ast.SelectorExpr, names ...string) bool {
	id, ok := unparen(sel.X).(*ast.Ident)
	if !ok || e.obj(id) != e.tidx {
		return false
	}
	for _, n := range names {
		if sel.Sel.Name == n {
			return true
		}
	}
	return false
}

// method writes the whole EachTile method.
func (e *emitter) method(named *types.Named, nodes []*fnode) string {
	recv, _ := recvText(e.src, e.fset, e.decl, "_")
	var b strings.Builder
	fmt.Fprintf(&b, "// EachTile is %s's fast CPU body (runtime.TileKernel), generated by ampgen from its Tiled\n", named.Obj().Name())
	b.WriteString("// method: the body split at its barriers into loops over the tile's threads.\n")
	fmt.Fprintf(&b, "func (%s) EachTile(ampDomain amprt.TiledExtent, ampTile amprt.Index) {\n", recv)
	var body strings.Builder
	e.nodes(&body, nodes)
	var perThread strings.Builder
	if e.done {
		fmt.Fprintf(&perThread, "ampDone := %s // threads that returned\n", e.buffer("bool", "ampSize"))
	}
	for _, o := range e.liftedOrder() {
		fmt.Fprintf(&perThread, "%s := %s\n", e.lifted[o], e.buffer(e.typeText(o.Type()), "ampSize"))
	}
	code := body.String()
	frameVars(&b, perThread.String()+code)
	e.viewHosts(&b)
	if len(e.scratch) > 0 { // the buffers' holder, declared before any is taken
		b.WriteString("var ampHeld amprt.Held\ndefer ampHeld.Release() // the buffers go back for later tiles\n")
	}
	b.WriteString(perThread.String())
	b.WriteString(code)
	b.WriteString("}\n")
	for i, t := range e.scratch {
		fmt.Fprintf(&b, "\n// %s keeps the []%s buffers of %s's EachTile for later tiles.\nvar %s amprt.Scratch[%s]\n",
			e.scratchVar(i), t, named.Obj().Name(), e.scratchVar(i), t)
	}
	for _, h := range e.helperSeq {
		e.helperMethod(&b, h)
	}
	return b.String()
}

// frameVars declares the scalars of the tile's frame (runtime/ampimpl.Frame) that the
// generated code uses, in one statement: the tile's size, its origin and its dimensions,
// 1 past its rank, which bound the loops over its threads.
func frameVars(b *strings.Builder, code string) {
	names := []string{"ampSize", "ampO0", "ampO1", "ampO2", "ampN0", "ampN1", "ampN2"}
	used := false
	for i, n := range names {
		if !usesName(code, n) {
			names[i] = "_"
			continue
		}
		used = true
	}
	if used {
		fmt.Fprintf(b, "%s := ampimpl.Frame(ampDomain, ampTile)\n", strings.Join(names, ", "))
	}
}

// viewHosts declares the kernel's views' arrayview.Hosts, which the generated bodies read
// and write instead of the views, in one statement.
func (e *emitter) viewHosts(b *strings.Builder) {
	if len(e.viewOrder) == 0 {
		return
	}
	names := make([]string, len(e.viewOrder))
	hosts := make([]string, len(e.viewOrder))
	for i, f := range e.viewOrder {
		names[i], hosts[i] = e.views[f], fmt.Sprintf("%s.%s.KernelHost()", e.recv.Name(), f.Name())
	}
	fmt.Fprintf(b, "%s := %s\n", strings.Join(names, ", "), strings.Join(hosts, ", "))
}

// usesName reports whether the generated code holds the identifier name.
func usesName(code, name string) bool {
	for i := strings.Index(code, name); i >= 0; {
		end := i + len(name)
		if (i == 0 || !isIdentByte(code[i-1])) && (end == len(code) || !isIdentByte(code[end])) {
			return true
		}
		j := strings.Index(code[end:], name)
		if j < 0 {
			return false
		}
		i = end + j
	}
	return false
}

// isIdentByte reports whether c may be part of a Go identifier (ASCII).
func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// typeText writes a type as the generated file names it.
func (e *emitter) typeText(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == e.pkg {
			return ""
		}
		return e.g.importName(p)
	})
}

// nodes writes tile-level nodes.
func (e *emitter) nodes(b *strings.Builder, nodes []*fnode) {
	for _, n := range nodes {
		switch n.kind {
		case nRegion:
			e.writeRegion(b, n)
		case nTile:
			b.WriteString(e.text(n.stmt) + "\n")
		case nBlock:
			b.WriteString("{\n")
			e.nodes(b, n.body)
			b.WriteString("}\n")
		case nIf:
			if len(n.body) == 0 && len(n.els) == 0 {
				continue // only barriers: a uniform condition has no effect to keep
			}
			s := n.stmt.(*ast.IfStmt)
			b.WriteString("if ")
			if s.Init != nil {
				b.WriteString(e.text(s.Init) + "; ")
			}
			b.WriteString(e.text(s.Cond) + " {\n")
			e.nodes(b, n.body)
			if s.Else != nil {
				b.WriteString("} else {\n")
				e.nodes(b, n.els)
			}
			b.WriteString("}\n")
		case nFor:
			if n.label != "" {
				b.WriteString(n.label + ":\n")
			}
			b.WriteString(e.loopHead(n.stmt) + " {\n")
			e.nodes(b, n.body)
			b.WriteString("}\n")
		}
	}
}

// loopHead writes the head of a tile-level for or range loop.
func (e *emitter) loopHead(s ast.Stmt) string {
	if r, ok := s.(*ast.RangeStmt); ok {
		if n := e.arrayKeys(r); n >= 0 { // the array may be per thread: its length is not
			if r.Key == nil || isBlank(r.Key) {
				return fmt.Sprintf("for range %d", n)
			}
			return fmt.Sprintf("for %s %s range %d", e.text(r.Key), r.Tok, n)
		}
		if r.Key == nil {
			return "for range " + e.text(r.X)
		}
		vars := e.text(r.Key)
		if r.Value != nil {
			vars += ", " + e.text(r.Value)
		}
		return "for " + vars + " " + r.Tok.String() + " range " + e.text(r.X)
	}
	f := s.(*ast.ForStmt)
	part := func(n ast.Node) string {
		if n == nil || isNilNode(n) {
			return ""
		}
		return e.text(n)
	}
	if f.Init == nil && f.Post == nil {
		if f.Cond == nil {
			return "for"
		}
		return "for " + e.text(f.Cond)
	}
	return "for " + part(f.Init) + "; " + part(f.Cond) + "; " + part(f.Post)
}

// isNilNode reports whether an interface holds a nil node.
func isNilNode(n ast.Node) bool {
	switch x := n.(type) {
	case ast.Expr:
		return x == nil
	case ast.Stmt:
		return x == nil
	}
	return false
}

// writeRegion writes one region: its hoisted tile statements, then its loop over the
// tile's threads.
func (e *emitter) writeRegion(b *strings.Builder, r *fnode) {
	for _, s := range r.pre {
		b.WriteString(e.text(s) + "\n")
	}
	e.region = r
	uses := map[string]bool{}
	for _, s := range r.stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && e.isTiledField(sel, "Local", "Global") {
				uses[sel.Sel.Name] = true
			}
			return true
		})
	}
	var inner strings.Builder
	e.regionBody(&inner, r)
	code := inner.String()
	nested := uses["Local"] || uses["Global"] // or a recomputed variable does
	for _, n := range []string{"ampI0", "ampI1", "ampI2", "ampG0", "ampG1", "ampG2"} {
		nested = nested || usesName(code, n)
	}
	useL := usesName(code, "ampL")
	loop := func(c int) { // the loop over dimension c of the tile, and the global component
		i, g := fmt.Sprintf("ampI%d", c), fmt.Sprintf("ampG%d", c)
		switch {
		case usesName(code, g): // the global component steps with the local one
			fmt.Fprintf(b, "for %s, %s := 0, ampO%d; %s < ampN%d; %s, %s = %s+1, %s+1 {\n", i, g, c, i, c, i, g, i, g)
		case useL || usesName(code, i):
			fmt.Fprintf(b, "for %s := range ampN%d {\n", i, c)
		default:
			fmt.Fprintf(b, "for range ampN%d {\n", c)
		}
	}
	if nested {
		// One loop per dimension of the tile; each global component is computed in its
		// loop, once per value of the loop variable.
		loop(0)
		loop(1)
	}
	if l := e.labels[r.id]; l != "" {
		b.WriteString(l + ":\n")
	}
	switch {
	case nested:
		loop(2)
		if useL {
			b.WriteString("ampL := (ampI0*ampN1+ampI1)*ampN2 + ampI2\n")
		}
	case useL:
		b.WriteString("for ampL := range ampSize {\n")
	default:
		b.WriteString("for range ampSize {\n")
	}
	b.WriteString(code)
	b.WriteString("}\n")
	if nested {
		b.WriteString("}\n}\n")
	}
	e.region = nil
}

// regionBody writes the statements of region r that one thread runs, inside the loop over
// the tile's threads: what uses says it reads of its index, its carried variables loaded,
// its statements, its carried variables stored.
func (e *emitter) regionBody(b *strings.Builder, r *fnode) {
	if e.done {
		b.WriteString("if ampDone[ampL] {\ncontinue\n}\n")
	}
	load, store := e.carried(r)
	for _, o := range load {
		if v := e.remat[o]; v != nil {
			fmt.Fprintf(b, "%s := %s\n", o.Name(), e.text(v))
			continue
		}
		fmt.Fprintf(b, "%s := %s[ampL]\n", o.Name(), e.lifted[o])
	}
	unused := e.unusedRemat(r)
	for _, s := range r.stmts {
		if as, ok := s.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && e.allUnused(as, unused) {
			continue // it defines only recomputed variables that this region does not read
		}
		b.WriteString(e.text(s) + "\n")
	}
	for _, o := range e.carriedOrder() {
		if unused[o] && !e.droppedDef(r, o, unused) {
			fmt.Fprintf(b, "_ = %s // recomputed where it is read\n", o.Name())
		}
	}
	for _, o := range store {
		fmt.Fprintf(b, "%s[ampL] = %s\n", e.lifted[o], o.Name())
	}
}

// carried returns the per-thread variables region r loads at its start (those it uses
// but does not declare) and stores at its end (those it declares or writes), in source
// order. A thread that returns skips the stores: no later region runs for it.
func (e *emitter) carried(r *fnode) (load, store []types.Object) {
	declared, written := map[types.Object]bool{}, map[types.Object]bool{}
	for _, s := range r.stmts {
		ast.Inspect(s, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if o := e.info.Defs[id]; o != nil {
					declared[o] = true
				}
			}
			return true
		})
	}
	for _, a := range e.assigns {
		for _, o := range a.targets {
			if e.inRegion(r, a.stmt) {
				written[o] = true
			}
		}
	}
	refs := e.regionLocals(r)
	for changed := true; changed; { // a recomputed value reads the variables it is made of
		changed = false
		for o := range refs {
			if v := e.remat[o]; v != nil && !declared[o] {
				ast.Inspect(v, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && e.remat[e.obj(id)] != nil && !refs[e.obj(id)] {
						refs[e.obj(id)] = true
						changed = true
					}
					return true
				})
			}
		}
	}
	for _, o := range e.carriedOrder() {
		if !refs[o] {
			continue
		}
		if e.remat[o] != nil {
			if !declared[o] {
				load = append(load, o)
			}
			continue
		}
		if !declared[o] {
			load = append(load, o)
			for _, s := range r.stmts {
				if d, ok := s.(*ast.AssignStmt); ok && d.Tok == token.DEFINE {
					for _, l := range d.Lhs {
						if id, ok := l.(*ast.Ident); ok && id.Name == o.Name() && e.info.Defs[id] != nil {
							e.fail(id.Pos(), "%s is declared again beside a use of an outer %s across a barrier", id.Name, id.Name)
						}
					}
				}
			}
		}
		if declared[o] || written[o] {
			store = append(store, o)
		}
	}
	return load, store
}

// inRegion reports whether statement s lies inside region r.
func (e *emitter) inRegion(r *fnode, s ast.Stmt) bool {
	for _, x := range r.stmts {
		if s.Pos() >= x.Pos() && s.End() <= x.End() {
			return true
		}
	}
	return false
}

// carriedOrder returns the variables carried across barriers, per thread or recomputed,
// in source order.
func (e *emitter) carriedOrder() []types.Object {
	objs := e.liftedOrder()
	for o := range e.remat {
		objs = append(objs, o)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Pos() < objs[j].Pos() })
	return objs
}

// liftedOrder returns the per-thread variables in source order.
func (e *emitter) liftedOrder() []types.Object {
	var objs []types.Object
	for o := range e.lifted {
		objs = append(objs, o)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Pos() < objs[j].Pos() })
	return objs
}

// edit replaces the source bytes start..end.
type edit struct {
	start, end int
	text       string
}

// off returns the offset of pos in its file.
func (e *emitter) off(pos token.Pos) int { return e.fset.Position(pos).Offset }

// text returns the source of n with the generated body's edits.
func (e *emitter) text(n ast.Node) string {
	var edits []edit
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil {
			return false
		}
		if r, ok := e.replace(x); ok {
			edits = append(edits, edit{e.off(x.Pos()), e.off(x.End()), r})
			return false
		}
		return true
	})
	start, end := e.off(n.Pos()), e.off(n.End())
	var b strings.Builder
	for _, ed := range edits {
		b.Write(e.src[start:ed.start])
		b.WriteString(ed.text)
		start = ed.end
	}
	b.Write(e.src[start:end])
	return b.String()
}

// literal returns text, which replaces x and may be a composite literal, in parentheses
// where x stands bare in a statement's header: `if j := runtime.Idx(a, b); ...` becomes
// `if j := (amprt.Index{a, b}); ...`, which parses, where the bare literal does not.
func (e *emitter) literal(x ast.Node, text string) string {
	if e.bare[x] && strings.HasSuffix(text, "}") {
		return "(" + text + ")"
	}
	return text
}

// bareInHeaders adds to bare the expressions under n that stand in the header of an if,
// for, range or switch statement outside any parentheses, brackets or braces: Go's
// grammar reads a composite literal there as the statement's block.
func bareInHeaders(n ast.Node, bare map[ast.Node]bool) {
	var mark func(x ast.Node)
	mark = func(x ast.Node) {
		ast.Inspect(x, func(y ast.Node) bool {
			switch z := y.(type) {
			case nil, *ast.ParenExpr, *ast.FuncLit:
				return false
			case *ast.CallExpr: // the arguments are enclosed
				bare[z] = true
				mark(z.Fun)
				return false
			case *ast.IndexExpr:
				mark(z.X)
				return false
			case *ast.CompositeLit:
				return false
			}
			bare[y] = true
			return true
		})
	}
	ast.Inspect(n, func(y ast.Node) bool {
		var parts []ast.Node
		switch s := y.(type) {
		case *ast.IfStmt:
			parts = []ast.Node{s.Init, s.Cond}
		case *ast.ForStmt:
			parts = []ast.Node{s.Init, s.Cond, s.Post}
		case *ast.RangeStmt:
			parts = []ast.Node{s.Key, s.Value, s.X}
		case *ast.SwitchStmt:
			parts = []ast.Node{s.Init, s.Tag}
		}
		for _, p := range parts {
			if p != nil { // the fields are interfaces: an absent part is nil
				mark(p)
			}
		}
		return true
	})
}

// constantOfVariable returns, for a constant expression that names a variable (len of an
// array), its value: the variable may be a per-thread one that the code around it, at
// tile level, does not declare.
func (e *emitter) constantOfVariable(x ast.Node) (string, bool) {
	ex, ok := x.(ast.Expr)
	if !ok {
		return "", false
	}
	tv := e.info.Types[ex]
	if tv.Value == nil {
		return "", false
	}
	names := false
	ast.Inspect(ex, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			_, isVar := e.info.Uses[id].(*types.Var)
			names = names || isVar
		}
		return !names
	})
	if !names {
		return "", false
	}
	if b, ok := tv.Type.(*types.Basic); ok && (b.Info()&types.IsUntyped != 0 || b.Kind() == types.Int) {
		return tv.Value.ExactString(), true
	}
	return e.typeText(tv.Type) + "(" + tv.Value.ExactString() + ")", true
}

// replace returns the generated text of node x where it differs from the source.
func (e *emitter) replace(x ast.Node) (string, bool) {
	if c, ok := e.constantOfVariable(x); ok {
		return c, true
	}
	switch y := x.(type) {
	case *ast.Ident:
		if pn, ok := e.obj(y).(*types.PkgName); ok {
			return e.g.importName(pn.Imported()), true
		}
	case *ast.IndexExpr:
		if n := e.indexComponent(y); n != "" {
			return n, true
		}
	case *ast.SelectorExpr:
		if h := e.viewSel[y]; h != "" {
			return h, true
		}
		if e.isTiledField(y, "Local", "Global", "Tile", "TileOrigin", "TileExtent") {
			return e.literal(y, map[string]string{"Local": "amprt.Index{ampI0, ampI1, ampI2}", "Global": "amprt.Index{ampG0, ampG1, ampG2}",
				"Tile": "ampTile", "TileOrigin": "ampimpl.TileOrigin(ampDomain, ampTile)", "TileExtent": "ampDomain.Tile"}[y.Sel.Name]), true
		}
	case *ast.CallExpr:
		if s, ok := e.viewCall3(y); ok {
			return s, true
		}
		if h := e.helperOf(y); h != nil {
			args := make([]string, 0, len(h.views)+len(y.Args))
			for _, f := range h.views {
				args = append(args, "&"+e.views[f])
			}
			for _, a := range y.Args {
				args = append(args, e.text(a))
			}
			return e.text(unparen(y.Fun).(*ast.SelectorExpr).X) + "." + h.name + "(" + strings.Join(args, ", ") + ")", true
		}
		if e.runtimeFunc(y.Fun, "Idx") && len(y.Args) <= 3 && !y.Ellipsis.IsValid() {
			args := make([]string, len(y.Args))
			for i, a := range y.Args {
				args[i] = e.text(a)
			}
			return e.literal(y, "amprt.Index{"+strings.Join(args, ", ")+"}"), true
		}
		if e.isTileStatic(y) {
			return e.buffer(e.text(unparen(y.Fun).(*ast.IndexExpr).Index), e.text(y.Args[1])), true
		}
	case *ast.ExprStmt:
		if e.isFenceStmt(y) {
			return "", true
		}
		if s, ok := e.tileAtomic(y); ok {
			return s, true
		}
	case *ast.RangeStmt:
		if s, ok := e.unroll(y); ok {
			return s, true
		}
	case *ast.ReturnStmt:
		if e.region != nil {
			s := "continue " + e.labels[e.region.id]
			if e.done {
				s = "ampDone[ampL] = true\n" + s
			}
			return s, true
		}
	}
	return "", false
}

// noteHelper records c when it calls a kernel method that reads or writes the kernel's
// views and that the generated body can call a copy of (see helper): a method of a
// kernel type without type parameters, with a named receiver that its body uses only to
// select fields, and that calls no other method of the kernel.
func (e *emitter) noteHelper(c *ast.CallExpr) {
	sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || e.recv == nil || e.named == nil || e.named.TypeParams().Len() > 0 {
		return
	}
	id, ok := unparen(sel.X).(*ast.Ident)
	fn, isFn := e.info.Uses[sel.Sel].(*types.Func)
	if !ok || !isFn || e.obj(id) != e.recv || e.helpers[fn] != nil {
		return
	}
	decl := e.funcs[fn]
	if decl == nil || decl.Body == nil || decl.Recv == nil || len(decl.Recv.List[0].Names) != 1 {
		return
	}
	h := &helper{fn: fn, decl: decl, recv: e.info.Defs[decl.Recv.List[0].Names[0]],
		name: "ampHost" + fn.Name()}
	if h.recv == nil || e.named.Obj().Pkg().Scope().Lookup(h.name) != nil || hasMethod(e.named, h.name) {
		return
	}
	src, err := e.g.source(decl.Pos())
	if err != nil {
		return
	}
	h.src = src
	bareInHeaders(decl.Body, e.bare)
	if !e.helperOK(h) || len(h.views) == 0 {
		return
	}
	e.helpers[fn] = h
	e.helperSeq = append(e.helperSeq, h)
	for _, f := range h.views {
		if e.views[f] == "" {
			e.views[f] = "ampView" + f.Name()
			e.viewOrder = append(e.viewOrder, f)
		}
	}
}

// hasMethod reports whether named has a method called name.
func hasMethod(named *types.Named, name string) bool {
	for i := range named.NumMethods() {
		if named.Method(i).Name() == name {
			return true
		}
	}
	return false
}

// helperOK checks h's body: its receiver only selects fields, it calls no method of the
// kernel, and it uses no name of the generated body; it records the views it reaches.
func (e *emitter) helperOK(h *helper) bool {
	ok := true
	saved := e.recv
	e.recv = h.recv
	defer func() { e.recv = saved }()
	ast.Inspect(h.decl.Type, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && strings.HasPrefix(id.Name, "amp") {
			ok = false
		}
		return ok
	})
	ast.Inspect(h.decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if strings.HasPrefix(x.Name, "amp") {
				ok = false
			}
		case *ast.CallExpr:
			if f, fsel := e.viewAccess(x); f != nil {
				if !slicesContains(h.views, f) {
					h.views = append(h.views, f)
				}
				e.viewSel[fsel] = "ampView" + f.Name()
				for _, a := range x.Args {
					ok = ok && e.helperArgOK(a, h)
				}
				return false
			}
		}
		good, descend := e.selectionOK(n, h)
		ok = ok && good
		return ok && descend
	})
	return ok
}

// helperArgOK reports whether expression a of h uses h's receiver only to select fields.
func (e *emitter) helperArgOK(a ast.Expr, h *helper) bool {
	return every(a, func(m ast.Node) (bool, bool) { return e.selectionOK(m, h) })
}

// selectionOK checks node n of h (receiverUseOK) and says whether to look inside it: not
// inside a selection from the receiver, which receiverUseOK has judged whole.
func (e *emitter) selectionOK(n ast.Node, h *helper) (ok, descend bool) {
	if sel, isSel := n.(*ast.SelectorExpr); isSel {
		if id, isID := unparen(sel.X).(*ast.Ident); isID && e.obj(id) == h.recv {
			return e.receiverUseOK(n, h), false
		}
	}
	return e.receiverUseOK(n, h), true
}

// receiverUseOK reports whether n is no use of h's receiver other than a field selection.
func (e *emitter) receiverUseOK(n ast.Node, h *helper) bool {
	switch x := n.(type) {
	case *ast.SelectorExpr:
		if id, ok := unparen(x.X).(*ast.Ident); ok && e.obj(id) == h.recv {
			v, isVar := e.info.Uses[x.Sel].(*types.Var)
			return isVar && v.IsField()
		}
	case *ast.Ident:
		return e.obj(x) != h.recv
	}
	return true
}

// slicesContains reports whether s holds o.
func slicesContains(s []types.Object, o types.Object) bool {
	for _, x := range s {
		if x == o {
			return true
		}
	}
	return false
}

// helperOf returns the helper c calls, or nil.
func (e *emitter) helperOf(c *ast.CallExpr) *helper {
	sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fn, _ := e.info.Uses[sel.Sel].(*types.Func)
	if fn == nil {
		return nil
	}
	return e.helpers[fn]
}

// helperMethod writes the copy of h that takes the Hosts of its views.
func (e *emitter) helperMethod(b *strings.Builder, h *helper) {
	savedSrc, savedRecv := e.src, e.recv
	e.src, e.recv = h.src, h.recv
	defer func() { e.src, e.recv = savedSrc, savedRecv }()
	recv, _ := recvText(h.src, e.fset, h.decl, "_")
	params := make([]string, 0, len(h.views)+1)
	for _, f := range h.views {
		vt := f.Type().(*types.Pointer).Elem().(*types.Named)
		params = append(params, e.views[f]+" *"+e.g.importName(vt.Obj().Pkg())+".Host["+e.typeText(vt.TypeArgs().At(0))+"]")
	}
	if ps := e.text(h.decl.Type.Params); len(ps) > 2 {
		params = append(params, ps[1:len(ps)-1])
	}
	results := ""
	if h.decl.Type.Results != nil {
		results = " " + e.text(h.decl.Type.Results)
	}
	fmt.Fprintf(b, "\n// %s is %s with its views read and written through their arrayview.Host, for EachTile.\n", h.name, h.fn.Name())
	fmt.Fprintf(b, "func (%s) %s(%s)%s %s\n", recv, h.name, strings.Join(params, ", "), results, e.text(h.decl.Body))
}

// indexComponent returns the generated body's scalar for t.Local[c], t.Global[c] or
// t.TileOrigin[c] with c a constant 0..2 (ampI0, ampG1, ampO2, ...), or "".
func (e *emitter) indexComponent(x *ast.IndexExpr) string {
	if id, ok := unparen(x.X).(*ast.Ident); ok && e.rangeIdx != nil && e.obj(id) == e.rangeIdx {
		if c, ok := constIndex(e.info, x.Index); ok {
			e.rangeUse++
			return fmt.Sprintf("ampI%d", c)
		}
		return ""
	}
	sel, ok := unparen(x.X).(*ast.SelectorExpr)
	if !ok || !e.isTiledField(sel, "Local", "Global", "TileOrigin") {
		return ""
	}
	c, ok := constIndex(e.info, x.Index)
	if !ok {
		return ""
	}
	return map[string]string{"Local": "ampI", "Global": "ampG", "TileOrigin": "ampO"}[sel.Sel.Name] + fmt.Sprint(c)
}

// constIndex returns the value of a constant index expression 0..2.
func constIndex(info *types.Info, x ast.Expr) (int, bool) {
	tv, ok := info.Types[x]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact || v < 0 || v > 2 {
		return 0, false
	}
	return int(v), true
}

// viewCall3 writes a view's At or Set whose index is t.Global, t.Local or runtime.Idx of
// one to three values as the Host's At1..At3 or Set1..Set3 with the components as
// scalars, so that no Index is built in memory for it.
func (e *emitter) viewCall3(c *ast.CallExpr) (string, bool) {
	sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || len(c.Args) == 0 {
		return "", false
	}
	fsel, ok := unparen(sel.X).(*ast.SelectorExpr)
	if !ok || e.viewSel[fsel] == "" {
		return "", false
	}
	var comps []string
	switch ix := unparen(c.Args[0]).(type) {
	case *ast.SelectorExpr:
		switch {
		case e.isTiledField(ix, "Global"):
			comps = []string{"ampG0", "ampG1", "ampG2"}
		case e.isTiledField(ix, "Local"):
			comps = []string{"ampI0", "ampI1", "ampI2"}
		}
	case *ast.Ident:
		if e.rangeIdx != nil && e.obj(ix) == e.rangeIdx {
			comps = []string{"ampI0", "ampI1", "ampI2"}
			e.rangeUse++
		}
	case *ast.CallExpr:
		if e.runtimeFunc(ix.Fun, "Idx") && len(ix.Args) >= 1 && len(ix.Args) <= 3 && !ix.Ellipsis.IsValid() {
			for _, a := range ix.Args { // the components left out are 0: At1, At2 check fewer
				comps = append(comps, e.text(a))
			}
		}
	}
	if comps == nil {
		return "", false
	}
	args := comps
	for _, a := range c.Args[1:] {
		args = append(args, e.text(a))
	}
	return fmt.Sprintf("%s.%s%d(%s)", e.viewSel[fsel], sel.Sel.Name, len(comps), strings.Join(args, ", ")), true
}

// unusedRemat returns the recomputed variables that region r defines and never reads,
// reads in statements that are left out (allUnused) not counting: a recomputed variable
// read only to define another unused one is unused too.
func (e *emitter) unusedRemat(r *fnode) map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, st := range r.stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if o := e.info.Defs[id]; o != nil && e.remat[o] != nil {
					out[o] = true
				}
			}
			return true
		})
	}
	for changed := true; changed; { // shrinks to the largest set whose left-out statements read no other
		changed = false
		for _, st := range r.stmts {
			if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && e.allUnused(as, out) {
				continue
			}
			ast.Inspect(st, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && out[e.info.Uses[id]] {
					delete(out, e.info.Uses[id])
					changed = true
				}
				return true
			})
		}
	}
	return out
}

// allUnused reports whether every variable a := defines is one of unused (or blank).
func (e *emitter) allUnused(as *ast.AssignStmt, unused map[types.Object]bool) bool {
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || (id.Name != "_" && !unused[e.info.Defs[id]]) {
			return false
		}
	}
	return true
}

// droppedDef reports whether region r leaves out the statement that defines o (allUnused).
func (e *emitter) droppedDef(r *fnode, o types.Object, unused map[types.Object]bool) bool {
	for _, s := range r.stmts {
		if as, ok := s.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && e.allUnused(as, unused) {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && e.info.Defs[id] == o {
					return true
				}
			}
		}
	}
	return false
}

// buffer returns the expression that makes a tile's slice of n elements of type typ: a
// make where n is a constant (the compiler keeps it on the stack) or the kernel is
// generic (a package-level Scratch cannot name its type parameters), else a buffer
// taken from a package-level runtime.Scratch, which EachTile hands back when it returns.
// The kernel's buffers of one element type share one Scratch: most are a slice per
// thread, all of the tile's size, and a buffer too short for a later tile is replaced.
func (e *emitter) buffer(typ, n string) string {
	i := slices.Index(e.scratch, typ)
	if tv, err := types.Eval(e.fset, e.pkg, token.NoPos, n); (err == nil && tv.Value != nil) || e.named.TypeParams().Len() > 0 ||
		i < 0 && e.pkg.Scope().Lookup(e.scratchVar(len(e.scratch))) != nil {
		return "make([]" + typ + ", " + n + ")"
	}
	if i < 0 {
		e.scratch, i = append(e.scratch, typ), len(e.scratch)
	}
	return fmt.Sprintf("%s.Take(&ampHeld, %s)", e.scratchVar(i), n)
}

// scratchVar returns the name of the package-level runtime.Scratch of the kernel's
// buffers of element type i (e.scratch).
func (e *emitter) scratchVar(i int) string {
	return fmt.Sprintf("ampScratch%s%d", e.named.Obj().Name(), i)
}

// tileAtomicOps are the statements that the runtime's atomics on tile_static memory
// become in the generated body, by function name (%[1]s the element, %[2]s the value).
var tileAtomicOps = map[string]string{"AtomicAdd": "%[1]s += %[2]s", "AtomicSub": "%[1]s -= %[2]s",
	"AtomicMin": "%[1]s = min(%[1]s, %[2]s)", "AtomicMax": "%[1]s = max(%[1]s, %[2]s)", "AtomicAnd": "%[1]s &= %[2]s",
	"AtomicOr": "%[1]s |= %[2]s", "AtomicXor": "%[1]s ^= %[2]s", "AtomicExchange": "%[1]s = %[2]s"}

// tileAtomic writes a statement runtime.AtomicAdd(s, i, x) (or Sub, Min, Max, And, Or,
// Xor, Exchange; its old value unused) on a tile_static slice s as the plain update
// s[i] += x: a tile's memory is only touched by the one goroutine that runs the tile's
// generated body, so the update needs no atomic instruction. The index must be free of
// calls (it is written twice for Min and Max).
func (e *emitter) tileAtomic(st *ast.ExprStmt) (string, bool) {
	c, ok := unparen(st.X).(*ast.CallExpr)
	if !ok || len(c.Args) != 3 || e.region == nil {
		return "", false
	}
	fun := unparen(c.Fun)
	if ix, isIx := fun.(*ast.IndexExpr); isIx { // an explicit instantiation
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || tileAtomicOps[sel.Sel.Name] == "" || !e.runtimeFunc(sel, sel.Sel.Name) {
		return "", false
	}
	id, ok := unparen(c.Args[0]).(*ast.Ident)
	if !ok || !e.statics[e.obj(id)] {
		return "", false
	}
	pure := true
	ast.Inspect(c.Args[1], func(n ast.Node) bool {
		if call, isCall := n.(*ast.CallExpr); isCall && !e.info.Types[call.Fun].IsType() {
			pure = false
		}
		return pure
	})
	if !pure {
		return "", false
	}
	elem := e.text(id) + "[" + e.text(c.Args[1]) + "]"
	return fmt.Sprintf(tileAtomicOps[sel.Sel.Name], elem, e.text(c.Args[2])), true
}

// unrollBy is how many iterations of a short constant loop one pass of its unrolled loop
// runs (unroll).
const unrollBy = 4

// unroll writes a range loop of a region over a constant count that is a multiple of
// unrollBy, whose body holds no loop and no break or continue, unrolled: each pass runs
// unrollBy copies of the body, each in its own block with its own loop variable. The Go
// compiler does not unroll loops; for MatMul's 16-step dot product this saves a fifth of
// the body's time.
func (e *emitter) unroll(r *ast.RangeStmt) (string, bool) {
	tv, ok := e.info.Types[r.X]
	if e.region == nil || !ok || tv.Value == nil || r.Value != nil || r.Tok == token.ASSIGN {
		return "", false
	}
	n, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact || n < unrollBy || n%unrollBy != 0 || n > 1<<16 {
		return "", false
	}
	simple := true
	ast.Inspect(r.Body, func(x ast.Node) bool {
		switch x.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.BranchStmt, *ast.LabeledStmt:
			simple = false
		}
		return simple
	})
	if !simple {
		return "", false
	}
	key, conv := "", ""
	if id, ok := r.Key.(*ast.Ident); ok && id.Name != "_" {
		if o := e.info.Defs[id]; o != nil && e.usedIn(o, r.Body) {
			key = id.Name
			if t := e.typeText(o.Type()); t != "int" {
				conv = t // the count's type, where the constant is typed
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "for ampJ := 0; ampJ < %s; ampJ += %d {\n", e.text(r.X), unrollBy)
	for u := range unrollBy {
		b.WriteString("{\n")
		if key != "" {
			v := "ampJ"
			if u > 0 {
				v = fmt.Sprintf("ampJ + %d", u)
			}
			if conv != "" {
				v = conv + "(" + v + ")"
			}
			fmt.Fprintf(&b, "%s := %s\n", key, v)
		}
		for _, st := range r.Body.List {
			b.WriteString(e.text(st) + "\n")
		}
		b.WriteString("}\n")
	}
	b.WriteString("}")
	return b.String(), true
}

// usedIn reports whether n refers to o.
func (e *emitter) usedIn(o types.Object, n ast.Node) bool {
	used := false
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && e.info.Uses[id] == o {
			used = true
		}
		return !used
	})
	return used
}
