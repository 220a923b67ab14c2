package translate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"math"
	"strings"

	"github.com/goamp/goamp/translate/ir"
)

// UnsupportedError says why a kernel has no IR (Kernel.IR): the first
// construct of its body that the direct SPIR-V backend does not cover yet.
type UnsupportedError struct {
	// Pos is where the construct starts.
	Pos token.Position
	// Kernel is the program's name.
	Kernel string
	// Construct names what is not covered.
	Construct string
}

// Error implements error.
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s: %s: the direct SPIR-V backend does not cover %s yet (use -backend=glslc)",
		e.Pos, e.Kernel, e.Construct)
}

// lowerer lowers one checked kernel's body to the IR.
type lowerer struct {
	t      *tr
	k      *ir.Kernel
	recv   types.Object
	idx    types.Object
	vars   map[types.Object]*ir.Var
	scalar map[*scalarArg]int
	err    *UnsupportedError
	// recvs are the kernel's receiver and those of the methods inlined into
	// it; env binds the parameters of inlined functions to their arguments
	// (an ir.Value, or a [3]ir.Value for a runtime.Index).
	recvs map[types.Object]bool
	env   map[types.Object]any
	depth int // of inlined calls
	// loops are the loops around the statement being lowered, innermost
	// last; label is the statement being lowered's label, for the loop it
	// makes.
	loops []loopEntry
	label types.Object
	// ivars are the three variables of each runtime.Index local (the body's
	// index parameter too).
	ivars map[types.Object][3]*ir.Var
	// tidx is a Tiled body's runtime.TiledIndex parameter; shared numbers
	// the body's tile_static arrays (Kernel.Shared).
	tidx   types.Object
	shared map[types.Object]int
	// frames are the inlined calls being lowered, innermost last: their
	// returns store the results and leave the call.
	frames []*frame
}

// frame is an inlined call of a function of several statements: its body
// runs in loop, a loop of one pass that its returns leave (nil where its
// only return ends it), and its results go to results.
type frame struct {
	loop    *ir.Loop
	results []*ir.Var
}

// sharedRef and tiledRef bind an inlined function's parameter (env) to a
// tile_static array of the kernel and to the kernel's TiledIndex.
type (
	sharedRef int
	tiledRef  struct{}
)

// loopEntry is a loop being lowered: a Go loop, or the one-pass loop that a
// switch with a break in it becomes (pass), and its label.
type loopEntry struct {
	loop  *ir.Loop
	label types.Object
	pass  bool
}

// enter pushes loop n with the pending label and returns the function that
// pops it.
func (l *lowerer) enter(n *ir.Loop, pass bool) func() {
	l.loops = append(l.loops, loopEntry{loop: n, label: l.label, pass: pass})
	l.label = nil
	return func() { l.loops = l.loops[:len(l.loops)-1] }
}

// target returns the loop a break (or continue) with label lab leaves: the
// labeled one, else the innermost (for a continue, the innermost Go loop).
func (l *lowerer) target(lab *ast.Ident, cont bool) *ir.Loop {
	for i := len(l.loops) - 1; i >= 0; i-- {
		e := l.loops[i]
		switch {
		case lab != nil && e.label == l.t.info.Uses[lab]:
			return e.loop
		case lab == nil && !(cont && e.pass):
			return e.loop
		}
	}
	return nil
}

// lower returns the IR of the kernel t translated, or an *UnsupportedError.
func (t *tr) lower(prog string, decl *ast.FuncDecl) (*ir.Kernel, error) {
	l := &lowerer{t: t, k: &ir.Kernel{Name: prog}, vars: map[types.Object]*ir.Var{},
		scalar: map[*scalarArg]int{}, recvs: map[types.Object]bool{}, env: map[types.Object]any{},
		ivars: map[types.Object][3]*ir.Var{}, shared: map[types.Object]int{}}
	l.k.Tiled = t.tiled
	if decl.Recv != nil && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		l.recv = t.info.Defs[decl.Recv.List[0].Names[0]]
		l.recvs[l.recv] = true
	}
	if ps := decl.Type.Params.List; len(ps) == 1 && len(ps[0].Names) == 1 {
		if t.tiled {
			l.tidx = t.info.Defs[ps[0].Names[0]]
		} else {
			l.idx = t.info.Defs[ps[0].Names[0]]
		}
	}
	for _, v := range t.views {
		et := l.irType(v.elem)
		if et == ir.Invalid || l.hasBool(et) || et.IsComposite() && l.hasNarrow(et) {
			return nil, l.fail(v.field.Pos(), fmt.Sprintf("views of %s", t.sub(v.elem)))
		}
		l.k.Views = append(l.k.Views, ir.View{Name: v.field.Name(), Elem: et, Written: v.written, Read: v.read,
			Bits: v.atomicF})
	}
	for i := range t.scalars {
		s := &t.scalars[i]
		st := l.irType(t.sub(s.field.Type()))
		if st == ir.Invalid || st.IsComposite() && (l.hasBool(st) || l.hasNarrow(st) || l.hasBlank(st)) {
			return nil, l.fail(s.field.Pos(), fmt.Sprintf("scalar fields of type %s", t.sub(s.field.Type())))
		}
		l.scalar[s] = i
		l.k.Scalars = append(l.k.Scalars, ir.Scalar{Name: s.field.Name(), Type: st,
			Vec: vecName(t.sub(s.field.Type())) != ""})
	}
	l.k.Extents = t.extentViews()
	var init []ir.Stmt
	if l.idx != nil { // the index parameter, which the body may assign to
		for c, v := range l.indexVars(l.idx) {
			init = append(init, &ir.Store{Var: v, Value: &ir.ThreadIndex{Comp: c}})
		}
	}
	l.k.Body = append(init, l.stmts(decl.Body.List)...)
	if l.err != nil {
		return nil, l.err
	}
	ir.Structurize(l.k)
	return l.k, nil
}

// fail records the first construct outside the direct backend; it returns it.
func (l *lowerer) fail(pos token.Pos, construct string) *UnsupportedError {
	if l.err == nil {
		l.err = &UnsupportedError{Pos: l.t.fset.Position(pos), Kernel: l.k.Name, Construct: construct}
	}
	return l.err
}

// hasBool reports whether t is or holds a Bool, which a view's buffer
// cannot hold (Go's is one byte).
func (l *lowerer) hasBool(t ir.Type) bool {
	if !t.IsComposite() {
		return t == ir.Bool
	}
	c := l.k.Composite(t)
	if c.Fields == nil {
		return l.hasBool(c.Elem)
	}
	for _, f := range c.Fields {
		if l.hasBool(f.Type) {
			return true
		}
	}
	return false
}

// hasNarrow reports whether composite t holds an 8- or 16-bit integer,
// which a view's struct or array element cannot (their layout in 32-bit
// registers is not Go's).
func (l *lowerer) hasNarrow(t ir.Type) bool {
	if !t.IsComposite() {
		return t.Narrow() > 0
	}
	c := l.k.Composite(t)
	if c.Fields == nil {
		return l.hasNarrow(c.Elem)
	}
	for _, f := range c.Fields {
		if l.hasNarrow(f.Type) {
			return true
		}
	}
	return false
}

// hasBlank reports whether composite t has a blank field other than a vec
// 3-vector's padding (which the runtime's contract reads as words of a push
// field).
func (l *lowerer) hasBlank(t ir.Type) bool {
	if !t.IsComposite() {
		return false
	}
	c := l.k.Composite(t)
	if c.Fields == nil {
		return l.hasBlank(c.Elem)
	}
	for i, f := range c.Fields {
		if f.Name == "_" && !(i == 3 && len(c.Fields) == 4) || l.hasBlank(f.Type) {
			return true
		}
	}
	return false
}

// zero returns the zero value of type t.
func zero(t ir.Type) ir.Value {
	if t.IsComposite() {
		return &ir.Zero{T: t}
	}
	return &ir.Const{T: t}
}

// place is an assignment's target: a local variable, or the part of one
// that path selects (ir.Load's).
type place struct {
	v    *ir.Var
	path []ir.Value
	t    ir.Type
	// shared: the place is element path[0] of tile_static array arr, or a
	// part of it.
	shared bool
	arr    int
}

func (p *place) load() ir.Value {
	if p.shared {
		return &ir.SharedLoad{Array: p.arr, Index: ir.Clone(p.path[0]), Path: clonePath(p.path[1:]), T: p.t}
	}
	if len(p.path) == 0 {
		return &ir.Load{Var: p.v}
	}
	return &ir.Load{Var: p.v, Path: clonePath(p.path), T: p.t}
}

func (p *place) store(x ir.Value) ir.Stmt {
	if p.shared {
		return &ir.SharedStore{Array: p.arr, Index: ir.Clone(p.path[0]), Path: clonePath(p.path[1:]), Value: x}
	}
	return &ir.Store{Var: p.v, Path: clonePath(p.path), Value: x}
}

func (p *place) clone() *place {
	c := *p
	c.path = clonePath(p.path)
	return &c
}

func clonePath(path []ir.Value) []ir.Value {
	if len(path) == 0 {
		return nil
	}
	out := make([]ir.Value, len(path))
	for i, x := range path {
		out[i] = ir.Clone(x)
	}
	return out
}

// placeOf returns the local variable, or the part of one (a struct's field,
// an array's element, at any depth), that e names, or nil.
func (l *lowerer) placeOf(e ast.Expr) *place {
	switch x := unparen(e).(type) {
	case *ast.StarExpr: // *p of a pointer receiver
		return l.placeOf(x.X)
	case *ast.Ident:
		obj := l.t.info.Uses[x]
		if obj == nil {
			obj = l.t.info.Defs[x]
		}
		if r, ok := l.env[obj].(placeRef); ok {
			return r.p.clone()
		}
		if _, bound := l.env[obj]; bound {
			return nil
		}
		v, ok := obj.(*types.Var)
		if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || obj == l.idx || obj == l.tidx ||
			l.recvs[obj] || l.irType(v.Type()) == ir.Invalid {
			return nil
		}
		lv := l.local(obj, x.Pos())
		return &place{v: lv, t: lv.Type}
	case *ast.SelectorExpr:
		sel := l.t.info.Selections[x]
		if sel == nil || sel.Kind() != types.FieldVal || l.field(x) != nil {
			return nil
		}
		p := l.placeOf(x.X) // a pointer's place is where it points (placeRef)
		if p == nil {
			return nil
		}
		for _, i := range sel.Index() {
			if !p.t.IsComposite() {
				return nil
			}
			p.path = append(p.path, &ir.Const{T: ir.Int32, Bits: uint32(i)})
			p.t = l.k.Part(p.t, i)
		}
		return p
	case *ast.IndexExpr:
		if arr, ok := l.sharedOf(x.X); ok {
			return &place{shared: true, arr: arr, path: []ir.Value{l.expr(x.Index)}, t: l.k.Shared[arr].Elem}
		}
		if isRuntime(l.t.typeOf(x.X), "Index") || !isArray(l.t.typeOf(x.X)) {
			return nil
		}
		p := l.placeOf(x.X)
		if p == nil || !p.t.IsComposite() {
			return nil
		}
		p.path = append(p.path, l.expr(x.Index))
		p.t = l.k.Part(p.t, 0)
		return p
	}
	return nil
}

// isArray reports whether t is an array or a pointer to one.
func isArray(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// part lowers x.f of a struct and x[i] of an array: a load of a local's
// part, or a part of the value x.
func (l *lowerer) part(e ast.Expr) ir.Value {
	if p := l.placeOf(e); p != nil {
		return p.load()
	}
	switch x := unparen(e).(type) {
	case *ast.SelectorExpr:
		v := l.expr(x.X)
		for _, i := range l.t.info.Selections[x].Index() {
			if !v.Type().IsComposite() {
				return l.bad(e, "this selector")
			}
			v = &ir.Extract{X: v, Index: i, T: l.k.Part(v.Type(), i)}
		}
		return v
	case *ast.IndexExpr:
		v := l.expr(x.X)
		if !v.Type().IsComposite() {
			return l.bad(e, "this index")
		}
		et := l.k.Part(v.Type(), 0)
		if c := l.t.info.Types[x.Index].Value; c != nil {
			n, _ := constant.Int64Val(c)
			return &ir.Extract{X: v, Index: int(n), T: et}
		}
		tmp := l.temp(v.Type())
		return &ir.Seq{Body: []ir.Stmt{&ir.Store{Var: tmp, Value: v}},
			X: &ir.Load{Var: tmp, Path: []ir.Value{l.expr(x.Index)}, T: et}}
	}
	return l.bad(e, "this expression")
}

// composite lowers a struct or array literal.
func (l *lowerer) composite(x *ast.CompositeLit) ir.Value {
	t := l.irType(l.t.typeOf(x))
	if !t.IsComposite() {
		return l.bad(x, fmt.Sprintf("composite literals of type %s", l.t.typeOf(x)))
	}
	c := l.k.Composite(t)
	n := c.Len
	if c.Fields != nil {
		n = len(c.Fields)
	}
	parts := make([]ir.Value, n)
	for i := range parts {
		parts[i] = zero(l.k.Part(t, i))
	}
	next := 0
	for _, el := range x.Elts {
		v := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			v = kv.Value
			if id, ok := kv.Key.(*ast.Ident); ok && c.Fields != nil {
				for j, f := range c.Fields {
					if f.Name == id.Name {
						next = j
					}
				}
			} else if k := l.t.info.Types[kv.Key].Value; k != nil {
				i, _ := constant.Int64Val(k)
				next = int(i)
			}
		}
		if next >= n {
			return l.bad(el, "this element")
		}
		parts[next] = l.expr(v)
		next++
	}
	return &ir.Make{T: t, Parts: parts}
}

