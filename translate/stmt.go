package translate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// stmts translates a statement list.
func (t *tr) stmts(list []ast.Stmt) {
	for _, s := range list {
		t.stmt(s)
	}
}

// block translates a nested block at one more level of indentation.
func (t *tr) block(list []ast.Stmt) {
	t.fn.indent++
	t.stmts(list)
	t.fn.indent--
}

// stmt translates one statement.
func (t *tr) stmt(s ast.Stmt) {
	fs := t.fn
	switch s := s.(type) {
	case *ast.DeclStmt:
		t.declStmt(s)
	case *ast.AssignStmt:
		if t.tileStatic(s) {
			return
		}
		t.assign(s)
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		defer t.holdIndices([]ast.Expr{s.X})()
		t.opAssign(s.X, op, "1", t.typeOf(s.X), s.Pos())
	case *ast.ExprStmt:
		call, ok := unparen(s.X).(*ast.CallExpr)
		if !ok {
			t.errorf(s.Pos(), "an expression statement must be a call")
			return
		}
		if t.resultCount(call) > 1 { // the results are dropped
			t.callResults(call)
			return
		}
		fs.line("%s;", t.expr(call))
	case *ast.BlockStmt:
		fs.line("{")
		t.block(s.List)
		fs.line("}")
	case *ast.IfStmt:
		t.ifStmt(s)
	case *ast.ForStmt:
		t.forStmt(s)
	case *ast.RangeStmt:
		t.rangeStmt(s)
	case *ast.SwitchStmt:
		t.switchStmt(s)
	case *ast.LabeledStmt:
		t.labeled(s)
	case *ast.BranchStmt:
		t.branch(s)
	case *ast.ReturnStmt:
		t.returnStmt(s)
	case *ast.EmptyStmt:
	default:
		if !t.outside(s.Pos(), s) {
			t.errorf(s.Pos(), "statement %T is not in the kernel language", s)
		}
	}
}

// declStmt translates var declarations; constants are inlined where used.
func (t *tr) declStmt(s *ast.DeclStmt) {
	g := s.Decl.(*ast.GenDecl)
	switch g.Tok {
	case token.CONST:
		return
	case token.TYPE:
		t.errorf(s.Pos(), "type declarations inside kernels are not in the kernel language: declare the type at package level")
		return
	}
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if len(vs.Names) > 1 && len(vs.Values) == 1 { // var a, b = f(x)
			tmps := t.callResults(vs.Values[0])
			for i, n := range vs.Names {
				if obj := t.info.Defs[n]; obj != nil && tmps != nil {
					t.declare(obj, tmps[i], n.Pos())
				}
			}
			continue
		}
		for i, n := range vs.Names {
			obj := t.info.Defs[n]
			if obj == nil {
				continue
			}
			init := ""
			if i < len(vs.Values) {
				init = t.expr(vs.Values[i])
			} else {
				init = t.zero(obj.Type(), n.Pos())
			}
			t.declare(obj, init, n.Pos())
		}
	}
}

// declare writes the declaration of a new local.
func (t *tr) declare(obj types.Object, init string, pos token.Pos) {
	g, ok := t.glslType(obj.Type(), pos)
	if !ok {
		return
	}
	if obj.Name() == "_" {
		t.fn.line("%s %s = %s;", g, t.tmpName(), init)
		return
	}
	t.fn.line("%s %s = %s;", g, t.localName(obj), init)
}

// tileStatic translates name := runtime.TileStatic[T](t, n) into a shared array.
func (t *tr) tileStatic(s *ast.AssignStmt) bool {
	if len(s.Rhs) != 1 {
		return false
	}
	call, ok := unparen(s.Rhs[0]).(*ast.CallExpr)
	if !ok || !t.isRuntimeFunc(call.Fun, "TileStatic") {
		return false
	}
	fs := t.fn
	id, _ := s.Lhs[0].(*ast.Ident)
	obj := t.info.Defs[id]
	if !t.tiled || !fs.main || s.Tok != token.DEFINE || len(s.Lhs) != 1 || fs.indent != 1 || obj == nil {
		t.errorf(s.Pos(), "runtime.TileStatic (tile_static) is only allowed as name := runtime.TileStatic[T](t, n) "+
			"at the top level of a Tiled kernel body")
		if obj != nil {
			t.sharedV[obj] = &sharedDecl{name: "ampS_" + id.Name, size: "1"} // no cascade of errors
		}
		return true
	}
	elem := obj.Type().(*types.Slice).Elem()
	g, ok := t.glslType(elem, s.Pos())
	if !ok {
		return true
	}
	size, ok := t.constSize(call.Args[1])
	if !ok {
		t.errorf(call.Args[1].Pos(), "the size of a tile_static array must be a constant or an expression of constants and "+
			"the tile's dimensions (t.TileExtent.Dim, t.TileExtent.Size)")
		t.sharedV[obj] = &sharedDecl{name: "ampS_" + id.Name, size: "1"}
		return true
	}
	sd := &sharedDecl{name: "ampS_" + id.Name, elem: g, size: size, bits: t.floatSh[obj]}
	if sd.bits {
		sd.elem = "uint"
	}
	if n := len(t.shared); n > 0 {
		sd.name += "_" + string(rune('0'+n))
	}
	sd.ord = len(t.shared)
	t.shared = append(t.shared, sd)
	t.sharedV[obj] = sd
	t.prelude["tile"] = true
	return true
}

