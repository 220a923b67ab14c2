package translate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/goamp/goamp/internal/ampabi"
)

// fmathFuncs maps package fmath's functions to GLSL (a "amp" prefix names a prelude helper).
var fmathFuncs = map[string]string{
	"Sqrt": "sqrt", "Rsqrt": "inversesqrt", "Exp": "ampExp", "Exp2": "ampExp2", "Log": "ampLog", "Log2": "ampLog2",
	"Pow": "ampPow", "Sin": "ampSin", "Cos": "ampCos", "Tan": "ampTan", "Asin": "ampAsin", "Acos": "ampAcos", "Atan": "ampAtan",
	"Atan2": "ampAtan2", "Sinh": "ampSinh", "Cosh": "ampCosh", "Tanh": "ampTanh", "Floor": "floor", "Ceil": "ceil",
	"Round": "ampRound", "RoundEven": "roundEven", "Trunc": "trunc", "Fract": "ampFract", "Abs": "abs",
	"Min": "min", "Max": "max", "Clamp": "clamp", "Mix": "mix", "Fma": "fma", "Sign": "sign", "Step": "step",
	"Smoothstep": "smoothstep", "Mod": "mod", "IsNaN": "isnan", "IsInf": "isinf",
}

// mathFuncs maps the standard math package's functions that GLSL has for doubles (and
// the float32 bit conversions).
var mathFuncs = map[string]string{
	"Sqrt": "sqrt", "Floor": "floor", "Ceil": "ceil", "Trunc": "trunc", "Abs": "abs", "Min": "ampMathMin", "Max": "ampMathMax",
	"FMA": "fma", "Round": "ampRound", "RoundToEven": "roundEven",
	"Float32bits": "floatBitsToUint", "Float32frombits": "uintBitsToFloat",
	"Inf": "ampInf", "NaN": "ampNaN", "IsNaN": "isnan", "IsInf": "ampIsInf", "Signbit": "ampSignbit",
	"Copysign": "ampCopysign",
}

// mathFmath names the fmath function that does in float32 what a math function does in
// float64: the advice of the note on a float32 widened for one (noteWidened) and of the
// error on one GLSL lacks for doubles. Min, Max and Mod are left out: fmath's follow GLSL,
// whose NaN rules and modulus differ from math's.
var mathFmath = map[string]string{
	"Sqrt": "Sqrt", "Floor": "Floor", "Ceil": "Ceil", "Trunc": "Trunc", "Abs": "Abs", "Round": "Round",
	"RoundToEven": "RoundEven", "FMA": "Fma", "IsNaN": "IsNaN", "Exp": "Exp", "Exp2": "Exp2", "Log": "Log",
	"Log2": "Log2", "Pow": "Pow", "Sin": "Sin", "Cos": "Cos", "Tan": "Tan", "Asin": "Asin", "Acos": "Acos",
	"Atan": "Atan", "Atan2": "Atan2", "Sinh": "Sinh", "Cosh": "Cosh", "Tanh": "Tanh",
}

// noteWidened notes the call e of math function name when an argument is a float32
// converted to float64 (math.Sqrt(float64(x))): the kernel needs double precision for it.
func (t *tr) noteWidened(e *ast.CallExpr, name string) {
	for _, a := range e.Args {
		c, ok := unparen(a).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 || !isBasic(t.typeOf(c), types.Float64) || !isBasic(t.typeOf(c.Args[0]), types.Float32) {
			continue
		}
		if tv, ok := t.info.Types[unparen(c.Fun)]; !ok || !tv.IsType() {
			continue
		}
		use := map[string]string{"Min": "Go's min", "Max": "Go's max",
			"Mod": "fmath.Mod (the floored modulus, with the sign of y)"}[name]
		if f, ok := mathFmath[name]; ok {
			use = "fmath." + f
		} else if use == "" {
			use = "a float32 function of package fmath"
		}
		t.note(e.Pos(), fmt.Sprintf("math.%s(float64(...)) widens a float32 to float64, so the kernel needs "+
			"double precision (a device without it refuses the kernel; GPUs run float64 at a fraction of "+
			"float32's rate): use %s, which stays float32 (its accuracy: fmath's documentation)", name, use))
		return
	}
}

// isBasic reports whether typ's underlying type is the basic type of kind k.
func isBasic(typ types.Type, k types.BasicKind) bool {
	b, ok := typ.Underlying().(*types.Basic)
	return ok && b.Kind() == k
}

