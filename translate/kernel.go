package translate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/goamp/goamp/internal/ampabi"
)

// viewArg is a data field of the kernel: storage-buffer binding index.
type viewArg struct {
	field    *types.Var
	name     string // GLSL name of the view's AmpView push-constant member
	buf      string // GLSL name of the buffer array
	index    int
	elem     types.Type
	readOnly bool // a ReadView: the Go type has no Set
	written  bool // Set or an atomic is used somewhere
	read     bool
	atomicF  bool // a float32 atomic is used: the binding gets a uint alias
	at4      bool // At4 is used: the binding gets a 4-vector alias and ampAt4_k
	set4     bool // Set4 is used: the alias and ampSet4_k
	extent   bool // Extent().Dim(c) with c not 0, or Extent().Size(): the program reads ampExtents
	thread   bool // indexed with the thread's index (Indexed)
	idxRank  int  // the largest rank of its other indices of known rank (Indexed)
}

// scalarArg is a push-constant scalar field of the kernel.
type scalarArg struct {
	field *types.Var
	name  string
	typ   string // the push-constant member's GLSL type
	bool  bool   // a Go bool, pushed as a uint 0 or 1
}

// sharedDecl is a tile_static array.
type sharedDecl struct {
	name string
	elem string
	size string // a constant expression (spec constants allowed)
	bits bool   // float32 storage kept as uint bits (float atomics)
	ord  int    // its place among the kernel's tile_static arrays (bounds-check faults)
}

// tr translates one kernel instance.
type tr struct {
	*pkgInfo
	named    *types.Named
	targs    []types.Type // the kernel instance's type arguments
	subst    map[*types.TypeParam]types.Type
	tiled    bool
	checked  bool               // the bounds-checked build (checkFuncs)
	fields   map[*types.Var]any // origin field -> *viewArg, *scalarArg, or string (why it is not on the GPU)
	views    []*viewArg
	scalars  []scalarArg
	shared   []*sharedDecl
	sharedV  map[types.Object]*sharedDecl
	floatSh  map[types.Object]bool // tile_static float32 arrays with atomics: stored as bits
	statics  map[types.Object]bool // the kernel body's tile_static arrays (before sharedV has them)
	barriers bool                  // the kernel has a barrier somewhere
	structs  []*types.Named        // struct types used, in declaration order (dependencies first)
	structV  map[string]bool       // the struct types used, by GLSL name
	prelude  map[string]bool       // helper pieces the code needs
	errs     ErrorList
	notes    []*Note // what ampgen says about the kernel (Kernel.Notes)

	funcs    []string                // translated helper functions, callees first
	funcDone map[string]bool         // translated functions, by GLSL name
	funcBusy map[*types.Func]bool    // on the translation stack (recursion)
	barrierF map[*types.Func]bool    // functions that contain a barrier
	names    map[types.Object]string // local names
	nameUse  map[string]int          // per function
	fn       *fnState                // the function being translated
	// outs are the variables that receive the results of the multi-result call being
	// translated (callResults), which userCall passes as its GLSL out arguments.
	outs []string
	// held are index operands of a tuple assignment's left-hand sides that were evaluated
	// into temporaries before its first assignment (holdIndices); expr returns the
	// temporary for them.
	held map[ast.Expr]string
	// prefixes are the GLSL name prefixes of other packages' functions and types, by
	// package path (pkgPrefix).
	prefixes map[string]string
	// called are the functions and methods of the kernel's package that the translation
	// called (sourceFiles).
	called map[*types.Func]bool
}

// fnState is the state of the function being translated.
type fnState struct {
	decl      *ast.FuncDecl
	main      bool // the kernel body
	recv      types.Object
	tidx      types.Object // the TiledIndex parameter, if any
	idx       types.Object // the Each body's Index parameter
	varying   map[types.Object]bool
	broadcast map[ast.Expr]bool // tile_static reads every thread reads alike (broadcast.go)
	divergent int               // depth of varying control flow
	diverged  bool              // a return under varying control flow happened
	inSwitch  int               // switch depth within the innermost loop
	fall      string            // what a fallthrough in the clause being translated writes (caseSeq)
	loops     []*loopState
	label     types.Object // the label of the loop about to be translated (labeled)
	labelFlag string       // and its flag
	pass      bool         // the loop about to be translated is a switch's pass (switchStmt)
	barrier   bool
	results   []string                  // the out parameters of a function with several results
	uniform   map[types.Object]bool     // parameters whose arguments are uniform (function)
	changes   map[types.Object]bool     // what the function changes, found once (changed)
	defs      map[types.Object]ast.Expr // the locals defined once with a value (changed)
	tmp       int
	indent    int
	b         strings.Builder
}

