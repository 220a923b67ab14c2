package translate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// The fast CPU body of a tiled kernel is its Tiled method with the barriers compiled away
// by loop fission, as OpenCL CPU runtimes do: the body is split at each barrier into
// regions, and each region becomes a loop over the tile's threads. What stays the same
// for every thread of the tile (uniform values: constants, scalar fields, the tile's
// index and extent, and locals computed only from those at the top level) is computed
// once per tile, outside the region loops; barriers may sit inside loops and ifs whose
// conditions are uniform, which then run once per tile around the region loops. A
// varying local that one region sets and another reads is kept in a per-thread slice;
// tile_static memory is one slice per tile.

// fissionError says why a kernel gets no generated CPU body.
type fissionError struct {
	pos token.Pos
	msg string
}

// nodeKind is the kind of a node of a fissioned body.
type nodeKind int

const (
	nRegion nodeKind = iota // statements run by every thread in turn
	nTile                   // a statement run once per tile
	nIf                     // an if with a uniform condition and barriers inside
	nFor                    // a for or range loop with a uniform trip count and barriers inside
	nBlock                  // a block with barriers inside
)

// fnode is one node of a fissioned body.
type fnode struct {
	kind   nodeKind
	stmts  []ast.Stmt // nRegion: the threads' statements
	pre    []ast.Stmt // nRegion: tile statements hoisted before the region's loop
	stmt   ast.Stmt   // nTile, nIf, nFor
	body   []*fnode   // nIf's then branch, nFor's and nBlock's body
	els    []*fnode   // nIf's else branch (an else-if is one nIf node)
	id     int        // nRegion: its number, in order of the source
	inLoop bool       // nRegion: inside a tile-level loop
	label  string     // nFor: the loop's label, or ""
}

// fission analyses one tiled kernel body.
type fission struct {
	*pkgInfo
	decl    *ast.FuncDecl
	recv    types.Object // the kernel receiver, or nil
	tidx    types.Object // the TiledIndex parameter
	tileV   map[types.Object]bool
	statics map[types.Object]bool // tile_static slices
	tileS   map[ast.Stmt]bool     // statements at tile level (whose targets may be tile variables)
	locals  map[types.Object]bool // the body's local variables
	barF    map[*types.Func]bool  // functions known to contain a barrier (memo)
	regions []*fnode
	assigns []assignment         // every write of a local
	writes  map[types.Object]int // how many statements write each local
	err     *fissionError
}

// fail records the first reason the body cannot be fissioned.
func (f *fission) fail(pos token.Pos, format string, args ...any) {
	if f.err == nil {
		f.err = &fissionError{pos: pos, msg: fmt.Sprintf(format, args...)}
	}
}

// isBarrier reports whether c is a barrier: t.Barrier.Wait and its fenced forms.
func (f *fission) isBarrier(c *ast.CallExpr) bool { return isBarrierCall(f.info, c) }

// isBarrierCall reports whether c is t.Barrier.Wait() or one of its fenced forms.
func isBarrierCall(info *types.Info, c *ast.CallExpr) bool {
	sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || !strings.HasPrefix(sel.Sel.Name, "Wait") {
		return false
	}
	tv, ok := info.Types[sel.X]
	return ok && isRuntime(tv.Type, "Barrier")
}

// isFence reports whether c is one of runtime's fences (AllMemoryFence(t), ...): on the
// tile's single goroutine they have nothing to order.
func (f *fission) isFence(c *ast.CallExpr) bool {
	for _, n := range []string{"AllMemoryFence", "GlobalMemoryFence", "TileStaticMemoryFence"} {
		if f.runtimeFunc(c.Fun, n) {
			return true
		}
	}
	return false
}

// isTileStatic reports whether c is runtime.TileStatic[T](t, n).
func (f *fission) isTileStatic(c *ast.CallExpr) bool {
	ix, ok := unparen(c.Fun).(*ast.IndexExpr)
	return ok && f.runtimeFunc(ix.X, "TileStatic")
}

// runtimeFunc reports whether fun names runtime.name.
func (f *fission) runtimeFunc(fun ast.Expr, name string) bool {
	sel, ok := unparen(fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	fn, ok := f.info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == runtimePath
}

// hasBarrier reports whether n contains a barrier, directly or in a function it calls.
func (f *fission) hasBarrier(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		if f.isBarrier(c) {
			found = true
		} else if fn := f.callee(c); fn != nil && f.funcHasBarrier(fn) {
			found = true
		}
		return !found
	})
	return found
}