// bitsFuncs maps package math/bits's 32-bit functions to GLSL (a "amp" prefix names a
// prelude helper). Mul32, Add32 and Sub32 have two results, which GLSL returns through
// out parameters. The uint-sized functions are not here: uint is 64 bits on the CPU and
// 32 on the GPU, so LeadingZeros, Len and the rest would differ.
var bitsFuncs = map[string]string{
	"OnesCount32": "bitCount", "LeadingZeros32": "ampLeadingZeros32", "TrailingZeros32": "ampTrailingZeros32",
	"Len32": "ampLen32", "Reverse32": "bitfieldReverse", "ReverseBytes32": "ampReverseBytes32",
	"RotateLeft32": "ampRotateLeft32", "Mul32": "umulExtended", "Add32": "ampAdd32", "Sub32": "ampSub32",
}

// atomicFuncs maps the atomic operations (View methods without "Atomic", runtime functions
// without "Atomic") to GLSL.
var atomicFuncs = map[string]string{
	"Add": "atomicAdd", "Min": "atomicMin", "Max": "atomicMax", "And": "atomicAnd", "Or": "atomicOr",
	"Xor": "atomicXor", "Exchange": "atomicExchange", "CompareExchange": "atomicCompSwap", "Sub": "atomicAdd",
}

// call translates a call: a conversion, a builtin, a method or function of the kernel
// language, or a function of the package.
func (t *tr) call(e *ast.CallExpr) string {
	fun := unparen(e.Fun)
	if tv, ok := t.info.Types[fun]; ok && tv.IsType() {
		return t.conversion(e)
	}
	if e.Ellipsis.IsValid() {
		t.errorf(e.Pos(), "variadic calls with ... are not in the kernel language")
		return "0"
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.IndexExpr:
		id, _ = unparen(f.X).(*ast.Ident)
		if s, ok := unparen(f.X).(*ast.SelectorExpr); ok {
			id = s.Sel
		}
	case *ast.IndexListExpr:
		id, _ = unparen(f.X).(*ast.Ident)
		if s, ok := unparen(f.X).(*ast.SelectorExpr); ok {
			id = s.Sel
		}
	case *ast.SelectorExpr:
		if sel := t.info.Selections[f]; sel != nil && sel.Kind() == types.MethodExpr {
			t.errorf(e.Pos(), "method expressions (%s.%s) are not in the kernel language: call the method on a value, x.%s(...)",
				types.ExprString(f.X), f.Sel.Name, f.Sel.Name)
			return "0"
		} else if sel != nil {
			return t.methodCall(e, f, sel)
		}
		id = f.Sel
	case *ast.FuncLit:
		t.errorf(e.Pos(), "%s", outsideLanguage["*ast.FuncLit"])
		return "0"
	}
	if id == nil {
		t.errorf(e.Pos(), "this call is not in the kernel language")
		return "0"
	}
	switch obj := t.info.Uses[id].(type) {
	case *types.Builtin:
		return t.builtin(e, obj.Name())
	case *types.Func:
		return t.funcCall(e, id, obj)
	}
	t.errorf(e.Pos(), "calling %s is not in the kernel language", id.Name)
	return "0"
}

// hasCall says whether e holds a call (or a conversion).
func hasCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		_, c := n.(*ast.CallExpr)
		found = found || c
		return !found
	})
	return found
}

// conversion translates T(x).
func (t *tr) conversion(e *ast.CallExpr) string {
	to := t.typeOf(e)
	from := t.typeOf(e.Args[0])
	if g := t.float32Special(to, e.Args[0]); g != "" {
		return g
	}
	if m, ok := unparen(e.Args[0]).(*ast.BinaryExpr); ok && m.Op == token.MUL && types.Identical(to.Underlying(), from.Underlying()) {
		if b, ok := to.Underlying().(*types.Basic); ok && (b.Kind() == types.Float32 || b.Kind() == types.Float64) {
			// float32(a*b): in Go the conversion rounds the product, so a*b + c around it
			// must not fuse; the product is computed precise (NoContraction, which
			// exactFloats keeps).
			t.prelude["mulr"] = true
			return "ampMulR(" + t.expr(m.X) + ", " + t.expr(m.Y) + ")"
		}
	}
	x := t.expr(e.Args[0])
	gt, ok := t.glslType(to, e.Pos())
	if !ok {
		return x
	}
	gf, ok := t.glslType(from, e.Args[0].Pos())
	if !ok {
		return x
	}
	if gf == gt {
		if t.narrowBits(to) < t.narrowBits(from) || t.narrowBits(from) == 0 {
			return t.wrap(x, to) // a narrower type, or a narrow one from 32 bits
		}
		return x
	}
	if st, ok := to.Underlying().(*types.Struct); ok && types.IdenticalIgnoreTags(st, from.Underlying()) {
		// Two struct types of one underlying type are two GLSL structs: build the one
		// from the other's fields (through a temporary where x calls something).
		if hasCall(e.Args[0]) {
			v := t.tmpName()
			t.fn.line("%s %s = %s;", gf, v, x)
			x = v
		}
		parts, pad := make([]string, st.NumFields()), 0
		for i := range parts {
			if st.Field(i).Name() == "_" { // structDecl's name for a blank field
				parts[i] = fmt.Sprintf("(%s).ampPad%d", x, pad)
				pad++
				continue
			}
			parts[i] = t.fieldPath("("+x+")", from, []int{i})
		}
		return gt + "(" + strings.Join(parts, ", ") + ")"
	}
	if _, basic := to.Underlying().(*types.Basic); !basic {
		t.errorf(e.Pos(), "conversion from %s to %s is not in the kernel language", from, to)
		return x
	}
	return t.wrap(gt+"("+x+")", to)
}