// irType maps a Go type to the IR's, or ir.Invalid.
func (l *lowerer) irType(ty types.Type) ir.Type {
	ty = l.t.sub(ty)
	if isRuntime(ty, "Index") || isRuntime(ty, "TiledIndex") || isRuntime(ty, "Extent") {
		return ir.Invalid // an Index is three variables (indexVars)
	}
	var c ir.Composite
	switch u := ty.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			ft := l.irType(u.Field(i).Type())
			if ft == ir.Invalid {
				return ir.Invalid
			}
			c.Fields = append(c.Fields, ir.Field{Name: u.Field(i).Name(), Type: ft})
		}
		if c.Fields == nil {
			return ir.Invalid
		}
	case *types.Array:
		c.Elem, c.Len = l.irType(u.Elem()), int(u.Len())
		if c.Elem == ir.Invalid || c.Len < 1 || c.Len > 4096 {
			return ir.Invalid
		}
	}
	if c.Fields != nil || c.Len > 0 {
		c.Name = types.TypeString(ty, types.RelativeTo(l.t.pkg))
		t, ok := l.k.AddType(c)
		if !ok {
			return ir.Invalid
		}
		return t
	}
	b, ok := ty.Underlying().(*types.Basic)
	if !ok {
		return ir.Invalid
	}
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return ir.Bool
	case types.Int, types.Int32, types.UntypedInt, types.UntypedRune:
		return ir.Int32
	case types.Uint32, types.Uint:
		return ir.Uint32
	case types.Float32:
		return ir.Float32
	case types.Float64:
		return ir.Float64
	case types.Int8:
		return ir.Int8
	case types.Uint8:
		return ir.Uint8
	case types.Int16:
		return ir.Int16
	case types.Uint16:
		if isNamed(ty, halfPath, "Float16") {
			return ir.Invalid // a half's bits: its arithmetic is package half's
		}
		return ir.Uint16
	}
	return ir.Invalid
}

func (l *lowerer) stmts(list []ast.Stmt) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range list {
		out = append(out, l.stmt(s)...)
		if l.err != nil {
			return nil
		}
	}
	return out
}

func (l *lowerer) stmt(s ast.Stmt) []ir.Stmt {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return l.stmts(s.List)
	case *ast.ExprStmt:
		return l.exprStmt(s)
	case *ast.AssignStmt:
		return l.assign(s)
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		x := l.dest(s.X)
		if x == nil {
			return nil
		}
		one := &ir.Const{T: x.t, Bits: 1}
		if x.t == ir.Float32 {
			one.Bits = math.Float32bits(1)
		}
		return l.update(x, op, one, s.Pos())
	case *ast.DeclStmt:
		return l.declStmt(s)
	case *ast.IfStmt:
		var out []ir.Stmt
		if s.Init != nil {
			out = l.stmt(s.Init)
		}
		n := &ir.If{Cond: l.expr(s.Cond), Then: l.stmts(s.Body.List)}
		if s.Else != nil {
			n.Else = l.stmt(s.Else)
		}
		return append(out, n)
	case *ast.ForStmt:
		return l.forStmt(s)
	case *ast.RangeStmt:
		return l.rangeStmt(s)
	case *ast.BranchStmt:
		var target *ir.Loop
		if s.Tok == token.BREAK || s.Tok == token.CONTINUE {
			target = l.target(s.Label, s.Tok == token.CONTINUE)
		}
		switch {
		case target == nil:
			l.fail(s.Pos(), s.Tok.String()+" here")
			return nil
		case s.Tok == token.BREAK:
			return []ir.Stmt{&ir.Break{Loop: target}}
		default:
			return []ir.Stmt{&ir.Continue{Loop: target}}
		}
	case *ast.LabeledStmt:
		switch s.Stmt.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt:
			l.label = l.t.info.Defs[s.Label]
			return l.stmt(s.Stmt)
		}
		l.fail(s.Pos(), "labels other than a loop's or a switch's")
		return nil
	case *ast.ReturnStmt:
		return l.returnStmt(s)
	case *ast.EmptyStmt:
		return nil
	case *ast.SwitchStmt:
		return l.switchStmt(s)
	}
	l.fail(s.Pos(), fmt.Sprintf("%T statements", s))
	return nil
}

// exprStmt lowers a call statement: a view's Set, a barrier or fence, an
// atomic, or a call of a function of the package.
func (l *lowerer) exprStmt(s *ast.ExprStmt) []ir.Stmt {
	c, ok := unparen(s.X).(*ast.CallExpr)
	if !ok {
		l.fail(s.Pos(), "this expression statement")
		return nil
	}
	if v, name := l.viewMethod(c); v != nil && name == "Set" && len(c.Args) == 2 {
		return []ir.Stmt{&ir.ViewStore{View: v.index, Index: l.index(c.Args[0]), Value: l.expr(c.Args[1])}}
	}
	if v, name := l.viewMethod(c); v != nil && name == "Set4" && len(c.Args) == 2 {
		return l.set4(c, v)
	}
	if b := l.barrier(c); b != nil {
		return []ir.Stmt{b}
	}
	if a := l.atomic(c); a != nil {
		return []ir.Stmt{&ir.Eval{X: a}}
	}
	if fn := l.callee(c); fn != nil {
		body, _ := l.inlineBody(c, fn)
		return body
	}
	l.fail(s.Pos(), fmt.Sprintf("the call statement of %s", callName(c.Fun)))
	return nil
}

// barrier lowers t.Barrier.Wait and its fenced forms, and runtime's fences,
// or returns nil.
func (l *lowerer) barrier(c *ast.CallExpr) *ir.Barrier {
	if f, ok := unparen(c.Fun).(*ast.SelectorExpr); ok {
		if b, ok := unparen(f.X).(*ast.SelectorExpr); ok && b.Sel.Name == "Barrier" && l.isTiled(b.X) {
			fence := map[string]ir.Fence{"Wait": ir.FenceAll, "WaitWithAllMemoryFence": ir.FenceAll,
				"WaitWithGlobalMemoryFence": ir.FenceGlobal, "WaitWithTileStaticMemoryFence": ir.FenceTileStatic}[f.Sel.Name]
			if fence != 0 {
				return &ir.Barrier{Fence: fence}
			}
		}
	}
	fence := map[string]ir.Fence{"AllMemoryFence": ir.FenceAll, "GlobalMemoryFence": ir.FenceGlobal,
		"TileStaticMemoryFence": ir.FenceTileStatic}[l.runtimeFunc(c.Fun)]
	if fence != 0 {
		return &ir.Barrier{Fence: fence, NoWait: true}
	}
	return nil
}

// runtimeFunc returns the name of the runtime function fun names (maybe
// instantiated), or "".
func (l *lowerer) runtimeFunc(fun ast.Expr) string {
	switch f := unparen(fun).(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	sel, ok := unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	fn, ok := l.t.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != runtimePath {
		return ""
	}
	return fn.Name()
}

// atomicOps are the atomic operations by name without "Atomic".
var atomicOps = map[string]ir.AtomicOp{"Add": ir.AtomicAdd, "Sub": ir.AtomicSub, "Exchange": ir.AtomicExchange,
	"Min": ir.AtomicMin, "Max": ir.AtomicMax, "And": ir.AtomicAnd, "Or": ir.AtomicOr, "Xor": ir.AtomicXor,
	"CompareExchange": ir.AtomicCompareExchange, "Load": ir.AtomicLoad}

// atomic lowers a view's Atomic method or runtime's atomic on a tile_static
// array, or returns nil.
func (l *lowerer) atomic(c *ast.CallExpr) *ir.Atomic {
	if v, name := l.viewMethod(c); v != nil {
		op := atomicOps[strings.TrimPrefix(name, "Atomic")]
		if !strings.HasPrefix(name, "Atomic") || op == 0 || len(c.Args) == 0 {
			return nil
		}
		a := &ir.Atomic{Op: op, Target: v.index, Index: l.index(c.Args[0]), T: l.k.Views[v.index].Elem}
		for _, e := range c.Args[1:] {
			a.Args = append(a.Args, l.expr(e))
		}
		return a
	}
	name, ok := strings.CutPrefix(l.runtimeFunc(c.Fun), "Atomic")
	if op := atomicOps[name]; ok && op != 0 && op != ir.AtomicLoad && len(c.Args) >= 3 {
		arr, ok := l.sharedOf(c.Args[0])
		if !ok {
			l.fail(c.Pos(), "atomics on other than a tile_static array")
			return nil
		}
		a := &ir.Atomic{Op: op, Shared: true, Target: arr, T: l.k.Shared[arr].Elem}
		a.Index[0] = l.expr(c.Args[1])
		for _, e := range c.Args[2:] {
			a.Args = append(a.Args, l.expr(e))
		}
		return a
	}
	return nil
}

// isTiled reports whether e names the kernel's TiledIndex (or a parameter
// bound to it).
func (l *lowerer) isTiled(e ast.Expr) bool {
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj := l.t.info.Uses[id]
	_, bound := l.env[obj].(tiledRef)
	return obj != nil && (obj == l.tidx || bound)
}

// sharedOf returns the tile_static array that e names (or a parameter bound
// to it).
func (l *lowerer) sharedOf(e ast.Expr) (int, bool) {
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		return 0, false
	}
	obj := l.t.info.Uses[id]
	if n, ok := l.shared[obj]; ok {
		return n, true
	}
	n, ok := l.env[obj].(sharedRef)
	return int(n), ok
}

// tileStatic lowers name := runtime.TileStatic[T](t, n): a tile_static
// array of the kernel.
func (l *lowerer) tileStatic(s *ast.AssignStmt) {
	id, _ := s.Lhs[0].(*ast.Ident)
	var obj types.Object
	if id != nil {
		obj = l.t.info.Defs[id]
	}
	sl, ok := types.Unalias(l.t.sub(l.t.typeOf(s.Rhs[0]))).Underlying().(*types.Slice)
	if obj == nil || !ok || len(l.frames) > 0 {
		l.fail(s.Pos(), "this tile_static declaration")
		return
	}
	et := l.irType(sl.Elem())
	if et == ir.Invalid || et == ir.Bool || l.t.floatSh[obj] && et != ir.Float32 {
		l.fail(s.Pos(), fmt.Sprintf("tile_static arrays of %s", l.t.sub(sl.Elem())))
		return
	}
	c := unparen(s.Rhs[0]).(*ast.CallExpr)
	l.shared[obj] = len(l.k.Shared)
	l.k.Shared = append(l.k.Shared, ir.Shared{Name: id.Name, Elem: et, Size: l.sizeExpr(c.Args[1]),
		Bits: l.t.floatSh[obj]})
}

// sizeExpr lowers a tile_static array's size: constants, the tile's
// dimensions and size, + - * / of those, and locals defined once from them.
func (l *lowerer) sizeExpr(e ast.Expr) ir.Value {
	if tv := l.t.info.Types[e]; tv.Value != nil {
		return l.constant(e, tv.Value)
	}
	switch x := unparen(e).(type) {
	case *ast.BinaryExpr:
		op := map[token.Token]ir.Op{token.ADD: ir.Add, token.SUB: ir.Sub, token.MUL: ir.Mul, token.QUO: ir.Div}[x.Op]
		if op != 0 {
			return &ir.Binary{Op: op, X: l.sizeExpr(x.X), Y: l.sizeExpr(x.Y)}
		}
	case *ast.CallExpr:
		if v, ok := l.tileShape(x).(*ir.TileShape); ok && (v.What == ir.Size || v.What == ir.Dim &&
			isConst(v.Comp)) {
			return v
		}
	case *ast.Ident:
		if l.t.fn != nil && l.t.fn.main {
			if init := l.t.onceDefined(x); init != nil {
				return l.sizeExpr(init)
			}
		}
	}
	return l.bad(e, "this tile_static array size")
}

