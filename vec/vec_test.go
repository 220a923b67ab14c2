package vec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/vec"
)

// types lists every vector type with its component count.
var types = []struct {
	t reflect.Type
	n int
}{
	{reflect.TypeFor[vec.Float2](), 2}, {reflect.TypeFor[vec.Float3](), 3}, {reflect.TypeFor[vec.Float4](), 4},
	{reflect.TypeFor[vec.Int2](), 2}, {reflect.TypeFor[vec.Int3](), 3}, {reflect.TypeFor[vec.Int4](), 4},
	{reflect.TypeFor[vec.Uint2](), 2}, {reflect.TypeFor[vec.Uint3](), 3}, {reflect.TypeFor[vec.Uint4](), 4},
}

var names = []string{"X", "Y", "Z", "W"}

func TestLayout(t *testing.T) {
	for _, tt := range types {
		t.Run(tt.t.Name(), func(t *testing.T) {
			size := uintptr(16)
			if tt.n == 2 {
				size = 8
			}
			assert.Equal(t, size, tt.t.Size(), "size = std430 array stride")
			assert.Equal(t, tt.n+btoi(tt.n == 3), tt.t.NumField(), "3-vectors carry one padding field")
			for k := range tt.n {
				f := tt.t.Field(k)
				assert.Equal(t, names[k], f.Name)
				assert.Equal(t, uintptr(4*k), f.Offset)
			}
			if tt.n == 3 {
				assert.Equal(t, "_", tt.t.Field(3).Name)
				assert.Equal(t, tt.t.Field(0).Type, tt.t.Field(3).Type, "padding has the component type")
			}
		})
	}
	assert.Equal(t, uintptr(16), unsafe.Sizeof([2]vec.Float3{})/2)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestConstructors(t *testing.T) {
	tests := []struct {
		got, want any
	}{
		{vec.F2(1.5, -2), vec.Float2{X: 1.5, Y: -2}},
		{vec.F3(1.5, -2, 3), vec.Float3{X: 1.5, Y: -2, Z: 3}},
		{vec.F4(1.5, -2, 3, 4.25), vec.Float4{X: 1.5, Y: -2, Z: 3, W: 4.25}},
		{vec.I2(-7, 8), vec.Int2{X: -7, Y: 8}},
		{vec.I3(-7, 8, 9), vec.Int3{X: -7, Y: 8, Z: 9}},
		{vec.I4(-7, 8, 9, -10), vec.Int4{X: -7, Y: 8, Z: 9, W: -10}},
		{vec.U2(7, 8), vec.Uint2{X: 7, Y: 8}},
		{vec.U3(7, 8, 9), vec.Uint3{X: 7, Y: 8, Z: 9}},
		{vec.U4(7, 8, 9, 10), vec.Uint4{X: 7, Y: 8, Z: 9, W: 10}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%T", tt.want), func(t *testing.T) {
			assert.Equal(t, tt.want, tt.got)
		})
	}
}

// randomVec returns a vector of type t with n random nonzero components.
func randomVec(r *rand.Rand, t reflect.Type, n int) reflect.Value {
	v := reflect.New(t).Elem()
	for k := range n {
		f := v.Field(k)
		switch f.Kind() {
		case reflect.Float32:
			f.SetFloat(float64(float32((r.Float64()*2 - 1) * 100)))
		case reflect.Int32:
			f.SetInt(int64(r.Int32N(2000) - 1000 | 1)) // odd: never zero
		case reflect.Uint32:
			f.SetUint(uint64(r.Uint32N(2000) | 1))
		}
	}
	return v
}