type loopState struct {
	varyingExit bool // break or continue under varying control flow
	hasBarrier  bool
	// label is the loop's label (nil without one), and flag the GLSL variable that a
	// break or continue of it from a nested loop sets (1 break, 2 continue) before it
	// breaks out of the loops between, each of which then tests it (exits).
	label types.Object
	flag  string
	exits []*loopState // outer loops that a labeled break or continue inside this one leaves for
	// pass marks the one-pass loop around a switch that a break leaves (switchStmt); cont
	// says a continue of the loop around it passed through it (flag 2).
	pass, cont bool
}

// translate translates kernel type named (with type arguments targs) whose body is decl,
// and again with bounds checks (Kernel.CheckedGLSL) where the package asks for them.
func (pi *pkgInfo) translate(named *types.Named, decl *ast.FuncDecl, tiled bool, targs []types.Type) (*Kernel, error) {
	k, err := pi.translateAs(named, decl, tiled, targs, false)
	if err != nil || !pi.checked {
		return k, err
	}
	c, err := pi.translateAs(named, decl, tiled, targs, true)
	if err != nil {
		return nil, err
	}
	k.CheckedGLSL = c.GLSL
	return k, nil
}

// translateAs translates the kernel, with bounds checks where checked.
func (pi *pkgInfo) translateAs(named *types.Named, decl *ast.FuncDecl, tiled bool, targs []types.Type, checked bool) (*Kernel, error) {
	t := &tr{pkgInfo: pi, named: named, targs: targs, tiled: tiled, checked: checked, fields: map[*types.Var]any{}, sharedV: map[types.Object]*sharedDecl{},
		structV: map[string]bool{}, prelude: map[string]bool{}, funcDone: map[string]bool{},
		funcBusy: map[*types.Func]bool{}, barrierF: map[*types.Func]bool{},
		names: map[types.Object]string{}, held: map[ast.Expr]string{}, called: map[*types.Func]bool{}}
	k := &Kernel{Type: named.Obj().Name(), Tiled: tiled, Program: pi.pkg.Path() + "." + named.Obj().Name()}
	if len(targs) > 0 {
		t.subst = map[*types.TypeParam]types.Type{}
		for i, a := range targs {
			t.subst[named.TypeParams().At(i)] = a
			k.TypeArgs = append(k.TypeArgs, a.String())
		}
		if recv := decl.Recv; recv != nil {
			if sig, ok := pi.info.Defs[decl.Name].Type().(*types.Signature); ok && sig.RecvTypeParams() != nil {
				for i := range sig.RecvTypeParams().Len() {
					t.subst[sig.RecvTypeParams().At(i)] = targs[i]
				}
			}
		}
		k.Program += "[" + strings.Join(k.TypeArgs, ",") + "]"
	}
	t.collectFields(named.Underlying().(*types.Struct), decl)
	body := t.mainBody(decl)
	if len(t.errs) > 0 {
		return nil, t.errs
	}
	k.GLSL = t.assemble(k, body)
	if pi.direct && !checked {
		irk, err := t.lower(k.Program, decl)
		if err != nil {
			k.Unsupported = err.(*UnsupportedError)
		}
		k.IR = irk
	}
	k.Files = t.sourceFiles(decl)
	k.Notes = t.notes
	k.Indexed = t.indexed()
	return k, nil
}