// isRuntimeFunc reports whether fun names runtime.name (possibly instantiated).
func (t *tr) isRuntimeFunc(fun ast.Expr, name string) bool {
	switch f := unparen(fun).(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	sel, ok := unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := t.info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == runtimePath && fn.Name() == name
}

// constSize translates an expression that must be constant at pipeline creation:
// constants, the tile's dimensions and locals defined once from such expressions.
func (t *tr) constSize(e ast.Expr) (string, bool) {
	if tv := t.info.Types[e]; tv.Value != nil {
		return t.constLit(tv.Value, tv.Type, e.Pos()), true
	}
	switch x := unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO:
			a, ok1 := t.constSize(x.X)
			b, ok2 := t.constSize(x.Y)
			return "(" + a + " " + x.Op.String() + " " + b + ")", ok1 && ok2
		}
	case *ast.CallExpr:
		if sel, ok := unparen(x.Fun).(*ast.SelectorExpr); ok {
			if inner, ok := unparen(sel.X).(*ast.SelectorExpr); ok && t.isTiledIndex(inner.X) && inner.Sel.Name == "TileExtent" {
				if sel.Sel.Name == "Size" || (sel.Sel.Name == "Dim" && t.info.Types[x.Args[0]].Value != nil) {
					return t.tiledCall(x, "TileExtent", sel.Sel.Name), true
				}
			}
		}
	case *ast.Ident:
		if init := t.onceDefined(x); init != nil {
			return t.constSize(init)
		}
	}
	return "", false
}

// onceDefined returns the initializer of a local defined with := and never assigned
// again in the kernel body, or nil.
func (t *tr) onceDefined(id *ast.Ident) ast.Expr {
	obj := t.info.Uses[id]
	if obj == nil {
		return nil
	}
	var init ast.Expr
	assigned := 0
	ast.Inspect(t.fn.decl.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				lid, ok := l.(*ast.Ident)
				if !ok || (t.info.Defs[lid] != obj && t.info.Uses[lid] != obj) {
					continue
				}
				assigned++
				if s.Tok == token.DEFINE && len(s.Rhs) == len(s.Lhs) {
					init = s.Rhs[i]
				}
			}
		case *ast.IncDecStmt:
			if lid, ok := s.X.(*ast.Ident); ok && t.info.Uses[lid] == obj {
				assigned++
			}
		}
		return true
	})
	if assigned != 1 {
		return nil
	}
	return init
}

// assign translates =, := and the operator assignments.
func (t *tr) assign(s *ast.AssignStmt) {
	fs := t.fn
	if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
		op := map[token.Token]token.Token{token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB,
			token.MUL_ASSIGN: token.MUL, token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM,
			token.AND_ASSIGN: token.AND, token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR,
			token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR, token.AND_NOT_ASSIGN: token.AND_NOT}[s.Tok]
		defer t.holdIndices(s.Lhs)() // x[f()] op= v reads and writes one element: f runs once
		if op == token.SHL || op == token.SHR {
			x := t.expr(s.Lhs[0])
			t.store(s.Lhs[0], t.shift(x, op, s.Rhs[0], t.typeOf(s.Lhs[0])))
			return
		}
		t.opAssign(s.Lhs[0], op, t.expr(s.Rhs[0]), t.typeOf(s.Lhs[0]), s.Pos())
		return
	}
	if len(s.Lhs) > 1 {
		defer t.holdIndices(s.Lhs)()
	}
	if len(s.Rhs) != len(s.Lhs) { // a, b := f(x)
		tmps := t.callResults(s.Rhs[0])
		for i, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); (!ok || id.Name != "_") && tmps != nil {
				t.assignOne(l, tmps[i], s.Tok)
			}
		}
		return
	}
	if len(s.Lhs) == 1 {
		t.assignOne(s.Lhs[0], t.expr(s.Rhs[0]), s.Tok)
		return
	}
	// Go evaluates every right-hand side before assigning: go through temporaries.
	tmps := make([]string, len(s.Rhs))
	for i, r := range s.Rhs {
		g, ok := t.glslType(t.typeOf(r), r.Pos())
		if !ok {
			return
		}
		tmps[i] = t.tmpName()
		fs.line("%s %s = %s;", g, tmps[i], t.expr(r))
	}
	for i, l := range s.Lhs {
		t.assignOne(l, tmps[i], s.Tok)
	}
}

