package translate

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
)

// basicGLSL maps a basic Go type to its GLSL type, or "" when the kernel language has
// none. int and uint are 32 bits on the GPU (see the package documentation).
func basicGLSL(b *types.Basic) string {
	switch b.Kind() {
	case types.Int, types.Int32, types.Int8, types.Int16, types.UntypedInt, types.UntypedRune:
		return "int" // 8- and 16-bit values extended (narrow.go)
	case types.Uint, types.Uint32, types.Uint8, types.Uint16:
		return "uint"
	case types.Float32, types.UntypedFloat:
		return "float"
	case types.Float64:
		return "double"
	case types.Bool, types.UntypedBool:
		return "bool"
	}
	return ""
}

// vecTypes maps the vec package's types to GLSL.
var vecTypes = map[string]string{
	"Float2": "vec2", "Float3": "vec3", "Float4": "vec4",
	"Int2": "ivec2", "Int3": "ivec3", "Int4": "ivec4",
	"Uint2": "uvec2", "Uint3": "uvec3", "Uint4": "uvec4",
}

// vecName returns the vec type's name ("Float3") or "".
func vecName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != vecPath {
		return ""
	}
	if _, ok := vecTypes[n.Obj().Name()]; ok {
		return n.Obj().Name()
	}
	return ""
}

// vecComp is the GLSL component type of a vec type.
func vecComp(t types.Type) string {
	switch n := vecName(t); {
	case strings.HasPrefix(n, "Float"):
		return "float"
	case strings.HasPrefix(n, "Int"):
		return "int"
	}
	return "uint"
}

// glslType maps a Go type to GLSL, recording the struct types it needs; it reports an
// error at pos and returns "" for types outside the kernel language.
func (t *tr) glslType(ty types.Type, pos token.Pos) (string, bool) {
	ty = t.sub(ty)
	if isRuntime(ty, "Index") {
		return "ivec3", true
	}
	if v := vecName(ty); v != "" {
		return vecTypes[v], true
	}
	switch u := ty.Underlying().(type) {
	case *types.Basic:
		if s := basicGLSL(u); s != "" {
			return s, true
		}
		t.errorf(pos, "type %s is not in the kernel language: use int32, uint32, float32, float64, bool, int, int8, uint8, int16 or uint16", ty)
		return "", false
	case *types.Array:
		e, ok := t.glslType(u.Elem(), pos)
		if !ok {
			return "", false
		}
		if u.Len() == 0 {
			t.errorf(pos, "zero-length arrays have no GLSL equivalent")
			return "", false
		}
		// Arrays of arrays: T[a][b] in GLSL declares an array of a arrays of b.
		if i := strings.IndexByte(e, '['); i >= 0 {
			return fmt.Sprintf("%s[%d]%s", e[:i], u.Len(), e[i:]), true
		}
		return fmt.Sprintf("%s[%d]", e, u.Len()), true
	case *types.Struct:
		n, ok := types.Unalias(ty).(*types.Named)
		if isRuntime(ty, "Extent") {
			t.errorf(pos, "runtime.Extent values are not in the kernel language: read a view's extent through its methods, "+
				"k.V.Extent().Dim(c), .Size(), .Rank() and .Contains(i), and the tile's as t.TileExtent.Dim(c)")
			return "", false
		}
		if !ok {
			t.errorf(pos, "struct type %s: kernels use named struct types (type T struct{...})", ty)
			return "", false
		}
		if !t.userPkg(n.Obj().Pkg()) {
			t.errorf(pos, "struct type %s: kernels use struct types of the user's packages, not the standard library's or goamp's", ty)
			return "", false
		}
		t.useStruct(n, pos)
		return t.structName(n), true
	default:
		if !t.outside(pos, u) {
			t.errorf(pos, "type %s is not in the kernel language", ty)
		}
	}
	return "", false
}

// structName is a struct type's GLSL name: its Go name, with an instance's type
// arguments (Pair[int32]: Pair_int32), each one struct in GLSL.
func (t *tr) structName(n *types.Named) string {
	name := glslName(n.Obj().Name())
	if p := n.Obj().Pkg(); p != nil && !t.isHome(p) { // another package's (foreign.go)
		name = t.pkgPrefix(p) + n.Obj().Name()
	}
	for i := range n.TypeArgs().Len() {
		name += "_" + typeArgName(n.TypeArgs().At(i))
	}
	return name
}

// typeArgName names a type argument in identifier characters: a named type by its name
// (and its own type arguments), others as Go writes them.
func typeArgName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		s := n.Obj().Name()
		for i := range n.TypeArgs().Len() {
			s += "_" + typeArgName(n.TypeArgs().At(i))
		}
		return s
	}
	return mangle(t.String())
}

