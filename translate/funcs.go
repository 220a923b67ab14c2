package translate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
)

// userCall translates a call of a function or method declared in the kernel's package.
// kind is "kernel" for a method of the kernel (its fields are the GLSL globals), "" for
// a function, or a method of another type whose receiver recvX becomes the first argument.
func (t *tr) userCall(e *ast.CallExpr, fn *types.Func, id *ast.Ident, kind string, recvX ast.Expr) string {
	// This call's out arguments (callResults), taken before the callee's body or a call in
	// the arguments is translated: neither has any.
	outs := t.outs
	t.outs = nil
	if n := fn.Type().(*types.Signature).Results().Len(); n > 1 && outs == nil {
		t.errorf(e.Pos(), "%s has %d results: call it as the right side of an assignment (a, b := %s(...)), "+
			"a declaration, a statement or a return of as many results", fn.Name(), n, fn.Name())
		return "0"
	}
	if t.isHome(fn.Pkg()) {
		t.called[fn] = true
	}
	targs := t.callTypeArgs(fn, id, kind, recvX)
	// tile_static arrays passed by name (C++ AMP passes them by reference): GLSL cannot
	// pass a shared array, so the function is translated once per array it is given.
	var site callSite
	for _, a := range e.Args {
		site.uniform = append(site.uniform, !t.isVarying(a, t.fn.varying))
		if _, ok := t.typeOf(a).Underlying().(*types.Slice); !ok {
			continue
		}
		id, _ := unparen(a).(*ast.Ident)
		var sd *sharedDecl
		if id != nil {
			sd = t.sharedV[t.info.Uses[id]]
		}
		if sd == nil {
			t.errorf(a.Pos(), "a slice argument must be a tile_static array (runtime.TileStatic), passed by its name")
			return "0"
		}
		site.shared = append(site.shared, sd)
	}
	name := t.function(fn, targs, kind, e.Pos(), site)
	if name == "" {
		return "0"
	}
	var args []string
	if recvX != nil {
		if ptrRecv(fn) {
			if f := t.readOnlyField(recvX); f != nil {
				t.errorf(recvX.Pos(), "kernel fields are read-only in a kernel body; copy %s into a local to call %s, whose receiver is a pointer",
					f.Sel.Name, fn.Name())
			}
		}
		r := t.expr(recvX)
		// A method promoted from an embedded field (p.Len2() of Pos in p): its receiver is
		// that field.
		if se, ok := unparen(e.Fun).(*ast.SelectorExpr); ok {
			if sel := t.info.Selections[se]; sel != nil && len(sel.Index()) > 1 {
				r = t.fieldPath(r, t.typeOf(recvX), sel.Index()[:len(sel.Index())-1])
			}
		}
		args = append(args, r)
	}
	for _, a := range e.Args {
		if isRuntime(t.typeOf(a), "TiledIndex") {
			if !t.isTiledIndex(a) {
				t.errorf(a.Pos(), "a TiledIndex argument must be the kernel's own")
			}
			continue
		}
		if _, ok := t.typeOf(a).Underlying().(*types.Slice); ok {
			continue // a tile_static array: the function's copy names it
		}
		args = append(args, t.expr(a))
	}
	args = append(args, outs...)
	if t.barrierF[fn] {
		t.barrier(e)
	}
	return name + "(" + strings.Join(args, ", ") + ")"
}

// callTypeArgs returns the type arguments a call instantiates fn with: a generic
// function's, a generic kernel's (for its methods), or, for a method of a generic struct
// type, its receiver's (p.Sum() of a Pair[int32]).
func (t *tr) callTypeArgs(fn *types.Func, id *ast.Ident, kind string, recvX ast.Expr) []types.Type {
	var targs []types.Type
	if inst, ok := t.info.Instances[id]; ok {
		for i := range inst.TypeArgs.Len() {
			targs = append(targs, t.sub(inst.TypeArgs.At(i)))
		}
		return targs
	}
	sig := fn.Origin().Type().(*types.Signature)
	if sig.RecvTypeParams() == nil {
		return nil
	}
	if kind == "kernel" {
		return t.targs
	}
	if recvX == nil {
		return nil
	}
	rt := t.typeOf(recvX)
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	if n, ok := types.Unalias(rt).(*types.Named); ok {
		for i := range n.TypeArgs().Len() {
			targs = append(targs, n.TypeArgs().At(i))
		}
	}
	return targs
}

// callSite is what a call tells the translation of the function it calls: the tile_static
// arrays its slice parameters are, in order, and which of its arguments are the same in
// every thread of the tile.
type callSite struct {
	shared  []*sharedDecl
	uniform []bool
}