// holdIndices keeps Go's two phases of an assignment: the index operands on the left
// are evaluated once, before the right-hand sides and the first assignment, so in
// `j, a[j] = 2, 5` the 5 goes to a[j] of j's value before the statement, in
// `a[c.Next()], b = c.Next(), 0` the left call runs first, and in `a[c.Next()] += 5` (or
// `a[c.Next()]++`, which GLSL writes a[i] = a[i] + 5) it runs once. An index that
// mentions a variable (or array) assigned earlier in the statement, or that calls
// something with possible side effects, is evaluated into a temporary here; the others
// read the same either way and are left in place. It returns the function that forgets
// them.
func (t *tr) holdIndices(lhs []ast.Expr) func() {
	assigned := map[types.Object]bool{}
	var held []ast.Expr
	for _, l := range lhs {
		ast.Inspect(l, func(n ast.Node) bool {
			ix, ok := n.(*ast.IndexExpr)
			if ok && t.info.Types[ix.Index].Value == nil &&
				(mentionsAny(t.info, ix.Index, assigned) || t.callsImpure(ix.Index)) {
				held = append(held, ix.Index)
			}
			return true
		})
		if root := rootIdent(l); root != nil {
			assigned[t.info.ObjectOf(root)] = true
		}
	}
	// Go evaluates them left to right: a[f()].b[g()] calls f first, which the walk above
	// (the outer index first) reaches last.
	sort.SliceStable(held, func(i, j int) bool { return held[i].Pos() < held[j].Pos() })
	for _, e := range held {
		g, ok := t.glslType(t.typeOf(e), e.Pos())
		if !ok {
			continue
		}
		v := t.tmpName()
		t.fn.line("%s %s = %s;", g, v, t.expr(e))
		t.held[e] = v
	}
	return func() {
		for _, e := range held {
			delete(t.held, e)
		}
	}
}