// float32Special translates float32(math.Inf(s)) and float32(math.NaN()) without
// float64, which a device may lack; "" for any other conversion.
func (t *tr) float32Special(to types.Type, x ast.Expr) string {
	if b, ok := to.Underlying().(*types.Basic); !ok || b.Kind() != types.Float32 {
		return ""
	}
	call, ok := unparen(x).(*ast.CallExpr)
	if !ok {
		return ""
	}
	sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	fn, ok := t.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "math" || (fn.Name() != "Inf" && fn.Name() != "NaN") {
		return ""
	}
	t.prelude["float64"] = true
	return "amp" + fn.Name() + "32(" + strings.Join(t.args(call.Args), ", ") + ")"
}

// builtin translates len, min and max.
func (t *tr) builtin(e *ast.CallExpr, name string) string {
	switch name {
	case "min", "max":
		// Integers too go through a function of the prelude, not GLSL's min and max:
		// glslc -O's optimizer resolved a branch on max(c1, c2) of constants as if the
		// max were another value (a silent wrong answer on every device; the kernel
		// fuzzer's spirv-opt-phi reproducer).
		fn := "amp" + strings.ToUpper(name[:1]) + name[1:]
		if b, ok := t.typeOf(e).Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 {
			// Go's rules, not GLSL's: a NaN operand is the result, and -0 < +0.
			t.prelude["minmax"] = true
		} else {
			fn += "I"
			t.prelude["minmaxint"] = true
		}
		s := t.expr(e.Args[0])
		for _, a := range e.Args[1:] {
			s = fn + "(" + s + ", " + t.expr(a) + ")"
		}
		return s
	case "len":
		if id, ok := unparen(e.Args[0]).(*ast.Ident); ok {
			if sd, ok := t.sharedV[t.info.Uses[id]]; ok {
				return "int(" + sd.size + ")"
			}
		}
	}
	t.errorf(e.Pos(), "builtin %s is not in the kernel language", name)
	return "0"
}

// args translates a call's arguments.
func (t *tr) args(list []ast.Expr) []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = t.expr(a)
	}
	return out
}

// funcCall translates a call of a package-level function: the kernel language's runtime,
// fmath and math functions, or a function of the kernel's package.
func (t *tr) funcCall(e *ast.CallExpr, id *ast.Ident, fn *types.Func) string {
	path := ""
	if fn.Pkg() != nil {
		path = fn.Pkg().Path()
	}
	name := fn.Name()
	switch {
	case path == fmathPath:
		g, ok := fmathFuncs[name]
		if !ok {
			break
		}
		switch {
		case g == "ampRound":
			t.prelude["round"] = true
		default:
			for _, k := range fmathPieces[g] {
				t.prelude[k] = true
			}
		}
		return g + "(" + strings.Join(t.args(e.Args), ", ") + ")"
	case path == "math":
		g, ok := mathFuncs[name]
		if !ok {
			if strings.Contains(name, "64") {
				t.errorf(e.Pos(), "math.%s is not in the kernel language: it has no 64-bit integers", name)
				return "0"
			}
			use := "package fmath"
			if f, ok := mathFmath[name]; ok {
				use = "fmath." + f
			}
			t.errorf(e.Pos(), "math.%s has no GLSL equivalent for float64; use %s on float32", name, use)
			return "0"
		}
		t.noteWidened(e, name)
		switch {
		case g == "ampRound":
			t.prelude["round"] = true
		case g == "ampMathMin" || g == "ampMathMax": // Go's Inf, NaN and signed-zero rules
			t.prelude["minmax"], t.prelude["minmaxmath"] = true, true
		case strings.HasPrefix(g, "amp"):
			t.prelude["float64"] = true
		}
		return g + "(" + strings.Join(t.args(e.Args), ", ") + ")"
	case path == "math/bits":
		return t.bitsCall(e, name)
	case path == vecPath:
		if strings.HasPrefix(name, "F") || strings.HasPrefix(name, "I") || strings.HasPrefix(name, "U") {
			g, _ := t.glslType(t.typeOf(e), e.Pos())
			return g + "(" + strings.Join(t.args(e.Args), ", ") + ")"
		}
	case path == runtimePath:
		return t.runtimeCall(e, name)
	case path == halfPath:
		return t.halfFunc(e, name)
	case fn.Pkg() == t.pkg:
		return t.userCall(e, fn, id, "", nil)
	case t.userPkg(fn.Pkg()):
		f, _, err := t.resolve(fn)
		if err != nil {
			t.errorf(e.Pos(), "%s.%s: %v", fn.Pkg().Name(), name, err)
			return "0"
		}
		return t.userCall(e, f, id, "", nil)
	}
	t.errorf(e.Pos(), "calls into package %s (%s) are not in the kernel language", path, name)
	return "0"
}

