package translate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// The kernel language's 8- and 16-bit integers (int8, uint8, int16, uint16, and
// half.Float16, whose Go type is a uint16 of the value's bits).
//
// In registers they are GLSL's 32-bit int and uint holding the value sign- or
// zero-extended, and every operation whose 32-bit result can leave the type's range
// (+, -, *, /, <<, unary - and ^, and conversions to the type) is followed by
// bitfieldExtract(x, 0, bits), which wraps it as Go does. Comparisons, &, |, &^, >> and %
// of two extended values are extended already. So no device needs 8- or 16-bit
// arithmetic (shaderInt8, shaderInt16): only views of them need storage
// (storageBuffer8BitAccess, storageBuffer16BitAccess), which the runtime checks from the
// program's SPIR-V capabilities. Views hold them as int8_t, uint8_t and uint16_t (a
// half.Float16 view its bits); structs and arrays of them are refused as view elements
// and struct fields, where GLSL's layout of a 32-bit register type would not be Go's.
//
// half.Float16's conversions (Float32, FromFloat32) are the prelude's ampHalfToFloat and
// ampFloatToHalf: package half's own algorithms in integer arithmetic, so a GPU converts
// bit for bit as the CPU does (rounding to nearest even, NaN payloads, subnormals), which
// GLSL's float16_t conversions do not promise.

// halfPath is package half's import path.
const halfPath = modPath + "/half"

// narrowBits returns the width of an 8- or 16-bit integer type (after substitution), 0
// for any other type.
func (t *tr) narrowBits(ty types.Type) int {
	b, ok := t.sub(ty).Underlying().(*types.Basic)
	if !ok {
		return 0
	}
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	}
	return 0
}

// wrap makes x, a 32-bit result of type ty, a value of ty as Go computes it: unchanged
// for 32- and 64-bit types, the low bits sign- or zero-extended for narrow ones.
func (t *tr) wrap(x string, ty types.Type) string {
	if n := t.narrowBits(ty); n != 0 {
		return fmt.Sprintf("bitfieldExtract(%s, 0, %d)", x, n)
	}
	return x
}

// wraps reports whether binary op's 32-bit result can leave the range of its operands'
// narrow type (<< is the shift's; unary - and ^ are unary's).
func wraps(op token.Token) bool {
	switch op {
	case token.ADD, token.SUB, token.MUL, token.QUO:
		return true
	}
	return false
}

// hasNarrow reports whether ty is or contains an 8- or 16-bit type.
func (t *tr) hasNarrow(ty types.Type) bool {
	if t.narrowBits(ty) != 0 {
		return true
	}
	switch u := t.sub(ty).Underlying().(type) {
	case *types.Array:
		return t.hasNarrow(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if t.hasNarrow(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// storageType is the GLSL element type of a view's buffer and the extension it needs ("" for
// 32- and 64-bit elements, whose type is glslType's).
func (t *tr) storageType(elem types.Type) (glsl, ext string) {
	b, ok := t.sub(elem).Underlying().(*types.Basic)
	if !ok {
		return "", ""
	}
	switch b.Kind() {
	case types.Int8:
		return "int8_t", "GL_EXT_shader_8bit_storage"
	case types.Uint8:
		return "uint8_t", "GL_EXT_shader_8bit_storage"
	case types.Int16:
		return "int16_t", "GL_EXT_shader_16bit_storage"
	case types.Uint16:
		return "uint16_t", "GL_EXT_shader_16bit_storage"
	}
	return "", ""
}

// checkViewElem refuses view elements that contain narrow types inside arrays or structs.
func (t *tr) checkViewElem(f *types.Var, elem types.Type) {
	if t.narrowBits(elem) == 0 && t.hasNarrow(elem) {
		t.errorf(f.Pos(), "field %s: a view of %s: 8- and 16-bit values are view elements only on their own, "+
			"not inside arrays or structs", f.Name(), t.sub(elem))
	}
}

// isHalf reports whether ty is half.Float16.
func isHalf(ty types.Type) bool {
	n, ok := types.Unalias(ty).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == halfPath && n.Obj().Name() == "Float16"
}

// halfMethod translates the methods of half.Float16 the kernel language has.
func (t *tr) halfMethod(e *ast.CallExpr, x ast.Expr, name string) string {
	h := t.expr(x)
	switch name {
	case "Float32":
		t.prelude["half"] = true
		return "ampHalfToFloat(" + h + ")"
	case "Bits":
		return h
	case "IsNaN":
		return "((" + h + " & 0x7c00u) == 0x7c00u && (" + h + " & 0x3ffu) != 0u)"
	case "IsInf":
		return "((" + h + " & 0x7fffu) == 0x7c00u)"
	}
	t.errorf(e.Pos(), "method %s of half.Float16 is not in the kernel language (Float32, Bits, IsNaN and IsInf are)", name)
	return "0u"
}

// halfFunc translates the functions of package half the kernel language has.
func (t *tr) halfFunc(e *ast.CallExpr, name string) string {
	switch name {
	case "FromFloat32":
		t.prelude["half"] = true
		return "ampFloatToHalf(" + t.expr(e.Args[0]) + ")"
	case "FromBits":
		return t.expr(e.Args[0])
	}
	t.errorf(e.Pos(), "half.%s is not in the kernel language (FromFloat32 and FromBits are)", name)
	return "0u"
}

// halfPrelude is package half's toBits32 and fromBits32 in GLSL (see the comment at the top).
const halfPrelude = `float ampHalfToFloat(uint h) {
	uint s = (h & 0x8000u) << 16;
	uint e = (h >> 10) & 0x1fu;
	uint m = h & 0x3ffu;
	if (e == 0x1fu) return uintBitsToFloat(s | 0x7f800000u | (m << 13));
	if (e != 0u) return uintBitsToFloat(s | ((e + 112u) << 23) | (m << 13));
	if (m == 0u) return uintBitsToFloat(s);
	int p = findMSB(m); // a subnormal, m * 2^-24: normalize
	return uintBitsToFloat(s | (uint(p + 103) << 23) | ((m << uint(23 - p)) & 0x7fffffu));
}
uint ampFloatToHalf(float f) {
	uint b = floatBitsToUint(f);
	uint s = (b >> 16) & 0x8000u;
	int e = int((b >> 23) & 0xffu);
	uint m = b & 0x7fffffu;
	if (e == 255) return m == 0u ? (s | 0x7c00u) : (s | 0x7e00u | (m >> 13));
	if (e > 142) return s | 0x7c00u;
	uint v, rest, hf;
	if (e >= 113) {
		v = (uint(e - 112) << 10) | (m >> 13);
		rest = m & 0x1fffu;
		hf = 0x1000u;
	} else if (e >= 102) {
		uint sh = uint(126 - e);
		m |= 0x800000u;
		v = m >> sh;
		rest = m & ((1u << sh) - 1u);
		hf = 1u << (sh - 1u);
	} else {
		return s;
	}
	if (rest > hf || rest == hf && (v & 1u) == 1u) v++;
	return s | v;
}
`