// callsImpure says whether e calls a function or method (a conversion or a builtin is
// not one): the calls that may have side effects (pointer methods, atomics, the user's
// functions given tile_static arrays) and must run exactly once, in Go's order.
func (t *tr) callsImpure(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if ok && !t.info.Types[c.Fun].IsType() {
			if id := calleeIdent(c); id == nil || t.info.Uses[id] == nil || !isBuiltin(t.info.Uses[id]) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isBuiltin says whether obj is one of Go's builtin functions (len, min, max, ...).
func isBuiltin(obj types.Object) bool {
	_, ok := obj.(*types.Builtin)
	return ok
}

// rootIdent is the variable an assignable expression writes to (a in a[i].x), or nil.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// mentionsAny says whether e refers to one of the objects.
func mentionsAny(info *types.Info, e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// assignOne assigns the translated value v to lhs, declaring it when := defines it.
func (t *tr) assignOne(lhs ast.Expr, v string, tok token.Token) {
	if id, ok := lhs.(*ast.Ident); ok {
		if id.Name == "_" {
			t.fn.line("%s;", v)
			return
		}
		if obj := t.info.Defs[id]; obj != nil && tok == token.DEFINE {
			t.declare(obj, v, id.Pos())
			return
		}
	}
	t.store(lhs, v)
}

// store writes lhs = v for an existing variable, array element or field.
func (t *tr) store(lhs ast.Expr, v string) {
	if ix, ok := unparen(lhs).(*ast.IndexExpr); ok {
		if id, ok := unparen(ix.X).(*ast.Ident); ok {
			if sd, ok := t.sharedV[t.info.Uses[id]]; ok {
				if sd.bits {
					v = "floatBitsToUint(" + v + ")"
				}
				t.fn.line("%s[%s] = %s;", sd.name, t.sharedIndex(sd, ix.Index), v)
				return
			}
		}
	}
	if sel := t.readOnlyField(lhs); sel != nil {
		t.errorf(lhs.Pos(), "kernel fields are read-only in a kernel body; copy %s into a local", sel.Sel.Name)
		return
	}
	t.fn.line("%s = %s;", t.lvalue(lhs), v)
}

// readOnlyField returns the kernel field that an assignable expression is part of (k.N,
// k.W[j], k.P.X), or nil.
func (t *tr) readOnlyField(lhs ast.Expr) *ast.SelectorExpr {
	for e := unparen(lhs); ; {
		if sel, ok := e.(*ast.SelectorExpr); ok && t.kernelField(sel) != nil {
			return sel
		}
		if ix, ok := e.(*ast.IndexExpr); ok {
			e = unparen(ix.X)
		} else if sel, ok := e.(*ast.SelectorExpr); ok {
			e = unparen(sel.X)
		} else {
			return nil
		}
	}
}

// lvalue translates an assignable expression.
func (t *tr) lvalue(e ast.Expr) string {
	switch x := unparen(e).(type) {
	case *ast.Ident, *ast.IndexExpr, *ast.SelectorExpr, *ast.StarExpr:
		return t.expr(x)
	}
	t.errorf(e.Pos(), "cannot assign to this expression in the kernel language")
	return "0"
}

// opAssign translates lhs op= v (and ++, --) with Go's semantics for the operator.
func (t *tr) opAssign(lhs ast.Expr, op token.Token, v string, lt types.Type, pos token.Pos) {
	if op == token.ADD && v == "1" || op == token.SUB && v == "1" {
		v = t.oneOf(lt)
	}
	t.store(lhs, t.binop(t.expr(lhs), op, v, lt, pos))
}

// oneOf is the literal 1 of a numeric type.
func (t *tr) oneOf(ty types.Type) string {
	switch g, _ := t.glslType(ty, token.NoPos); g {
	case "uint":
		return "1u"
	case "float":
		return "1.0"
	case "double":
		return "1.0lf"
	}
	return "1"
}

// cond translates a condition and says whether it makes the code under it divergent.
func (t *tr) cond(e ast.Expr) (string, bool) {
	return t.expr(e), t.isVarying(e, t.fn.varying)
}

// ifStmt translates if/else chains.
func (t *tr) ifStmt(s *ast.IfStmt) {
	fs := t.fn
	if s.Init != nil {
		fs.line("{")
		fs.indent++
		t.stmt(s.Init)
		defer func() { fs.indent--; fs.line("}") }()
	}
	c, varying := t.cond(s.Cond)
	if varying {
		fs.divergent++
		defer func() { fs.divergent-- }()
	}
	fs.line("if (%s) {", c)
	t.block(s.Body.List)
	if s.Else == nil {
		fs.line("}")
		return
	}
	fs.line("} else {")
	fs.indent++
	if b, ok := s.Else.(*ast.BlockStmt); ok {
		t.stmts(b.List)
	} else {
		t.stmt(s.Else)
	}
	fs.indent--
	fs.line("}")
}

// loopAttr is the attribute of a loop's for statement: in the bounds-checked build
// [[dont_unroll]], so that the device runs each pass that ampLoop counts.
func (t *tr) loopAttr() string {
	if t.checked {
		return "[[dont_unroll]] "
	}
	return ""
}

// loop runs body as the translation of a loop's body.
func (t *tr) loop(varying bool, pos token.Pos, body func()) *loopState {
	fs := t.fn
	l := &loopState{label: fs.label, flag: fs.labelFlag, pass: fs.pass}
	fs.label, fs.labelFlag, fs.pass = nil, "", false
	fs.loops = append(fs.loops, l)
	savedSwitch := fs.inSwitch
	fs.inSwitch = 0
	if varying {
		fs.divergent++
	}
	if t.checked && !l.pass { // a pass of a Go loop, counted against the device's cap
		fs.indent++
		fs.line("ampLoop();")
		fs.indent--
	}
	body()
	if varying {
		fs.divergent--
	}
	fs.inSwitch = savedSwitch
	fs.loops = fs.loops[:len(fs.loops)-1]
	if l.varyingExit && l.hasBarrier && t.tiled {
		what := "loop"
		if l.pass {
			what = "switch"
		}
		t.errorf(pos, "barrier in divergent code: this %s has a break or continue that depends on the thread's index "+
			"or on memory, so not every thread of the tile reaches its barrier", what)
	}
	if len(fs.loops) > 0 && l.hasBarrier {
		fs.loops[len(fs.loops)-1].hasBarrier = true
	}
	return l
}

// labeled translates a labeled for or range loop. Its flag is declared before it, so that
// each entry starts it at 0.
func (t *tr) labeled(s *ast.LabeledStmt) {
	switch s.Stmt.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
	default:
		t.errorf(s.Pos(), "labels are in the kernel language only on for and range loops, for break and continue")
		return
	}
	flag := t.tmpName()
	t.fn.line("int %s = 0;", flag)
	t.fn.label, t.fn.labelFlag = t.info.Defs[s.Label], flag
	t.stmt(s.Stmt)
	t.fn.label, t.fn.labelFlag = nil, "" // taken by the loop, unless it failed first
}

// afterLoop writes, after loop l, the tests of the flags of the outer loops that a
// labeled break or continue inside l left for: the loop right around l breaks or
// continues as the flag says, a loop further out is left by a break.
func (t *tr) afterLoop(l *loopState) {
	fs := t.fn
	for _, o := range l.exits {
		if len(fs.loops) > 0 && fs.loops[len(fs.loops)-1] == o {
			fs.line("if (%s == 1) break;", o.flag)
			fs.line("if (%s == 2) { %s = 0; continue; }", o.flag, o.flag)
		} else {
			fs.line("if (%s != 0) break;", o.flag)
		}
	}
}

// forStmt translates a three-clause, condition-only or infinite loop.
func (t *tr) forStmt(s *ast.ForStmt) {
	fs := t.fn
	init, post := "", ""
	if a, ok := s.Init.(*ast.AssignStmt); ok && len(a.Lhs) > 1 {
		// for i, j := 0, n-1; ...: the init runs before the loop, in a block of its own.
		fs.line("{")
		fs.indent++
		defer func() { fs.indent--; fs.line("}") }()
		t.stmt(a)
	} else if s.Init != nil {
		init = t.simple(s.Init)
	}
	if a, ok := s.Post.(*ast.AssignStmt); ok && len(a.Lhs) > 1 {
		post = t.tuplePost(a)
	} else if s.Post != nil {
		post = t.simple(s.Post)
	}
	c, varying := "true", false
	if s.Cond != nil {
		c, varying = t.cond(s.Cond)
	}
	fs.line("%sfor (%s; %s; %s) {", t.loopAttr(), init, c, post)
	l := t.loop(varying, s.Pos(), func() { t.block(s.Body.List) })
	fs.line("}")
	t.afterLoop(l)
}

// tuplePost translates a loop's post statement i, j = i+1, j-1 into a comma expression
// (GLSL's post clause is an expression, not a statement): every right-hand side goes
// into a temporary declared before the loop, then the temporaries into the variables, so
// that `a, b = b, a+b` keeps Go's meaning.
func (t *tr) tuplePost(s *ast.AssignStmt) string {
	fs := t.fn
	ok := s.Tok == token.ASSIGN && len(s.Lhs) == len(s.Rhs)
	var vals, sets []string
	for i := 0; ok && i < len(s.Rhs); i++ {
		r := s.Rhs[i]
		id, isIdent := unparen(s.Lhs[i]).(*ast.Ident)
		g, typed := t.glslType(t.typeOf(r), r.Pos())
		saved := fs.b
		fs.b = strings.Builder{}
		x := t.expr(r)
		ok = isIdent && typed && fs.b.Len() == 0 // a variable, from a value without statements of its own
		fs.b = saved
		if !ok {
			break
		}
		v := t.tmpName()
		fs.line("%s %s;", g, v)
		vals = append(vals, v+" = "+x)
		if id.Name != "_" {
			sets = append(sets, t.expr(id)+" = "+v)
		}
	}
	if !ok {
		t.errorf(s.Pos(), "this loop clause is not in the kernel language: use ++/--, an assignment, or an assignment of variables from values (i, j = i+1, j-1)")
		return ""
	}
	return strings.Join(append(vals, sets...), ", ")
}

// simple translates a loop's init or post statement into a for-clause (no semicolon).
func (t *tr) simple(s ast.Stmt) string {
	fs := t.fn
	saved := fs.b
	fs.b = strings.Builder{}
	savedIndent := fs.indent
	fs.indent = 0
	t.stmt(s)
	out := strings.TrimSpace(fs.b.String())
	fs.b, fs.indent = saved, savedIndent
	if strings.Count(out, ";") != 1 || strings.Contains(out, "\n") {
		t.errorf(s.Pos(), "this loop clause is not in the kernel language: use a single assignment, declaration or ++/--")
		return ""
	}
	return strings.TrimSuffix(out, ";")
}

// rangeStmt translates range over an integer, an array or a tile_static array.
func (t *tr) rangeStmt(s *ast.RangeStmt) {
	fs := t.fn
	xt := t.typeOf(s.X)
	n, elem, ok := t.rangeOver(s, xt)
	if !ok {
		return
	}
	fs.line("{")
	fs.indent++
	defer func() { fs.indent--; fs.line("}") }()
	if _, ok := xt.Underlying().(*types.Array); ok && s.Value != nil && !isBlank(s.Value) && t.rangeCopies(s) {
		// Go ranges over a copy of an array: writes in the body do not reach v, and the
		// array expression is evaluated once.
		g, _ := t.glslType(xt, s.X.Pos())
		c := t.tmpName()
		fs.line("%s %s = %s;", g, c, t.expr(s.X))
		t.held[s.X] = c
		defer delete(t.held, s.X)
	}
	ity := "int"
	if elem == nil {
		ity, _ = t.glslType(xt, s.X.Pos())
	}
	if t.info.Types[s.X].Value == nil && elem == nil {
		lim := t.tmpName()
		fs.line("%s %s = %s;", ity, lim, n)
		n = lim
	}
	// The loop counts in the key variable, unless Go's key differs from a counter: a key
	// assigned (=) keeps the last index after the loop, not n, and a key that the body
	// writes does not move the range on. Those count in a variable of their own and
	// assign the key at the top of each pass.
	i, own := t.tmpName(), false
	if s.Key != nil && !isBlank(s.Key) {
		id, _ := s.Key.(*ast.Ident)
		if own = s.Tok == token.ASSIGN || id == nil || t.writes(s.Body, t.info.ObjectOf(id)); !own {
			i = t.localName(t.info.Defs[id])
		}
	}
	zero := "0"
	if ity == "uint" {
		zero = "0u"
	}
	fs.line("%sfor (%s %s = %s; %s < %s; %s++) {", t.loopAttr(), ity, i, zero, i, n, i)
	l := t.loop(t.rangesInt(s.X) && t.isVarying(s.X, fs.varying), s.Pos(), func() {
		if own {
			fs.indent++
			t.assignOne(s.Key, i, s.Tok)
			fs.indent--
		}
		if s.Value != nil {
			if id, ok := s.Value.(*ast.Ident); !ok || id.Name != "_" {
				fs.indent++
				v := t.rangeElem(s.X, i)
				t.assignOne(s.Value, v, s.Tok)
				fs.indent--
			}
		}
		t.block(s.Body.List)
	})
	fs.line("}")
	t.afterLoop(l)
}

// rangeOver returns the trip count of a range loop and the element type of what it
// ranges over (nil for an integer).
func (t *tr) rangeOver(s *ast.RangeStmt, xt types.Type) (string, types.Type, bool) {
	switch u := xt.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			return t.expr(s.X), nil, true
		}
	case *types.Array:
		return strconv.FormatInt(u.Len(), 10), u.Elem(), true
	case *types.Pointer: // a pointer receiver of an array type: no copy, as in Go
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return strconv.FormatInt(a.Len(), 10), a.Elem(), true
		}
	case *types.Slice:
		if id, ok := unparen(s.X).(*ast.Ident); ok {
			if sd := t.sharedV[t.info.Uses[id]]; sd != nil {
				return "int(" + sd.size + ")", u.Elem(), true
			}
		}
		t.errorf(s.X.Pos(), "range over a slice is not in the kernel language")
		return "", nil, false
	}
	t.errorf(s.X.Pos(), "range over %s is not in the kernel language", xt)
	return "", nil, false
}