func isConst(v ir.Value) bool {
	_, ok := v.(*ir.Const)
	return ok
}

// tileShape lowers t.TileExtent.Dim(c), .Size() and .Rank(), or returns
// nil.
func (l *lowerer) tileShape(c *ast.CallExpr) ir.Value {
	f, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	te, ok := unparen(f.X).(*ast.SelectorExpr)
	if !ok || te.Sel.Name != "TileExtent" || !l.isTiled(te.X) {
		return nil
	}
	switch {
	case f.Sel.Name == "Dim" && len(c.Args) == 1:
		return &ir.TileShape{What: ir.Dim, Comp: l.expr(c.Args[0])}
	case f.Sel.Name == "Size":
		return &ir.TileShape{What: ir.Size}
	case f.Sel.Name == "Rank":
		return &ir.TileShape{What: ir.Rank}
	}
	return l.bad(c, "TileExtent."+f.Sel.Name)
}

// viewMethod returns the view and method name of k.V.m(...), or nil.
func (l *lowerer) viewMethod(c *ast.CallExpr) (*viewArg, string) {
	f, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	k, ok := unparen(f.X).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	v, _ := l.field(k).(*viewArg)
	return v, f.Sel.Name
}

// field returns the kernel field k.F selects, or nil.
func (l *lowerer) field(e *ast.SelectorExpr) any {
	sel := l.t.info.Selections[e]
	if sel == nil || sel.Kind() != types.FieldVal {
		return nil
	}
	id, ok := unparen(e.X).(*ast.Ident)
	if !ok || !l.recvs[l.t.info.Uses[id]] {
		return nil
	}
	f, ok := sel.Obj().(*types.Var)
	if !ok {
		return nil
	}
	return l.t.fields[f.Origin()]
}

// index lowers a runtime.Index argument: the body's index or an Index literal.
func (l *lowerer) index(e ast.Expr) [3]ir.Value {
	zero := func() ir.Value { return &ir.Const{T: ir.Int32} }
	switch x := unparen(e).(type) {
	case *ast.Ident:
		if ix, ok := l.env[l.t.info.Uses[x]].([3]ir.Value); ok {
			return ir.CloneIndex(ix)
		}
		if vs, ok := l.ivars[l.t.info.Uses[x]]; ok {
			return [3]ir.Value{&ir.Load{Var: vs[0]}, &ir.Load{Var: vs[1]}, &ir.Load{Var: vs[2]}}
		}
	case *ast.SelectorExpr:
		what := map[string]ir.TileWhat{"Global": ir.Global, "Local": ir.Local, "Tile": ir.Tile,
			"TileOrigin": ir.TileOrigin}[x.Sel.Name]
		if what != 0 && l.isTiled(x.X) {
			return [3]ir.Value{&ir.TileIndex{What: what, Comp: 0}, &ir.TileIndex{What: what, Comp: 1},
				&ir.TileIndex{What: what, Comp: 2}}
		}
	case *ast.CallExpr:
		if ix, ok := l.indexCall(x); ok {
			return ix
		}
		if l.isFunc(x.Fun, runtimePath, "Idx") && x.Ellipsis == token.NoPos && len(x.Args) >= 1 && len(x.Args) <= 3 {
			out := [3]ir.Value{zero(), zero(), zero()}
			for i, a := range x.Args {
				out[i] = l.expr(a)
			}
			return out
		}
	case *ast.CompositeLit:
		if isRuntime(l.t.typeOf(x), "Index") && len(x.Elts) >= 1 && len(x.Elts) <= 3 {
			out := [3]ir.Value{zero(), zero(), zero()}
			for i, el := range x.Elts {
				if _, kv := el.(*ast.KeyValueExpr); kv {
					l.fail(el.Pos(), "keyed Index literals")
					return out
				}
				out[i] = l.expr(el)
			}
			return out
		}
	}
	l.fail(e.Pos(), "this form of Index (the body's index, runtime.Idx or an Index literal only)")
	return [3]ir.Value{zero(), zero(), zero()}
}

// local returns the IR variable of a Go local, declaring it at first sight.
func (l *lowerer) local(obj types.Object, pos token.Pos) *ir.Var {
	if v := l.vars[obj]; v != nil {
		return v
	}
	ty := l.irType(obj.Type())
	if ty == ir.Invalid {
		l.fail(pos, fmt.Sprintf("locals of type %s", l.t.sub(obj.Type())))
		ty = ir.Int32
	}
	v := &ir.Var{Name: fmt.Sprintf("%s_%d", obj.Name(), len(l.k.Locals)), Type: ty}
	l.vars[obj] = v
	l.k.Locals = append(l.k.Locals, v)
	return v
}

// temp declares a compiler temporary of type ty.
func (l *lowerer) temp(ty ir.Type) *ir.Var {
	v := &ir.Var{Name: fmt.Sprintf("tmp_%d", len(l.k.Locals)), Type: ty}
	l.k.Locals = append(l.k.Locals, v)
	return v
}

// dest returns the place an assignment's left side names, or nil (blank).
func (l *lowerer) dest(e ast.Expr) *place {
	if id, ok := unparen(e).(*ast.Ident); ok && id.Name == "_" {
		return nil
	}
	switch unparen(e).(type) {
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		if ix, ok := unparen(e).(*ast.IndexExpr); !ok || !isRuntime(l.t.typeOf(ix.X), "Index") {
			if p := l.placeOf(e); p != nil {
				return p
			}
			l.fail(e.Pos(), "assignments to this place")
			return nil
		}
	}
	v := l.lvalue(e)
	if v == nil {
		return nil
	}
	return &place{v: v, t: v.Type}
}

// lvalue returns the variable an assignment's left side names, or nil (blank).
func (l *lowerer) lvalue(e ast.Expr) *ir.Var {
	if ix, ok := unparen(e).(*ast.IndexExpr); ok && isRuntime(l.t.typeOf(ix.X), "Index") {
		id, ok := unparen(ix.X).(*ast.Ident)
		c := l.t.info.Types[ix.Index].Value
		if vs, found := l.ivars[l.t.info.Uses[id]]; ok && found && c != nil {
			if n, ok := constant.Int64Val(c); ok && n >= 0 && n < 3 {
				return vs[n]
			}
		}
		l.fail(e.Pos(), "assignments to an Index component chosen at run time")
		return nil
	}
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		l.fail(e.Pos(), "assignments to other than local variables")
		return nil
	}
	if id.Name == "_" {
		return nil
	}
	obj := l.t.info.Defs[id]
	if obj == nil {
		obj = l.t.info.Uses[id]
	}
	if _, ok := obj.(*types.Var); !ok || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
		l.fail(e.Pos(), "assignments to other than local variables")
		return nil
	}
	return l.local(obj, e.Pos())
}

func (l *lowerer) assign(s *ast.AssignStmt) []ir.Stmt {
	if len(s.Lhs) == 1 && len(s.Rhs) == 1 && s.Tok == token.DEFINE && l.t.isRuntimeFunc(callFun(s.Rhs[0]), "TileStatic") {
		l.tileStatic(s)
		return nil
	}
	if len(s.Lhs) != len(s.Rhs) {
		return l.assignResults(s.Lhs, s.Rhs)
	}
	if op, ok := assignOps[s.Tok]; ok { // x op= y
		x := l.dest(s.Lhs[0])
		if x == nil {
			return nil
		}
		return l.update(x, op, l.expr(s.Rhs[0]), s.TokPos)
	}
	if len(s.Lhs) == 1 {
		return l.assignOne(s.Lhs[0], s.Rhs[0])
	}
	return l.assignTuple(s)
}

// assignOps are the operators of the assignments x op= y.
var assignOps = map[token.Token]token.Token{token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB,
	token.MUL_ASSIGN: token.MUL, token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM,
	token.AND_ASSIGN: token.AND, token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR,
	token.AND_NOT_ASSIGN: token.AND_NOT, token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR}

// assignTuple lowers a, b = x, y (or :=): the left sides' index operands,
// then every right side, through temporaries, then the assignments in order.
func (l *lowerer) assignTuple(s *ast.AssignStmt) []ir.Stmt {
	var out []ir.Stmt
	places := make([]*place, len(s.Lhs))
	for i, e := range s.Lhs {
		if isRuntime(l.t.typeOf(e), "Index") {
			continue
		}
		if id, ok := e.(*ast.Ident); ok && s.Tok == token.DEFINE && l.t.info.Defs[id] != nil && id.Name != "_" {
			v := l.local(l.t.info.Defs[id], id.Pos())
			places[i] = &place{v: v, t: v.Type}
			continue
		}
		places[i] = l.dest(e)
		out = append(out, l.holdPath(places[i])...)
	}
	tmps := make([][]*ir.Var, len(s.Rhs))
	for i, r := range s.Rhs {
		var vals []ir.Value
		if isRuntime(l.t.typeOf(r), "Index") {
			ix := l.index(r)
			vals = ix[:]
		} else {
			vals = []ir.Value{l.expr(r)}
		}
		for _, v := range vals {
			tmp := l.temp(v.Type())
			tmps[i] = append(tmps[i], tmp)
			out = append(out, &ir.Store{Var: tmp, Value: v})
		}
	}
	for i, e := range s.Lhs {
		if p := places[i]; p != nil {
			out = append(out, p.store(&ir.Load{Var: tmps[i][0]}))
			continue
		}
		if !isRuntime(l.t.typeOf(e), "Index") {
			continue // blank
		}
		for c, x := range l.lvalues(e) {
			if x != nil && c < len(tmps[i]) {
				out = append(out, &ir.Store{Var: x, Value: &ir.Load{Var: tmps[i][c]}})
			}
		}
	}
	return out
}

// holdPath evaluates the index operands of place p into temporaries (the
// returned statements), for an assignment that evaluates them before its
// right side.
func (l *lowerer) holdPath(p *place) []ir.Stmt {
	if p == nil {
		return nil
	}
	var out []ir.Stmt
	for j, x := range p.path {
		if !isConst(x) {
			tmp := l.temp(x.Type())
			out = append(out, &ir.Store{Var: tmp, Value: x})
			p.path[j] = &ir.Load{Var: tmp}
		}
	}
	return out
}

// update lowers x op= y: x's index operands evaluated once.
func (l *lowerer) update(x *place, op token.Token, y ir.Value, pos token.Pos) []ir.Stmt {
	var out []ir.Stmt
	for i, v := range x.path {
		if !isConst(v) && ir.HasEffects(v) {
			tmp := l.temp(v.Type())
			out = append(out, &ir.Store{Var: tmp, Value: v})
			x.path[i] = &ir.Load{Var: tmp}
		}
	}
	return append(out, x.store(l.binop(op, x.load(), y, pos)))
}

// callFun returns the function e calls, or nil.
func callFun(e ast.Expr) ast.Expr {
	if c, ok := unparen(e).(*ast.CallExpr); ok {
		return c.Fun
	}
	return nil
}

// assignResults lowers a, b = f(...) (or :=), f a function of the package
// with several results.
func (l *lowerer) assignResults(lhs, rhs []ast.Expr) []ir.Stmt {
	c, ok := unparen(rhs[0]).(*ast.CallExpr)
	fn := (*types.Func)(nil)
	if ok && len(rhs) == 1 {
		fn = l.callee(c)
	}
	if fn == nil && ok && len(rhs) == 1 {
		return l.assignBits(lhs, c)
	}
	if fn == nil {
		l.fail(lhs[0].Pos(), "assignments of several results other than a call of the package's functions")
		return nil
	}
	// The left sides' index operands first, then the call, then the
	// assignments in order.
	var out []ir.Stmt
	dst := make([]*place, len(lhs))
	for i, e := range lhs {
		dst[i] = l.dest(e)
		out = append(out, l.holdPath(dst[i])...)
	}
	body, res := l.inlineBody(c, fn)
	if l.err != nil {
		return nil
	}
	if len(res) != len(lhs) {
		l.fail(c.Pos(), "this call's results")
		return nil
	}
	out = append(out, body...)
	for i, d := range dst {
		if d != nil {
			out = append(out, d.store(&ir.Load{Var: res[i]}))
		}
	}
	return out
}