// function translates fn (instantiated with targs, for the call site site) once and
// returns its GLSL name. A function that takes the TiledIndex (which may hold barriers) is
// translated once per set of arguments that are uniform at its calls, so that a parameter
// may bound a loop with barriers where every call passes a uniform value.
func (t *tr) function(fn *types.Func, targs []types.Type, kind string, pos token.Pos, site callSite) string {
	key := fn
	pkg, leave, ok := t.enter(fn, pos)
	if !ok {
		return ""
	}
	defer leave()
	name := funcName(fn, pkg, targs, site)
	if err := callableSig(fn); err != "" {
		t.errorf(pos, "%s", err)
		return ""
	}
	decl := t.funcs0(fn)
	uniform := t.uniformParams(decl, site.uniform)
	if len(uniform) > 0 { // the positions of the uniform arguments
		name += "_u" + t.paramMask(decl, uniform)
	}
	if t.funcDone[name] {
		return name
	}
	if decl == nil || decl.Body == nil {
		t.errorf(pos, "%s has no Go body in this package to translate", fn.Name())
		return ""
	}
	if t.funcBusy[key] {
		t.errorf(pos, "recursion is not in the kernel language: %s calls itself", fn.Name())
		return ""
	}
	t.funcBusy[key] = true
	defer delete(t.funcBusy, key)
	saved, savedUse, savedSubst := t.fn, t.nameUse, t.subst
	defer func() { t.fn, t.nameUse, t.subst = saved, savedUse, savedSubst }()
	if len(targs) > 0 {
		t.subst = map[*types.TypeParam]types.Type{}
		for k, v := range savedSubst {
			t.subst[k] = v
		}
		sig := fn.Origin().Type().(*types.Signature)
		tps := sig.TypeParams()
		if tps == nil {
			tps = sig.RecvTypeParams()
		}
		for i := 0; tps != nil && i < tps.Len() && i < len(targs); i++ {
			t.subst[tps.At(i)] = targs[i]
		}
	}
	fs := &fnState{decl: decl, indent: 1, uniform: uniform}
	t.fn, t.nameUse = fs, map[string]int{}
	params := t.signature(fs, decl, kind)
	bound, ok := t.bindShared(decl, site.shared)
	defer func() {
		for _, o := range bound {
			delete(t.sharedV, o)
		}
	}()
	if !ok {
		return ""
	}
	ret, params := t.results(fs, decl, params)
	fs.varying = t.varyingSet(decl.Body, fs)
	before := len(t.errs)
	t.stmts(decl.Body.List)
	t.blameCall(before, decl, fs, pos)
	t.barrierF[key] = fs.barrier
	t.funcDone[name] = true
	t.funcs = append(t.funcs, fmt.Sprintf("%s %s(%s) {\n%s}\n", ret, name, strings.Join(params, ", "), fs.b.String()))
	return name
}

// enter makes fn's package the one being translated, where fn is another package's
// (foreign.go), until leave is called, and returns the prefix of its GLSL names ("geom_";
// "" for the kernel's package).
func (t *tr) enter(fn *types.Func, pos token.Pos) (prefix string, leave func(), ok bool) {
	if fn.Pkg() == nil || t.isHome(fn.Pkg()) {
		return "", func() {}, true
	}
	fp, err := t.infoOf(fn.Pkg())
	if err != nil {
		t.errorf(pos, "%s: %v", fn.Name(), err)
		return "", nil, false
	}
	saved := t.pkgInfo
	t.pkgInfo = fp
	return t.pkgPrefix(fn.Pkg()), func() { t.pkgInfo = saved }, true
}

// blameCall adds to the divergent-barrier errors that the translation of decl (called at
// pos) recorded since errs[before] the parameters whose argument varies at that call, which
// may be why.
func (t *tr) blameCall(before int, decl *ast.FuncDecl, fs *fnState, pos token.Pos) {
	var varying []string
	for _, p := range t.params(decl) {
		if p.kind == paramValue && p.obj != nil && fs.varying[p.obj] && !fs.uniform[p.obj] {
			varying = append(varying, p.obj.Name())
		}
	}
	if len(varying) == 0 {
		return
	}
	at := t.fset.Position(pos)
	for _, e := range t.errs[before:] {
		if strings.HasPrefix(e.Msg, "barrier in divergent code") {
			e.Msg += fmt.Sprintf(" (%s is called at %s:%d with %s varying between threads)",
				decl.Name.Name, filepath.Base(at.Filename), at.Line, strings.Join(varying, ", "))
		}
	}
}