// scalarOps are the component-wise methods and what they do to one component, for each
// component kind. Min and Max on floats are fmath's.
var scalarOps = map[string]map[reflect.Kind]func(a, b reflect.Value) any{
	"Add": {
		reflect.Float32: func(a, b reflect.Value) any { return float32(a.Float()) + float32(b.Float()) },
		reflect.Int32:   func(a, b reflect.Value) any { return int32(a.Int()) + int32(b.Int()) },
		reflect.Uint32:  func(a, b reflect.Value) any { return uint32(a.Uint()) + uint32(b.Uint()) },
	},
	"Sub": {
		reflect.Float32: func(a, b reflect.Value) any { return float32(a.Float()) - float32(b.Float()) },
		reflect.Int32:   func(a, b reflect.Value) any { return int32(a.Int()) - int32(b.Int()) },
		reflect.Uint32:  func(a, b reflect.Value) any { return uint32(a.Uint()) - uint32(b.Uint()) },
	},
	"Mul": {
		reflect.Float32: func(a, b reflect.Value) any { return float32(a.Float()) * float32(b.Float()) },
		reflect.Int32:   func(a, b reflect.Value) any { return int32(a.Int()) * int32(b.Int()) },
		reflect.Uint32:  func(a, b reflect.Value) any { return uint32(a.Uint()) * uint32(b.Uint()) },
	},
	"Div": {
		reflect.Float32: func(a, b reflect.Value) any { return float32(a.Float()) / float32(b.Float()) },
		reflect.Int32:   func(a, b reflect.Value) any { return int32(a.Int()) / int32(b.Int()) },
		reflect.Uint32:  func(a, b reflect.Value) any { return uint32(a.Uint()) / uint32(b.Uint()) },
	},
	"Min": {
		reflect.Float32: func(a, b reflect.Value) any { return fmath.Min(float32(a.Float()), float32(b.Float())) },
		reflect.Int32:   func(a, b reflect.Value) any { return min(int32(a.Int()), int32(b.Int())) },
		reflect.Uint32:  func(a, b reflect.Value) any { return min(uint32(a.Uint()), uint32(b.Uint())) },
	},
	"Max": {
		reflect.Float32: func(a, b reflect.Value) any { return fmath.Max(float32(a.Float()), float32(b.Float())) },
		reflect.Int32:   func(a, b reflect.Value) any { return max(int32(a.Int()), int32(b.Int())) },
		reflect.Uint32:  func(a, b reflect.Value) any { return max(uint32(a.Uint()), uint32(b.Uint())) },
	},
	// Scale's b is the scalar, Neg's b is unused.
	"Scale": {
		reflect.Float32: func(a, b reflect.Value) any { return float32(a.Float()) * float32(b.Float()) },
		reflect.Int32:   func(a, b reflect.Value) any { return int32(a.Int()) * int32(b.Int()) },
		reflect.Uint32:  func(a, b reflect.Value) any { return uint32(a.Uint()) * uint32(b.Uint()) },
	},
	"Neg": {
		reflect.Float32: func(a, _ reflect.Value) any { return -float32(a.Float()) },
		reflect.Int32:   func(a, _ reflect.Value) any { return -int32(a.Int()) },
	},
}

// TestComponentWise calls every component-wise method of every type, through reflection,
// on random vectors and checks each component against the scalar operation.
func TestComponentWise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range types {
		kind := tt.t.Field(0).Type.Kind()
		for name, ops := range scalarOps {
			op, ok := ops[kind]
			m, has := tt.t.MethodByName(name)
			require.Equal(t, ok, has, "%s.%s", tt.t.Name(), name)
			if !has {
				continue
			}
			t.Run(tt.t.Name()+"."+name, func(t *testing.T) {
				for range 100 {
					a, b := randomVec(r, tt.t, tt.n), randomVec(r, tt.t, tt.n)
					args := []reflect.Value{a}
					switch name {
					case "Scale":
						args = append(args, b.Field(1))
					case "Neg":
					default:
						args = append(args, b)
					}
					got := m.Func.Call(args)[0]
					for k := range tt.n {
						bk := b.Field(k)
						if name == "Scale" {
							bk = b.Field(1)
						}
						require.Equal(t, op(a.Field(k), bk), got.Field(k).Interface(),
							"%s.%s(%v, %v) component %s", tt.t.Name(), name, a, b, names[k])
					}
				}
			})
		}
	}
}

// TestIntDot checks Dot of the integer types, which wraps around.
func TestIntDot(t *testing.T) {
	tests := []struct {
		name      string
		got, want any
	}{
		{"Int2", vec.I2(3, -4).Dot(vec.I2(5, 6)), int32(15 - 24)},
		{"Int3", vec.I3(3, -4, 7).Dot(vec.I3(5, 6, -2)), int32(15 - 24 - 14)},
		{"Int4", vec.I4(3, -4, 7, 9).Dot(vec.I4(5, 6, -2, 11)), int32(15 - 24 - 14 + 99)},
		{"Int2 wraps", vec.I2(math.MaxInt32, 1).Dot(vec.I2(2, 3)), int32(1)}, // 2^32 + 1
		{"Uint2", vec.U2(3, 4).Dot(vec.U2(5, 6)), uint32(39)},
		{"Uint3", vec.U3(3, 4, 7).Dot(vec.U3(5, 6, 2)), uint32(53)},
		{"Uint4", vec.U4(3, 4, 7, 9).Dot(vec.U4(5, 6, 2, 11)), uint32(152)},
		{"Uint2 wraps", vec.U2(math.MaxUint32, 1).Dot(vec.U2(2, 3)), uint32(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, tt.got) })
	}
}

