package translate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// varyingSet computes the locals of a function whose values may differ between the
// threads of a tile: those assigned from the thread's index, from memory (views,
// tile_static arrays, atomics), from a kernel method or from another varying value, or
// assigned under control flow that depends on one. Parameters of helper functions are
// varying, but for those whose argument is uniform at the call of a function that takes
// the TiledIndex (fs.uniform). It is a fixed point over the body.
func (t *tr) varyingSet(body *ast.BlockStmt, fs *fnState) map[types.Object]bool {
	vary := map[types.Object]bool{}
	if fs.idx != nil {
		vary[fs.idx] = true
	}
	if !fs.main {
		for _, f := range fs.decl.Type.Params.List {
			for _, n := range f.Names {
				if o := t.info.Defs[n]; o != nil && o != fs.tidx && !fs.uniform[o] && t.sharedV[o] == nil {
					vary[o] = true // a tile_static array's elements vary (isVarying), not its size
				}
			}
		}
	}
	fs.broadcast = t.broadcastReads(body, fs.main)
	for {
		before := len(vary)
		t.vwalk(body, false, vary)
		if len(vary) == before {
			return vary
		}
	}
}

// mark marks the variable an assignment's left side writes; not a tile_static array,
// whose elements count as varying wherever they are read (isVarying) and whose length is
// the same in every thread.
func (t *tr) mark(lhs ast.Expr, vary map[types.Object]bool) {
	if id := rootIdent(lhs); id != nil {
		if o := t.info.ObjectOf(id); o != nil && t.sharedV[o] == nil && !t.statics[o] {
			vary[o] = true
		}
	}
}

// vwalk walks statements, marking varying assignments; under says the walk is under
// varying control flow.
func (t *tr) vwalk(n ast.Node, under bool, vary map[types.Object]bool) {
	t.vwalkPtrCalls(n, under, vary)
	switch s := n.(type) {
	case *ast.BlockStmt:
		for _, x := range s.List {
			t.vwalk(x, under, vary)
		}
	case *ast.AssignStmt:
		for i, l := range s.Lhs {
			r := s.Rhs[min(i, len(s.Rhs)-1)]
			if under || t.isVarying(r, vary) || t.varyingIndex(l, vary) {
				t.mark(l, vary)
			}
		}
	case *ast.IncDecStmt:
		if under || t.varyingIndex(s.X, vary) {
			t.mark(s.X, vary)
		}
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok {
			for _, spec := range g.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					for i, nm := range vs.Names {
						if under || (len(vs.Values) > 0 && t.isVarying(vs.Values[min(i, len(vs.Values)-1)], vary)) {
							t.mark(nm, vary)
						}
					}
				}
			}
		}
	case *ast.IfStmt:
		if s.Init != nil {
			t.vwalk(s.Init, under, vary)
		}
		u := under || t.isVarying(s.Cond, vary)
		t.vwalk(s.Body, u, vary)
		if s.Else != nil {
			t.vwalk(s.Else, u, vary)
		}
	case *ast.ForStmt, *ast.RangeStmt:
		t.vwalkLoop(s, under, vary, nil)
	case *ast.LabeledStmt:
		t.vwalkLoop(s.Stmt, under, vary, t.info.Defs[s.Label])
	case *ast.SwitchStmt:
		if s.Init != nil {
			t.vwalk(s.Init, under, vary)
		}
		// A break that leaves the switch, or a continue, under a thread-dependent
		// condition skips the rest of its case in some threads only.
		u := under || (s.Tag != nil && t.isVarying(s.Tag, vary)) || t.switchExits(s, false, vary, nil, 0, false)
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			cu := t.caseUnder(u, cc, vary)
			for _, x := range cc.Body {
				t.vwalk(x, cu, vary)
			}
		}
	}
}