// assignBits lowers a, b = bits.Mul32(...) (Add32, Sub32): the left sides'
// index operands, the call, then the assignments in order.
func (l *lowerer) assignBits(lhs []ast.Expr, c *ast.CallExpr) []ir.Stmt {
	var out []ir.Stmt
	dst := make([]*place, len(lhs))
	for i, e := range lhs {
		dst[i] = l.dest(e)
		out = append(out, l.holdPath(dst[i])...)
	}
	pre, res, ok := l.bitsResults(c)
	if !ok || len(res) != len(lhs) {
		l.fail(lhs[0].Pos(), "assignments of several results other than a call of the package's functions")
		return nil
	}
	out = append(out, pre...)
	tmps := make([]*ir.Var, len(res))
	for i, r := range res { // every result before the first assignment
		tmps[i] = l.temp(r.Type())
		out = append(out, &ir.Store{Var: tmps[i], Value: r})
	}
	for i, d := range dst {
		if d != nil {
			out = append(out, d.store(&ir.Load{Var: tmps[i]}))
		}
	}
	return out
}

// assignOne lowers lhs = rhs (or :=).
func (l *lowerer) assignOne(lhs, rhs ast.Expr) []ir.Stmt {
	var vals []ir.Value
	if isRuntime(l.t.typeOf(rhs), "Index") {
		ix := l.index(rhs)
		vals = ix[:]
	} else {
		vals = []ir.Value{l.expr(rhs)}
	}
	if !isRuntime(l.t.typeOf(rhs), "Index") {
		if x := l.dest(lhs); x != nil {
			return []ir.Stmt{x.store(vals[0])}
		}
		return nil
	}
	var out []ir.Stmt
	for c, x := range l.lvalues(lhs) {
		if x != nil && c < len(vals) {
			out = append(out, &ir.Store{Var: x, Value: vals[c]})
		}
	}
	return out
}

// lvalues returns the variables an assignment's left side names: one, or
// three for an Index; nil ones for the blank identifier.
func (l *lowerer) lvalues(e ast.Expr) []*ir.Var {
	if id, ok := unparen(e).(*ast.Ident); ok && id.Name != "_" && isRuntime(l.t.typeOf(e), "Index") {
		obj := l.t.info.Defs[id]
		if obj == nil {
			obj = l.t.info.Uses[id]
		}
		vs := l.indexVars(obj)
		return vs[:]
	}
	return []*ir.Var{l.lvalue(e)}
}

// indexVars returns the three variables of Index local obj, declaring them
// at first sight.
func (l *lowerer) indexVars(obj types.Object) [3]*ir.Var {
	if vs, ok := l.ivars[obj]; ok {
		return vs
	}
	var vs [3]*ir.Var
	for c := range vs {
		vs[c] = &ir.Var{Name: fmt.Sprintf("%s_%d_%d", obj.Name(), len(l.k.Locals), c), Type: ir.Int32}
		l.k.Locals = append(l.k.Locals, vs[c])
	}
	l.ivars[obj] = vs
	return vs
}

func (l *lowerer) declStmt(s *ast.DeclStmt) []ir.Stmt {
	g, ok := s.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR {
		if ok && g.Tok == token.CONST {
			return nil // constants are folded where they are used
		}
		l.fail(s.Pos(), "this declaration")
		return nil
	}
	var out []ir.Stmt
	for _, sp := range g.Specs {
		vs := sp.(*ast.ValueSpec)
		for i, n := range vs.Names {
			if n.Name == "_" {
				continue
			}
			if len(vs.Values) > 0 && len(vs.Values) != len(vs.Names) {
				names := make([]ast.Expr, len(vs.Names))
				for j, n := range vs.Names {
					names[j] = n
				}
				return append(out, l.assignResults(names, vs.Values)...)
			}
			if i < len(vs.Values) {
				out = append(out, l.assignOne(n, vs.Values[i])...)
				continue
			}
			for _, x := range l.lvalues(n) { // the zero value
				if x != nil {
					out = append(out, &ir.Store{Var: x, Value: zero(x.Type)})
				}
			}
		}
	}
	return out
}

func (l *lowerer) forStmt(s *ast.ForStmt) []ir.Stmt {
	var out []ir.Stmt
	if s.Init != nil {
		out = l.stmt(s.Init)
	}
	n := &ir.Loop{}
	defer l.enter(n, false)()
	n.Body = l.stmts(s.Body.List)
	if s.Cond != nil {
		n.Cond = l.expr(s.Cond)
	}
	if s.Post != nil {
		n.Post = l.stmt(s.Post)
	}
	return append(out, n)
}

// rangeStmt lowers a range over an integer: for k := range n.
func (l *lowerer) rangeStmt(s *ast.RangeStmt) []ir.Stmt {
	xt := l.t.typeOf(s.X)
	if p, ok := xt.Underlying().(*types.Pointer); ok {
		xt = p.Elem()
	}
	if arr, ok := xt.Underlying().(*types.Array); ok {
		return l.rangeArray(s, arr)
	}
	if s.Value != nil || !l.irType(l.t.typeOf(s.X)).IsInt() {
		l.fail(s.Pos(), "range loops other than over an integer")
		return nil
	}
	n := l.expr(s.X)
	if n == nil {
		return nil
	}
	end := l.temp(n.Type())
	ctr := l.temp(n.Type())
	out := []ir.Stmt{&ir.Store{Var: end, Value: n}, &ir.Store{Var: ctr, Value: &ir.Const{T: n.Type()}}}
	loop := &ir.Loop{}
	defer l.enter(loop, false)()
	var body []ir.Stmt
	if s.Key != nil {
		if k := l.lvalue(s.Key); k != nil {
			body = append(body, &ir.Store{Var: k, Value: &ir.Load{Var: ctr}})
		}
	}
	body = append(body, l.stmts(s.Body.List)...)
	one := &ir.Const{T: n.Type(), Bits: 1}
	loop.Cond = &ir.Binary{Op: ir.Lt, X: &ir.Load{Var: ctr}, Y: &ir.Load{Var: end}}
	loop.Body = body
	loop.Post = []ir.Stmt{&ir.Store{Var: ctr, Value: &ir.Binary{Op: ir.Add, X: &ir.Load{Var: ctr}, Y: one}}}
	return append(out, loop)
}

// rangeArray lowers a range over an array: with a value variable, over a
// copy of the array, evaluated once (Go's), or over a pointer to an array,
// its elements as the loop reaches them; with the key alone the array is
// not evaluated (its length is the type's).
func (l *lowerer) rangeArray(s *ast.RangeStmt, arr *types.Array) []ir.Stmt {
	var out []ir.Stmt
	var src *place
	if id, ok := s.Value.(*ast.Ident); s.Value != nil && !(ok && id.Name == "_") {
		if _, ptr := l.t.typeOf(s.X).Underlying().(*types.Pointer); ptr {
			// Over a pointer to an array: its elements as the loop finds them.
			if src = l.placeOf(s.X); src == nil {
				l.fail(s.X.Pos(), "this range expression")
				return nil
			}
		} else {
			v := l.expr(s.X)
			if !v.Type().IsComposite() {
				l.fail(s.X.Pos(), "this range expression")
				return nil
			}
			tmp := l.temp(v.Type())
			out = append(out, &ir.Store{Var: tmp, Value: v})
			src = &place{v: tmp, t: tmp.Type}
		}
	}
	ctr := l.temp(ir.Int32)
	out = append(out, &ir.Store{Var: ctr, Value: &ir.Const{T: ir.Int32}})
	loop := &ir.Loop{}
	defer l.enter(loop, false)()
	var body []ir.Stmt
	if s.Key != nil {
		if k := l.dest(s.Key); k != nil {
			body = append(body, k.store(&ir.Load{Var: ctr}))
		}
	}
	if src != nil {
		if v := l.dest(s.Value); v != nil {
			e := &place{v: src.v, path: append(clonePath(src.path), &ir.Load{Var: ctr}), t: l.k.Part(src.t, 0)}
			body = append(body, v.store(e.load()))
		}
	}
	loop.Body = append(body, l.stmts(s.Body.List)...)
	loop.Cond = &ir.Binary{Op: ir.Lt, X: &ir.Load{Var: ctr}, Y: &ir.Const{T: ir.Int32, Bits: uint32(arr.Len())}}
	loop.Post = []ir.Stmt{&ir.Store{Var: ctr, Value: &ir.Binary{Op: ir.Add, X: &ir.Load{Var: ctr},
		Y: &ir.Const{T: ir.Int32, Bits: 1}}}}
	return append(out, loop)
}

// expr lowers a value; on failure it records the error and returns a zero
// constant so that lowering can stop at the next statement.
func (l *lowerer) expr(e ast.Expr) ir.Value {
	if tv, ok := l.t.info.Types[e]; ok && tv.Value != nil {
		return l.constant(e, tv.Value)
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return l.expr(x.X)
	case *ast.Ident:
		obj := l.t.info.Uses[x]
		if v, ok := l.env[obj].(ir.Value); ok {
			return ir.Clone(v)
		}
		if r, ok := l.env[obj].(placeRef); ok {
			return r.p.load()
		}
		if v, ok := obj.(*types.Var); ok && v.Parent() != nil && v.Parent() != v.Pkg().Scope() && obj != l.idx &&
			obj != l.recv {
			return &ir.Load{Var: l.local(obj, x.Pos())}
		}
	case *ast.SelectorExpr:
		if s, ok := l.field(x).(*scalarArg); ok {
			return &ir.LoadScalar{Index: l.scalar[s], T: l.k.Scalars[l.scalar[s]].Type}
		}
		if sel := l.t.info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal && l.field(x) == nil &&
			!l.isTiled(x.X) {
			return l.part(x)
		}
	case *ast.CompositeLit:
		if !isRuntime(l.t.typeOf(x), "Index") {
			return l.composite(x)
		}
	case *ast.IndexExpr:
		if v := l.indexExpr(x); v != nil {
			return v
		}
	case *ast.CallExpr:
		return l.call(x)
	case *ast.UnaryExpr:
		return l.unary(x)
	case *ast.BinaryExpr:
		return l.binary(x)
	}
	switch x := e.(type) {
	case *ast.Ident:
		return l.bad(e, fmt.Sprintf("the name %s here (a %T)", x.Name, l.t.info.Uses[x]))
	case *ast.CompositeLit:
		return l.bad(e, fmt.Sprintf("composite literals of type %s", l.t.typeOf(x)))
	case *ast.SelectorExpr:
		return l.bad(e, fmt.Sprintf("the selector %s of a %s", x.Sel.Name, l.t.typeOf(x.X)))
	case *ast.IndexExpr:
		return l.bad(e, fmt.Sprintf("indexing a %s", l.t.typeOf(x.X)))
	}
	return l.bad(e, fmt.Sprintf("this expression (%T)", e))
}

// indexExpr lowers x[i] of a tile_static array, an Index and an array, or
// returns nil.
func (l *lowerer) indexExpr(x *ast.IndexExpr) ir.Value {
	if arr, ok := l.sharedOf(x.X); ok {
		return &ir.SharedLoad{Array: arr, Index: l.expr(x.Index), T: l.k.Shared[arr].Elem}
	}
	if isRuntime(l.t.typeOf(x.X), "Index") {
		if c := l.t.info.Types[x.Index].Value; c != nil {
			if n, ok := constant.Int64Val(c); ok && n >= 0 && n < 3 {
				return l.index(x.X)[n]
			}
		}
		// A component chosen at run time: 0, 1, else 2 (Go panics past 2).
		ix := l.index(x.X)
		h := &holder{l: l}
		d := h.hold(l.expr(x.Index))
		is := func(n uint32) ir.Value {
			return &ir.Binary{Op: ir.Eq, X: d(), Y: &ir.Const{T: d().Type(), Bits: n}}
		}
		return h.wrap(&ir.Select{Cond: is(0), X: ix[0], Y: &ir.Select{Cond: is(1), X: ix[1], Y: ix[2]}})
	}
	if isArray(l.t.typeOf(x.X)) {
		return l.part(x)
	}
	return nil
}

func (l *lowerer) bad(e ast.Expr, construct string) ir.Value {
	l.fail(e.Pos(), construct)
	return &ir.Const{T: ir.Int32}
}

// constant lowers a constant value of e's type.
func (l *lowerer) constant(e ast.Expr, v constant.Value) ir.Value {
	ty := l.irType(l.t.typeOf(e))
	switch ty {
	case ir.Bool:
		if constant.BoolVal(v) {
			return &ir.Const{T: ty, Bits: 1}
		}
		return &ir.Const{T: ty}
	case ir.Int32, ir.Int8, ir.Int16: // sign-extended
		n, _ := constant.Int64Val(constant.ToInt(v))
		return &ir.Const{T: ty, Bits: uint32(int32(n))}
	case ir.Uint32, ir.Uint8, ir.Uint16:
		n, _ := constant.Uint64Val(constant.ToInt(v))
		return &ir.Const{T: ty, Bits: uint32(n)}
	case ir.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return &ir.Const{T: ty, Bits: math.Float32bits(f)}
	case ir.Float64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return f64(math.Float64bits(f))
	}
	return l.bad(e, fmt.Sprintf("constants of type %s", l.t.typeOf(e)))
}

