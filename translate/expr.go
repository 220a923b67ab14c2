package translate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// expr translates an expression.
func (t *tr) expr(e ast.Expr) string {
	if v, ok := t.held[e]; ok {
		return v
	}
	if tv, ok := t.info.Types[e]; ok && tv.Value != nil {
		return t.constLit(tv.Value, t.typeOf(e), e.Pos())
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return "(" + t.expr(e.X) + ")"
	case *ast.Ident:
		return t.ident(e)
	case *ast.BinaryExpr:
		return t.unfolded(e, t.binary(e))
	case *ast.UnaryExpr:
		return t.unary(e)
	case *ast.CallExpr:
		return t.unfolded(e, t.call(e))
	case *ast.SelectorExpr:
		return t.selector(e)
	case *ast.IndexExpr:
		return t.index(e)
	case *ast.CompositeLit:
		return t.composite(e)
	case *ast.StarExpr:
		// *s of a pointer receiver (*s = T{}, x := *s): the inout parameter itself.
		if id, ok := unparen(e.X).(*ast.Ident); ok && t.isPtrRecv(t.info.Uses[id]) {
			return t.expr(e.X)
		}
		t.errorf(e.Pos(), "pointers are not in the kernel language, other than a method's pointer receiver")
	default:
		if !t.outside(e.Pos(), e) {
			t.errorf(e.Pos(), "expression %T is not in the kernel language", e)
		}
	}
	return "0"
}

// unfolded returns s, the translation of e, through the prelude's identity ampUnfold where e
// is a float32 operation that glslang could fold: one on constants only, that Go does
// not fold (vec.F2(0.001, 1).Add(...), a method of a constant vector, fmath of one).
// glslang folds float expressions in double precision without rounding each operation
// to float32, so a chain of them (a + b) + c gave the double sum rounded once, not Go's
// float32 sum of float32 sums: a result one ulp off. Behind ampUnfold each fold is one
// operation on float32 values, which rounds as Go does; spirv-opt then inlines it and
// folds the rest in float32.
func (t *tr) unfolded(e ast.Expr, s string) string {
	ty := t.typeOf(e)
	if b, ok := ty.Underlying().(*types.Basic); ok {
		if b.Kind() != types.Float32 {
			return s
		}
	} else if v := vecName(ty); v == "" || v[0] != 'F' {
		return s
	}
	if opaque(s) || !t.constOnly(e) {
		return s
	}
	t.prelude["unfold"] = true
	return "ampUnfold(" + s + ")"
}

// opaque reports whether the GLSL expression s is a call of a function of the prelude or
// the user's (their names begin with amp), which glslang does not fold, or a conversion
// of one: float(ampX(...)).
func opaque(s string) bool {
	for {
		open := strings.IndexByte(s, '(')
		if open <= 0 || !strings.HasSuffix(s, ")") || closing(s, open) != len(s)-1 {
			return false
		}
		if strings.HasPrefix(s, "amp") {
			return true
		}
		s = s[open+1 : len(s)-1]
	}
}

// closing returns the index of the parenthesis that closes the one at s[open].
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// constOnly reports whether e reads no variable and calls no function of the user's
// packages: whether glslang may fold it, once translated, to a constant. A vector
// built of constants (vec.F2(1, 2)) is a constant as written and is not one.
func (t *tr) constOnly(e ast.Expr) bool {
	if c, ok := e.(*ast.CallExpr); ok {
		if f, ok := t.info.Uses[callee(c)].(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == vecPath &&
			f.Signature().Recv() == nil && !slices.ContainsFunc(c.Args, func(a ast.Expr) bool {
			return t.info.Types[a].Value == nil
		}) {
			return false
		}
	}
	only := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || !only {
			return only
		}
		switch o := t.info.Uses[id].(type) {
		case *types.Var:
			only = o.IsField() // a field of a variable: the variable fails it
		case *types.Func:
			only = o.Pkg() == nil || !t.userPkg(o.Pkg())
		}
		return only
	})
	return only
}