// vwalkPtrCalls marks the receivers that the calls of pointer-receiver methods in n's own
// expressions (not in the statements it holds) write: varying under varying control flow,
// or when the receiver or an argument varies (a.Add(x) assigns a from a and x).
func (t *tr) vwalkPtrCalls(n ast.Node, under bool, vary map[types.Object]bool) {
	ast.Inspect(n, func(m ast.Node) bool {
		if _, ok := m.(ast.Stmt); ok && m != n {
			return false
		}
		r := ptrCallRecv(t.info, t.pkg, m)
		if r == nil {
			return true
		}
		v := under || t.isVarying(r, vary) || t.varyingIndex(r, vary)
		for _, a := range m.(*ast.CallExpr).Args {
			v = v || t.isVarying(a, vary)
		}
		if v {
			t.mark(r, vary)
		}
		return true
	})
}

// exitsVarying reports whether a loop's body holds a break or continue of that loop
// (label is its label, or nil) under control flow that depends on the thread (under says
// n is): the threads then leave the loop, or skip the rest of an iteration, at different
// points, so every variable the loop assigns may differ between them afterwards, even one
// assigned from uniform values (x++ after a thread-dependent break counts how far each
// thread got). nested is the depth of loops inside the loop's body, where only a break or
// continue with the loop's label leaves it; inSwitch says n is inside a switch, whose
// plain breaks leave the switch, not the loop. Called on a switch's cases (switchExits),
// it finds the breaks that leave that switch.
func (t *tr) exitsVarying(n ast.Node, under bool, vary map[types.Object]bool, label types.Object, nested int, inSwitch bool) bool {
	inList := func(list []ast.Stmt, u bool, nested int, inSwitch bool) bool {
		for _, x := range list {
			if t.exitsVarying(x, u, vary, label, nested, inSwitch) {
				return true
			}
		}
		return false
	}
	switch s := n.(type) {
	case *ast.BranchStmt:
		if s.Label != nil {
			return under && label != nil && t.info.Uses[s.Label] == label
		}
		return under && nested == 0 && (s.Tok == token.CONTINUE || s.Tok == token.BREAK && !inSwitch)
	case *ast.BlockStmt:
		return inList(s.List, under, nested, inSwitch)
	case *ast.LabeledStmt:
		return t.exitsVarying(s.Stmt, under, vary, label, nested, inSwitch)
	case *ast.IfStmt:
		u := under || t.isVarying(s.Cond, vary)
		return t.exitsVarying(s.Body, u, vary, label, nested, inSwitch) ||
			(s.Else != nil && t.exitsVarying(s.Else, u, vary, label, nested, inSwitch))
	case *ast.ForStmt:
		u := under || (s.Cond != nil && t.isVarying(s.Cond, vary))
		return label != nil && inList(s.Body.List, u, nested+1, false)
	case *ast.RangeStmt:
		u := under || (t.rangesInt(s.X) && t.isVarying(s.X, vary))
		return label != nil && inList(s.Body.List, u, nested+1, false)
	case *ast.SwitchStmt:
		return t.switchExits(s, under, vary, label, nested, true)
	}
	return false
}

// switchExits is exitsVarying of each of s's cases, under the switch's and the case's
// conditions.
func (t *tr) switchExits(s *ast.SwitchStmt, under bool, vary map[types.Object]bool, label types.Object, nested int, inSwitch bool) bool {
	u := under || (s.Tag != nil && t.isVarying(s.Tag, vary))
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		cu := t.caseUnder(u, cc, vary)
		for _, x := range cc.Body {
			if t.exitsVarying(x, cu, vary, label, nested, inSwitch) {
				return true
			}
		}
	}
	return false
}

// caseUnder reports whether a switch case's body runs under control flow that depends on
// the thread: the switch's (u), or one of the case's values.
func (t *tr) caseUnder(u bool, cc *ast.CaseClause, vary map[types.Object]bool) bool {
	for _, e := range cc.List {
		u = u || t.isVarying(e, vary)
	}
	return u
}