func (l *lowerer) call(c *ast.CallExpr) ir.Value {
	if tv := l.t.info.Types[c.Fun]; tv.IsType() {
		return l.conversion(c)
	}
	if v, name := l.viewMethod(c); v != nil && name == "At" && len(c.Args) == 1 {
		return &ir.ViewLoad{View: v.index, Index: l.index(c.Args[0]), T: l.k.Views[v.index].Elem}
	}
	if v, name := l.viewMethod(c); v != nil && name == "At4" && len(c.Args) == 1 {
		return l.at4(c, v)
	}
	if id, ok := unparen(c.Fun).(*ast.Ident); ok {
		if b, ok := l.t.info.Uses[id].(*types.Builtin); ok && (b.Name() == "min" || b.Name() == "max") {
			return l.minMax(c, b.Name())
		}
		if b, ok := l.t.info.Uses[id].(*types.Builtin); ok && b.Name() == "len" && len(c.Args) == 1 {
			if arr, ok := l.sharedOf(c.Args[0]); ok {
				return &ir.SharedLen{Array: arr}
			}
		}
	}
	if v := l.tileShape(c); v != nil {
		return v
	}
	if a := l.atomic(c); a != nil {
		return a
	}
	switch {
	case l.isFunc(c.Fun, "math", "Float32bits") && len(c.Args) == 1:
		return &ir.Bits{To: ir.Uint32, X: l.expr(c.Args[0])}
	case l.isFunc(c.Fun, "math", "Float32frombits") && len(c.Args) == 1:
		return &ir.Bits{To: ir.Float32, X: l.expr(c.Args[0])}
	}
	if v := l.shapeOf(c); v != nil {
		return l.shape(c, v)
	}
	switch path, name := l.pkgFunc(c.Fun); {
	case path == fmathPath:
		if v := l.fmathCall(c, name); v != nil {
			return v
		}
	case path == vecPath && len(name) == 2 && strings.ContainsRune("FIU", rune(name[0])):
		return l.vecMake(c)
	case path == "math/bits":
		if v := l.bitsCall(c, name); v != nil {
			return v
		}
	case path == "math":
		if v := l.mathCall(c, name); v != nil {
			return v
		}
	}
	if f, ok := unparen(c.Fun).(*ast.SelectorExpr); ok {
		if sel := l.t.info.Selections[f]; sel != nil && sel.Kind() == types.MethodVal && sel.Obj().Pkg() != nil &&
			sel.Obj().Pkg().Path() == vecPath {
			return l.vecMethod(c, f)
		}
	}
	if fn := l.callee(c); fn != nil {
		return l.inline(c, fn)
	}
	return l.bad(c, fmt.Sprintf("the call of %s", callName(c.Fun)))
}

// isFunc reports whether fun names function name of package path.
func (l *lowerer) isFunc(fun ast.Expr, path, name string) bool {
	var id *ast.Ident
	switch f := unparen(fun).(type) {
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.Ident:
		id = f
	default:
		return false
	}
	fn, ok := l.t.info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == path && fn.Name() == name
}

// callee returns the function or method of the kernel's package that c
// calls (a method on the kernel's receiver, or a package function), or nil.
func (l *lowerer) callee(c *ast.CallExpr) *types.Func {
	switch f := unparen(c.Fun).(type) {
	case *ast.Ident:
		fn, ok := l.t.info.Uses[f].(*types.Func)
		if ok && fn.Pkg() == l.t.pkg {
			return fn
		}
	case *ast.SelectorExpr:
		sel := l.t.info.Selections[f]
		if sel == nil || sel.Kind() != types.MethodVal {
			return nil
		}
		if fn, ok := sel.Obj().(*types.Func); ok && fn.Pkg() == l.t.pkg {
			return fn
		}
	case *ast.IndexExpr: // f[T](...)
		if id, ok := unparen(f.X).(*ast.Ident); ok {
			fn, ok := l.t.info.Uses[id].(*types.Func)
			if ok && fn.Pkg() == l.t.pkg {
				return fn
			}
		}
	}
	return nil
}

// placeRef binds a pointer method's receiver (env) to the place it points
// to.
type placeRef struct{ p *place }

// receiver returns, for a call of a method on other than the kernel's
// receiver, the method's receiver and what it is bound to: the place a
// pointer receiver points to, or a value receiver's value (through the
// fields that promote the method); nil for other calls.
func (l *lowerer) receiver(c *ast.CallExpr, decl *ast.FuncDecl, fn *types.Func) (types.Object, any) {
	f, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || decl.Recv == nil {
		return nil, nil
	}
	if l.kernelMethod(c) {
		return nil, nil
	}
	sel := l.t.info.Selections[f]
	var obj types.Object
	if names := decl.Recv.List[0].Names; len(names) == 1 {
		obj = l.t.info.Defs[names[0]]
	}
	rt := l.t.sub(l.t.typeOf(f.X))
	for _, i := range sel.Index()[:len(sel.Index())-1] {
		if p, ok := rt.Underlying().(*types.Pointer); ok {
			rt = p.Elem()
		}
		rt = rt.Underlying().(*types.Struct).Field(i).Type()
	}
	if p, ok := rt.Underlying().(*types.Pointer); ok {
		rt = p.Elem()
	}
	if n, ok := types.Unalias(rt).(*types.Named); ok {
		if sig, ok := fn.Origin().Type().(*types.Signature); ok && sig.RecvTypeParams() != nil {
			if l.t.subst == nil {
				l.t.subst = map[*types.TypeParam]types.Type{}
			}
			for i := range min(sig.RecvTypeParams().Len(), n.TypeArgs().Len()) {
				l.t.subst[sig.RecvTypeParams().At(i)] = l.t.sub(n.TypeArgs().At(i))
			}
		}
	}
	path := sel.Index()[:len(sel.Index())-1]
	if _, ptr := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
		p := l.placeOf(f.X)
		if p == nil || ir.HasEffects(&ir.Make{Parts: p.path}) {
			l.fail(f.X.Pos(), "pointer methods of other than a local variable, its part or a tile_static element")
			return nil, nil
		}
		for _, i := range path {
			p.path = append(p.path, &ir.Const{T: ir.Int32, Bits: uint32(i)})
			p.t = l.k.Part(p.t, i)
		}
		return obj, placeRef{p}
	}
	v := l.expr(f.X)
	for _, i := range path {
		if !v.Type().IsComposite() {
			l.fail(f.X.Pos(), "this receiver")
			return nil, nil
		}
		v = &ir.Extract{X: v, Index: i, T: l.k.Part(v.Type(), i)}
	}
	return obj, v
}

// kernelMethod reports whether c calls a method on the kernel's receiver
// (or an inlined method's receiver of the kernel's type).
func (l *lowerer) kernelMethod(c *ast.CallExpr) bool {
	f, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := unparen(f.X).(*ast.Ident)
	return ok && l.recvs[l.t.info.Uses[id]]
}

// inline lowers a call of a function of the package in an expression. A
// function whose body is one return statement of one value, called with
// arguments without effects, has its parameters bound to the arguments'
// values; any other is inlined as statements (inlineBody) run where the
// value is met.
func (l *lowerer) inline(c *ast.CallExpr, fn *types.Func) ir.Value {
	decl := l.t.pkgInfo.funcs[fn.Origin()]
	if decl == nil || decl.Body == nil || l.depth > 8 {
		return l.bad(c, fmt.Sprintf("the call of %s", callName(c.Fun)))
	}
	if ret, ok := oneReturn(decl); ok && l.bindPure(c, decl, fn) {
		l.depth++
		defer func() { l.depth-- }()
		return l.expr(ret.Results[0])
	}
	body, res := l.inlineBody(c, fn)
	if len(res) != 1 {
		return l.bad(c, fmt.Sprintf("the call of %s here (it has %d results)", callName(c.Fun), len(res)))
	}
	return &ir.Seq{Body: body, X: &ir.Load{Var: res[0]}}
}

// bindPure binds the parameters (and receiver) of a call of fn, declared by
// decl, to its arguments' values where none has an effect, and reports
// whether it did. The receiver and every argument are lowered first, then
// bound: an argument may call the same function, f(1, f(2, 3)).
func (l *lowerer) bindPure(c *ast.CallExpr, decl *ast.FuncDecl, fn *types.Func) bool {
	params := l.enterCall(c, decl, fn)
	if params == nil {
		l.fail(c.Pos(), "calls of variadic functions")
		return false
	}
	robj, rarg := l.receiver(c, decl, fn)
	args := make([]any, len(params))
	pure := true
	if v, ok := rarg.(ir.Value); ok && ir.HasEffects(v) {
		pure = false
	}
	for i, p := range params {
		args[i] = l.arg(p, c.Args[i])
		if v, ok := args[i].(ir.Value); ok && ir.HasEffects(v) {
			pure = false
		}
	}
	if !pure {
		return false
	}
	if robj != nil {
		l.env[robj] = rarg
	}
	for i, p := range params {
		if obj := l.t.info.Defs[p]; obj != nil {
			l.env[obj] = args[i]
		}
	}
	return true
}

// indexCall lowers a call of a function of the package that returns a
// runtime.Index in one statement.
func (l *lowerer) indexCall(c *ast.CallExpr) ([3]ir.Value, bool) {
	var out [3]ir.Value
	fn := l.callee(c)
	if fn == nil {
		return out, false
	}
	decl := l.t.pkgInfo.funcs[fn.Origin()]
	if decl == nil || decl.Body == nil || l.depth > 8 {
		return out, false
	}
	ret, ok := oneReturn(decl)
	if !ok || !l.bindPure(c, decl, fn) {
		return out, false
	}
	l.depth++
	defer func() { l.depth-- }()
	return l.index(ret.Results[0]), true
}

// oneReturn returns the return statement that is all of decl's body, if it
// is, of one value.
func oneReturn(decl *ast.FuncDecl) (*ast.ReturnStmt, bool) {
	if len(decl.Body.List) != 1 {
		return nil, false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	return ret, ok && len(ret.Results) == 1
}

// enterCall prepares a call of fn (declared by decl): a method's receiver
// becomes one of the kernel's and its type parameters the kernel's. It
// returns the parameters, or nil where the arguments do not match them one
// to one.
func (l *lowerer) enterCall(c *ast.CallExpr, decl *ast.FuncDecl, fn *types.Func) []*ast.Ident {
	if sig, ok := fn.Origin().Type().(*types.Signature); ok && sig.TypeParams().Len() > 0 {
		var id *ast.Ident
		switch f := unparen(c.Fun).(type) {
		case *ast.Ident:
			id = f
		case *ast.IndexExpr:
			id, _ = unparen(f.X).(*ast.Ident)
		case *ast.IndexListExpr:
			id, _ = unparen(f.X).(*ast.Ident)
		}
		inst, ok := l.t.info.Instances[id]
		if id == nil || !ok {
			return nil
		}
		if l.t.subst == nil {
			l.t.subst = map[*types.TypeParam]types.Type{}
		}
		for i := range min(sig.TypeParams().Len(), inst.TypeArgs.Len()) {
			l.t.subst[sig.TypeParams().At(i)] = l.t.sub(inst.TypeArgs.At(i))
		}
	}
	if decl.Recv != nil && l.kernelMethod(c) && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		l.recvs[l.t.info.Defs[decl.Recv.List[0].Names[0]]] = true
		if sig, ok := fn.Origin().Type().(*types.Signature); ok && sig.RecvTypeParams() != nil && l.t.subst != nil {
			for i := range min(sig.RecvTypeParams().Len(), len(l.t.targs)) {
				l.t.subst[sig.RecvTypeParams().At(i)] = l.t.targs[i]
			}
		}
	}
	params := []*ast.Ident{}
	for _, f := range decl.Type.Params.List {
		params = append(params, f.Names...)
	}
	if len(params) != len(c.Args) || c.Ellipsis != token.NoPos {
		return nil
	}
	return params
}

// arg lowers argument e of parameter p: a tiledRef for the TiledIndex, a
// sharedRef for a tile_static array, three values for an Index, else a
// value.
func (l *lowerer) arg(p *ast.Ident, e ast.Expr) any {
	pt := l.t.typeOf(p)
	switch {
	case isRuntime(pt, "TiledIndex"):
		if !l.isTiled(e) {
			l.fail(e.Pos(), "this TiledIndex argument")
		}
		return tiledRef{}
	case isRuntime(pt, "Index"):
		return l.index(e)
	}
	if _, ok := pt.Underlying().(*types.Slice); ok {
		arr, ok := l.sharedOf(e)
		if !ok {
			l.fail(e.Pos(), "slice arguments other than a tile_static array")
		}
		return sharedRef(arr)
	}
	return l.expr(e)
}