// sourceFiles returns the files (full paths, sorted) of the kernel's package that its
// translation read: those that declare the kernel's body, each function of the package it
// calls, and every package-level name these use (the kernel's type, other types, their
// fields, constants).
func (t *tr) sourceFiles(decl *ast.FuncDecl) []string {
	home := t.home()
	files := map[string]bool{}
	add := func(pos token.Pos) {
		if f := home.fset.File(pos); f != nil {
			files[f.Name()] = true
		}
	}
	decls := []*ast.FuncDecl{decl}
	for fn := range t.called {
		if d := home.funcs[fn.Origin()]; d != nil {
			decls = append(decls, d)
		}
	}
	for _, d := range decls {
		add(d.Pos())
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if o := home.info.Uses[id]; o != nil && o.Pkg() != nil && home.isHome(o.Pkg()) &&
					(o.Parent() == o.Pkg().Scope() || o.Parent() == nil) {
					add(o.Pos()) // package-level names, and fields and methods (no parent scope)
				}
			}
			return true
		})
	}
	out := make([]string, 0, len(files))
	for f := range files {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// errorf records an error at pos.
func (t *tr) errorf(pos token.Pos, format string, args ...any) {
	t.errs = append(t.errs, &Error{Pos: t.fset.Position(pos), Msg: fmt.Sprintf(format, args...)})
}

// note records a Note about the kernel at pos (once per position: the checked build and
// a generic kernel's instances translate the same code again).
func (t *tr) note(pos token.Pos, msg string) {
	n := &Note{Pos: t.fset.Position(pos), Kernel: t.named.Obj().Name(), Msg: msg}
	if !slices.ContainsFunc(t.notes, func(o *Note) bool { return o.Pos == n.Pos }) {
		t.notes = append(t.notes, n)
	}
}

// outsideLanguage says why the kernel language leaves out a Go construct, by the type
// (%T) of the go/ast expression or statement, or of the go/types underlying type, that
// holds it.
var outsideLanguage = map[string]string{
	"*ast.FuncLit":        "closures are not in the kernel language: write a package-level function or a method of the kernel",
	"*ast.SliceExpr":      "slicing is not in the kernel language",
	"*ast.StarExpr":       "pointers are not in the kernel language",
	"*ast.TypeAssertExpr": "interfaces and type assertions are not in the kernel language",
	"*ast.GoStmt":         "goroutines are not in the kernel language",
	"*ast.DeferStmt":      "defer is not in the kernel language",
	"*ast.SelectStmt":     "channels are not in the kernel language",
	"*ast.SendStmt":       "channels are not in the kernel language",
	"*ast.TypeSwitchStmt": "interfaces and type switches are not in the kernel language",
	"*types.Slice":        "slices are not in the kernel language (use a fixed-size array, a view or runtime.TileStatic)",
	"*types.Pointer":      "pointers are not in the kernel language",
	"*types.Map":          "maps are not in the kernel language",
	"*types.Interface":    "interfaces are not in the kernel language",
	"*types.Chan":         "channels are not in the kernel language",
	"*types.Signature":    "function values and closures are not in the kernel language",
}

// outside reports node at pos, if it is a construct outsideLanguage names, and says
// whether it was.
func (t *tr) outside(pos token.Pos, node any) bool {
	msg, ok := outsideLanguage[fmt.Sprintf("%T", node)]
	if ok {
		t.errorf(pos, "%s", msg)
	}
	return ok
}

// collectFields sorts the kernel's fields into views and scalars, in the order the
// runtime binds them (embedded structs in place, `amp:"-"` fields skipped).
func (t *tr) collectFields(st *types.Struct, decl *ast.FuncDecl) {
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		if tag.Get("amp") == "-" {
			t.fields[f.Origin()] = fmt.Sprintf("field %s is tagged `amp:\"-\"`: it does not reach the GPU", f.Name())
			continue
		}
		ft := t.sub(f.Type())
		if vk, elem := viewKind(ft); vk != "" {
			v := &viewArg{field: f, name: glslName(f.Name()), buf: "ampV_" + f.Name(), index: len(t.views), elem: elem, readOnly: vk == "ReadView"}
			t.checkViewElem(f, elem)
			t.views = append(t.views, v)
			t.fields[f.Origin()] = v
			continue
		}
		if f.Embedded() {
			if s, ok := ft.Underlying().(*types.Struct); ok {
				t.collectFields(s, decl)
				continue
			}
		}
		if b, ok := ft.Underlying().(*types.Basic); ok {
			switch b.Kind() {
			case types.Int32, types.Uint32, types.Float32, types.Float64, types.Int, types.Uint, types.Bool,
				types.Int8, types.Int16, types.Uint8, types.Uint16:
				// One 32-bit word each (runtime's scalarField.word): an int or uint field
				// whose value does not fit is a dispatch error on GPUs.
				s := scalarArg{field: f, name: glslName(f.Name()), typ: basicGLSL(b), bool: b.Kind() == types.Bool}
				if s.bool {
					s.typ = "uint"
				}
				t.scalars = append(t.scalars, s)
				continue
			}
		}
		refused := fmt.Sprintf("field %s does not reach the GPU: its type is refused at its declaration", f.Name())
		if vecName(ft) != "" || pushWords(ft) { // std430 aligns a vector; the runtime pads for it
			if g, ok := t.glslType(ft, f.Pos()); ok {
				t.scalars = append(t.scalars, scalarArg{field: f, name: glslName(f.Name()), typ: g})
			} else {
				t.fields[f.Origin()] = refused
			}
			continue
		}
		t.fields[f.Origin()] = refused
		t.errorf(f.Pos(), "kernel %s: field %s has type %s; a kernel field must be an arrayview View, ReadView or Array, "+
			"a scalar (int32, uint32, float32, float64, int, uint, bool, or an 8- or 16-bit integer), a vec vector, "+
			"an array or struct of int32, uint32 and float32, or be tagged `amp:\"-\"`", t.named.Obj().Name(), f.Name(), ft)
	}
	for i := range t.scalars {
		t.fields[t.scalars[i].field.Origin()] = &t.scalars[i]
	}
}

