package arrayview

import (
	"reflect"
	"sync"
)

type elemInfo struct {
	size    int
	float64 bool
	err     error
}

var elemCache sync.Map // reflect.Type -> elemInfo

// checkElem says whether T can live in a storage buffer with the same layout Go gives it.
func checkElem[T any]() elemInfo {
	t := reflect.TypeFor[T]()
	if v, ok := elemCache.Load(t); ok {
		return v.(elemInfo)
	}
	info := elemInfo{size: int(t.Size())}
	f64, reason := std430(t)
	if reason != "" {
		info.err = &TypeError{Type: t, Reason: reason}
	}
	info.float64 = f64
	elemCache.Store(t, info)
	return info
}

// std430 checks that t is made of 4- and 8-byte scalars that std430 places where Go does.
func std430(t reflect.Type) (hasF64 bool, reason string) {
	switch t.Kind() {
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return false, ""
	case reflect.Float64:
		return true, ""
	case reflect.Array:
		if t.Len() == 0 {
			return false, "zero-length arrays have no GLSL equivalent"
		}
		return std430(t.Elem())
	case reflect.Struct:
		if t.NumField() == 0 {
			return false, "empty structs have no GLSL equivalent"
		}
		off := uintptr(0)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			h, r := std430(f.Type)
			if r != "" {
				return false, "field " + f.Name + ": " + r
			}
			hasF64 = hasF64 || h
			a := uintptr(f.Type.Align())
			off = (off + a - 1) / a * a
			if f.Offset != off {
				return false, "field " + f.Name + " is not where std430 would place it"
			}
			off += f.Type.Size()
		}
		return hasF64, ""
	case reflect.Int, reflect.Uint, reflect.Int64, reflect.Uint64:
		return false, "64-bit integers are not supported; use int32 or uint32"
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.String, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return false, "kernels cannot use Go references (pointers, slices, maps, strings, interfaces)"
	}
	return false, "only int32, uint32, float32, float64 and structs or arrays of them are supported"
}