// inlineBody lowers a call of fn: the arguments in order into fresh
// variables of its parameters, then its body, in a loop of one pass that
// its returns leave where it returns from other than its end, and returns
// the statements and the variables that hold its results.
func (l *lowerer) inlineBody(c *ast.CallExpr, fn *types.Func) ([]ir.Stmt, []*ir.Var) {
	decl := l.t.pkgInfo.funcs[fn.Origin()]
	if decl == nil || decl.Body == nil || l.depth > 8 {
		l.fail(c.Pos(), fmt.Sprintf("the call of %s", callName(c.Fun)))
		return nil, nil
	}
	params := l.enterCall(c, decl, fn)
	if params == nil {
		l.fail(c.Pos(), "calls of variadic functions")
		return nil, nil
	}
	robj, rarg := l.receiver(c, decl, fn)
	args := make([]any, len(params))
	for i, p := range params {
		args[i] = l.arg(p, c.Args[i])
	}
	if robj != nil {
		params = append([]*ast.Ident{decl.Recv.List[0].Names[0]}, params...)
		args = append([]any{rarg}, args...)
	}
	// The callee's variables are its own in each call: a call in another's
	// arguments, f(1, f(2, 3)), must not share them.
	savedVars, savedIvars, savedLoops := l.vars, l.ivars, l.loops
	l.vars, l.ivars, l.loops = maps.Clone(l.vars), maps.Clone(l.ivars), nil
	defer func() { l.vars, l.ivars, l.loops = savedVars, savedIvars, savedLoops }()
	var out []ir.Stmt
	for i, p := range params {
		obj := l.t.info.Defs[p]
		if obj == nil {
			continue
		}
		switch a := args[i].(type) {
		case tiledRef, sharedRef, placeRef:
			l.env[obj] = a
		case [3]ir.Value:
			delete(l.ivars, obj)
			for c, v := range l.indexVars(obj) {
				out = append(out, &ir.Store{Var: v, Value: a[c]})
			}
		case ir.Value:
			delete(l.env, obj)
			delete(l.vars, obj)
			out = append(out, &ir.Store{Var: l.local(obj, p.Pos()), Value: a})
		}
	}
	f := &frame{}
	sig := fn.Type().(*types.Signature)
	for i := range sig.Results().Len() {
		rt := l.irType(sig.Results().At(i).Type())
		if rt == ir.Invalid {
			l.fail(c.Pos(), fmt.Sprintf("results of type %s", l.t.sub(sig.Results().At(i).Type())))
			return nil, nil
		}
		f.results = append(f.results, l.temp(rt))
	}
	if !endsOnlyInReturn(decl.Body) {
		f.loop = &ir.Loop{}
	}
	l.frames = append(l.frames, f)
	l.depth++
	body := l.stmts(decl.Body.List)
	l.depth--
	l.frames = l.frames[:len(l.frames)-1]
	if f.loop != nil {
		f.loop.Body = append(body, &ir.Break{Loop: f.loop})
		body = ir.StructurizeList(l.k, []ir.Stmt{f.loop})
	}
	return append(out, body...), f.results
}

// endsOnlyInReturn reports whether body's only return statement, if any,
// is its last statement.
func endsOnlyInReturn(body *ast.BlockStmt) bool {
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		switch x.(type) {
		case *ast.ReturnStmt:
			n++
		case *ast.FuncLit:
			return false
		}
		return true
	})
	if n == 0 {
		return true
	}
	_, last := body.List[len(body.List)-1].(*ast.ReturnStmt)
	return n == 1 && last
}

// returnStmt lowers a return: of the kernel body, it ends the thread's
// point; of an inlined call, it stores the results and leaves the call.
func (l *lowerer) returnStmt(s *ast.ReturnStmt) []ir.Stmt {
	if len(l.frames) == 0 {
		return []ir.Stmt{&ir.Return{}}
	}
	f := l.frames[len(l.frames)-1]
	var out []ir.Stmt
	switch {
	case len(s.Results) == len(f.results):
		// Every result first: a result may read a variable another's
		// evaluation changes only through a call, which runs in order.
		vals := make([]ir.Value, len(s.Results))
		for i, e := range s.Results {
			vals[i] = l.expr(e)
		}
		for i, v := range vals {
			out = append(out, &ir.Store{Var: f.results[i], Value: v})
		}
	case len(s.Results) == 1:
		c, ok := unparen(s.Results[0]).(*ast.CallExpr)
		var fn *types.Func
		if ok {
			fn = l.callee(c)
		}
		if ok && fn == nil {
			if pre, res, isBits := l.bitsResults(c); isBits && len(res) == len(f.results) {
				out = pre
				for i, r := range res {
					out = append(out, &ir.Store{Var: f.results[i], Value: r})
				}
				break
			}
		}
		if fn == nil {
			l.fail(s.Pos(), "this return")
			return nil
		}
		body, res := l.inlineBody(c, fn)
		if len(res) != len(f.results) {
			l.fail(s.Pos(), "this return")
			return nil
		}
		out = body
		for i, r := range res {
			out = append(out, &ir.Store{Var: f.results[i], Value: &ir.Load{Var: r}})
		}
	default:
		l.fail(s.Pos(), "this return")
		return nil
	}
	if f.loop != nil {
		out = append(out, &ir.Break{Loop: f.loop})
	}
	return out
}

// minMax lowers Go's min and max of two or more values, left to right.
func (l *lowerer) minMax(c *ast.CallExpr, name string) ir.Value {
	op := ir.Min
	if name == "max" {
		op = ir.Max
	}
	v := l.expr(c.Args[0])
	for _, a := range c.Args[1:] {
		v = &ir.Binary{Op: op, X: v, Y: l.expr(a)}
	}
	return v
}

// conversion lowers T(x).
func (l *lowerer) conversion(c *ast.CallExpr) ir.Value {
	to := l.irType(l.t.typeOf(c))
	if to == ir.Invalid || len(c.Args) != 1 {
		return l.bad(c, fmt.Sprintf("conversions to %s", l.t.typeOf(c)))
	}
	if to == ir.Float32 || to == ir.Float64 {
		if a, ok := unparen(c.Args[0]).(*ast.CallExpr); ok && to == ir.Float32 {
			switch {
			case l.isFunc(a.Fun, "math", "NaN"):
				return &ir.Const{T: ir.Float32, Bits: math.Float32bits(float32(math.NaN()))}
			case l.isFunc(a.Fun, "math", "Inf") && len(a.Args) == 1:
				if s := l.t.info.Types[a.Args[0]].Value; s != nil {
					n, _ := constant.Int64Val(constant.ToInt(s))
					return &ir.Const{T: ir.Float32, Bits: math.Float32bits(float32(math.Inf(int(n))))}
				}
			}
		}
	}
	x := l.expr(c.Args[0])
	if to == ir.Bool || (x.Type() == ir.Bool) != (to == ir.Bool) {
		return l.bad(c, "conversions of bools")
	}
	if b, ok := x.(*ir.Binary); ok && b.Op == ir.Mul && to.IsFloat() && x.Type() == to {
		// float32(a*b): rounded on its own, so it must not fuse with an add around
		// it; the Convert node keeps it from being an add's operand.
		return &ir.Convert{To: to, X: x}
	}
	if x.Type() == to {
		return x
	}
	return &ir.Convert{To: to, X: x}
}

func (l *lowerer) unary(u *ast.UnaryExpr) ir.Value {
	x := l.expr(u.X)
	switch u.Op {
	case token.ADD:
		return x
	case token.SUB:
		return &ir.Unary{Op: ir.Neg, X: x}
	case token.NOT:
		return &ir.Unary{Op: ir.Not, X: x}
	case token.XOR:
		return &ir.Unary{Op: ir.Com, X: x}
	}
	return l.bad(u, "unary "+u.Op.String())
}

// zeroFloat reports whether e is a float constant zero, which Go's rules for
// x+0, 0-x and x*0 (signed zeros, infinities) make special.
func (l *lowerer) zeroFloat(e ast.Expr) bool {
	tv := l.t.info.Types[e]
	return tv.Value != nil && l.irType(tv.Type).IsFloat() && constant.Sign(tv.Value) == 0
}

func (l *lowerer) binary(b *ast.BinaryExpr) ir.Value {
	if l.irType(l.t.typeOf(b.X)) == ir.Float64 {
		switch {
		case (b.Op == token.ADD || b.Op == token.MUL) && l.zeroFloat(b.Y):
			return l.zeroOperand64(b.Op, l.expr(b.X))
		case (b.Op == token.ADD || b.Op == token.MUL || b.Op == token.SUB) && l.zeroFloat(b.X):
			return l.zeroOperand64(b.Op, l.expr(b.Y))
		}
	}
	if l.irType(l.t.typeOf(b.X)) == ir.Float32 {
		switch {
		case (b.Op == token.ADD || b.Op == token.MUL) && l.zeroFloat(b.Y):
			return l.zeroOperand(b.Op, l.expr(b.X))
		case (b.Op == token.ADD || b.Op == token.MUL || b.Op == token.SUB) && l.zeroFloat(b.X):
			return l.zeroOperand(b.Op, l.expr(b.Y))
		}
	}
	return l.binop(b.Op, l.expr(b.X), l.expr(b.Y), b.OpPos)
}

// zeroOperand lowers Go's x + 0 (and 0 + x), 0 - x and x * 0 (and 0 * x)
// of a float32 x, the constant zero written as such, in integer operations
// on x's bits that no compiler folds (lavapipe folds the float operations
// to x, -x and 0 whatever the float controls say): the zero's sign (0 - +0
// is +0), Inf * 0 = NaN (amd64's default NaN) and a NaN operand kept.
func (l *lowerer) zeroOperand(op token.Token, v ir.Value) ir.Value {
	h := &holder{l: l}
	x := h.hold(v)
	u := func(n uint32) ir.Value { return &ir.Const{T: ir.Uint32, Bits: n} }
	bits := func() ir.Value { return &ir.Bits{To: ir.Uint32, X: x()} }
	and := func(m uint32) ir.Value { return &ir.Binary{Op: ir.BitAnd, X: bits(), Y: u(m)} }
	float := func(b ir.Value) ir.Value { return &ir.Bits{To: ir.Float32, X: b} }
	zero := &ir.Const{T: ir.Float32}
	var r ir.Value
	switch op {
	case token.ADD: // -0 + 0 is +0
		r = &ir.Select{Cond: &ir.Binary{Op: ir.Eq, X: bits(), Y: u(0x80000000)}, X: zero, Y: x()}
	case token.SUB: // 0 - x: +0 for a zero, x for a NaN, else x with its sign flipped
		neg := float(&ir.Binary{Op: ir.BitXor, X: bits(), Y: u(0x80000000)})
		r = &ir.Select{Cond: &ir.Binary{Op: ir.Eq, X: and(0x7fffffff), Y: u(0)}, X: zero,
			Y: &ir.Select{Cond: &ir.Binary{Op: ir.Gt, X: and(0x7fffffff), Y: u(0x7f800000)}, X: x(), Y: neg}}
	default: // x * 0: a zero of x's sign for a finite x, x for a NaN, NaN for an infinity
		r = &ir.Select{Cond: &ir.Binary{Op: ir.Ne, X: and(0x7f800000), Y: u(0x7f800000)}, X: float(and(0x80000000)),
			Y: &ir.Select{Cond: &ir.Binary{Op: ir.Ne, X: and(0x007fffff), Y: u(0)}, X: x(),
				Y: float(u(0xffc00000))}}
	}
	return h.wrap(r)
}

// binop combines two lowered operands with Go's operator op.
func (l *lowerer) binop(op token.Token, x, y ir.Value, pos token.Pos) ir.Value {
	var o ir.Op
	switch op {
	case token.ADD:
		o = ir.Add
	case token.SUB:
		o = ir.Sub
	case token.MUL:
		o = ir.Mul
	case token.QUO:
		o = ir.Div
	case token.REM:
		o = ir.Rem
	case token.SHL:
		o = ir.Shl
	case token.SHR:
		o = ir.Shr
	case token.AND:
		o = ir.BitAnd
	case token.OR:
		o = ir.BitOr
	case token.XOR:
		o = ir.BitXor
	case token.AND_NOT:
		o = ir.AndNot
	case token.EQL:
		o = ir.Eq
	case token.NEQ:
		o = ir.Ne
	case token.LSS:
		o = ir.Lt
	case token.LEQ:
		o = ir.Le
	case token.GTR:
		o = ir.Gt
	case token.GEQ:
		o = ir.Ge
	case token.LAND:
		o = ir.And
	case token.LOR:
		o = ir.Or
	default:
		l.fail(pos, "operator "+op.String())
		return &ir.Const{T: ir.Int32}
	}
	if x.Type().IsComposite() {
		l.fail(pos, "operator "+op.String()+" on structs and arrays")
		return &ir.Const{T: ir.Int32}
	}
	n := &ir.Binary{Op: o, X: x, Y: y}
	if (o == ir.Add || o == ir.Sub) && x.Type().IsFloat() {
		n.Fuse = isMul(x) || isMul(y)
	}
	return n
}