// pushWords says whether t is an array or struct made only of int32, uint32 and float32
// values (through arrays and structs of them; no vectors), which std430 lays out in a
// push-constant block as Go lays it out in memory (the runtime pushes its words as they
// are, and checks the same rule).
func pushWords(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return u.Len() > 0 && (isWord(u.Elem()) || pushWords(u.Elem()))
	case *types.Struct:
		if vecName(t) != "" || u.NumFields() == 0 {
			return false
		}
		for i := range u.NumFields() {
			if ft := u.Field(i).Type(); !isWord(ft) && !pushWords(ft) {
				return false
			}
		}
		return true
	}
	return false
}

// isWord says whether t is an int32, uint32 or float32 (or a named type of one).
func isWord(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Int32 || b.Kind() == types.Uint32 || b.Kind() == types.Float32)
}

// viewKind returns "View", "ReadView" or "Array" and the element type when t is a
// pointer to one of arrayview's data types.
func viewKind(t types.Type) (string, types.Type) {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return "", nil
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != arrayviewPath {
		return "", nil
	}
	switch n.Obj().Name() {
	case "View", "ReadView", "Array":
		if n.TypeArgs().Len() == 1 {
			return n.Obj().Name(), n.TypeArgs().At(0)
		}
	}
	return "", nil
}

// sub applies the instance's type arguments to t.
func (t *tr) sub(ty types.Type) types.Type {
	if len(t.subst) == 0 {
		return ty
	}
	switch x := types.Unalias(ty).(type) {
	case *types.TypeParam:
		if r, ok := t.subst[x]; ok {
			return r
		}
	case *types.Pointer:
		return types.NewPointer(t.sub(x.Elem()))
	case *types.Array:
		return types.NewArray(t.sub(x.Elem()), x.Len())
	case *types.Slice:
		return types.NewSlice(t.sub(x.Elem()))
	case *types.Named:
		if x.TypeArgs().Len() > 0 {
			args := make([]types.Type, x.TypeArgs().Len())
			for i := range args {
				args[i] = t.sub(x.TypeArgs().At(i))
			}
			if inst, err := types.Instantiate(nil, x.Origin(), args, false); err == nil {
				return inst
			}
		}
	}
	return ty
}

// typeOf returns the (substituted) type of expression e.
func (t *tr) typeOf(e ast.Expr) types.Type { return t.sub(t.info.TypeOf(e)) }