// bitsCall translates a call of package math/bits; one with two results writes them into
// the temporaries callResults made.
func (t *tr) bitsCall(e *ast.CallExpr, name string) string {
	g, ok := bitsFuncs[name]
	if !ok {
		hint := ""
		if _, sized := bitsFuncs[name+"32"]; sized {
			hint = fmt.Sprintf(": uint is 64 bits on the CPU and 32 on the GPU; use bits.%s32 on a uint32", name)
		}
		t.errorf(e.Pos(), "bits.%s is not in the kernel language%s", name, hint)
		return "0"
	}
	if strings.HasPrefix(g, "amp") {
		t.prelude["bits"] = true
	}
	args := t.args(e.Args)
	if t.resultCount(e) > 1 {
		if t.outs == nil {
			t.errorf(e.Pos(), "bits.%s has 2 results: call it as the right side of an assignment", name)
			return "0"
		}
		args = append(args, t.outs...)
		t.outs = nil
	}
	return g + "(" + strings.Join(args, ", ") + ")"
}

// runtimeCall translates runtime.Idx, the fences and the tile_static atomics.
func (t *tr) runtimeCall(e *ast.CallExpr, name string) string {
	switch name {
	case "Idx":
		a := t.args(e.Args)
		for len(a) < 3 {
			a = append(a, "0")
		}
		return "ivec3(" + strings.Join(a[:3], ", ") + ")"
	case "AllMemoryFence":
		return "memoryBarrier()"
	case "GlobalMemoryFence":
		return "memoryBarrierBuffer()"
	case "TileStaticMemoryFence":
		return "memoryBarrierShared()"
	case "TileStatic":
		t.errorf(e.Pos(), "runtime.TileStatic must be the whole right-hand side of a := at the top level of a Tiled body")
		return "0"
	}
	if op, ok := strings.CutPrefix(name, "Atomic"); ok {
		if g, ok := atomicFuncs[op]; ok && len(e.Args) >= 3 {
			id, _ := unparen(e.Args[0]).(*ast.Ident)
			sd := t.sharedV[t.info.Uses[id]]
			if id == nil || sd == nil {
				t.errorf(e.Pos(), "runtime.%s takes a tile_static array by name", name)
				return "0"
			}
			i := t.sharedIndex(sd, e.Args[1])
			return t.atomic(e.Pos(), g, op, sd.name+"["+i+"]", t.typeOf(e.Args[2]), t.args(e.Args[2:]), sd, -1, "int("+i+")")
		}
	}
	t.errorf(e.Pos(), "runtime.%s is not in the kernel language", name)
	return "0"
}

// atomic writes one atomic operation on mem (a buffer or shared element) of element type
// et. Float32 operations go through a compare-exchange loop on the bits.
func (t *tr) atomic(pos token.Pos, g, op, mem string, et types.Type, args []string, sd *sharedDecl, view int, addr string) string {
	isFloat := false
	if b, ok := t.sub(et).Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 {
		isFloat = true
	}
	if op == "Sub" {
		args[0] = "(" + t.zero(et, 0) + " - " + args[0] + ")"
	}
	if !isFloat {
		return g + "(" + mem + ", " + strings.Join(args, ", ") + ")"
	}
	if op != "Add" && op != "Sub" && op != "Exchange" {
		t.errorf(pos, "atomic %s on float32 is not in the kernel language (Add, Sub and Exchange are)", op)
		return "0.0"
	}
	if sd != nil {
		if op == "Exchange" {
			return "uintBitsToFloat(atomicExchange(" + mem + ", floatBitsToUint(" + args[0] + ")))"
		}
		return "ampSharedAddF_" + sd.name + "(" + addr + ", " + args[0] + ")"
	}
	v := t.views[view]
	v.atomicF = true
	if op == "Exchange" {
		return fmt.Sprintf("ampAtomicXchgF%d(%s, %s)", view, addr, args[0])
	}
	return fmt.Sprintf("ampAtomicAddF%d(%s, %s)", view, addr, args[0])
}