// vwalkLoop walks a for or range loop whose label is label (nil without one).
func (t *tr) vwalkLoop(n ast.Node, under bool, vary map[types.Object]bool, label types.Object) {
	switch s := n.(type) {
	case *ast.ForStmt:
		if s.Init != nil {
			t.vwalk(s.Init, under, vary)
		}
		u := under || (s.Cond != nil && t.isVarying(s.Cond, vary)) || t.exitsVarying(s.Body, false, vary, label, 0, false)
		if s.Post != nil {
			t.vwalk(s.Post, u, vary)
		}
		t.vwalk(s.Body, u, vary)
	case *ast.RangeStmt:
		// Over an array or a tile_static slice the trip count is the same in every
		// thread; only the elements may differ.
		xv := t.isVarying(s.X, vary)
		u := under || (t.rangesInt(s.X) && xv) || t.exitsVarying(s.Body, false, vary, label, 0, false)
		if u && s.Key != nil {
			t.mark(s.Key, vary)
		}
		if s.Value != nil && (u || xv || t.isVaryingRange(s.X)) {
			t.mark(s.Value, vary)
		}
		t.vwalk(s.Body, u, vary)
	default:
		t.vwalk(n, under, vary)
	}
}

// varyingIndex reports whether an assignment's left side chooses the element it writes by
// a varying index (hist[y&3]++ makes hist varying whatever the value written).
func (t *tr) varyingIndex(lhs ast.Expr, vary map[types.Object]bool) bool {
	_, uniform := lhsWalk(t.info, lhs, func(x ast.Expr) bool { return !t.isVarying(x, vary) })
	return !uniform
}

// rangesInt reports whether a range statement ranges over an integer (its trip count is
// the value), not over an array or a tile_static slice (a fixed length).
func (t *tr) rangesInt(x ast.Expr) bool {
	b, ok := t.typeOf(x).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// isVaryingRange reports whether ranging over x reads memory that may vary (a
// tile_static array).
func (t *tr) isVaryingRange(x ast.Expr) bool {
	return t.sharedObj(x) != nil // the kernel's own tile_static arrays too, declared or not yet
}

// isVarying reports whether the value of e may differ between the threads of a tile.
func (t *tr) isVarying(e ast.Expr, vary map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if x, ok := n.(ast.Expr); ok && t.info.Types[x].Value != nil {
			return false // a constant, such as len of an array, is the same in every thread
		}
		switch x := n.(type) {
		case *ast.Ident:
			if o := t.info.Uses[x]; o != nil && vary[o] {
				found = true
			}
		case *ast.SelectorExpr:
			if t.isTiledIndex(x.X) && (x.Sel.Name == "Global" || x.Sel.Name == "Local") {
				found = true
			}
		case *ast.IndexExpr:
			if t.sharedObj(x.X) != nil { // tile_static memory: varying, but for a broadcast
				if t.fn.broadcast[x] && !t.isVarying(x.Index, vary) {
					return false
				}
				found = true
			}
		case *ast.CallExpr:
			found = t.callVaries(x)
		}
		return !found
	})
	return found
}

// callVaries reports whether a call reads memory or is a method of the kernel (which may):
// view reads, atomics and kernel methods vary; a view's Extent does not; other calls vary
// through their arguments.
func (t *tr) callVaries(c *ast.CallExpr) bool {
	if t.readsThread(c) {
		return true
	}
	sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return t.isRuntimeFunc(c.Fun, "AtomicAdd") || isAtomicFunc(t, c.Fun)
	}
	if inner, ok := unparen(sel.X).(*ast.SelectorExpr); ok {
		if _, isView := t.kernelField(inner).(*viewArg); isView {
			return sel.Sel.Name != "Extent" // the extent is a push constant, the same in every thread
		}
	}
	if id, ok := unparen(sel.X).(*ast.Ident); ok && t.fn.recv != nil && t.info.Uses[id] == t.fn.recv {
		// A method of the kernel: its receiver's views are memory, its other fields push
		// constants, the same in every thread (varying arguments vary it through isVarying).
		fn, _ := t.info.Uses[sel.Sel].(*types.Func)
		if fn == nil {
			return true
		}
		g, fp, err := t.resolve(fn)
		return err != nil || fp.mayReadMemory(g, map[*types.Func]bool{})
	}
	return isAtomicFunc(t, c.Fun)
}