// mainBody translates the kernel's Each or Tiled body into main's statements.
func (t *tr) mainBody(decl *ast.FuncDecl) string {
	fs := &fnState{decl: decl, main: true, indent: 1}
	if decl.Recv != nil && len(decl.Recv.List) == 1 && len(decl.Recv.List[0].Names) == 1 {
		fs.recv = t.info.Defs[decl.Recv.List[0].Names[0]]
	}
	params := decl.Type.Params.List
	if len(params) == 1 && len(params[0].Names) == 1 {
		obj := t.info.Defs[params[0].Names[0]]
		if t.tiled {
			fs.tidx = obj
		} else {
			fs.idx = obj
			t.names[obj] = "ampIdx"
		}
	}
	t.fn = fs
	t.nameUse = map[string]int{"ampIdx": 1}
	t.floatSh = t.floatAtomicShared(decl.Body)
	t.statics = t.tileStatics(decl.Body)
	fs.varying = t.varyingSet(decl.Body, fs)
	if !t.tiled {
		t.prelude["index"] = true // the body becomes ampEach(ampIdx): see gridLoop
	}
	t.stmts(decl.Body.List)
	return fs.b.String()
}

// line writes one line of GLSL at the current indentation.
func (fs *fnState) line(format string, args ...any) {
	fs.b.WriteString(strings.Repeat("\t", fs.indent))
	fmt.Fprintf(&fs.b, format, args...)
	fs.b.WriteByte('\n')
}

// localName returns the GLSL name of a local object, unique within its function.
func (t *tr) localName(obj types.Object) string {
	if n, ok := t.names[obj]; ok {
		return n
	}
	base := glslName(obj.Name())
	if base == "_" {
		base = "ampBlank"
	}
	n := base
	if c := t.nameUse[base]; c > 0 {
		n = fmt.Sprintf("%s_%d", base, c)
	}
	t.nameUse[base]++
	t.names[obj] = n
	return n
}

// tmpName returns a fresh temporary name.
func (t *tr) tmpName() string {
	t.fn.tmp++
	return fmt.Sprintf("ampT%d", t.fn.tmp)
}

// glslReserved are GLSL keywords and built-in names a Go identifier may collide with.
var glslReserved = map[string]bool{}

// glslTypeNames matches the names of GLSL's sized and vector types that extensions bring
// (float32_t, int64_t, f16vec2, i8vec4, u16vec3, f64mat2x3, ...), which glslang reserves
// with or without the extension.
var glslTypeNames = regexp.MustCompile(`^(u?int|float)(8|16|32|64)_t$|^[fiu](8|16|32|64)vec[234]$|^(f16|f32|f64)?mat[234](x[234])?$|^dmat[234]x[234]$`)

func init() {
	for _, w := range strings.Fields(`attribute const uniform varying buffer shared coherent volatile restrict readonly
	writeonly atomic_uint layout centroid flat smooth noperspective patch sample break continue do for while switch
	case default if else subroutine in out inout float double int void bool true false invariant precise discard
	return mat2 mat3 mat4 dmat2 dmat3 dmat4 vec2 vec3 vec4 ivec2 ivec3 ivec4 bvec2 bvec3 bvec4 dvec2 dvec3 dvec4 uint
	uvec2 uvec3 uvec4 lowp mediump highp precision sampler1D sampler2D sampler3D struct common partition active asm
	class union enum typedef template this resource goto inline noinline public static extern external interface long
	short half fixed unsigned superp input output filter sizeof cast namespace using main abs sign floor ceil trunc
	round fract mod min max clamp mix step smoothstep sqrt inversesqrt exp exp2 log log2 pow sin cos tan asin acos atan
	sinh cosh tanh length distance dot cross normalize barrier memoryBarrier texture image
	radians degrees asinh acosh atanh modf isnan isinf floatBitsToInt floatBitsToUint intBitsToFloat uintBitsToFloat
	fma frexp ldexp packHalf2x16 unpackHalf2x16 packDouble2x32 unpackDouble2x32 roundEven reflect refract faceforward
	matrixCompMult outerProduct transpose determinant inverse lessThan lessThanEqual greaterThan greaterThanEqual
	equal notEqual any all not uaddCarry usubBorrow umulExtended imulExtended bitfieldExtract bitfieldInsert
	bitfieldReverse bitCount findLSB findMSB atomicAdd atomicMin atomicMax atomicAnd atomicOr atomicXor
	atomicExchange atomicCompSwap memoryBarrierShared memoryBarrierBuffer memoryBarrierImage groupMemoryBarrier
	sampler image1D image2D image3D float16_t int8_t uint8_t int16_t uint16_t int64_t uint64_t`) {
		glslReserved[w] = true
	}
}