// isMul reports whether v is a float product (an operand a*b + c may fuse
// with).
func isMul(v ir.Value) bool {
	b, ok := v.(*ir.Binary)
	return ok && b.Op == ir.Mul && b.Type().IsFloat()
}

// switchStmt lowers a switch to a chain of ifs: the tag evaluated once, the
// cases compared in order, the default last wherever it is written; a clause
// that falls through runs the next clause's body after its own. A switch
// with a break in it is a loop of one pass around the chain, which the break
// leaves.
func (l *lowerer) switchStmt(s *ast.SwitchStmt) []ir.Stmt {
	var out []ir.Stmt
	if s.Init != nil {
		out = l.stmt(s.Init)
	}
	var tag *ir.Var
	if s.Tag != nil {
		v := l.expr(s.Tag)
		tag = l.temp(v.Type())
		out = append(out, &ir.Store{Var: tag, Value: v})
	}
	var pass *ir.Loop
	if hasSwitchBreak(s.Body.List) {
		pass = &ir.Loop{}
		defer l.enter(pass, true)()
	} else {
		l.label = nil
	}
	clauses := make([]*ast.CaseClause, len(s.Body.List))
	for i, st := range s.Body.List {
		clauses[i] = st.(*ast.CaseClause)
	}
	var def []ir.Stmt
	type arm struct {
		cond ir.Value
		body []ir.Stmt
	}
	var arms []arm
	for i, cc := range clauses {
		body := l.clauseBody(clauses, i)
		if cc.List == nil {
			def = body
			continue
		}
		var cond ir.Value
		for _, e := range cc.List {
			var c ir.Value
			if tag != nil {
				c = &ir.Binary{Op: ir.Eq, X: &ir.Load{Var: tag}, Y: l.expr(e)}
			} else {
				c = l.expr(e)
			}
			if cond == nil {
				cond = c
			} else {
				cond = &ir.Binary{Op: ir.Or, X: cond, Y: c}
			}
		}
		arms = append(arms, arm{cond, body})
	}
	tail := def
	for i := len(arms) - 1; i >= 0; i-- {
		tail = []ir.Stmt{&ir.If{Cond: arms[i].cond, Then: arms[i].body, Else: tail}}
	}
	if pass != nil {
		pass.Body = append(tail, &ir.Break{Loop: pass})
		return append(out, pass)
	}
	return append(out, tail...)
}

// clauseBody lowers clause i's body, and the next clause's after it where it
// ends in fallthrough.
func (l *lowerer) clauseBody(clauses []*ast.CaseClause, i int) []ir.Stmt {
	list := clauses[i].Body
	if n := len(list); n > 0 {
		if b, ok := list[n-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
			return append(l.stmts(list[:n-1]), l.clauseBody(clauses, i+1)...)
		}
	}
	return l.stmts(list)
}

// hasSwitchBreak reports whether a switch's clauses hold a break of the
// switch itself (an unlabeled one outside loops and switches inside it; a
// labeled break of the switch counts too, conservatively any labeled one).
func hasSwitchBreak(list []ast.Stmt) bool {
	found := false
	for _, s := range list {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if n.Tok == token.BREAK {
					found = true
				}
			}
			return true
		})
	}
	return found
}

// shapeOf returns the view of k.V.Extent().M(...), or nil.
func (l *lowerer) shapeOf(c *ast.CallExpr) *viewArg {
	f, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	inner, ok := unparen(f.X).(*ast.CallExpr)
	if !ok || len(inner.Args) != 0 {
		return nil
	}
	v, name := l.viewMethod(inner)
	if name != "Extent" {
		return nil
	}
	return v
}

// shape lowers k.V.Extent().Dim(c), .Rank(), .Size() and .Contains(i).
func (l *lowerer) shape(c *ast.CallExpr, v *viewArg) ir.Value {
	name := unparen(c.Fun).(*ast.SelectorExpr).Sel.Name
	n := &ir.Shape{View: v.index}
	switch {
	case name == "Dim" && len(c.Args) == 1:
		n.What, n.Comp = ir.Dim, l.expr(c.Args[0])
	case name == "Rank":
		n.What = ir.Rank
	case name == "Size":
		n.What = ir.Size
	case name == "Contains" && len(c.Args) == 1:
		n.What, n.Index = ir.Contains, l.index(c.Args[0])
	default:
		return l.bad(c, "Extent()."+name)
	}
	return n
}

// callName spells the function a call names, for messages.
func callName(fun ast.Expr) string {
	switch f := unparen(fun).(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return callName(f.X) + "." + f.Sel.Name
	case *ast.CallExpr:
		return callName(f.Fun) + "()"
	case *ast.IndexExpr:
		return callName(f.X)
	}
	return fmt.Sprintf("a %T", fun)
}

// fmathFns are package fmath's functions that are one GPU math function.
var fmathFns = map[string]ir.BuiltinFn{"Sqrt": ir.Sqrt, "Rsqrt": ir.InverseSqrt, "Floor": ir.Floor, "Ceil": ir.Ceil,
	"Trunc": ir.Trunc, "RoundEven": ir.RoundEven, "Abs": ir.FAbs}

// pkgFunc returns the package path and name of the function fun names, or
// "".
func (l *lowerer) pkgFunc(fun ast.Expr) (string, string) {
	var id *ast.Ident
	switch f := unparen(fun).(type) {
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.Ident:
		id = f
	default:
		return "", ""
	}
	fn, ok := l.t.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil {
		return "", ""
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		return "", "" // a method
	}
	return fn.Pkg().Path(), fn.Name()
}

// holder evaluates values once into temporaries (statements pre) for
// expressions that use them several times.
type holder struct {
	l   *lowerer
	pre []ir.Stmt
}

// hold returns a function that reads v: v itself where it is a constant or
// a variable, else a temporary that v is stored into once.
func (h *holder) hold(v ir.Value) func() ir.Value {
	switch x := v.(type) {
	case *ir.Const, *ir.LoadScalar:
		return func() ir.Value { return ir.Clone(v) }
	case *ir.Load:
		if len(x.Path) == 0 {
			return func() ir.Value { return ir.Clone(v) }
		}
	}
	tmp := h.l.temp(v.Type())
	h.pre = append(h.pre, &ir.Store{Var: tmp, Value: v})
	return func() ir.Value { return &ir.Load{Var: tmp} }
}

// wrap returns v after the holder's statements.
func (h *holder) wrap(v ir.Value) ir.Value {
	if len(h.pre) == 0 {
		return v
	}
	return &ir.Seq{Body: h.pre, X: v}
}

// fmathCall lowers package fmath's functions that the GPU has, and Min and
// Max by fmath's rule (y if y < x, else x; x if x < y, else y), or returns
// nil.
func (l *lowerer) fmathCall(c *ast.CallExpr, name string) ir.Value {
	if fn, ok := fmathFns[name]; ok && len(c.Args) == 1 {
		return &ir.Builtin{Fn: fn, Args: []ir.Value{l.expr(c.Args[0])}}
	}
	if (name == "Min" || name == "Max") && len(c.Args) == 2 {
		h := &holder{l: l}
		x, y := h.hold(l.expr(c.Args[0])), h.hold(l.expr(c.Args[1]))
		return h.wrap(fmathMinMax(name, x, y))
	}
	return nil
}

// fmathMinMax is fmath's Min or Max of x and y (GLSL's definitions).
func fmathMinMax(name string, x, y func() ir.Value) ir.Value {
	if name == "Min" {
		return &ir.Select{Cond: &ir.Binary{Op: ir.Lt, X: y(), Y: x()}, X: y(), Y: x()}
	}
	return &ir.Select{Cond: &ir.Binary{Op: ir.Lt, X: x(), Y: y()}, X: y(), Y: x()}
}

// vecMake lowers vec.F2 ... vec.U4: a vector of the call's type from its
// components (a 3-vector's padding zero).
func (l *lowerer) vecMake(c *ast.CallExpr) ir.Value {
	t := l.irType(l.t.typeOf(c))
	if !t.IsComposite() {
		return l.bad(c, "this vector")
	}
	comp := l.k.Composite(t)
	parts := make([]ir.Value, len(comp.Fields))
	next := 0
	for i, f := range comp.Fields {
		if f.Name == "_" || next >= len(c.Args) {
			parts[i] = zero(f.Type)
			continue
		}
		parts[i] = l.expr(c.Args[next])
		next++
	}
	if next != len(c.Args) {
		return l.bad(c, "this vector")
	}
	return &ir.Make{T: t, Parts: parts}
}

// vecMethod lowers a method of package vec's vectors: component by
// component, as the GLSL path's vector operators and built-ins (Min and Max
// by fmath's rule for floats, Go's for integers; Dot, Length and Normalize
// with the GPU's rounding, within the documented error).
func (l *lowerer) vecMethod(c *ast.CallExpr, f *ast.SelectorExpr) ir.Value {
	h := &holder{l: l}
	x := l.expr(f.X)
	if f.Sel.Name == "Dot" && len(c.Args) == 1 {
		if d, ok := constDot(x, l.expr(c.Args[0])); ok {
			return d
		}
	}
	a := h.hold(x)
	t := a().Type()
	if !t.IsComposite() {
		return l.bad(c, "this vector")
	}
	comp := l.k.Composite(t)
	ct := comp.Fields[0].Type
	ext := func(v func() ir.Value, i int) ir.Value { return &ir.Extract{X: v(), Index: i, T: ct} }
	mk := func(fn func(i int) ir.Value) ir.Value {
		parts := make([]ir.Value, len(comp.Fields))
		for i, fl := range comp.Fields {
			if fl.Name == "_" {
				parts[i] = zero(fl.Type)
			} else {
				parts[i] = fn(i)
			}
		}
		return &ir.Make{T: t, Parts: parts}
	}
	dot := func(x, y func() ir.Value) ir.Value {
		var sum ir.Value
		for i, fl := range comp.Fields {
			if fl.Name == "_" {
				continue
			}
			p := l.binop(token.MUL, ext(x, i), ext(y, i), c.Pos())
			if sum != nil {
				p = l.binop(token.ADD, sum, p, c.Pos())
			}
			sum = p
		}
		return sum
	}
	ops := map[string]token.Token{"Add": token.ADD, "Sub": token.SUB, "Mul": token.MUL, "Div": token.QUO}
	name := f.Sel.Name
	var arg func() ir.Value
	if len(c.Args) == 1 {
		arg = h.hold(l.expr(c.Args[0]))
	}
	var v ir.Value
	switch {
	case ops[name] != 0 && arg != nil:
		v = mk(func(i int) ir.Value { return l.binop(ops[name], ext(a, i), ext(arg, i), c.Pos()) })
	case name == "Scale" && arg != nil:
		v = mk(func(i int) ir.Value { return l.binop(token.MUL, ext(a, i), arg(), c.Pos()) })
	case name == "Neg" && arg == nil:
		v = mk(func(i int) ir.Value { return &ir.Unary{Op: ir.Neg, X: ext(a, i)} })
	case (name == "Min" || name == "Max") && arg != nil: // fmath's rule, Go's for integers
		v = mk(func(i int) ir.Value {
			return fmathMinMax(name, func() ir.Value { return ext(a, i) }, func() ir.Value { return ext(arg, i) })
		})
	case name == "Dot" && arg != nil:
		v = dot(a, arg)
	case name == "Length" && arg == nil && ct == ir.Float32:
		v = &ir.Builtin{Fn: ir.Sqrt, Args: []ir.Value{dot(a, a)}}
	case name == "Normalize" && arg == nil && ct == ir.Float32:
		r := h.hold(&ir.Builtin{Fn: ir.InverseSqrt, Args: []ir.Value{dot(a, a)}})
		v = mk(func(i int) ir.Value { return l.binop(token.MUL, ext(a, i), r(), c.Pos()) })
	case name == "Cross" && arg != nil && len(comp.Fields) == 4 && comp.Fields[3].Name == "_":
		pairs := [3][2]int{{1, 2}, {2, 0}, {0, 1}} // x, y, z: a_i*b_j - a_j*b_i
		v = mk(func(k int) ir.Value {
			i, j := pairs[k][0], pairs[k][1]
			return l.binop(token.SUB, l.binop(token.MUL, ext(a, i), ext(arg, j), c.Pos()),
				l.binop(token.MUL, ext(a, j), ext(arg, i), c.Pos()), c.Pos())
		})
	default:
		return l.bad(c, "the vector method "+name)
	}
	return h.wrap(v)
}