// callee is the identifier a call names: f in f(x), p.f(x) and v.m(x); nil for others.
func callee(c *ast.CallExpr) *ast.Ident {
	switch f := unparen(c.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// isPtrRecv says whether o is the pointer receiver of the function being translated.
func (t *tr) isPtrRecv(o types.Object) bool {
	d := t.fn.decl
	if o == nil || d.Recv == nil || len(d.Recv.List) != 1 || len(d.Recv.List[0].Names) != 1 {
		return false
	}
	_, ptr := o.Type().(*types.Pointer)
	return ptr && t.info.Defs[d.Recv.List[0].Names[0]] == o
}

// ident translates a variable reference.
func (t *tr) ident(e *ast.Ident) string {
	obj := t.info.Uses[e]
	if obj == nil {
		obj = t.info.Defs[e]
	}
	switch o := obj.(type) {
	case *types.Var:
		switch {
		case o == t.fn.recv:
			t.errorf(e.Pos(), "the kernel value %s is used whole; a kernel body uses its fields", e.Name)
		case o == t.fn.tidx:
			t.errorf(e.Pos(), "the TiledIndex %s is used whole; use its fields (Global, Local, Tile, TileOrigin, TileExtent) and Barrier", e.Name)
		case o.Parent() == t.pkg.Scope() || o.Pkg() != t.pkg:
			t.errorf(e.Pos(), "package-level variable %s is not in the kernel language: use a constant or a kernel field", e.Name)
		default:
			if sd, ok := t.sharedV[o]; ok {
				t.errorf(e.Pos(), "tile_static array %s is used whole; index it", e.Name)
				return sd.name
			}
			return t.localName(o)
		}
	case *types.Nil:
		t.errorf(e.Pos(), "nil is not in the kernel language")
	case *types.Func:
		t.errorf(e.Pos(), "function values are not in the kernel language: call %s", e.Name)
	default:
		t.errorf(e.Pos(), "%s is not a value in the kernel language", e.Name)
	}
	return "0"
}

// isSigned reports whether ty is a signed integer type (after substitution).
func (t *tr) isSigned(ty types.Type) bool {
	b, ok := t.sub(ty).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned == 0
}

// binary translates a binary expression with Go's semantics.
func (t *tr) binary(e *ast.BinaryExpr) string {
	switch e.Op {
	case token.SHL, token.SHR:
		return t.shift(t.expr(e.X), e.Op, e.Y, t.typeOf(e.X))
	}
	if z := t.zeroOperand(e); z != "" {
		return z
	}
	x, y := t.expr(e.X), t.expr(e.Y)
	return t.binop(x, e.Op, y, t.typeOf(e.X), e.OpPos)
}

// zeroOperand translates x + 0, 0 + x, 0 - x, x * 0 and 0 * x of floats, the constant
// 0 written as such, through prelude helpers that compute Go's result bit by bit:
// compilers fold them to x, -x and 0 (lavapipe does, its float controls notwithstanding),
// which loses the sign of a zero (0 - (+0) is +0 in Go, -0 folded), and Inf and NaN
// (Inf * 0 is NaN). It returns "" for every other expression.
func (t *tr) zeroOperand(e *ast.BinaryExpr) string {
	b, ok := t.sub(t.typeOf(e.X)).Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsFloat == 0 || b.Kind() == types.UntypedFloat {
		return ""
	}
	zero := func(x ast.Expr) bool {
		v := t.info.Types[x].Value
		return v != nil && constant.Sign(v) == 0
	}
	var f string
	var other ast.Expr
	switch {
	case (e.Op == token.ADD || e.Op == token.MUL) && zero(e.Y):
		f, other = map[token.Token]string{token.ADD: "ampAdd0", token.MUL: "ampMul0"}[e.Op], e.X
	case (e.Op == token.ADD || e.Op == token.MUL || e.Op == token.SUB) && zero(e.X):
		f, other = map[token.Token]string{token.ADD: "ampAdd0", token.MUL: "ampMul0", token.SUB: "ampSub0"}[e.Op], e.Y
	default:
		return ""
	}
	t.prelude["zero"] = true
	return f + "(" + t.expr(other) + ")"
}

// binop combines two translated operands with Go's semantics.
func (t *tr) binop(x string, op token.Token, y string, lt types.Type, pos token.Pos) string {
	if (op == token.QUO || op == token.REM) && t.checked {
		y = t.checkDivisor(y, lt)
	}
	switch op {
	case token.REM:
		if t.isSigned(lt) {
			t.prelude["rem"] = true
			return "ampRem(" + x + ", " + y + ")"
		}
	case token.QUO:
		if t.isSigned(lt) {
			t.prelude["rem"] = true
			return t.wrap("ampDiv("+x+", "+y+")", lt)
		}
	case token.AND_NOT:
		return "(" + x + " & ~" + y + ")"
	case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.LAND, token.LOR,
		token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		t.errorf(pos, "operator %s is not in the kernel language", op)
	}
	if b, ok := t.sub(lt).Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		t.errorf(pos, "strings are not in the kernel language")
	}
	if wraps(op) {
		return t.wrap("("+x+" "+op.String()+" "+y+")", lt)
	}
	return "(" + x + " " + op.String() + " " + y + ")"
}

// shift translates x << s or x >> s with Go's semantics for counts of 32 and more, and
// for narrow types (a left shift wraps).
func (t *tr) shift(x string, op token.Token, count ast.Expr, lt types.Type) string {
	if op == token.SHL {
		return t.wrap(t.shift32(x, op, count, lt), lt)
	}
	return t.shift32(x, op, count, lt)
}

// shift32 is shift on 32-bit values.
func (t *tr) shift32(x string, op token.Token, count ast.Expr, lt types.Type) string {
	if tv := t.info.Types[count]; tv.Value != nil {
		n, _ := constant.Uint64Val(constant.ToInt(tv.Value))
		if n < 32 {
			return fmt.Sprintf("(%s %s %d)", x, op, n)
		}
		switch {
		case op == token.SHL:
			return t.zero(lt, count.Pos())
		case t.isSigned(lt):
			return "(" + x + " >> 31)"
		default:
			return "0u"
		}
	}
	t.prelude["shift"] = true
	name := "ampShl"
	if op == token.SHR {
		name = "ampShr"
	}
	c := t.expr(count)
	if t.checked && t.isSigned(t.typeOf(count)) {
		c = "ampNN(" + c + ")" // Go panics for a negative count
	}
	return fmt.Sprintf("%s(%s, uint(%s))", name, x, c)
}

// unary translates a unary expression.
func (t *tr) unary(e *ast.UnaryExpr) string {
	x := t.expr(e.X)
	switch e.Op {
	case token.SUB:
		return t.wrap("(-"+x+")", t.typeOf(e))
	case token.ADD:
		return x
	case token.NOT:
		return "(!" + x + ")"
	case token.XOR:
		return t.wrap("(~"+x+")", t.typeOf(e))
	case token.AND:
		t.errorf(e.Pos(), "pointers are not in the kernel language")
	case token.ARROW:
		t.errorf(e.Pos(), "channels are not in the kernel language")
	default:
		t.errorf(e.Pos(), "operator %s is not in the kernel language", e.Op)
	}
	return x
}

// fieldPath writes the selection of a struct field (through embedded fields).
func (t *tr) fieldPath(base string, xt types.Type, path []int) string {
	cur := t.sub(xt)
	for _, i := range path {
		if p, ok := cur.Underlying().(*types.Pointer); ok {
			cur = p.Elem()
		}
		st := cur.Underlying().(*types.Struct)
		f := st.Field(i)
		if vecName(cur) != "" {
			base += "." + strings.ToLower(f.Name())
		} else {
			base += "." + glslName(f.Name())
		}
		cur = t.sub(f.Type())
	}
	return base
}

// kernelField returns the kernel field a selector on the receiver names, or nil.
func (t *tr) kernelField(e *ast.SelectorExpr) any {
	sel := t.info.Selections[e]
	if sel == nil || sel.Kind() != types.FieldVal {
		return nil
	}
	id, ok := unparen(e.X).(*ast.Ident)
	if !ok || t.fn.recv == nil || t.info.Uses[id] != t.fn.recv {
		return nil
	}
	f, ok := sel.Obj().(*types.Var)
	if !ok {
		return nil
	}
	if k, ok := t.fields[f.Origin()]; ok {
		return k
	}
	return nil
}

// isTiledIndex reports whether x is the kernel's TiledIndex parameter.
func (t *tr) isTiledIndex(x ast.Expr) bool {
	id, ok := unparen(x).(*ast.Ident)
	return ok && t.fn.tidx != nil && t.info.Uses[id] == t.fn.tidx
}

// selector translates x.f: a kernel field, a TiledIndex field, a struct or vector field.
func (t *tr) selector(e *ast.SelectorExpr) string {
	sel := t.info.Selections[e]
	if sel == nil {
		t.errorf(e.Pos(), "%s.%s is not in the kernel language (only constants and the functions of runtime, fmath, math, math/bits, vec and half may be used from other packages)",
			exprString(e.X), e.Sel.Name)
		return "0"
	}
	if sel.Kind() != types.FieldVal {
		t.errorf(e.Pos(), "method values are not in the kernel language: call %s", e.Sel.Name)
		return "0"
	}
	if k := t.kernelField(e); k != nil {
		switch f := k.(type) {
		case *scalarArg:
			if f.bool {
				return "(amp." + f.name + " != 0u)"
			}
			return "amp." + f.name
		case *viewArg:
			t.errorf(e.Pos(), "view %s is used whole; a kernel uses a view through At, Set and its Atomic methods", e.Sel.Name)
		case string:
			t.errorf(e.Pos(), "%s", f)
		}
		return "0"
	}
	if t.isTiledIndex(e.X) {
		switch e.Sel.Name {
		case "Global", "Local", "Tile", "TileOrigin":
			return "amp" + e.Sel.Name + "()"
		}
		t.errorf(e.Pos(), "TiledIndex.%s is used whole; use its methods (TileExtent.Dim, TileExtent.Size, Barrier.Wait)", e.Sel.Name)
		return "0"
	}
	return t.fieldPath(t.expr(e.X), t.typeOf(e.X), sel.Index())
}

// index translates x[i]: arrays, tile_static arrays and Index components.
func (t *tr) index(e *ast.IndexExpr) string {
	if id, ok := unparen(e.X).(*ast.Ident); ok {
		if sd, ok := t.sharedV[t.info.Uses[id]]; ok {
			a := sd.name + "[" + t.sharedIndex(sd, e.Index) + "]"
			if sd.bits {
				return "uintBitsToFloat(" + a + ")"
			}
			return a
		}
	}
	xt := t.typeOf(e.X)
	if p, ok := xt.Underlying().(*types.Pointer); ok { // m[i] of a pointer receiver m of an array type
		xt = p.Elem()
	}
	switch xt.Underlying().(type) {
	case *types.Array:
	default:
		t.errorf(e.Pos(), "indexing a %s is not in the kernel language", xt)
		return "0"
	}
	x := t.expr(e.X)
	tv := t.info.Types[e.Index]
	if tv.Value != nil && isRuntime(xt, "Index") {
		i, _ := constant.Int64Val(tv.Value)
		return x + "." + string("xyz"[i])
	}
	i := t.expr(e.Index)
	if tv.Value == nil { // Go checks a constant index as it compiles
		i = t.checkIndex(i, fmt.Sprint(xt.Underlying().(*types.Array).Len()), "ampArrayFault")
	}
	return x + "[" + i + "]"
}

// sharedIndex is index e of tile_static array sd, checked in a bounds-checked build. A
// constant index into an array whose size depends on the tile (a specialization
// constant) goes through ampDyn: glslang checks a constant index against the size the
// constant has by default (a tile of one thread) and rejects s[3] of an array
// TileStatic(t, t.TileExtent.Size()); Go checks it as the kernel runs, and so does a
// bounds-checked build. (Index 0 is in range of every size.)
func (t *tr) sharedIndex(sd *sharedDecl, e ast.Expr) string {
	i := t.expr(e)
	if c := t.info.Types[e].Value; c != nil && constant.Sign(c) > 0 && !isNumber(sd.size) {
		t.prelude["dyn"] = true
		i = "ampDyn(" + i + ")"
	}
	return t.checkIndex(i, sd.size, fmt.Sprintf("ampSharedFault + %du", sd.ord))
}

// checkIndex is index i of an array of n elements: in a bounds-checked build, i where it
// is in range, else 0 with the fault recorded under code (checkPrelude).
func (t *tr) checkIndex(i, n, code string) string {
	if !t.checked {
		return i
	}
	return fmt.Sprintf("ampIx(int(%s), int(%s), %s)", i, n, code)
}

// checkDivisor is an integer divisor y, checked in a bounds-checked build: Go panics on a
// division by zero, so the division records a fault (ampDivFault) and divides by 1.
func (t *tr) checkDivisor(y string, lt types.Type) string {
	b, ok := t.sub(lt).Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return y
	}
	return "ampNZ(" + y + ")" // of a constant, folded by the compiler
}