// useStruct records a struct type (and the struct types of its fields first).
func (t *tr) useStruct(n *types.Named, pos token.Pos) {
	name := t.structName(n)
	if t.structV[name] {
		return
	}
	t.structV[name] = true
	st := n.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		if f := st.Field(i); t.hasNarrow(f.Type()) {
			t.errorf(pos, "struct type %s: field %s has type %s: 8- and 16-bit struct fields are not in the kernel language "+
				"(GLSL would lay them out as 32 bits); use int32, uint32 or float32", n.Obj().Name(), f.Name(), f.Type())
		}
		t.glslType(st.Field(i).Type(), pos)
	}
	t.structs = append(t.structs, n)
}

// zero returns GLSL for the zero value of ty (Go initializes every variable).
func (t *tr) zero(ty types.Type, pos token.Pos) string {
	ty = t.sub(ty)
	g, ok := t.glslType(ty, pos)
	if !ok {
		return "0"
	}
	if isRuntime(ty, "Index") {
		return "ivec3(0)"
	}
	if v := vecName(ty); v != "" {
		return g + "(" + t.zeroBasic(vecComp(ty)) + ")"
	}
	switch u := ty.Underlying().(type) {
	case *types.Basic:
		return t.zeroBasic(g)
	case *types.Array:
		z := t.zero(u.Elem(), pos)
		parts := make([]string, u.Len())
		for i := range parts {
			parts[i] = z
		}
		return g + "(" + strings.Join(parts, ", ") + ")"
	case *types.Struct:
		var parts []string
		for i := range u.NumFields() {
			f := u.Field(i)
			parts = append(parts, t.zero(f.Type(), pos))
		}
		return g + "(" + strings.Join(parts, ", ") + ")"
	}
	return "0"
}

func (t *tr) zeroBasic(g string) string {
	switch g {
	case "uint":
		return "0u"
	case "float":
		return "0.0"
	case "double":
		return "0.0lf"
	case "bool":
		return "false"
	}
	return "0"
}

// constLit writes constant v as a GLSL literal of Go type ty.
func (t *tr) constLit(v constant.Value, ty types.Type, pos token.Pos) string {
	ty = t.sub(ty)
	b, ok := ty.Underlying().(*types.Basic)
	if !ok {
		t.errorf(pos, "constant of type %s", ty)
		return "0"
	}
	switch basicGLSL(b) {
	case "bool":
		return strconv.FormatBool(constant.BoolVal(v))
	case "int":
		i, exact := constant.Int64Val(constant.ToInt(v))
		if !exact || i < math.MinInt32 || i > math.MaxInt32 {
			t.errorf(pos, "constant %s overflows the GPU's 32-bit int", v)
			return "0"
		}
		if i == math.MinInt32 {
			return "(-2147483647 - 1)"
		}
		if i < 0 {
			return "(" + strconv.FormatInt(i, 10) + ")"
		}
		return strconv.FormatInt(i, 10)
	case "uint":
		u, exact := constant.Uint64Val(constant.ToInt(v))
		if !exact || u > math.MaxUint32 {
			t.errorf(pos, "constant %s overflows the GPU's 32-bit uint", v)
			return "0u"
		}
		return strconv.FormatUint(u, 10) + "u"
	case "float":
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return float32Lit(f)
	case "double":
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return floatLit(f, 64, "lf")
	}
	t.errorf(pos, "constant of type %s is not in the kernel language", ty)
	return "0"
}

// float32Lit formats f so that GLSL reads it back exactly, as a float and as a double:
// glslang holds a float literal as a double, so that the shortest digits that round to f
// ("3.0e+38") would fold double(abs(3.0e+38)) to 3e38, not to f (3.0000000054977558e+38)
// as Go computes float64(float32(3e38)). Where the shortest digits are not f's exact
// value, the double's digits of f are written.
func float32Lit(f float32) string {
	short, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if short == float64(f) {
		return floatLit(float64(f), 32, "")
	}
	return floatLit(float64(f), 64, "")
}

// floatLit formats f so that GLSL reads it back exactly.
func floatLit(f float64, bits int, suffix string) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		// Reached only through constant arithmetic that Go itself rejects.
		return "0.0" + suffix
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	if strings.Contains(s, "e") && !strings.Contains(s, ".") {
		i := strings.IndexByte(s, 'e')
		s = s[:i] + ".0" + s[i:]
	}
	if f < 0 {
		return "(" + s + suffix + ")"
	}
	return s + suffix
}