// callee returns the package function or method c calls, or nil.
func (f *fission) callee(c *ast.CallExpr) *types.Func {
	id := calleeIdent(c)
	if id == nil {
		return nil
	}
	fn, _ := f.info.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// calleeIdent returns the name a call calls (a function, a method, an instance of a
// generic function), or nil.
func calleeIdent(c *ast.CallExpr) *ast.Ident {
	switch f := unparen(c.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	case *ast.IndexExpr:
		id, _ := unparen(f.X).(*ast.Ident)
		return id
	}
	return nil
}

// funcHasBarrier reports whether a function of the package contains a barrier.
func (f *fission) funcHasBarrier(fn *types.Func) bool {
	if v, ok := f.barF[fn]; ok {
		return v
	}
	fd := f.funcs[fn]
	if fd == nil || fd.Body == nil {
		return false
	}
	f.barF[fn] = false // no recursion in the kernel language; this ends a cycle
	v := f.hasBarrier(fd.Body)
	f.barF[fn] = v
	return v
}

// escapes reports whether s holds a break or continue that leaves s (its loop is
// outside): one without a label outside s's loops and switches (a break of a switch in s
// stays in s), or one with a label s does not declare.
func escapes(s ast.Stmt) bool {
	inside := map[string]bool{}
	own := map[*ast.BranchStmt]bool{} // a break of a switch inside s
	ast.Inspect(s, func(x ast.Node) bool {
		switch y := x.(type) {
		case *ast.LabeledStmt:
			inside[y.Label.Name] = true
		case *ast.SwitchStmt:
			for _, b := range ownBreaks(y) {
				own[b] = true
			}
		}
		return true
	})
	found := false
	visit := func(x ast.Node, loops int) bool {
		if b, ok := x.(*ast.BranchStmt); ok && (b.Tok == token.BREAK || b.Tok == token.CONTINUE) && !own[b] {
			found = found || (b.Label == nil && loops == 0) || (b.Label != nil && !inside[b.Label.Name])
		}
		return !found
	}
	inspectLoops(s, 0, visit)
	return found
}

// inspectLoops is ast.Inspect of n that also gives visit each node's depth of loops: n is
// at depth loops, and the body of each for or range statement, n itself included, one
// deeper (of such a statement only the body is inspected). visit returns false to skip
// x's children.
func inspectLoops(n ast.Node, loops int, visit func(x ast.Node, loops int) bool) {
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil {
			return false
		}
		var body *ast.BlockStmt
		switch y := x.(type) {
		case *ast.ForStmt:
			body = y.Body
		case *ast.RangeStmt:
			body = y.Body
		}
		if body != nil {
			if visit(x, loops) {
				inspectLoops(body, loops+1, visit)
			}
			return false
		}
		return visit(x, loops)
	})
}

// structural reports whether s must be taken apart at tile level: it holds a barrier, or
// a break or continue of an enclosing tile-level loop.
func (f *fission) structural(s ast.Stmt, inLoop bool) bool {
	return f.hasBarrier(s) || (inLoop && escapes(s))
}

// markTileLevel records the statements at tile level: those of the body's top-level list
// and of the structural statements' lists, and the init and post statements of
// structural loops.
func (f *fission) markTileLevel(list []ast.Stmt, inLoop bool) {
	for _, s := range list {
		switch s.(type) {
		case *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt:
			f.tileS[s] = true
		}
		if !f.structural(s, inLoop) {
			continue
		}
		switch x := s.(type) {
		case *ast.IfStmt:
			if x.Init != nil {
				f.tileS[x.Init] = true
			}
			f.markTileLevel(x.Body.List, inLoop)
			switch e := x.Else.(type) {
			case *ast.BlockStmt:
				f.markTileLevel(e.List, inLoop)
			case *ast.IfStmt:
				f.markTileLevel([]ast.Stmt{e}, inLoop)
			}
		case *ast.ForStmt:
			if x.Init != nil {
				f.tileS[x.Init] = true
			}
			if x.Post != nil {
				f.tileS[x.Post] = true
			}
			f.markTileLevel(x.Body.List, true)
		case *ast.RangeStmt:
			f.tileS[x] = true
			f.markTileLevel(x.Body.List, true)
		case *ast.BlockStmt:
			f.markTileLevel(x.List, inLoop)
		case *ast.LabeledStmt:
			f.markTileLevel([]ast.Stmt{x.Stmt}, inLoop)
		}
	}
}