// methodCall translates x.m(...): view access, Index, Extent and Barrier methods, vector
// methods, and methods declared in the kernel's package.
func (t *tr) methodCall(e *ast.CallExpr, f *ast.SelectorExpr, sel *types.Selection) string {
	name := f.Sel.Name
	if k, ok := unparen(f.X).(*ast.SelectorExpr); ok {
		if v, ok := t.kernelField(k).(*viewArg); ok {
			return t.viewCall(e, v, name)
		}
		if t.isTiledIndex(k.X) {
			return t.tiledCall(e, k.Sel.Name, name)
		}
	}
	if v := t.viewExtent(f.X); v != nil {
		return t.extentCall(e, v, name)
	}
	recv := t.typeOf(f.X)
	if isHalf(t.sub(recv)) {
		return t.halfMethod(e, f.X, name)
	}
	if isRuntime(recv, "Index") || vecName(recv) != "" {
		// runtime.Index is an ivec3: its Add and Sub are the vectors'.
		return t.vecCall(e, f, recv, name)
	}
	if fn, ok := sel.Obj().(*types.Func); ok && fn.Pkg() == t.pkg {
		if id, ok := unparen(f.X).(*ast.Ident); ok && t.fn.recv != nil && t.info.Uses[id] == t.fn.recv {
			return t.userCall(e, fn, f.Sel, "kernel", nil)
		}
		return t.userCall(e, fn, f.Sel, "", f.X)
	}
	if fn, ok := sel.Obj().(*types.Func); ok && t.userPkg(fn.Pkg()) { // a method of another package's type
		g, _, err := t.resolve(fn)
		if err != nil {
			t.errorf(e.Pos(), "%s: %v", name, err)
			return "0"
		}
		return t.userCall(e, g, f.Sel, "", f.X)
	}
	t.errorf(e.Pos(), "method %s of %s is not in the kernel language", name, recv)
	return "0"
}

// viewCall translates At, Set and the atomics on a data argument.
func (t *tr) viewCall(e *ast.CallExpr, v *viewArg, name string) string {
	if name == "Extent" {
		t.errorf(e.Pos(), "a view's extent is read through its methods: %s.Extent().Dim(c), .Size(), .Rank() or "+
			".Contains(i) (a runtime.Extent value cannot be held)", v.field.Name())
		return "0"
	}
	if len(e.Args) == 0 {
		t.errorf(e.Pos(), "method %s of a view is not in the kernel language", name)
		return "0"
	}
	t.noteIndex(v, e.Args[0])
	at := "ampAt"
	if t.checked && (name == "At4" || name == "Set4") {
		at = "ampAtQ" // the bounds check covers the fourth element too
	}
	addr := fmt.Sprintf("%s%d(%s)", at, v.index, t.expr(e.Args[0]))
	elem := v.buf + "[" + addr + "]"
	st, _ := t.storageType(v.elem)
	switch name {
	case "At":
		v.read = true
		if st != "" { // an 8- or 16-bit element, extended to 32 bits
			g, _ := t.glslType(v.elem, e.Pos())
			return g + "(" + elem + ")"
		}
		return elem
	case "Set":
		v.written = true
		if st != "" {
			return elem + " = " + st + "(" + t.expr(e.Args[1]) + ")"
		}
		return elem + " = " + t.expr(e.Args[1])
	case "At4", "Set4":
		return t.view4Call(e, v, name, addr)
	}
	if strings.HasPrefix(name, "Atomic") && st != "" {
		t.errorf(e.Pos(), "%s on a view of %s: atomics need 32-bit elements", name, t.sub(v.elem))
		return "0"
	}
	if name == "AtomicLoad" { // an atomicOr of 0 (of the bits of a float32), which writes nothing
		v.written, v.read = true, true
		if b, ok := t.sub(v.elem).Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 {
			v.atomicF = true
			return fmt.Sprintf("uintBitsToFloat(atomicOr(%s_bits[%s], 0u))", v.buf, addr)
		}
		return "atomicOr(" + elem + ", " + t.zero(v.elem, e.Pos()) + ")"
	}
	if op, ok := strings.CutPrefix(name, "Atomic"); ok {
		if g, ok := atomicFuncs[op]; ok {
			v.written, v.read = true, true
			return t.atomic(e.Pos(), g, op, elem, v.elem, t.args(e.Args[1:]), nil, v.index, addr)
		}
	}
	t.errorf(e.Pos(), "method %s of a view is not in the kernel language (At, Set, At4, Set4 and the Atomic methods are)", name)
	return "0"
}