// readsThread says whether a call of the user's code is given what lets it read a value
// of its own thread: the TiledIndex (t.Local, t.Global), a tile_static array, or a
// receiver in tile_static memory, and its body (or a function it calls) may read one:
// its result then varies, whatever its other arguments (a function returning t.Local[0]
// is the thread's index). A function that reads only the tile's shape does not.
func (t *tr) readsThread(c *ast.CallExpr) bool {
	id := calleeIdent(c)
	if id == nil {
		return false
	}
	fn, _ := t.info.Uses[id].(*types.Func)
	if fn == nil || !t.userPkg(fn.Pkg()) {
		return false // the kernel language's packages: their rules are isVarying's
	}
	if g, fp, err := t.resolve(fn); err == nil && !fp.mayReadThread(g, map[*types.Func]bool{}) {
		return false // it reads neither the thread's index nor tile_static memory
	}
	args := c.Args
	if sel, ok := unparen(c.Fun).(*ast.SelectorExpr); ok {
		args = append([]ast.Expr{sel.X}, args...)
	}
	for _, a := range args {
		if t.isTiledIndex(a) || isRuntime(t.typeOf(a), "TiledIndex") {
			return true
		}
		if id := rootIdent(a); id != nil && t.sharedObj(id) != nil {
			return true
		}
	}
	return false
}

// isAtomicFunc reports whether fun is one of runtime's tile_static atomics.
func isAtomicFunc(t *tr, fun ast.Expr) bool {
	for op := range atomicFuncs {
		if t.isRuntimeFunc(fun, "Atomic"+op) {
			return true
		}
	}
	return false
}

// mayReadThread says whether fn, declared in pi's package, or a function it calls may
// read a value of its own thread: t.Global or t.Local of a TiledIndex, an element of a
// slice (a tile_static array), an atomic's result, or a call into the user's code that
// it cannot find the body of. seen guards against recursion (which ampgen refuses anyway).
func (pi *pkgInfo) mayReadThread(fn *types.Func, seen map[*types.Func]bool) bool {
	return pi.mayRead(fn, seen, false)
}

// mayReadMemory is mayReadThread that counts reads of views too (a method of a view but
// Extent): what a method of the kernel may read besides its push-constant fields.
func (pi *pkgInfo) mayReadMemory(fn *types.Func, seen map[*types.Func]bool) bool {
	return pi.mayRead(fn, seen, true)
}

// mayRead is mayReadThread, or mayReadMemory where views is set.
func (pi *pkgInfo) mayRead(fn *types.Func, seen map[*types.Func]bool, views bool) bool {
	decl := pi.funcs[fn.Origin()]
	if decl == nil || decl.Body == nil {
		return true
	}
	if seen[fn.Origin()] {
		return false
	}
	seen[fn.Origin()] = true
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if x.Sel.Name == "Global" || x.Sel.Name == "Local" {
				if tv, ok := pi.info.Types[x.X]; ok && isRuntime(tv.Type, "TiledIndex") {
					found = true
				}
			}
		case *ast.IndexExpr:
			if tv, ok := pi.info.Types[x.X]; ok {
				if _, slice := tv.Type.Underlying().(*types.Slice); slice {
					found = true
				}
			}
		case *ast.CallExpr:
			found = pi.callMayRead(x, seen, views)
		}
		return !found
	})
	return found
}

// callMayRead says whether a call inside a function of pi's package may read a value of
// its thread: an atomic, or a function of the user's that may (mayRead); where views is
// set, a view's method (but Extent) too.
func (pi *pkgInfo) callMayRead(c *ast.CallExpr, seen map[*types.Func]bool, views bool) bool {
	id := calleeIdent(c)
	if id == nil {
		return false
	}
	fn, ok := pi.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	if views && fn.Pkg().Path() == arrayviewPath && fn.Name() != "Extent" {
		return true // At, At4, AtomicLoad and the other atomics read memory
	}
	if strings.HasPrefix(fn.Name(), "Atomic") && !pi.userPkg(fn.Pkg()) {
		return true // runtime.AtomicAdd and the others on tile_static memory
	}
	if !pi.userPkg(fn.Pkg()) {
		return false
	}
	g, fp, err := pi.resolve(fn)
	if err != nil {
		return true
	}
	return fp.mayRead(g, seen, views)
}