// glslName maps a Go identifier to a GLSL one: reserved words, gl_ and amp prefixes and
// double underscores get a trailing or replaced character.
func glslName(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf }) {
		// GLSL identifiers are ASCII: π becomes ampU_3c0 (a prefix no Go name keeps).
		var b strings.Builder
		b.WriteString("ampU")
		for _, r := range s {
			if r < utf8.RuneSelf {
				b.WriteRune(r)
			} else {
				fmt.Fprintf(&b, "_%x", r)
			}
		}
		return strings.ReplaceAll(b.String(), "__", "_x_")
	}
	s = strings.ReplaceAll(s, "__", "_x_")
	if strings.HasPrefix(s, "gl_") { // reserved as a prefix: a suffix does not help
		return "ampG" + s
	}
	if glslReserved[s] || glslTypeNames.MatchString(s) || strings.HasPrefix(s, "amp") || strings.HasPrefix(s, "Amp") {
		return s + "_"
	}
	return s
}

// assemble writes the whole translation unit.
func (t *tr) assemble(k *Kernel, body string) string {
	var b strings.Builder
	b.WriteString("#version 450\n")
	fmt.Fprintf(&b, "// Code generated by ampgen from %s. DO NOT EDIT.\n", k.Program)
	exts := map[string]bool{}
	if t.checked { // [[dont_unroll]]: each pass of a Go loop is one of the device's (ampLoop)
		exts["GL_EXT_control_flow_attributes"] = true
		b.WriteString("#extension GL_EXT_control_flow_attributes : require\n")
	}
	for _, v := range t.views {
		if _, ext := t.storageType(v.elem); ext != "" && !exts[ext] {
			exts[ext] = true
			fmt.Fprintf(&b, "#extension %s : require\n", ext)
		}
	}
	fmt.Fprintf(&b, "layout(local_size_x_id = %d, local_size_y_id = %d, local_size_z_id = %d) in;\n",
		ampabi.SpecLocalSizeX, ampabi.SpecLocalSizeY, ampabi.SpecLocalSizeZ)
	b.WriteString("// AMP_RANKS: bits 0-1 the domain's rank, bits 2+2k the rank of data argument k.\n")
	fmt.Fprintf(&b, "layout(constant_id = %d) const uint AMP_RANKS = 1u;\n", ampabi.SpecRanks)
	b.WriteString("const uint ampRank = AMP_RANKS & 3u;\n")
	for _, v := range t.views { // a view's element type may be a struct the body never names
		t.glslType(v.elem, token.NoPos)
	}
	for _, s := range t.structs {
		b.WriteString(t.structDecl(s))
	}
	for _, v := range t.views {
		t.bufferDecl(&b, v)
	}
	if t.checked {
		fmt.Fprintf(&b, "layout(std430, binding = %d) buffer AmpCheck { uint ampCheck[]; };\n",
			ampabi.CheckBinding(len(t.views)))
	}
	b.WriteString("struct AmpView { uint base; uint s0; uint s1; uint e0; };\n")
	b.WriteString("layout(push_constant) uniform AmpPush {\n\tuvec4 domain;\n")
	for _, v := range t.views {
		fmt.Fprintf(&b, "\tAmpView %s;\n", v.name)
	}
	for _, s := range t.scalars {
		fmt.Fprintf(&b, "\t%s %s;\n", s.typ, s.name)
	}
	if n := t.extentViews(); n > 0 {
		// Dimensions 1 and 2 of data fields 0..n-1 (runtime.ArgInfo.Extent).
		fmt.Fprintf(&b, "\tuint ampExtents[%d];\n", 2*n)
	}
	b.WriteString("} amp;\n")
	if t.tiled {
		t.prelude["tile"] = true
	}
	b.WriteString(preludeText(t.prelude))
	if t.checked {
		b.WriteString(checkPrelude(t.tiled, len(t.views)))
	}
	for _, v := range t.views {
		t.viewFuncs(&b, v)
	}
	for _, s := range t.shared {
		fmt.Fprintf(&b, "shared %s %s[%s];\n", s.elem, s.name, s.size)
		if s.bits {
			fmt.Fprintf(&b, "float ampSharedAddF_%s(int i, float x) {\n\tuint old = %s[i];\n\tfor (;;) {\n"+
				"\t\tuint prev = atomicCompSwap(%s[i], old, floatBitsToUint(uintBitsToFloat(old) + x));\n"+
				"\t\tif (prev == old) return uintBitsToFloat(old);\n\t\told = prev;\n\t}\n}\n", s.name, s.name, s.name)
		}
	}
	for _, f := range t.funcs {
		b.WriteString(f)
	}
	if !t.tiled {
		if t.checked {
			body = "\tampThread = ampIdx;\n" + body
		}
		b.WriteString("void ampEach(ivec3 ampIdx) {\n" + body + "}\n" + gridLoop)
		return floatControls(b.String())
	}
	b.WriteString("void main() {\n")
	b.WriteString(body)
	b.WriteString("}\n")
	return floatControls(b.String())
}