// viewExtent returns the data field x reads the extent of (x is k.V.Extent()), or nil.
func (t *tr) viewExtent(x ast.Expr) *viewArg {
	c, ok := unparen(x).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return nil
	}
	s, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "Extent" {
		return nil
	}
	k, ok := unparen(s.X).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, _ := t.kernelField(k).(*viewArg)
	return v
}

// extentCall translates k.V.Extent().Dim(c), .Size(), .Rank() and .Contains(i). The runtime passes a
// view's dimension 0 in the fourth word of its AmpView, and dimensions 1 and 2 in the
// ampExtents push-constant array when the program declares it (extentFuncs); the rank is
// the view's AMP_RANKS field. As on the CPU, Dim of a dimension past the rank is 0.
func (t *tr) extentCall(e *ast.CallExpr, v *viewArg, name string) string {
	switch name {
	case "Rank":
		return fmt.Sprintf("int(ampR%d)", v.index)
	case "Size":
		v.extent = true
		return fmt.Sprintf("ampSize%d()", v.index)
	case "Contains":
		v.extent = true
		return fmt.Sprintf("ampContains%d(%s)", v.index, t.expr(e.Args[0]))
	case "Dim":
		if tv := t.info.Types[e.Args[0]]; tv.Value != nil {
			if c, _ := constant.Int64Val(constant.ToInt(tv.Value)); c == 0 {
				return fmt.Sprintf("int(amp.%s.e0)", v.name)
			}
		}
		v.extent = true
		return fmt.Sprintf("ampDim%d(%s)", v.index, t.expr(e.Args[0]))
	}
	t.errorf(e.Pos(), "Extent().%s of a view is not in the kernel language (Dim, Size, Rank and Contains are)", name)
	return "0"
}

// extentViews returns how many data fields the ampExtents array covers: up to the last
// one whose dimensions 1 and 2 the body reads, or 0.
func (t *tr) extentViews() int {
	n := 0
	for _, v := range t.views {
		if v.extent {
			n = v.index + 1
		}
	}
	return n
}

// checkPrelude is the bounds-checked build's fault recorder. The check buffer (binding n)
// holds, in uint words: 0 the first fault's code + 1 (0: none; the code is the data field,
// or ampSharedFault + the tile_static array's place, or ampArrayFault, or ampDivFault), 1-3 its index, 4-6
// the index of the thread that made it, 7 the array's length (tile_static or local arrays),
// then from 8 three words per data field, its extent (0 past its rank), then the device's
// loop cap (0: none), which the runtime writes before the dispatch. Each pass of a Go loop
// calls ampLoop, which records ampLoopFault when the thread's passes reach the cap.
func checkPrelude(tiled bool, views int) string {
	thread := "ampGlobal()"
	decl := ""
	if !tiled {
		thread, decl = "ampThread", "ivec3 ampThread; // the thread's index, set as ampEach begins\n"
	}
	f, i, g, n := ampabi.CheckFault, ampabi.CheckIndex, ampabi.CheckThread, ampabi.CheckLength
	return decl + "void ampFaultN(uint f, ivec3 i, uint n) {\n" +
		fmt.Sprintf("\tif (atomicCompSwap(ampCheck[%d], 0u, f + 1u) == 0u) {\n", f) +
		"\t\tivec3 g = " + thread + ";\n" +
		fmt.Sprintf("\t\tampCheck[%d] = uint(i.x); ampCheck[%d] = uint(i.y); ampCheck[%d] = uint(i.z);\n",
			i, i+1, i+2) +
		fmt.Sprintf("\t\tampCheck[%d] = uint(g.x); ampCheck[%d] = uint(g.y); ampCheck[%d] = uint(g.z); "+
			"ampCheck[%d] = n;\n\t}\n}\n", g, g+1, g+2, n) +
		"void ampFault(uint f, ivec3 i) { ampFaultN(f, i, 0u); }\n" +
		fmt.Sprintf("const uint ampSharedFault = %#xu; // + the tile_static array's place in declaration order\n"+
			"const uint ampArrayFault = %#xu;  // a local array or an Index\n"+
			"const uint ampDivFault = %#xu;    // an integer division or remainder by zero\n"+
			"const uint ampShiftFault = %#xu;  // a negative shift count\n"+
			"const uint ampLoopFault = %#xu;   // the thread's loops reached the device's cap\n",
			ampabi.FaultShared, ampabi.FaultArray, ampabi.FaultDiv, ampabi.FaultShift, ampabi.FaultLoop) +
		"uint ampLoops = 0u; // the thread's loop iterations so far\n" +
		fmt.Sprintf("void ampLoop() { ampLoops++; if (ampLoops == ampCheck[%d]) ampFault(ampLoopFault, ivec3(int(ampLoops), 0, 0)); }\n",
			ampabi.CheckLoopCap(views)) +
		"int ampNN(int s) { if (s >= 0) return s; ampFault(ampShiftFault, ivec3(s, 0, 0)); return 0; }\n" +
		"int ampIx(int i, int n, uint f) { if (uint(i) < uint(n)) return i; ampFaultN(f, ivec3(i, 0, 0), uint(n)); return 0; }\n" +
		"int ampNZ(int d) { if (d != 0) return d; ampFault(ampDivFault, ivec3(0)); return 1; }\n" +
		"uint ampNZ(uint d) { if (d != 0u) return d; ampFault(ampDivFault, ivec3(0)); return 1u; }\n"
}