// rangeCopies says whether a range over an array with a value variable must copy the
// array first: the range expression is not a variable (or a part of one), or the body
// writes the variable.
func (t *tr) rangeCopies(s *ast.RangeStmt) bool {
	root := rootIdent(s.X)
	if root == nil {
		return true // a call or a composite literal: evaluated once, into the copy
	}
	return t.writes(s.Body, t.info.Uses[root])
}

// writes says whether n assigns to variable obj (or a part of it), directly or through a
// pointer-receiver method.
func (t *tr) writes(n ast.Node, obj types.Object) bool {
	writes := false
	ast.Inspect(n, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch x := n.(type) {
		case *ast.AssignStmt:
			lhs = x.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{x.X}
		case *ast.RangeStmt:
			lhs = []ast.Expr{x.Key, x.Value}
		case *ast.CallExpr:
			if r := ptrCallRecv(t.info, t.pkg, x); r != nil {
				lhs = []ast.Expr{r}
			}
		}
		for _, l := range lhs {
			if l == nil {
				continue
			}
			if id := rootIdent(l); id != nil && t.info.ObjectOf(id) == obj {
				writes = true
			}
		}
		return !writes
	})
	return writes
}

// isBlank says whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// rangeElem is element i of the range expression x.
func (t *tr) rangeElem(x ast.Expr, i string) string {
	if id, ok := unparen(x).(*ast.Ident); ok {
		if sd := t.sharedV[t.info.Uses[id]]; sd != nil {
			if sd.bits {
				return "uintBitsToFloat(" + sd.name + "[" + i + "])"
			}
			return sd.name + "[" + i + "]"
		}
	}
	return t.expr(x) + "[" + i + "]"
}