// uniformParams returns the parameters of a function that takes the TiledIndex whose
// arguments are uniform at the call (uniform: per argument), or nil: for other functions
// (which hold no barrier) the distinction does not matter and is not made.
func (t *tr) uniformParams(decl *ast.FuncDecl, uniform []bool) map[types.Object]bool {
	if decl == nil {
		return nil
	}
	ps := t.params(decl)
	if !slices.ContainsFunc(ps, func(p param) bool { return p.kind == paramTiled }) {
		return nil
	}
	var out map[types.Object]bool
	for i, p := range ps {
		if p.kind == paramValue && p.obj != nil && i < len(uniform) && uniform[i] {
			if out == nil {
				out = map[types.Object]bool{}
			}
			out[p.obj] = true
		}
	}
	return out
}

// paramMask writes which of decl's parameters are in uniform, a digit per parameter.
func (t *tr) paramMask(decl *ast.FuncDecl, uniform map[types.Object]bool) string {
	var b strings.Builder
	for _, p := range t.params(decl) {
		b.WriteByte("01"[btoi(uniform[p.obj])])
	}
	return b.String()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// results returns a function's GLSL return type and its parameters, to which several
// results add out parameters (fs.results), which its returns assign.
func (t *tr) results(fs *fnState, decl *ast.FuncDecl, params []string) (string, []string) {
	res := decl.Type.Results
	switch {
	case res == nil || len(res.List) == 0:
		return "void", params
	case len(res.List[0].Names) > 0:
		t.errorf(res.Pos(), "named results are not in the kernel language")
		return "void", params
	case len(res.List) == 1:
		ret, _ := t.glslType(t.info.TypeOf(res.List[0].Type), res.Pos())
		return ret, params
	}
	for i, r := range res.List {
		g, _ := t.glslType(t.info.TypeOf(r.Type), r.Pos())
		fs.results = append(fs.results, fmt.Sprintf("ampRes%d", i))
		params = append(params, fmt.Sprintf("out %s ampRes%d", g, i))
	}
	return "void", params
}

// funcName is the GLSL name of fn's translation for type arguments targs and the
// tile_static arrays of site; pkg prefixes another package's functions.
func funcName(fn *types.Func, pkg string, targs []types.Type, site callSite) string {
	name := "ampF_" + pkg + fn.Name()
	if sig := fn.Type().(*types.Signature); sig.Recv() != nil {
		rt := sig.Recv().Type()
		if p, ok := rt.(*types.Pointer); ok {
			rt = p.Elem()
		}
		if n, ok := types.Unalias(rt).(*types.Named); ok {
			name = "ampM_" + pkg + n.Obj().Name() + "_" + fn.Name()
		}
	}
	for _, a := range targs {
		name += "_" + mangle(a.String())
	}
	for _, sd := range site.shared {
		name += "_" + sd.name
	}
	return name
}

// callableSig says why a call of fn cannot be translated whatever its body ("" where it
// can): a variadic function (its ... parameter is a slice, which the kernel language has
// only as tile_static arrays), or a method of an interface, such as one called through a
// type parameter's constraint (there is no body to translate until the type is known).
func callableSig(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Variadic() {
		last := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice)
		return fmt.Sprintf("variadic functions are not in the kernel language: %s takes ...%s; give it an array or separate parameters",
			fn.Name(), types.TypeString(last.Elem(), (*types.Package).Name))
	}
	if r := sig.Recv(); r != nil && types.IsInterface(r.Type()) {
		return fmt.Sprintf("%s is a method of an interface (a type parameter's constraint): calls through interfaces are "+
			"not in the kernel language; call it on a value of a concrete type, or write a generic function", fn.Name())
	}
	return ""
}

// bindShared binds a function's slice parameters, in order, to the tile_static arrays
// its call passes, and returns them for the caller to unbind when the function's
// translation ends. Float32 atomics need the array stored as bits, which only the kernel
// body that declares it can ask for.
func (t *tr) bindShared(decl *ast.FuncDecl, shared []*sharedDecl) (bound []types.Object, ok bool) {
	fa := t.floatAtomicShared(decl.Body)
	j := 0
	for _, p := range t.params(decl) {
		if p.kind != paramShared {
			continue
		}
		if j++; j > len(shared) {
			t.errorf(p.pos, "%s's parameter %s is a slice: only a tile_static array may be passed to it", decl.Name.Name,
				p.obj.Name())
			return bound, false
		}
		if p.obj == nil || p.obj.Name() == "_" {
			continue // a parameter the body cannot use
		}
		if fa[p.obj] && !shared[j-1].bits {
			t.errorf(p.pos, "float32 atomics on a tile_static array passed to %s: use them in the Tiled body that declares it",
				decl.Name.Name)
			return bound, false
		}
		t.sharedV[p.obj] = shared[j-1]
		bound = append(bound, p.obj)
	}
	return bound, true
}

// param is a parameter of a function of the kernel's package.
type param struct {
	obj  types.Object
	pos  token.Pos
	kind int // paramValue, paramTiled or paramShared
}