// arrayKeys returns the length of the array that a range loop without a value variable
// (`for i := range arr`) goes over, a constant however the array's elements vary between
// threads, or -1 for other range loops and where ranging evaluates arr (it calls
// something: Go then evaluates it).
func (f *fission) arrayKeys(r *ast.RangeStmt) int64 {
	if v, ok := r.Value.(*ast.Ident); (r.Value != nil && !(ok && v.Name == "_")) || hasCall(r.X) {
		return -1
	}
	if a, ok := f.info.TypeOf(r.X).Underlying().(*types.Array); ok {
		return a.Len()
	}
	return -1
}

// obj returns the object an identifier defines or uses.
func (f *fission) obj(id *ast.Ident) types.Object {
	if o := f.info.Defs[id]; o != nil {
		return o
	}
	return f.info.Uses[id]
}

// target returns the local variable an assignment's left side writes, or nil: a write
// into a tile_static slice's element writes no variable.
func (f *fission) target(lhs ast.Expr) types.Object {
	if id, _ := lhsWalk(f.info, lhs, nil); id != nil && id.Name != "_" {
		return f.obj(id)
	}
	return nil
}

// assignment is one write of local variables: its targets, the values written, and the
// left sides as written (whose indices choose the elements written).
type assignment struct {
	stmt    ast.Stmt
	targets []types.Object
	values  []ast.Expr
	lhs     []ast.Expr
}

// assignments lists every write of a local variable in the body.
func (f *fission) assignments(body *ast.BlockStmt) []assignment {
	var out []assignment
	add := func(s ast.Stmt, lhs []ast.Expr, rhs []ast.Expr) {
		a := assignment{stmt: s, values: rhs, lhs: lhs}
		for _, l := range lhs {
			if o := f.target(l); o != nil {
				a.targets = append(a.targets, o)
			}
		}
		out = append(out, a)
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if r := ptrCallRecv(f.info, f.pkg, n); r != nil {
			// a.Add(x) writes a from a and x; the write is never a once-per-tile statement
			// (a statement of its own, not at tile level), so a is a thread's variable.
			c := n.(*ast.CallExpr)
			add(&ast.ExprStmt{X: c}, []ast.Expr{r}, append([]ast.Expr{r}, c.Args...))
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			add(s, s.Lhs, s.Rhs)
		case *ast.IncDecStmt:
			add(s, []ast.Expr{s.X}, nil)
		case *ast.RangeStmt:
			var lhs []ast.Expr
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if e != nil {
					lhs = append(lhs, e)
				}
			}
			if f.arrayKeys(s) >= 0 {
				add(s, lhs, nil) // the count is the array type's: the same in every thread
			} else {
				add(s, lhs, []ast.Expr{s.X})
			}
		case *ast.DeclStmt:
			g, ok := s.Decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				return true
			}
			var lhs, rhs []ast.Expr
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for _, nm := range vs.Names {
					lhs = append(lhs, nm)
				}
				rhs = append(rhs, vs.Values...)
			}
			add(s, lhs, rhs)
		}
		return true
	})
	return out
}

// classify finds the tile variables: locals written only by tile-level statements with
// uniform values. It is a fixed point: demoting one variable can make others varying.
func (f *fission) classify(body *ast.BlockStmt) []assignment {
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := f.info.Defs[id].(*types.Var); ok && !v.IsField() {
				f.locals[v] = true
				f.tileV[v] = true
			}
		}
		return true
	})
	as := f.assignments(body)
	for changed := true; changed; {
		changed = false
		for _, a := range as {
			if f.isTileStmt(a) {
				continue
			}
			for _, o := range a.targets {
				if o == f.recv {
					f.fail(a.stmt.Pos(), "the body assigns to the kernel's receiver")
				}
				if f.tileV[o] {
					delete(f.tileV, o)
					changed = true
				}
			}
		}
	}
	for o := range f.statics {
		if !f.tileV[o] {
			f.fail(o.Pos(), "tile_static slice %s is not declared once at the top level", o.Name())
		}
	}
	return as
}