// switchStmt translates a switch into an if/else chain (Go's cases do not fall through).
func (t *tr) switchStmt(s *ast.SwitchStmt) {
	fs := t.fn
	fs.line("{")
	fs.indent++
	defer func() { fs.indent--; fs.line("}") }()
	if s.Init != nil {
		t.stmt(s.Init)
	}
	tag := ""
	varying := false
	if s.Tag != nil {
		g, _ := t.glslType(t.typeOf(s.Tag), s.Tag.Pos())
		tag = t.tmpName()
		fs.line("%s %s = %s;", g, tag, t.expr(s.Tag))
		varying = t.isVarying(s.Tag, fs.varying)
	}
	var def *ast.CaseClause
	var conds []string
	var bodies [][]ast.Stmt
	var order []int // each clause's place in conds, -1 for default (caseSeq)
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			order = append(order, -1)
			continue
		}
		order = append(order, len(conds))
		var parts []string
		for _, e := range cc.List {
			varying = varying || t.isVarying(e, fs.varying)
			if tag != "" {
				parts = append(parts, "("+tag+" == "+t.expr(e)+")")
			} else {
				parts = append(parts, "("+t.expr(e)+")")
			}
		}
		conds = append(conds, strings.Join(parts, " || "))
		bodies = append(bodies, cc.Body)
	}
	if varying {
		fs.divergent++
		defer func() { fs.divergent-- }()
	}
	cases := func() { t.caseChain(conds, bodies, def) }
	if fallsThrough(s) {
		cases = func() { t.caseSeq(conds, bodies, def, order) }
	}
	if !switchBreaks(s) {
		fs.inSwitch++
		defer func() { fs.inSwitch-- }()
		cases()
		return
	}
	// A break leaves the switch, but an if/else chain has nothing to leave: the chain runs
	// in do { } while (false), a loop of one pass that a break leaves. A continue of the
	// loop around sets the pass's flag to 2 and breaks, and the flag is tested after it.
	flag := t.tmpName()
	fs.line("int %s = 0;", flag)
	fs.line("do {")
	fs.labelFlag, fs.pass = flag, true
	l := t.loop(false, s.Pos(), func() {
		fs.indent++
		cases()
		fs.indent--
	})
	fs.line("} while (false);")
	t.afterLoop(l)
	if l.cont {
		if p := fs.loops[len(fs.loops)-1]; p.pass {
			p.cont = true
			fs.line("if (%s == 2) { %s = 2; break; }", flag, p.flag)
		} else {
			fs.line("if (%s == 2) continue;", flag)
		}
	}
}