// checkFuncs writes view v's checked address functions: ampAt%d checks the index against
// the view's extent in the check buffer, records a fault and gives the view's first
// element instead (the dispatch then returns the error, and its outputs are undefined, as
// after a kernel's panic on the CPU); ampAtQ%d checks the fourth element of an At4 or Set4
// too.
func (t *tr) checkFuncs(b *strings.Builder, v *viewArg) {
	k, e := v.index, ampabi.CheckExtent(v.index, 0)
	// Past the view's rank the check buffer holds 1: an index of a higher rank is outside
	// unless its components there are 0, as on the CPU.
	fmt.Fprintf(b, "bool ampIn%d(ivec3 i) { return uint(i.x) < ampCheck[%d] && uint(i.y) < ampCheck[%d] && "+
		"uint(i.z) < ampCheck[%d]; }\n", k, e, e+1, e+2)
	fmt.Fprintf(b, "uint ampAt%d(ivec3 i) { if (ampIn%d(i)) return ampAddr%d(i); ampFault(%du, i); return amp.%s.base; }\n",
		k, k, k, k, v.name)
	if v.at4 || v.set4 {
		fmt.Fprintf(b, "uint ampAtQ%d(ivec3 i) {\n\tivec3 j = i;\n\tif (ampR%d == 1u) j.x += 3; else if (ampR%d == 2u) j.y += 3; else j.z += 3;\n"+
			"\tif (ampIn%d(i) && ampIn%d(j)) return ampAddr%d(i);\n\tampFault(%du, ampIn%d(i) ? j : i);\n\treturn amp.%s.base;\n}\n",
			k, k, k, k, k, k, k, k, v.name)
	}
}

// extentFuncs writes view v's ampDim and ampSize functions when the body reads them.
func (t *tr) extentFuncs(b *strings.Builder, v *viewArg) {
	if !v.extent {
		return
	}
	k, e := v.index, fmt.Sprintf("amp.ampExtents[%d", 2*v.index)
	fmt.Fprintf(b, "int ampDim%d(int c) { return c == 0 ? int(amp.%s.e0) : c > 0 && uint(c) < ampR%d ? int(%s + c - 1]) : 0; }\n",
		k, v.name, k, e)
	fmt.Fprintf(b, "int ampSize%d() { return int(amp.%s.e0) * (ampR%d > 1u ? int(%s]) : 1) * (ampR%d > 2u ? int(%s + 1]) : 1); }\n",
		k, v.name, k, e, k, e)
	fmt.Fprintf(b, "bool ampContains%d(ivec3 i) { return uint(i.x) < amp.%s.e0 && (ampR%d < 2u || uint(i.y) < %s]) && "+
		"(ampR%d < 3u || uint(i.z) < %s + 1]); }\n", k, v.name, k, e, k, e)
}

// view4Call translates At4 and Set4: a call of the view's 16-byte access functions, which
// assemble writes (view4Funcs) with a vec4 alias of the binding.
func (t *tr) view4Call(e *ast.CallExpr, v *viewArg, name, addr string) string {
	if vec4Type(t.sub(v.elem)) == "" {
		t.errorf(e.Pos(), "%s needs a view of int32, uint32 or float32 elements (%s has %s)", name, v.field.Name(), t.sub(v.elem))
		return "0"
	}
	if name == "At4" {
		v.read, v.at4 = true, true
		return fmt.Sprintf("ampAt4_%d(%s)", v.index, addr)
	}
	v.written, v.set4 = true, true
	return fmt.Sprintf("ampSet4_%d(%s, %s)", v.index, addr, t.expr(e.Args[1]))
}