// The kinds of parameters: values (GLSL parameters), the TiledIndex (the tile's built-ins)
// and tile_static arrays (bound per call by bindShared).
const (
	paramValue = iota
	paramTiled
	paramShared
)

// params lists decl's parameters in order, by kind.
func (t *tr) params(decl *ast.FuncDecl) []param {
	var ps []param
	for _, field := range decl.Type.Params.List {
		ty, kind := t.info.TypeOf(field.Type), paramValue
		if _, slice := ty.Underlying().(*types.Slice); slice {
			kind = paramShared
		} else if isRuntime(ty, "TiledIndex") {
			kind = paramTiled
		}
		if len(field.Names) == 0 { // an unnamed parameter: a place with no variable
			ps = append(ps, param{pos: field.Pos(), kind: kind})
		}
		for _, n := range field.Names {
			ps = append(ps, param{obj: t.info.Defs[n], pos: n.Pos(), kind: kind})
		}
	}
	return ps
}

// funcs0 returns fn's declaration (through its generic origin).
func (t *tr) funcs0(fn *types.Func) *ast.FuncDecl {
	if d := t.pkgInfo.funcs[fn]; d != nil {
		return d
	}
	return t.pkgInfo.funcs[fn.Origin()]
}

// signature translates a function's receiver and parameters; a TiledIndex parameter has
// no GLSL counterpart (the tile's indices are built-ins).
func (t *tr) signature(fs *fnState, decl *ast.FuncDecl, kind string) []string {
	var params []string
	if decl.Recv != nil && len(decl.Recv.List) == 1 {
		var obj types.Object
		if len(decl.Recv.List[0].Names) == 1 {
			obj = t.info.Defs[decl.Recv.List[0].Names[0]]
		}
		if kind == "kernel" {
			fs.recv = obj
		} else {
			// A pointer receiver is an inout parameter: GLSL copies the caller's variable in
			// and back out, which is what the pointer's writes come to, since nothing else
			// in a kernel can point at that variable.
			rt, inout := t.info.TypeOf(decl.Recv.List[0].Type), ""
			if p, ok := rt.(*types.Pointer); ok {
				rt, inout = p.Elem(), "inout "
			}
			g, _ := t.glslType(rt, decl.Recv.Pos())
			n := "ampRecv"
			if obj != nil {
				n = t.localName(obj)
			}
			params = append(params, inout+g+" "+n)
		}
	}
	for _, field := range decl.Type.Params.List {
		ty := t.info.TypeOf(field.Type)
		if isRuntime(ty, "TiledIndex") {
			if len(field.Names) == 1 {
				fs.tidx = t.info.Defs[field.Names[0]]
			}
			continue
		}
		if _, ok := ty.Underlying().(*types.Slice); ok {
			continue // a tile_static array, bound by bindShared
		}
		g, ok := t.glslType(ty, field.Pos())
		if !ok {
			continue
		}
		for _, n := range field.Names {
			params = append(params, g+" "+t.localName(t.info.Defs[n]))
		}
	}
	return params
}

// ptrRecv says whether fn is a method with a pointer receiver.
func ptrRecv(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ok = sig.Recv().Type().(*types.Pointer)
	return ok
}

// ptrCallRecv returns the receiver of e when e calls a method whose receiver is a
// pointer, of pkg (the package being translated) or another user's package (a.Add(x),
// parts[j].Add(x)): the call writes that variable.
func ptrCallRecv(info *types.Info, pkg *types.Package, e ast.Node) ast.Expr {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	se, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	sel := info.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal {
		return nil
	}
	// Of the kernel's package or another user's (not goamp's own, whose views' methods
	// have pointer receivers).
	if fn, ok := sel.Obj().(*types.Func); ok && ptrRecv(fn) && fn.Pkg() != nil && (fn.Pkg() == pkg || userPath(fn.Pkg().Path())) {
		return se.X
	}
	return nil
}

// mangle turns a type name into identifier characters.
func mangle(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, s)
}

// barrier checks that a barrier (or a call of a function that contains one) is reached
// by every thread of the tile: not under control flow that depends on the thread, not
// after a return, break or continue that does.
func (t *tr) barrier(e ast.Node) {
	fs := t.fn
	fs.barrier = true
	t.barriers = true
	for _, l := range fs.loops {
		l.hasBarrier = true
	}
	switch {
	case !t.tiled:
		t.errorf(e.Pos(), "barriers are only in tiled kernels (a Tiled body)")
	case fs.divergent > 0:
		t.errorf(e.Pos(), "barrier in divergent code: this branch or loop depends on the thread's index or on memory (directly or through a variable that does), "+
			"so not every thread of the tile reaches the barrier")
	case fs.diverged:
		t.errorf(e.Pos(), "barrier after a return that depends on the thread (its index, or memory): not every thread of the tile reaches it")
	}
}