// isTileStmt reports whether an assignment runs once per tile: it is at tile level, its
// values are uniform and every variable it writes is a tile variable.
func (f *fission) isTileStmt(a assignment) bool {
	if !f.tileS[a.stmt] {
		return false
	}
	for _, o := range a.targets {
		if !f.tileV[o] {
			return false
		}
	}
	for _, v := range a.values {
		if !f.uniform(v) {
			return false
		}
	}
	for _, l := range a.lhs {
		if !f.uniformIndices(l) {
			return false
		}
	}
	return true
}

// uniformIndices reports whether the indices on an assignment's left side are uniform,
// those that choose an element of a local array (hist[y&3]++) and of a tile_static slice
// (h[l] = 0) alike: a thread-varying one makes the write the thread's own even where the
// value written is the same in every thread, so it cannot run once per tile.
func (f *fission) uniformIndices(lhs ast.Expr) bool {
	for {
		switch x := unparen(lhs).(type) {
		case *ast.IndexExpr:
			if !f.uniform(x.Index) {
				return false
			}
			lhs = x.X
		case *ast.SelectorExpr:
			lhs = x.X
		default:
			return true
		}
	}
}

// uniform reports whether e has the same value in every thread of the tile: it reads
// only constants, the kernel's scalar fields, the tile's index, origin and extent, tile
// variables, and calls of functions with such arguments (no memory, no kernel method).
func (f *fission) uniform(e ast.Expr) bool {
	return every(e, func(n ast.Node) (bool, bool) {
		if x, ok := n.(ast.Expr); ok && f.info.Types[x].Value != nil {
			return true, false // a constant, such as len of an array
		}
		switch x := n.(type) {
		case *ast.Ident:
			o := f.obj(x)
			return o != f.tidx && (!f.locals[o] || f.tileV[o]), true
		case *ast.SelectorExpr:
			if id, isID := unparen(x.X).(*ast.Ident); isID && f.obj(id) == f.tidx {
				switch x.Sel.Name {
				case "Tile", "TileOrigin", "TileExtent":
					return true, false
				}
				return false, false
			}
		case *ast.IndexExpr:
			if tv, has := f.info.Types[x.X]; has {
				if _, slice := tv.Type.Underlying().(*types.Slice); slice {
					return false, false
				}
			}
		case *ast.CallExpr:
			if !f.uniformCall(x) {
				return false, false
			}
			if f.isTileStatic(x) {
				return f.uniform(x.Args[1]), false
			}
		}
		return true, true
	})
}

// uniformCall reports whether a call may be uniform given uniform arguments: not a view
// method (but Extent), not a method of the kernel that reads memory, not an atomic, not a
// function handed a slice.
func (f *fission) uniformCall(c *ast.CallExpr) bool {
	if sel, ok := unparen(c.Fun).(*ast.SelectorExpr); ok {
		if s := f.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			if id, ok := unparen(sel.X).(*ast.Ident); ok && f.obj(id) == f.recv {
				// A method of the kernel is uniform where it reads only push-constant fields.
				m, _ := s.Obj().(*types.Func)
				if m == nil {
					return false
				}
				g, fp, err := f.resolve(m)
				return err == nil && !fp.mayReadMemory(g, map[*types.Func]bool{})
			}
			if m, ok := s.Obj().(*types.Func); ok && m.Pkg() != nil && m.Pkg().Path() == arrayviewPath {
				return m.Name() == "Extent" // the same in every thread; the other methods read memory
			}
		}
		if f.runtimeFunc(sel, sel.Sel.Name) && strings.HasPrefix(sel.Sel.Name, "Atomic") {
			return false
		}
	}
	if fn := f.callee(c); fn != nil && fn.Pkg() == f.pkg {
		for _, a := range c.Args {
			if tv, ok := f.info.Types[a]; ok {
				if _, slice := tv.Type.Underlying().(*types.Slice); slice {
					return false
				}
			}
		}
	}
	return true
}

// build splits a tile-level statement list into region and tile-level nodes.
func (f *fission) build(list []ast.Stmt, inLoop bool, tileStmt map[ast.Stmt]bool, writes map[types.Object]int) []*fnode {
	var out []*fnode
	var cur *fnode
	for _, s := range list {
		switch {
		case f.structural(s, inLoop):
			cur = nil
			if n := f.structNode(s, inLoop, tileStmt, writes); n != nil {
				out = append(out, n)
			}
		case f.isFenceStmt(s):
		case tileStmt[s]:
			if cur != nil && f.hoistable(s, cur, writes) {
				cur.pre = append(cur.pre, s)
				continue
			}
			cur = nil
			out = append(out, &fnode{kind: nTile, stmt: s})
		default:
			if cur == nil {
				cur = &fnode{kind: nRegion, id: len(f.regions), inLoop: inLoop}
				f.regions = append(f.regions, cur)
				out = append(out, cur)
			}
			cur.stmts = append(cur.stmts, s)
		}
	}
	return out
}