// vec4Type is the GLSL 4-vector of elements of type et, or "" where et is not a 4-byte
// scalar.
func vec4Type(et types.Type) string {
	b, ok := et.Underlying().(*types.Basic)
	if !ok {
		return ""
	}
	switch b.Kind() {
	case types.Int32:
		return "ivec4"
	case types.Uint32:
		return "uvec4"
	case types.Float32:
		return "vec4"
	}
	return ""
}

// view4Funcs writes view v's vec4 alias and its At4/Set4 functions: one 16-byte access
// where element a is the first of a 16-byte unit of the buffer, else four.
func (t *tr) view4Funcs(b *strings.Builder, v *viewArg) {
	et, _ := t.glslType(v.elem, token.NoPos)
	vt, buf := vec4Type(t.sub(v.elem)), v.buf
	if v.at4 {
		fmt.Fprintf(b, "%[1]s[4] ampAt4_%[2]d(uint a) {\n\tif ((a & 3u) == 0u) {\n\t\t%[3]s q = %[4]s_4[a >> 2u];\n"+
			"\t\treturn %[1]s[4](q.x, q.y, q.z, q.w);\n\t}\n"+
			"\treturn %[1]s[4](%[4]s[a], %[4]s[a + 1u], %[4]s[a + 2u], %[4]s[a + 3u]);\n}\n", et, v.index, vt, buf)
	}
	if v.set4 {
		fmt.Fprintf(b, "void ampSet4_%[2]d(uint a, %[1]s[4] x) {\n\tif ((a & 3u) == 0u) {\n"+
			"\t\t%[3]s_4[a >> 2u] = %[4]s(x[0], x[1], x[2], x[3]);\n\t\treturn;\n\t}\n"+
			"\t%[3]s[a] = x[0];\n\t%[3]s[a + 1u] = x[1];\n\t%[3]s[a + 2u] = x[2];\n\t%[3]s[a + 3u] = x[3];\n}\n",
			et, v.index, buf, vt)
	}
}

// tiledCall translates t.TileExtent.Dim/Size/Rank and the t.Barrier waits.
func (t *tr) tiledCall(e *ast.CallExpr, field, name string) string {
	t.prelude["tile"] = true
	switch field + "." + name {
	case "TileExtent.Dim":
		if tv := t.info.Types[e.Args[0]]; tv.Value != nil {
			i, _ := constant.Int64Val(tv.Value)
			if i >= 0 && i < 3 {
				return fmt.Sprintf("ampTD%d", i)
			}
			return "0"
		}
		return "ivec3(ampTD0, ampTD1, ampTD2)[" + t.expr(e.Args[0]) + "]"
	case "TileExtent.Size":
		return "ampTileSize"
	case "TileExtent.Rank":
		return "int(ampRank)"
	case "Barrier.Wait", "Barrier.WaitWithAllMemoryFence":
		t.barrier(e)
		return "memoryBarrier(); barrier()"
	case "Barrier.WaitWithGlobalMemoryFence":
		t.barrier(e)
		return "memoryBarrierBuffer(); barrier()"
	case "Barrier.WaitWithTileStaticMemoryFence":
		t.barrier(e)
		return "memoryBarrierShared(); barrier()"
	}
	t.errorf(e.Pos(), "TiledIndex.%s.%s is not in the kernel language", field, name)
	return "0"
}

// vecCall translates the vector methods to GLSL operators and built-ins.
func (t *tr) vecCall(e *ast.CallExpr, f *ast.SelectorExpr, recv types.Type, name string) string {
	a := t.args(append([]ast.Expr{f.X}, e.Args...))
	switch name {
	case "Add":
		return "(" + a[0] + " + " + a[1] + ")"
	case "Sub":
		return "(" + a[0] + " - " + a[1] + ")"
	case "Mul", "Scale":
		return "(" + a[0] + " * " + a[1] + ")"
	case "Div":
		return "(" + a[0] + " / " + a[1] + ")"
	case "Neg":
		return "(-" + a[0] + ")"
	case "Min", "Max":
		return strings.ToLower(name) + "(" + a[0] + ", " + a[1] + ")"
	case "Dot":
		if vecComp(recv) != "float" {
			t.prelude["idot"] = true
			return "ampDot(" + a[0] + ", " + a[1] + ")"
		}
		return "dot(" + a[0] + ", " + a[1] + ")"
	case "Length", "Normalize", "Cross":
		return strings.ToLower(name) + "(" + strings.Join(a, ", ") + ")"
	}
	t.errorf(e.Pos(), "method %s of %s is not in the kernel language", name, recv)
	return "0"
}
