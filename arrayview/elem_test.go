package arrayview

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/vec"
)

// Element types laid out as std430 lays out the GLSL struct in each comment.
type (
	// struct { vec4 a; float b; } with the padding std430 puts after b: 32 bytes.
	vec4ThenScalar struct {
		A vec.Float4
		B float32
		_ [3]float32
	}
	// struct { float a; vec3 b; }: b at 16.
	scalarThenVec3 struct {
		A float32
		_ [3]float32
		B vec.Float3
	}
	// struct { vec2 a; ivec2 b; uvec4 c; }
	mixedVectors struct {
		A vec.Float2
		B vec.Int2
		C vec.Uint4
	}
	// struct { float a; float pad; vec2 b; }
	scalarsThenVec2 struct {
		A, Pad float32
		B      vec.Float2
	}
	// struct { vec3 a[2]; vec3 b; ivec3 c; }: an array of vec3 has a stride of 16, and
	// each vec3 member starts at a multiple of 16.
	vec3Array struct {
		A [2]vec.Float3
		B vec.Float3
		C vec.Int3
	}
	// struct { float a; float pad[3]; struct { vec4 v; } in; }
	nestedVec struct {
		A  float32
		_  [3]float32
		In struct{ V vec.Float4 }
	}

	// Misplaced: Go puts b at 4, std430 at 16.
	scalarThenVec4 struct {
		A float32
		B vec.Float4
	}
	// Misplaced: Go puts b at 4, std430 at 8.
	scalarThenVec2 struct {
		A float32
		B vec.Uint2
	}
	// Misplaced: Go puts b at 16, std430 at 12, in a's fourth slot.
	vec3ThenScalar struct {
		A vec.Float3
		B float32
	}
	// Too short: 20 bytes, but an array of it has a stride of 32.
	vec4ThenScalarUnpadded struct {
		A vec.Float4
		B float32
	}
	// Nested: the inner struct (alignment 16) is at Go offset 4.
	nestedMisplaced struct {
		A  float32
		In struct{ V vec.Float4 }
	}
)

// TestVectorElements: views of vectors and of structs holding them, laid out as std430
// does, are accepted with their Go size as the element size.
func TestVectorElements(t *testing.T) {
	tests := []struct {
		name string
		size int
		make func() (runtime.ArgInfo, error)
	}{
		{"Float2", 8, newOf[vec.Float2]}, {"Int2", 8, newOf[vec.Int2]}, {"Uint2", 8, newOf[vec.Uint2]},
		{"Float3", 16, newOf[vec.Float3]}, {"Int3", 16, newOf[vec.Int3]}, {"Uint3", 16, newOf[vec.Uint3]},
		{"Float4", 16, newOf[vec.Float4]}, {"Int4", 16, newOf[vec.Int4]}, {"Uint4", 16, newOf[vec.Uint4]},
		{"[2]Float3", 32, newOf[[2]vec.Float3]},
		{"vec4ThenScalar", 32, newOf[vec4ThenScalar]},
		{"scalarThenVec3", 32, newOf[scalarThenVec3]},
		{"mixedVectors", 32, newOf[mixedVectors]},
		{"scalarsThenVec2", 16, newOf[scalarsThenVec2]},
		{"vec3Array", 64, newOf[vec3Array]},
		{"nestedVec", 32, newOf[nestedVec]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := tt.make()
			require.NoError(t, err)
			assert.Equal(t, tt.size, info.ElemSize, "element size = std430 array stride")
		})
	}
}

// newOf makes a 3-element view of T and returns its argument description.
func newOf[T any]() (runtime.ArgInfo, error) {
	v, err := New(runtime.Ext(3), make([]T, 3))
	if err != nil {
		return runtime.ArgInfo{}, err
	}
	defer v.Close()
	return v.ArgInfo(), nil
}

// TestVectorMisplaced: a vector field where std430 would not put it, or a struct whose
// size is not its std430 stride, is a *TypeError that says where and what to do.
func TestVectorMisplaced(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		make func() (runtime.ArgInfo, error)
		msg  string
	}{
		{"vec4 at 4", reflect.TypeFor[scalarThenVec4](), newOf[scalarThenVec4],
			"field B (vec.Float4) is at byte 4 but std430 places it at 16; align it to 16 bytes with blank padding fields before it"},
		{"vec2 at 4", reflect.TypeFor[scalarThenVec2](), newOf[scalarThenVec2],
			"field B (vec.Uint2) is at byte 4 but std430 places it at 8; align it to 8 bytes"},
		{"scalar after vec3", reflect.TypeFor[vec3ThenScalar](), newOf[vec3ThenScalar],
			"field B (float32) is at byte 16 but std430 places it at 12, in the fourth slot of the vec.Float3 before it"},
		{"size not a multiple of 16", reflect.TypeFor[vec4ThenScalarUnpadded](), newOf[vec4ThenScalarUnpadded],
			"its size, 20 bytes, is not a multiple of its std430 alignment, 16; pad it to 32 bytes"},
		{"nested struct at 4", reflect.TypeFor[nestedMisplaced](), newOf[nestedMisplaced],
			"field In (struct { V vec.Float4 }) is at byte 4 but std430 places it at 16"},
		{"array of misplaced", reflect.TypeFor[[2]scalarThenVec4](), newOf[[2]scalarThenVec4],
			"field B (vec.Float4) is at byte 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.make()
			var te *TypeError
			require.ErrorAs(t, err, &te)
			assert.ErrorIs(t, err, ErrUnsupportedType)
			assert.Equal(t, tt.typ, te.Type)
			assert.Contains(t, te.Reason, tt.msg)
		})
	}
}
