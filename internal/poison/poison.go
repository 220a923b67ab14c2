// Package poison fills memory with values that no correct kernel reads: NaN in floating
// point values (float32 0x7fedbeef, float64 0x7ffdeadbeefdeadb, half 0x7ead) and
// 0xdeadbeef's bytes in integers (int32 and uint32 0xdeadbeef, 16-bit 0xdead, 8-bit
// 0xde), as the memory a GPU gives a tile_static array or a discarded buffer holds
// whatever was there before. The strict CPU accelerator starts tile_static memory and
// discarded data with it, so that a program that reads them before writing them gives a
// result that stands out instead of the zeros Go would give it.
package poison

import (
	"encoding/binary"
	"reflect"
	"sync"
	"unsafe"

	"github.com/goamp/goamp/half"
)

// The poison values of the scalar types.
const (
	Float32 uint32 = 0x7fedbeef         // a quiet NaN
	Float64 uint64 = 0x7ffdeadbeefdeadb // a quiet NaN
	Half    uint16 = 0x7ead             // a quiet NaN
	Int32   uint32 = 0xdeadbeef
	Int16   uint16 = 0xdead
	Int8    uint8  = 0xde
)

var (
	patterns    sync.Map // reflect.Type -> []byte
	float16Type = reflect.TypeFor[half.Float16]()
)

// Pattern returns one element of type t as poison: its floating point values NaN, its
// integers 0xdeadbeef's bytes, its padding 0xde, and its bools false. The slice is shared:
// it must not be written.
func Pattern(t reflect.Type) []byte {
	if p, ok := patterns.Load(t); ok {
		return p.([]byte)
	}
	p := make([]byte, t.Size())
	for i := range p {
		p[i] = Int8
	}
	fill(t, p)
	patterns.Store(t, p)
	return p
}

// fill writes the poison of type t into p, which holds one t.
func fill(t reflect.Type, p []byte) {
	le := binary.LittleEndian
	if t == float16Type {
		le.PutUint16(p, Half)
		return
	}
	switch t.Kind() {
	case reflect.Float32:
		le.PutUint32(p, Float32)
	case reflect.Float64:
		le.PutUint64(p, Float64)
	case reflect.Int8, reflect.Uint8:
		p[0] = Int8
	case reflect.Int16, reflect.Uint16:
		le.PutUint16(p, Int16)
	case reflect.Int32, reflect.Uint32:
		le.PutUint32(p, Int32)
	case reflect.Int64, reflect.Uint64, reflect.Int, reflect.Uint, reflect.Uintptr:
		for k := 0; k+4 <= len(p); k += 4 {
			le.PutUint32(p[k:], Int32)
		}
	case reflect.Bool:
		p[0] = 0 // any other byte is not a Go bool
	case reflect.Array:
		n := int(t.Elem().Size())
		for i := range t.Len() {
			fill(t.Elem(), p[i*n:(i+1)*n])
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			fill(f.Type, p[f.Offset:f.Offset+f.Type.Size()])
		}
	default: // references: nil, never a pointer made up
		clear(p)
	}
}

// Fill writes the poison of element type t over b, a whole number of elements.
func Fill(t reflect.Type, b []byte) {
	p := Pattern(t)
	if len(p) == 0 {
		return
	}
	for i := 0; i+len(p) <= len(b); i += len(p) {
		copy(b[i:], p)
	}
}

// Slice fills s with poison (Fill).
func Slice[T any](s []T) {
	if len(s) == 0 {
		return
	}
	Fill(reflect.TypeFor[T](), unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0]))))
}