// constDot folds the dot product of two float vectors of constants as the
// CPU computes it (exact products summed in float64, rounded once), where
// the GPU's dot may round each step.
func constDot(x, y ir.Value) (ir.Value, bool) {
	mx, ok1 := x.(*ir.Make)
	my, ok2 := y.(*ir.Make)
	if !ok1 || !ok2 || len(mx.Parts) != len(my.Parts) {
		return nil, false
	}
	sum := 0.0
	for i := range mx.Parts {
		a, ok1 := mx.Parts[i].(*ir.Const)
		b, ok2 := my.Parts[i].(*ir.Const)
		if !ok1 || !ok2 || a.T != ir.Float32 || b.T != ir.Float32 {
			return nil, false
		}
		sum += float64(math.Float32frombits(a.Bits)) * float64(math.Float32frombits(b.Bits))
	}
	return &ir.Const{T: ir.Float32, Bits: math.Float32bits(float32(sum))}, true
}

// bitsCall lowers package math/bits's 32-bit functions of one result, or
// returns nil: Go's results, 32 for the zeros of LeadingZeros32 and
// TrailingZeros32.
func (l *lowerer) bitsCall(c *ast.CallExpr, name string) ir.Value {
	h := &holder{l: l}
	args := make([]func() ir.Value, len(c.Args))
	for i, a := range c.Args {
		args[i] = h.hold(l.expr(a))
	}
	u := func(n uint32) ir.Value { return &ir.Const{T: ir.Uint32, Bits: n} }
	i32 := func(n int32) ir.Value { return &ir.Const{T: ir.Int32, Bits: uint32(n)} }
	fn := func(f ir.BuiltinFn) ir.Value { return &ir.Builtin{Fn: f, Args: []ir.Value{args[0]()}} }
	bin := func(op ir.Op, x, y ir.Value) ir.Value { return &ir.Binary{Op: op, X: x, Y: y} }
	length := func() ir.Value { return bin(ir.Add, fn(ir.FindMSB), i32(1)) } // FindMSB(0) is -1
	var v ir.Value
	switch {
	case name == "OnesCount32" && len(args) == 1:
		v = fn(ir.BitCount)
	case name == "Len32" && len(args) == 1:
		v = length()
	case name == "LeadingZeros32" && len(args) == 1:
		v = bin(ir.Sub, i32(32), length())
	case name == "TrailingZeros32" && len(args) == 1:
		v = &ir.Select{Cond: bin(ir.Eq, args[0](), u(0)), X: i32(32), Y: fn(ir.FindLSB)}
	case name == "Reverse32" && len(args) == 1:
		v = fn(ir.BitReverse)
	case name == "ReverseBytes32" && len(args) == 1:
		x := args[0]
		v = bin(ir.BitOr, bin(ir.BitOr, bin(ir.Shr, x(), u(24)), bin(ir.BitAnd, bin(ir.Shr, x(), u(8)), u(0xff00))),
			bin(ir.BitOr, bin(ir.BitAnd, bin(ir.Shl, x(), u(8)), u(0xff0000)), bin(ir.Shl, x(), u(24))))
	case name == "RotateLeft32" && len(args) == 2: // s := uint(k) & 31; x<<s | x>>(32-s)
		s := h.hold(bin(ir.BitAnd, &ir.Convert{To: ir.Uint32, X: args[1]()}, u(31)))
		v = bin(ir.BitOr, bin(ir.Shl, args[0](), s()), bin(ir.Shr, args[0](), bin(ir.Sub, u(32), s())))
	default:
		return nil
	}
	return h.wrap(v)
}

// bitsResults lowers math/bits's Mul32, Add32 and Sub32 (Go's formulas for
// the carry and borrow): the statements that evaluate the arguments once
// and the results, or ok false.
func (l *lowerer) bitsResults(c *ast.CallExpr) (pre []ir.Stmt, res []ir.Value, ok bool) {
	path, name := l.pkgFunc(c.Fun)
	if path != "math/bits" {
		return nil, nil, false
	}
	h := &holder{l: l}
	args := make([]func() ir.Value, len(c.Args))
	for i, a := range c.Args {
		args[i] = h.hold(l.expr(a))
	}
	bin := func(op ir.Op, x, y ir.Value) ir.Value { return &ir.Binary{Op: op, X: x, Y: y} }
	com := func(x ir.Value) ir.Value { return &ir.Unary{Op: ir.Com, X: x} }
	u31 := &ir.Const{T: ir.Uint32, Bits: 31}
	x, y := args[0], args[len(args)-1]
	switch {
	case name == "Mul32" && len(args) == 2: // hi, lo
		res = []ir.Value{&ir.Builtin{Fn: ir.MulHi, Args: []ir.Value{x(), y()}}, bin(ir.Mul, x(), y())}
	case name == "Add32" && len(args) == 3: // sum, carryOut
		y = args[1]
		sum := h.hold(bin(ir.Add, bin(ir.Add, x(), y()), args[2]()))
		res = []ir.Value{sum(), bin(ir.Shr, bin(ir.BitOr, bin(ir.BitAnd, x(), y()),
			bin(ir.AndNot, bin(ir.BitOr, x(), y()), sum())), u31)}
	case name == "Sub32" && len(args) == 3: // diff, borrowOut
		y = args[1]
		diff := h.hold(bin(ir.Sub, bin(ir.Sub, x(), y()), args[2]()))
		res = []ir.Value{diff(), bin(ir.Shr, bin(ir.BitOr, bin(ir.BitAnd, com(x()), y()),
			bin(ir.BitAnd, com(bin(ir.BitXor, x(), y())), diff())), u31)}
	default:
		return nil, nil, false
	}
	return h.pre, res, true
}

// at4 lowers a view's At4 (of 32-bit scalars).
func (l *lowerer) at4(c *ast.CallExpr, v *viewArg) ir.Value {
	et := l.k.Views[v.index].Elem
	at := l.irType(l.t.typeOf(c))
	if et.IsComposite() || et.Narrow() > 0 || l.k.Views[v.index].Bits || !at.IsComposite() {
		return l.bad(c, "At4 of a view of "+l.k.TypeName(et))
	}
	return &ir.ViewLoad4{View: v.index, Index: l.index(c.Args[0]), T: at}
}

// set4 lowers a view's Set4 (of 32-bit scalars).
func (l *lowerer) set4(c *ast.CallExpr, v *viewArg) []ir.Stmt {
	et := l.k.Views[v.index].Elem
	if et.IsComposite() || et.Narrow() > 0 || l.k.Views[v.index].Bits {
		l.fail(c.Pos(), "Set4 of a view of "+l.k.TypeName(et))
		return nil
	}
	return []ir.Stmt{&ir.ViewStore4{View: v.index, Index: l.index(c.Args[0]), Value: l.expr(c.Args[1])}}
}

// f64 is the Float64 constant of bits b.
func f64(b uint64) *ir.Const { return &ir.Const{T: ir.Float64, Bits: uint32(b), Hi: uint32(b >> 32)} }

// words returns functions that read a Float64's low and high words.
func words(x func() ir.Value) (lo, hi func() ir.Value) {
	return func() ir.Value { return &ir.Builtin{Fn: ir.LowWord, Args: []ir.Value{x()}} },
		func() ir.Value { return &ir.Builtin{Fn: ir.HighWord, Args: []ir.Value{x()}} }
}

// pack is the Float64 of words lo and hi.
func pack(lo, hi ir.Value) ir.Value { return &ir.Builtin{Fn: ir.Pack64, Args: []ir.Value{lo, hi}} }

// zeroOperand64 is zeroOperand's rules for a float64 x, on its two words.
func (l *lowerer) zeroOperand64(op token.Token, v ir.Value) ir.Value {
	h := &holder{l: l}
	x := h.hold(v)
	lo, hi := words(x)
	u := func(n uint32) ir.Value { return &ir.Const{T: ir.Uint32, Bits: n} }
	bin := func(op ir.Op, a, b ir.Value) ir.Value { return &ir.Binary{Op: op, X: a, Y: b} }
	loZero := func() ir.Value { return bin(ir.Eq, lo(), u(0)) }
	var r ir.Value
	switch op {
	case token.ADD: // -0 + 0 is +0
		r = &ir.Select{Cond: bin(ir.And, bin(ir.Eq, hi(), u(0x80000000)), loZero()), X: f64(0), Y: x()}
	case token.SUB: // 0 - x: +0 for a zero, x for a NaN, else x with its sign flipped
		m := func() ir.Value { return bin(ir.BitAnd, hi(), u(0x7fffffff)) }
		nan := bin(ir.Or, bin(ir.Gt, m(), u(0x7ff00000)), bin(ir.And, bin(ir.Eq, m(), u(0x7ff00000)),
			&ir.Unary{Op: ir.Not, X: loZero()}))
		r = &ir.Select{Cond: bin(ir.And, bin(ir.Eq, m(), u(0)), loZero()), X: f64(0),
			Y: &ir.Select{Cond: nan, X: x(), Y: pack(lo(), bin(ir.BitXor, hi(), u(0x80000000)))}}
	default: // x * 0: a zero of x's sign for a finite x, x for a NaN, NaN for an infinity
		finite := bin(ir.Ne, bin(ir.BitAnd, hi(), u(0x7ff00000)), u(0x7ff00000))
		nan := bin(ir.Or, bin(ir.Ne, bin(ir.BitAnd, hi(), u(0x000fffff)), u(0)), &ir.Unary{Op: ir.Not, X: loZero()})
		r = &ir.Select{Cond: finite, X: pack(u(0), bin(ir.BitAnd, hi(), u(0x80000000))),
			Y: &ir.Select{Cond: nan, X: x(), Y: pack(u(0), u(0xfff80000))}}
	}
	return h.wrap(r)
}

// mathCall lowers package math's float64 classification and sign
// functions (Inf and NaN, IsNaN, IsInf, Signbit, Copysign), or returns nil.
func (l *lowerer) mathCall(c *ast.CallExpr, name string) ir.Value {
	if name == "NaN" && len(c.Args) == 0 {
		return f64(math.Float64bits(math.NaN()))
	}
	if name == "Inf" && len(c.Args) == 1 {
		if s := l.t.info.Types[c.Args[0]].Value; s != nil {
			n, _ := constant.Int64Val(constant.ToInt(s))
			return f64(math.Float64bits(math.Inf(int(n))))
		}
		return nil
	}
	h := &holder{l: l}
	args := make([]func() ir.Value, len(c.Args))
	for i, a := range c.Args {
		if args[i] = h.hold(l.expr(a)); args[i]().Type() != ir.Float64 && i == 0 {
			return nil
		}
	}
	u := func(n uint32) ir.Value { return &ir.Const{T: ir.Uint32, Bits: n} }
	bin := func(op ir.Op, a, b ir.Value) ir.Value { return &ir.Binary{Op: op, X: a, Y: b} }
	var v ir.Value
	switch {
	case name == "IsNaN" && len(args) == 1:
		v = &ir.Builtin{Fn: ir.IsNaN, Args: []ir.Value{args[0]()}}
	case name == "IsInf" && len(args) == 2: // sign > 0: +Inf, < 0: -Inf, 0: either
		inf := &ir.Builtin{Fn: ir.IsInf, Args: []ir.Value{args[0]()}}
		sign := args[1]()
		zero := &ir.Const{T: sign.Type()}
		pos := bin(ir.And, bin(ir.Ge, sign, zero), bin(ir.Gt, args[0](), f64(0)))
		neg := bin(ir.And, bin(ir.Le, ir.Clone(sign), &ir.Const{T: sign.Type()}), bin(ir.Lt, args[0](), f64(0)))
		v = bin(ir.And, inf, bin(ir.Or, pos, neg))
	case name == "Signbit" && len(args) == 1:
		_, hi := words(args[0])
		v = bin(ir.Ne, bin(ir.BitAnd, hi(), u(0x80000000)), u(0))
	case name == "Copysign" && len(args) == 2:
		lo, hi := words(args[0])
		_, hy := words(args[1])
		v = pack(lo(), bin(ir.BitOr, bin(ir.BitAnd, hi(), u(0x7fffffff)), bin(ir.BitAnd, hy(), u(0x80000000))))
	default:
		return nil
	}
	return h.wrap(v)
}