// isFenceStmt reports whether s is a fence call alone.
func (f *fission) isFenceStmt(s ast.Stmt) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := unparen(es.X).(*ast.CallExpr)
	return ok && f.isFence(c)
}

// hoistable reports whether tile statement s, met inside region cur, may run before
// cur's loop instead of ending it: it only defines variables that nothing writes again,
// and cur's statements use none of their names.
func (f *fission) hoistable(s ast.Stmt, cur *fnode, writes map[types.Object]int) bool {
	var defs []types.Object
	switch x := s.(type) {
	case *ast.AssignStmt:
		if x.Tok != token.DEFINE {
			return false
		}
		for _, l := range x.Lhs {
			if id, ok := l.(*ast.Ident); ok && f.info.Defs[id] != nil {
				defs = append(defs, f.info.Defs[id])
			} else if ok && id.Name != "_" {
				return false // redeclared: a write of an older variable
			}
		}
	case *ast.DeclStmt:
		ast.Inspect(x, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && f.info.Defs[id] != nil {
				defs = append(defs, f.info.Defs[id])
			}
			return true
		})
	default:
		return false
	}
	used := map[string]bool{}
	for _, st := range cur.stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	for _, o := range defs {
		if writes[o] > 1 || used[o.Name()] {
			return false
		}
	}
	return true
}

// structNode turns a structural statement into a tile-level node; a barrier alone
// gives none.
func (f *fission) structNode(s ast.Stmt, inLoop bool, tileStmt map[ast.Stmt]bool, writes map[types.Object]int) *fnode {
	switch x := s.(type) {
	case *ast.ExprStmt:
		if c, ok := unparen(x.X).(*ast.CallExpr); ok && f.isBarrier(c) {
			return nil
		}
		f.fail(s.Pos(), "a call of a function with a barrier inside")
	case *ast.BranchStmt:
		return &fnode{kind: nTile, stmt: s}
	case *ast.BlockStmt:
		return &fnode{kind: nBlock, body: f.build(x.List, inLoop, tileStmt, writes)}
	case *ast.LabeledStmt: // a labeled loop (the translator refuses other labels)
		n := f.structNode(x.Stmt, inLoop, tileStmt, writes)
		if n != nil {
			n.label = x.Label.Name
		}
		return n
	case *ast.IfStmt:
		if (x.Init != nil && !tileStmt[x.Init]) || !f.uniform(x.Cond) {
			f.fail(x.Pos(), "a barrier (or a break or continue of a loop with one) under an if whose condition the fission "+
				"cannot compute once per tile (it reads a per-thread value, or a variable set under an if or loop without a barrier)")
			return nil
		}
		n := &fnode{kind: nIf, stmt: s, body: f.build(x.Body.List, inLoop, tileStmt, writes)}
		switch e := x.Else.(type) {
		case *ast.BlockStmt:
			n.els = f.build(e.List, inLoop, tileStmt, writes)
		case *ast.IfStmt:
			n.els = f.build([]ast.Stmt{e}, inLoop, tileStmt, writes)
		}
		return n
	case *ast.ForStmt:
		if (x.Init != nil && !tileStmt[x.Init]) || (x.Cond != nil && !f.uniform(x.Cond)) || (x.Post != nil && !tileStmt[x.Post]) {
			f.fail(x.Pos(), "a barrier in a loop whose init, condition or post the fission cannot run once per tile "+
				"(they read a per-thread value, or a variable set under an if or loop without a barrier)")
			return nil
		}
		return &fnode{kind: nFor, stmt: s, body: f.build(x.Body.List, true, tileStmt, writes)}
	case *ast.RangeStmt:
		if !tileStmt[x] {
			f.fail(x.Pos(), "a barrier in a range loop whose trip count or variables vary between threads "+
				"(over an array, range over its indices, for i := range a, and read a[i] in the loop)")
			return nil
		}
		return &fnode{kind: nFor, stmt: s, body: f.build(x.Body.List, true, tileStmt, writes)}
	default:
		if fn := f.packageCall(s); fn != "" {
			f.fail(s.Pos(), "a barrier inside %s, which the statement calls (ampgen expands such a call in place where "+
				"the function returns only at its end and the call is a statement, an assignment or once in an expression)", fn)
			return nil
		}
		f.fail(s.Pos(), "a barrier inside a %s statement", stmtKind(s))
	}
	return nil
}