// composite translates a struct, array, Index or vector literal.
func (t *tr) composite(e *ast.CompositeLit) string {
	ty := t.typeOf(e)
	g, ok := t.glslType(ty, e.Pos())
	if !ok {
		return "0"
	}
	if isRuntime(ty, "TiledIndex") || isRuntime(ty, "Extent") {
		t.errorf(e.Pos(), "%s values are made by the runtime, not by kernels", ty)
		return "0"
	}
	switch u := ty.Underlying().(type) {
	case *types.Array:
		parts := make([]string, u.Len())
		z := t.zero(u.Elem(), e.Pos())
		for i := range parts {
			parts[i] = z
		}
		next := 0
		for _, el := range e.Elts {
			v := el
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				k, _ := constant.Int64Val(t.info.Types[kv.Key].Value)
				next, v = int(k), kv.Value
			}
			parts[next] = t.expr(v)
			next++
		}
		if isRuntime(ty, "Index") {
			return "ivec3(" + strings.Join(parts, ", ") + ")"
		}
		return g + "(" + strings.Join(parts, ", ") + ")"
	case *types.Struct:
		vals := make([]string, u.NumFields())
		for i := range vals {
			vals[i] = t.zero(u.Field(i).Type(), e.Pos())
		}
		for i, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				name := kv.Key.(*ast.Ident).Name
				for j := range u.NumFields() {
					if u.Field(j).Name() == name {
						vals[j] = t.expr(kv.Value)
					}
				}
				continue
			}
			vals[i] = t.expr(el)
		}
		if vn := vecName(ty); vn != "" {
			n := int(vn[len(vn)-1] - '0')
			return g + "(" + strings.Join(vals[:n], ", ") + ")"
		}
		return g + "(" + strings.Join(vals, ", ") + ")"
	}
	t.errorf(e.Pos(), "composite literals of type %s are not in the kernel language", ty)
	return "0"
}