// floats has the float types' geometric methods as functions of component slices.
var floats = []struct {
	name      string
	n         int
	dot       func(a, b []float32) float32
	length    func(a []float32) float32
	normalize func(a []float32) []float32
}{
	{"Float2", 2,
		func(a, b []float32) float32 { return vec.F2(a[0], a[1]).Dot(vec.F2(b[0], b[1])) },
		func(a []float32) float32 { return vec.F2(a[0], a[1]).Length() },
		func(a []float32) []float32 { v := vec.F2(a[0], a[1]).Normalize(); return []float32{v.X, v.Y} }},
	{"Float3", 3,
		func(a, b []float32) float32 { return vec.F3(a[0], a[1], a[2]).Dot(vec.F3(b[0], b[1], b[2])) },
		func(a []float32) float32 { return vec.F3(a[0], a[1], a[2]).Length() },
		func(a []float32) []float32 {
			v := vec.F3(a[0], a[1], a[2]).Normalize()
			return []float32{v.X, v.Y, v.Z}
		}},
	{"Float4", 4,
		func(a, b []float32) float32 {
			return vec.F4(a[0], a[1], a[2], a[3]).Dot(vec.F4(b[0], b[1], b[2], b[3]))
		},
		func(a []float32) float32 { return vec.F4(a[0], a[1], a[2], a[3]).Length() },
		func(a []float32) []float32 {
			v := vec.F4(a[0], a[1], a[2], a[3]).Normalize()
			return []float32{v.X, v.Y, v.Z, v.W}
		}},
}

// TestFloatGeometry checks Dot, Length and Normalize against float64 on random vectors:
// Dot and Length are the float64 result rounded once, Normalize is within 1 ULP.
func TestFloatGeometry(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tt := range floats {
		t.Run(tt.name, func(t *testing.T) {
			for range 1000 {
				a, b := make([]float32, tt.n), make([]float32, tt.n)
				var dot, sq float64
				for k := range tt.n {
					a[k] = float32(r.NormFloat64() * 10)
					b[k] = float32(r.NormFloat64() * 10)
					dot += float64(a[k]) * float64(b[k])
					sq += float64(a[k]) * float64(a[k])
				}
				require.Equal(t, float32(dot), tt.dot(a, b))
				require.Equal(t, float32(math.Sqrt(sq)), tt.length(a))
				n := tt.normalize(a)
				for k := range tt.n {
					require.InEpsilon(t, float64(a[k])/math.Sqrt(sq), float64(n[k]), 0x1p-23, "component %d of %v", k, a)
				}
				require.InDelta(t, 1, tt.length(n), 1e-6)
			}
		})
	}
}

func TestFloatGeometryEdges(t *testing.T) {
	assert.Equal(t, float32(5), vec.F2(3, -4).Length())
	assert.Equal(t, float32(3), vec.F3(1, 2, -2).Length())
	assert.Equal(t, float32(2e30), vec.F4(1e30, 1e30, 1e30, 1e30).Length(), "no overflow in float32 squares")
	assert.Equal(t, float32(5e-30), vec.F2(3e-30, 4e-30).Length(), "no underflow")
	assert.Equal(t, vec.F3(0, 0.6, -0.8), vec.F3(0, 3, -4).Normalize())
	z := vec.F3(0, 0, 0).Normalize()
	assert.True(t, math.IsNaN(float64(z.X)), "the zero vector normalizes to NaN")
}

func TestCross(t *testing.T) {
	x, y, z := vec.F3(1, 0, 0), vec.F3(0, 1, 0), vec.F3(0, 0, 1)
	assert.Equal(t, z, x.Cross(y))
	assert.Equal(t, x, y.Cross(z))
	assert.Equal(t, z.Neg(), y.Cross(x))
	r := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		a := vec.F3(float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64()))
		b := vec.F3(float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64()))
		c := a.Cross(b)
		want := vec.F3(
			float32(float64(a.Y)*float64(b.Z)-float64(a.Z)*float64(b.Y)),
			float32(float64(a.Z)*float64(b.X)-float64(a.X)*float64(b.Z)),
			float32(float64(a.X)*float64(b.Y)-float64(a.Y)*float64(b.X)))
		require.Equal(t, want, c)
		require.InDelta(t, 0, c.Dot(a), 1e-5, "a x b is orthogonal to a")
		require.InDelta(t, 0, c.Dot(b), 1e-5, "a x b is orthogonal to b")
	}
}

func TestEqualityIgnoresPadding(t *testing.T) {
	a := vec.F3(1, 2, 3)
	b := a.Add(vec.F3(0, 0, 0))
	assert.True(t, a == b)
	assert.False(t, a == vec.F3(1, 2, 4))
}

func TestIntDivTruncates(t *testing.T) {
	assert.Equal(t, vec.I2(-3, 3), vec.I2(-7, 7).Div(vec.I2(2, 2)))
	assert.Panics(t, func() { _ = vec.I2(1, 1).Div(vec.I2(1, 0)) }, "Go panics where GLSL is undefined")
}