// floatControls asks the driver to keep Go's floating-point semantics in the module
// src: the SignedZeroInfNanPreserve execution mode (SPV_KHR_float_controls, through
// GL_EXT_spirv_intrinsics), so that no compiler folds 0-x to -x, x*0 to 0 or x+0 to x,
// where Go keeps the zero's sign, Inf and NaN. Declaring the extension also stops glslc's
// optimizer (spirv-opt) folding float arithmetic at all: it folded 0-x to OpFNegate
// before any driver saw it. glslang keeps one spirv_execution_mode per mode, so the
// mode is declared here for 32-bit floats and exactFloats adds it for the module's 16-
// and 64-bit floats. A device without the property for a width gets the module without
// the mode (the runtime strips it), where the driver's rules apply again, as documented.
func floatControls(src string) string {
	// Capability SignedZeroInfNanPreserve (4466), the execution mode of that name (4461).
	const h = "#extension GL_EXT_spirv_intrinsics : require\n" +
		"spirv_execution_mode(extensions = [\"SPV_KHR_float_controls\"], capabilities = [4466], 4461, 32);\n"
	at := strings.Index(src, "layout(local_size_x_id")
	return src[:at] + h + src[at:]
}

// viewFuncs writes view v's rank constant and its address, bounds-check, 16-byte access,
// extent and float atomic functions.
func (t *tr) viewFuncs(b *strings.Builder, v *viewArg) {
	fmt.Fprintf(b, "const uint ampR%d = (AMP_RANKS >> %du) & 3u;\n", v.index, 2+2*v.index)
	at := "ampAt"
	if t.checked {
		at = "ampAddr" // ampAt (checkFuncs) checks the index first
	}
	fmt.Fprintf(b, "uint %s%d(ivec3 i) { return amp.%s.base + (ampR%d == 1u ? uint(i.x) : ampR%d == 2u ? "+
		"uint(i.x) * amp.%s.s0 + uint(i.y) : uint(i.x) * amp.%s.s0 + uint(i.y) * amp.%s.s1 + uint(i.z)); }\n",
		at, v.index, v.name, v.index, v.index, v.name, v.name, v.name)
	if t.checked {
		t.checkFuncs(b, v)
	}
	t.view4Funcs(b, v)
	t.extentFuncs(b, v)
	if v.atomicF {
		fmt.Fprintf(b, "float ampAtomicAddF%d(uint a, float x) {\n\tuint old = %s_bits[a];\n\tfor (;;) {\n"+
			"\t\tuint prev = atomicCompSwap(%s_bits[a], old, floatBitsToUint(uintBitsToFloat(old) + x));\n"+
			"\t\tif (prev == old) return uintBitsToFloat(old);\n\t\told = prev;\n\t}\n}\n", v.index, v.buf, v.buf)
		fmt.Fprintf(b, "float ampAtomicXchgF%d(uint a, float x) { return uintBitsToFloat(atomicExchange(%s_bits[a], floatBitsToUint(x))); }\n",
			v.index, v.buf)
	}
}