// lhsWalk walks an assignment's left side from the outside in, through the indices and
// fields that choose the element written, to the variable written. It returns that
// variable's identifier (nil for an element of a slice, which in a kernel is a
// tile_static array and no variable, and for anything else), and whether index, called
// on each index into an array on the way (nil: none), accepted them all.
func lhsWalk(info *types.Info, lhs ast.Expr, index func(ast.Expr) bool) (*ast.Ident, bool) {
	for {
		switch x := unparen(lhs).(type) {
		case *ast.IndexExpr:
			if tv, ok := info.Types[x.X]; ok {
				if _, slice := tv.Type.Underlying().(*types.Slice); slice {
					return nil, true
				}
			}
			if index != nil && !index(x.Index) {
				return nil, false
			}
			lhs = x.X
		case *ast.SelectorExpr:
			lhs = x.X
		case *ast.Ident:
			return x, true
		default:
			return nil, true
		}
	}
}

// every reports whether visit accepts every node under root: it walks root as ast.Inspect
// does, stops at the first node visit rejects, and skips the children of a node where
// visit says not to descend. (ast.Inspect's closing calls with nil are not passed on.)
func every(root ast.Node, visit func(n ast.Node) (ok, descend bool)) bool {
	ok := true
	ast.Inspect(root, func(n ast.Node) bool {
		if !ok || n == nil {
			return false
		}
		var descend bool
		ok, descend = visit(n)
		return ok && descend
	})
	return ok
}

// unparen strips parentheses.
func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// exprString is a short rendering of e for messages.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return fmt.Sprintf("%T", e)
}

// isNumber reports whether the GLSL expression s is a decimal literal.
func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