// caseChain writes a switch's cases as an if/else chain (Go's cases do not fall through).
func (t *tr) caseChain(conds []string, bodies [][]ast.Stmt, def *ast.CaseClause) {
	fs := t.fn
	for i, c := range conds {
		if i == 0 {
			fs.line("if (%s) {", c)
		} else {
			fs.line("} else if (%s) {", c)
		}
		t.block(bodies[i])
	}
	if def != nil {
		if len(conds) > 0 {
			fs.line("} else {")
			t.block(def.Body)
			fs.line("}")
		} else {
			fs.line("{")
			t.block(def.Body)
			fs.line("}")
		}
	} else if len(conds) > 0 {
		fs.line("}")
	}
}

// fallsThrough says whether a case of s ends in fallthrough.
func fallsThrough(s *ast.SwitchStmt) bool {
	for _, c := range s.Body.List {
		body := c.(*ast.CaseClause).Body
		if len(body) > 0 {
			if b, ok := body[len(body)-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				return true
			}
		}
	}
	return false
}

// caseSeq writes the cases of a switch with fallthrough: the chosen clause's number (in
// source order, default's place included) goes into a variable, then each clause runs
// under `if (sel == k)`, in order, and its fallthrough sets sel to k+1, so the next
// clause's test, which follows, holds.
func (t *tr) caseSeq(conds []string, bodies [][]ast.Stmt, def *ast.CaseClause, order []int) {
	fs := t.fn
	sel := t.tmpName()
	first := -1
	for k, o := range order {
		if o < 0 {
			first = k
		}
	}
	fs.line("int %s = %d;", sel, first)
	for k, o := range order {
		if o >= 0 {
			fs.line("if (%s == %d && (%s)) { %s = %d; }", sel, first, conds[o], sel, k)
		}
	}
	saved := fs.fall
	defer func() { fs.fall = saved }()
	for k, o := range order {
		var body []ast.Stmt
		if o >= 0 {
			body = bodies[o]
		} else {
			body = def.Body
		}
		fs.fall = fmt.Sprintf("%s = %d;", sel, k+1)
		fs.line("if (%s == %d) {", sel, k)
		t.block(body)
		fs.line("}")
	}
}

// branch translates break, continue and fallthrough.
func (t *tr) branch(s *ast.BranchStmt) {
	fs := t.fn
	if s.Label != nil {
		t.labeledBranch(s)
		return
	}
	switch s.Tok {
	case token.BREAK, token.CONTINUE:
		if s.Tok == token.BREAK && fs.inSwitch > 0 { // switchBreaks missed it
			t.errorf(s.Pos(), "this break inside a switch is not in the kernel language: use if/else")
			return
		}
		inner := len(fs.loops) - 1
		if s.Tok == token.CONTINUE { // through the passes of switches (switchStmt) to its loop
			for inner > 0 && fs.loops[inner].pass {
				inner--
			}
		}
		if fs.divergent > 0 && inner >= 0 {
			for _, l := range fs.loops[inner:] {
				l.varyingExit = true
			}
		}
		if inner >= 0 && inner < len(fs.loops)-1 {
			l := fs.loops[len(fs.loops)-1]
			l.cont = true
			fs.line("%s = 2;", l.flag)
			fs.line("break;")
			return
		}
		fs.line("%s;", s.Tok)
	case token.FALLTHROUGH:
		fs.line("%s", fs.fall)
	default:
		t.errorf(s.Pos(), "%s is not in the kernel language", s.Tok)
	}
}

