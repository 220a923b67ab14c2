package arrayview

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/vec"
)

type elemInfo struct {
	typ     reflect.Type
	size    int
	float64 bool
	float16 bool // T is or contains half.Float16: 16-bit storage on devices
	int8    bool // T is or contains int8 or uint8: 8-bit storage on devices
	err     error
}

var elemCache sync.Map // reflect.Type -> elemInfo

// checkElem says whether T can live in a storage buffer with the same layout Go gives it.
func checkElem[T any]() elemInfo {
	t := reflect.TypeFor[T]()
	if v, ok := elemCache.Load(t); ok {
		return v.(elemInfo)
	}
	info := elemInfo{typ: t, size: int(t.Size())}
	_, f64, reason := std430(t)
	if reason != "" {
		info.err = &TypeError{Type: t, Reason: reason}
	}
	info.float64 = f64
	info.float16 = hasFloat16(t)
	info.int8 = hasInt8(t)
	elemCache.Store(t, info)
	return info
}

// vecLayout is std430's layout of one of goamp's vector types.
type vecLayout struct {
	align uintptr // 8 for the 2-vectors, 16 for the 3- and 4-vectors; their Go alignment is 4
	size  uintptr // 12 for the 3-vectors, whose Go size (16, padded) is their array stride
}

// vecTypes lays out the vector types of package vec.
var vecTypes = map[reflect.Type]vecLayout{
	reflect.TypeFor[vec.Float2](): {8, 8}, reflect.TypeFor[vec.Int2](): {8, 8}, reflect.TypeFor[vec.Uint2](): {8, 8},
	reflect.TypeFor[vec.Float3](): {16, 12}, reflect.TypeFor[vec.Int3](): {16, 12}, reflect.TypeFor[vec.Uint3](): {16, 12},
	reflect.TypeFor[vec.Float4](): {16, 16}, reflect.TypeFor[vec.Int4](): {16, 16}, reflect.TypeFor[vec.Uint4](): {16, 16},
}

// isVec3 reports whether t is one of the 3-vectors.
func isVec3(t reflect.Type) bool { return vecTypes[t].size == 12 }

// float16Type is half.Float16, the one 2-byte element type.
var float16Type = reflect.TypeFor[half.Float16]()

// hasFloat16 reports whether t is or contains half.Float16.
func hasFloat16(t reflect.Type) bool {
	return contains(t, func(x reflect.Type) bool { return x == float16Type })
}

// hasInt8 reports whether t is or contains int8 or uint8.
func hasInt8(t reflect.Type) bool {
	return contains(t, func(x reflect.Type) bool { return x.Kind() == reflect.Int8 || x.Kind() == reflect.Uint8 })
}

// contains reports whether t, or an element or field of it at any depth, is a type that
// is reports true for.
func contains(t reflect.Type, is func(reflect.Type) bool) bool {
	if is(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Array:
		return contains(t.Elem(), is)
	case reflect.Struct:
		for i := range t.NumField() {
			if contains(t.Field(i).Type, is) {
				return true
			}
		}
	}
	return false
}

// std430 checks that t is made of 4- and 8-byte scalars (and half.Float16, int8 and
// uint8) and goamp's vectors that std430 places where Go does, and returns t's std430
// base alignment.
func std430(t reflect.Type) (align uintptr, hasF64 bool, reason string) {
	if l, ok := vecTypes[t]; ok {
		return l.align, false, ""
	}
	if t == float16Type {
		return 2, false, "" // float16_t (VK_KHR_16bit_storage)
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Uint8:
		return 1, false, "" // int8_t, uint8_t (VK_KHR_8bit_storage)
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return 4, false, ""
	case reflect.Float64:
		return 8, true, ""
	case reflect.Array:
		if t.Len() == 0 {
			return 0, false, "zero-length arrays have no GLSL equivalent"
		}
		// The element's size is its std430 array stride: checked for structs below,
		// given for scalars and vectors.
		return std430(t.Elem())
	case reflect.Struct:
		return std430Struct(t)
	case reflect.Int, reflect.Uint, reflect.Int64, reflect.Uint64:
		return 0, false, "64-bit integers are not supported; use int32 or uint32"
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.String, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return 0, false, "kernels cannot use Go references (pointers, slices, maps, strings, interfaces)"
	}
	return 0, false, "only int8, uint8, int32, uint32, float32, float64, half.Float16, goamp's vec types and structs or arrays of them are supported"
}

// std430Struct checks that each field of struct t sits at the offset std430 gives it, and
// that t's size is a multiple of its alignment (the largest of its fields'), which is
// std430's stride of an array of t and where it places the member after a t.
func std430Struct(t reflect.Type) (align uintptr, hasF64 bool, reason string) {
	if t.NumField() == 0 {
		return 0, false, "empty structs have no GLSL equivalent"
	}
	off, align := uintptr(0), uintptr(1)
	var prev reflect.Type
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		a, h, r := std430(f.Type)
		if r != "" {
			return 0, false, "field " + f.Name + ": " + r
		}
		hasF64 = hasF64 || h
		align = max(align, a)
		off = (off + a - 1) / a * a
		if f.Offset != off {
			return 0, false, misplaced(f, off, a, prev)
		}
		size := f.Type.Size()
		if l, ok := vecTypes[f.Type]; ok {
			size = l.size // a vec3 member is 12 bytes: a scalar after it takes its fourth slot
		}
		off += size
		prev = f.Type
	}
	if t.Size()%align != 0 {
		return 0, false, fmt.Sprintf("its size, %d bytes, is not a multiple of its std430 alignment, %d; "+
			"pad it to %d bytes with blank fields at the end", t.Size(), align, (t.Size()+align-1)/align*align)
	}
	return align, hasF64, ""
}

// misplaced says why field f is not at offset off, where std430 puts it.
func misplaced(f reflect.StructField, off, align uintptr, prev reflect.Type) string {
	msg := fmt.Sprintf("field %s (%v) is at byte %d but std430 places it at %d", f.Name, f.Type, f.Offset, off)
	if f.Offset > off && prev != nil && isVec3(prev) {
		return msg + fmt.Sprintf(", in the fourth slot of the %v before it; use a 4-vector there, "+
			"or move %s elsewhere", prev, f.Name)
	}
	return msg + fmt.Sprintf("; align it to %d bytes with blank padding fields before it", align)
}