// gridLoop is the main of a kernel without tiles: a grid-stride loop over the domain's
// points that runs the body (ampEach) for each. AMP_GRID_LOOP (SpecId 4) tells the
// dispatcher so: it may then launch fewer workgroups than the domain needs (at most
// runtime.MaxLoopGroups), which ran a one-element-a-thread kernel 26% faster on the H100
// than one thread a point (RESULTS.md).
var gridLoop = fmt.Sprintf(`layout(constant_id = %d) const uint AMP_GRID_LOOP = 1u;
void main() {
	uint ampStride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
	for (uint ampN = ampLinearIndex(); AMP_GRID_LOOP != 0u && ampN < amp.domain.w; ampN += ampStride) {
		ampEach(ampDelinearize(ampN));
	}
}
`, ampabi.SpecGridLoop)

// bufferDecl declares view v's storage buffer, and its uint and vec4 aliases where the
// body needs them.
func (t *tr) bufferDecl(b *strings.Builder, v *viewArg) {
	q := ""
	switch {
	case !v.written:
		q = "readonly "
	case t.barriers && v.read:
		// Threads of a tile may read what others wrote before a barrier.
		q = "coherent "
	}
	et, _ := t.glslType(v.elem, token.NoPos)
	if st, _ := t.storageType(v.elem); st != "" {
		et = st
	}
	bind := ampabi.DataBinding(v.index)
	fmt.Fprintf(b, "layout(std430, binding = %d) %sbuffer AmpBuffer%d { %s %s[]; };\n", bind, q, v.index, et, v.buf)
	if v.atomicF {
		fmt.Fprintf(b, "layout(std430, binding = %d) %sbuffer AmpBits%d { uint %s_bits[]; };\n", bind, q, v.index, v.buf)
	}
	if v.at4 || v.set4 {
		fmt.Fprintf(b, "layout(std430, binding = %d) %sbuffer AmpVec%d { %s %s_4[]; };\n", bind, q, v.index, vec4Type(t.sub(v.elem)), v.buf)
	}
}

// structDecl declares a Go struct type in GLSL. A 3-vector member is followed by an
// explicit padding member, as Go's vec.Float3 carries one: the two layouts agree.
func (t *tr) structDecl(n *types.Named) string {
	st := n.Underlying().(*types.Struct)
	var b strings.Builder
	fmt.Fprintf(&b, "struct %s {\n", t.structName(n))
	pad := 0
	for i := range st.NumFields() {
		f := st.Field(i)
		name := glslName(f.Name())
		if name == "_" {
			name = fmt.Sprintf("ampPad%d", pad)
			pad++
		}
		ty, _ := t.glslType(f.Type(), f.Pos())
		fmt.Fprintf(&b, "\t%s %s;\n", ty, name)
	}
	b.WriteString("};\n")
	return b.String()
}

// sortedKeys returns m's keys, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// tileStatics returns the variables that body defines as tile_static arrays
// (name := runtime.TileStatic[T](t, n)).
func (t *tr) tileStatics(body *ast.BlockStmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
			if c, ok := unparen(as.Rhs[0]).(*ast.CallExpr); ok && t.isRuntimeFunc(c.Fun, "TileStatic") {
				if id, ok := as.Lhs[0].(*ast.Ident); ok && t.info.Defs[id] != nil {
					out[t.info.Defs[id]] = true
				}
			}
		}
		return true
	})
	return out
}

// floatAtomicShared finds the tile_static arrays of float32 that atomics update: GLSL has
// no atomics on float shared memory, so they are stored as uint bits.
func (t *tr) floatAtomicShared(body *ast.BlockStmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) < 3 || !isAtomicFunc(t, c.Fun) {
			return true
		}
		if id, ok := unparen(c.Args[0]).(*ast.Ident); ok {
			if s, ok := t.typeOf(id).Underlying().(*types.Slice); ok {
				if b, ok := t.sub(s.Elem()).Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 {
					out[t.info.Uses[id]] = true
				}
			}
		}
		return true
	})
	return out
}