// switchBreaks reports whether a break in s's cases leaves s.
func switchBreaks(s *ast.SwitchStmt) bool { return len(ownBreaks(s)) > 0 }

// ownBreaks returns the breaks in s's cases that leave s (not a loop or a switch inside
// it): the unlabeled ones outside those.
func ownBreaks(s *ast.SwitchStmt) []*ast.BranchStmt {
	var out []*ast.BranchStmt
	ast.Inspect(s.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt:
			return false
		case *ast.BranchStmt:
			if x.Tok == token.BREAK && x.Label == nil {
				out = append(out, x)
			}
		}
		return true
	})
	return out
}

// labeledBranch translates break L and continue L. Of the innermost loop they are a
// plain break or continue (a switch is an if/else chain in GLSL, so it does not catch
// the break); of an outer loop they set its flag and break out of the innermost, and each
// loop between tests the flag after it ends (afterLoop).
func (t *tr) labeledBranch(s *ast.BranchStmt) {
	fs := t.fn
	target := -1
	for i, l := range fs.loops {
		if l.label != nil && l.label == t.info.Uses[s.Label] {
			target = i
		}
	}
	if target < 0 || (s.Tok != token.BREAK && s.Tok != token.CONTINUE) {
		t.errorf(s.Pos(), "%s %s is not in the kernel language: only break and continue of an enclosing labeled loop are", s.Tok, s.Label.Name)
		return
	}
	if fs.divergent > 0 { // conservatively: every loop it leaves, the divergence may be in any
		for _, l := range fs.loops[target:] {
			l.varyingExit = true
		}
	}
	if target == len(fs.loops)-1 {
		fs.line("%s;", s.Tok)
		return
	}
	to := fs.loops[target]
	code := 1
	if s.Tok == token.CONTINUE {
		code = 2
	}
	for _, l := range fs.loops[target+1:] {
		if !slices.Contains(l.exits, to) {
			l.exits = append(l.exits, to)
		}
	}
	fs.line("%s = %d;", to.flag, code)
	fs.line("break;")
}

// returnStmt translates return.
func (t *tr) returnStmt(s *ast.ReturnStmt) {
	fs := t.fn
	if fs.divergent > 0 {
		fs.diverged = true
	}
	switch {
	case len(s.Results) == 0:
		fs.line("return;")
	case len(fs.results) > 0 && len(s.Results) == 1: // return g(x), g with as many results
		t.outs = fs.results
		fs.line("%s;", t.expr(s.Results[0]))
		t.outs = nil
		fs.line("return;")
	case len(fs.results) > 0:
		for i, r := range s.Results {
			fs.line("%s = %s;", fs.results[i], t.expr(r))
		}
		fs.line("return;")
	default:
		fs.line("return %s;", t.expr(s.Results[0]))
	}
}

// resultCount returns the number of results of the call x, or 1 where x is no call.
func (t *tr) resultCount(x ast.Expr) int {
	if tup, ok := t.typeOf(x).(*types.Tuple); ok {
		return tup.Len()
	}
	return 1
}

// callResults translates a call of a function with several results into temporaries,
// which it returns (nil after an error): a GLSL function returns them through out
// parameters.
func (t *tr) callResults(x ast.Expr) []string {
	call, ok := unparen(x).(*ast.CallExpr)
	tup, isTuple := t.typeOf(x).(*types.Tuple)
	if !ok || !isTuple {
		t.errorf(x.Pos(), "assignments from a multi-valued expression are not in the kernel language")
		return nil
	}
	tmps := make([]string, tup.Len())
	for i := range tmps {
		g, ok := t.glslType(t.sub(tup.At(i).Type()), x.Pos())
		if !ok {
			return nil
		}
		tmps[i] = t.tmpName()
		t.fn.line("%s %s;", g, tmps[i])
	}
	before := len(t.errs)
	t.outs = tmps
	t.fn.line("%s;", t.expr(call))
	if t.outs != nil { // no userCall took them
		t.outs = nil
		if len(t.errs) == before {
			t.errorf(x.Pos(), "only the functions and methods of the kernel's package may have several results")
		}
		return nil
	}
	return tmps
}