// packageCall returns the name of a function of the kernel's package that s calls, or "".
func (f *fission) packageCall(s ast.Stmt) string {
	name := ""
	ast.Inspect(s, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && name == "" {
			if fn := f.callee(c); fn != nil && fn.Pkg() == f.pkg {
				name = fn.Name()
			}
		}
		return name == ""
	})
	return name
}

// stmtKind names a statement's kind for messages.
func stmtKind(s ast.Stmt) string {
	switch s.(type) {
	case *ast.SwitchStmt:
		return "switch"
	case *ast.ReturnStmt:
		return "return"
	}
	return fmt.Sprintf("%T", s)
}

// analyse fissions the body: classifies variables, builds the node tree and checks that
// the TiledIndex is used only in forms the generated body can give.
func (f *fission) analyse() []*fnode {
	body := f.decl.Body
	f.markTileLevel(body.List, false)
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for i, r := range as.Rhs {
				if c, ok := unparen(r).(*ast.CallExpr); ok && f.isTileStatic(c) && i < len(as.Lhs) {
					if id, ok := as.Lhs[i].(*ast.Ident); ok && f.info.Defs[id] != nil {
						f.statics[f.info.Defs[id]] = true
					}
				}
			}
		}
		return true
	})
	as := f.classify(body)
	f.assigns = as
	tileStmt := map[ast.Stmt]bool{}
	writes := map[types.Object]int{}
	for s := range f.tileS { // a constant declaration at tile level is the same in every thread
		if d, ok := s.(*ast.DeclStmt); ok && d.Decl.(*ast.GenDecl).Tok == token.CONST {
			tileStmt[s] = true
		}
	}
	for _, a := range as {
		if f.isTileStmt(a) {
			tileStmt[a.stmt] = true
		}
		for _, o := range a.targets {
			writes[o]++
		}
	}
	f.writes = writes
	nodes := f.build(body.List, false, tileStmt, writes)
	f.checkTiledIndex(body)
	return nodes
}

// checkTiledIndex fails on a use of the TiledIndex other than its index fields, a
// barrier, a fence or TileStatic: the generated body has no TiledIndex to pass.
func (f *fission) checkTiledIndex(body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if f.isBarrier(x) || f.isFence(x) {
				return false
			}
			if f.isTileStatic(x) {
				ast.Inspect(x.Args[1], func(m ast.Node) bool { return f.tiledUse(m) })
				return false
			}
			if fn := f.callee(x); fn != nil && fn.Pkg() != nil && fn.Pkg() != f.pkg && f.passesTiledIndex(x) {
				f.fail(x.Pos(), "a call of %s.%s, given the TiledIndex: the fission expands only the kernel's own "+
					"package's functions in place", fn.Pkg().Name(), fn.Name())
				return false
			}
		}
		return f.tiledUse(n)
	})
}

// passesTiledIndex says whether the call is given the TiledIndex itself.
func (f *fission) passesTiledIndex(c *ast.CallExpr) bool {
	for _, a := range c.Args {
		if id, ok := unparen(a).(*ast.Ident); ok && f.obj(id) == f.tidx {
			return true
		}
	}
	return false
}

// tiledUse checks one node for a use of the TiledIndex and says whether to look inside.
func (f *fission) tiledUse(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.SelectorExpr:
		if id, ok := unparen(x.X).(*ast.Ident); ok && f.obj(id) == f.tidx {
			switch x.Sel.Name {
			case "Global", "Local", "Tile", "TileOrigin", "TileExtent":
				return false
			}
			f.fail(x.Pos(), "a use of %s.%s other than a barrier", id.Name, x.Sel.Name)
			return false
		}
	case *ast.Ident:
		if f.obj(x) == f.tidx {
			f.fail(x.Pos(), "the TiledIndex %s passed on or copied", x.Name)
		}
	}
	return true
}
