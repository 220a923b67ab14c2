package vec

import (
	"math"

	"github.com/goamp/goamp/fmath"
)

// Float2 is GLSL's vec2: 2 float32 components. Its size is 8 bytes, std430's array stride
// for vec2; a struct field of this type must sit at a multiple of 8 bytes.
type Float2 struct {
	// X is component 0 (vec2.x).
	X float32
	// Y is component 1 (vec2.y).
	Y float32
}

// F2 returns the Float2 (x, y), GLSL's vec2(x, y).
func F2(x, y float32) Float2 { return Float2{X: x, Y: y} }

// Add returns a + b, component by component (GLSL a + b).
func (a Float2) Add(b Float2) Float2 {
	return Float2{X: a.X + b.X, Y: a.Y + b.Y}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Float2) Sub(b Float2) Float2 {
	return Float2{X: a.X - b.X, Y: a.Y - b.Y}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Float2) Mul(b Float2) Float2 {
	return Float2{X: a.X * b.X, Y: a.Y * b.Y}
}

// Div returns a / b, component by component (GLSL a / b).
func (a Float2) Div(b Float2) Float2 {
	return Float2{X: a.X / b.X, Y: a.Y / b.Y}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Float2) Scale(s float32) Float2 {
	return Float2{X: a.X * s, Y: a.Y * s}
}

// Neg returns -a (GLSL -a).
func (a Float2) Neg() Float2 {
	return Float2{X: -a.X, Y: -a.Y}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)), with
// fmath.Min's rule for NaN.
func (a Float2) Min(b Float2) Float2 {
	return Float2{X: fmath.Min(a.X, b.X), Y: fmath.Min(a.Y, b.Y)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)), with
// fmath.Max's rule for NaN.
func (a Float2) Max(b Float2) Float2 {
	return Float2{X: fmath.Max(a.X, b.X), Y: fmath.Max(a.Y, b.Y)}
}

// Dot returns the dot product of a and b (GLSL dot(a, b)). On the CPU the products are
// exact and summed in float64, and the sum is rounded once.
func (a Float2) Dot(b Float2) float32 {
	return float32(float64(a.X)*float64(b.X) + float64(a.Y)*float64(b.Y))
}

// Length returns the Euclidean length of a (GLSL length(a)). On the CPU it is computed in
// float64 and rounded once, so it does not overflow or underflow for any finite a.
func (a Float2) Length() float32 { return float32(math.Sqrt(a.sumSquares())) }

// Normalize returns a scaled to length 1 (GLSL normalize(a)). The zero vector gives NaN
// components on the CPU; GLSL leaves its result undefined.
func (a Float2) Normalize() Float2 {
	r := 1 / math.Sqrt(a.sumSquares())
	return Float2{X: float32(float64(a.X) * r), Y: float32(float64(a.Y) * r)}
}

// sumSquares is a.Dot(a) in float64.
func (a Float2) sumSquares() float64 {
	return float64(a.X)*float64(a.X) + float64(a.Y)*float64(a.Y)
}

// Float3 is GLSL's vec3: 3 float32 components. Its size is 16 bytes: a blank fourth
// component pads it to std430's array stride and alignment for vec3, so a View[Float3]
// matches a GLSL vec3 buffer, and a struct field of this type must sit at a multiple of 16
// bytes.
type Float3 struct {
	// X is component 0 (vec3.x).
	X float32
	// Y is component 1 (vec3.y).
	Y float32
	// Z is component 2 (vec3.z).
	Z float32
	_ float32
}

// F3 returns the Float3 (x, y, z), GLSL's vec3(x, y, z).
func F3(x, y, z float32) Float3 { return Float3{X: x, Y: y, Z: z} }

// Add returns a + b, component by component (GLSL a + b).
func (a Float3) Add(b Float3) Float3 {
	return Float3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Float3) Sub(b Float3) Float3 {
	return Float3{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Float3) Mul(b Float3) Float3 {
	return Float3{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z}
}

// Div returns a / b, component by component (GLSL a / b).
func (a Float3) Div(b Float3) Float3 {
	return Float3{X: a.X / b.X, Y: a.Y / b.Y, Z: a.Z / b.Z}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Float3) Scale(s float32) Float3 {
	return Float3{X: a.X * s, Y: a.Y * s, Z: a.Z * s}
}

// Neg returns -a (GLSL -a).
func (a Float3) Neg() Float3 {
	return Float3{X: -a.X, Y: -a.Y, Z: -a.Z}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)), with
// fmath.Min's rule for NaN.
func (a Float3) Min(b Float3) Float3 {
	return Float3{X: fmath.Min(a.X, b.X), Y: fmath.Min(a.Y, b.Y), Z: fmath.Min(a.Z, b.Z)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)), with
// fmath.Max's rule for NaN.
func (a Float3) Max(b Float3) Float3 {
	return Float3{X: fmath.Max(a.X, b.X), Y: fmath.Max(a.Y, b.Y), Z: fmath.Max(a.Z, b.Z)}
}

// Dot returns the dot product of a and b (GLSL dot(a, b)). On the CPU the products are
// exact and summed in float64, and the sum is rounded once.
func (a Float3) Dot(b Float3) float32 {
	return float32(float64(a.X)*float64(b.X) + float64(a.Y)*float64(b.Y) + float64(a.Z)*float64(b.Z))
}

// Length returns the Euclidean length of a (GLSL length(a)). On the CPU it is computed in
// float64 and rounded once, so it does not overflow or underflow for any finite a.
func (a Float3) Length() float32 { return float32(math.Sqrt(a.sumSquares())) }

// Normalize returns a scaled to length 1 (GLSL normalize(a)). The zero vector gives NaN
// components on the CPU; GLSL leaves its result undefined.
func (a Float3) Normalize() Float3 {
	r := 1 / math.Sqrt(a.sumSquares())
	return Float3{X: float32(float64(a.X) * r), Y: float32(float64(a.Y) * r), Z: float32(float64(a.Z) * r)}
}

// sumSquares is a.Dot(a) in float64.
func (a Float3) sumSquares() float64 {
	return float64(a.X)*float64(a.X) + float64(a.Y)*float64(a.Y) + float64(a.Z)*float64(a.Z)
}

// Cross returns the cross product a x b (GLSL cross(a, b)). On the CPU each component is
// computed in float64 (the products are exact) and rounded once.
func (a Float3) Cross(b Float3) Float3 {
	ax, ay, az := float64(a.X), float64(a.Y), float64(a.Z)
	bx, by, bz := float64(b.X), float64(b.Y), float64(b.Z)
	return Float3{X: float32(ay*bz - az*by), Y: float32(az*bx - ax*bz), Z: float32(ax*by - ay*bx)}
}

// Float4 is GLSL's vec4: 4 float32 components. Its size is 16 bytes, std430's array stride
// for vec4; a struct field of this type must sit at a multiple of 16 bytes.
type Float4 struct {
	// X is component 0 (vec4.x).
	X float32
	// Y is component 1 (vec4.y).
	Y float32
	// Z is component 2 (vec4.z).
	Z float32
	// W is component 3 (vec4.w).
	W float32
}

// F4 returns the Float4 (x, y, z, w), GLSL's vec4(x, y, z, w).
func F4(x, y, z, w float32) Float4 { return Float4{X: x, Y: y, Z: z, W: w} }

// Add returns a + b, component by component (GLSL a + b).
func (a Float4) Add(b Float4) Float4 {
	return Float4{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z, W: a.W + b.W}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Float4) Sub(b Float4) Float4 {
	return Float4{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z, W: a.W - b.W}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Float4) Mul(b Float4) Float4 {
	return Float4{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z, W: a.W * b.W}
}

// Div returns a / b, component by component (GLSL a / b).
func (a Float4) Div(b Float4) Float4 {
	return Float4{X: a.X / b.X, Y: a.Y / b.Y, Z: a.Z / b.Z, W: a.W / b.W}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Float4) Scale(s float32) Float4 {
	return Float4{X: a.X * s, Y: a.Y * s, Z: a.Z * s, W: a.W * s}
}

// Neg returns -a (GLSL -a).
func (a Float4) Neg() Float4 {
	return Float4{X: -a.X, Y: -a.Y, Z: -a.Z, W: -a.W}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)), with
// fmath.Min's rule for NaN.
func (a Float4) Min(b Float4) Float4 {
	return Float4{X: fmath.Min(a.X, b.X), Y: fmath.Min(a.Y, b.Y), Z: fmath.Min(a.Z, b.Z), W: fmath.Min(a.W, b.W)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)), with
// fmath.Max's rule for NaN.
func (a Float4) Max(b Float4) Float4 {
	return Float4{X: fmath.Max(a.X, b.X), Y: fmath.Max(a.Y, b.Y), Z: fmath.Max(a.Z, b.Z), W: fmath.Max(a.W, b.W)}
}

// Dot returns the dot product of a and b (GLSL dot(a, b)). On the CPU the products are
// exact and summed in float64, and the sum is rounded once.
func (a Float4) Dot(b Float4) float32 {
	return float32(float64(a.X)*float64(b.X) + float64(a.Y)*float64(b.Y) + float64(a.Z)*float64(b.Z) + float64(a.W)*float64(b.W))
}

// Length returns the Euclidean length of a (GLSL length(a)). On the CPU it is computed in
// float64 and rounded once, so it does not overflow or underflow for any finite a.
func (a Float4) Length() float32 { return float32(math.Sqrt(a.sumSquares())) }

// Normalize returns a scaled to length 1 (GLSL normalize(a)). The zero vector gives NaN
// components on the CPU; GLSL leaves its result undefined.
func (a Float4) Normalize() Float4 {
	r := 1 / math.Sqrt(a.sumSquares())
	return Float4{X: float32(float64(a.X) * r), Y: float32(float64(a.Y) * r), Z: float32(float64(a.Z) * r), W: float32(float64(a.W) * r)}
}

// sumSquares is a.Dot(a) in float64.
func (a Float4) sumSquares() float64 {
	return float64(a.X)*float64(a.X) + float64(a.Y)*float64(a.Y) + float64(a.Z)*float64(a.Z) + float64(a.W)*float64(a.W)
}

// Int2 is GLSL's ivec2: 2 int32 components. Its size is 8 bytes, std430's array stride for
// ivec2; a struct field of this type must sit at a multiple of 8 bytes.
type Int2 struct {
	// X is component 0 (ivec2.x).
	X int32
	// Y is component 1 (ivec2.y).
	Y int32
}

// I2 returns the Int2 (x, y), GLSL's ivec2(x, y).
func I2(x, y int32) Int2 { return Int2{X: x, Y: y} }

// Add returns a + b, component by component (GLSL a + b).
func (a Int2) Add(b Int2) Int2 {
	return Int2{X: a.X + b.X, Y: a.Y + b.Y}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Int2) Sub(b Int2) Int2 {
	return Int2{X: a.X - b.X, Y: a.Y - b.Y}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Int2) Mul(b Int2) Int2 {
	return Int2{X: a.X * b.X, Y: a.Y * b.Y}
}

// Div returns a / b, component by component, truncated toward zero (GLSL a / b; a zero
// divisor panics in Go and is undefined in GLSL).
func (a Int2) Div(b Int2) Int2 {
	return Int2{X: a.X / b.X, Y: a.Y / b.Y}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Int2) Scale(s int32) Int2 {
	return Int2{X: a.X * s, Y: a.Y * s}
}

// Neg returns -a (GLSL -a).
func (a Int2) Neg() Int2 {
	return Int2{X: -a.X, Y: -a.Y}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)).
func (a Int2) Min(b Int2) Int2 {
	return Int2{X: min(a.X, b.X), Y: min(a.Y, b.Y)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)).
func (a Int2) Max(b Int2) Int2 {
	return Int2{X: max(a.X, b.X), Y: max(a.Y, b.Y)}
}

// Dot returns the dot product of a and b, in int32 arithmetic that wraps around. GLSL's dot
// takes float vectors only, so on the GPU it is the sum of the products.
func (a Int2) Dot(b Int2) int32 {
	return a.X*b.X + a.Y*b.Y
}

// Int3 is GLSL's ivec3: 3 int32 components. Its size is 16 bytes: a blank fourth component
// pads it to std430's array stride and alignment for ivec3, so a View[Int3] matches a GLSL
// ivec3 buffer, and a struct field of this type must sit at a multiple of 16 bytes.
type Int3 struct {
	// X is component 0 (ivec3.x).
	X int32
	// Y is component 1 (ivec3.y).
	Y int32
	// Z is component 2 (ivec3.z).
	Z int32
	_ int32
}

// I3 returns the Int3 (x, y, z), GLSL's ivec3(x, y, z).
func I3(x, y, z int32) Int3 { return Int3{X: x, Y: y, Z: z} }

// Add returns a + b, component by component (GLSL a + b).
func (a Int3) Add(b Int3) Int3 {
	return Int3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Int3) Sub(b Int3) Int3 {
	return Int3{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Int3) Mul(b Int3) Int3 {
	return Int3{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z}
}

// Div returns a / b, component by component, truncated toward zero (GLSL a / b; a zero
// divisor panics in Go and is undefined in GLSL).
func (a Int3) Div(b Int3) Int3 {
	return Int3{X: a.X / b.X, Y: a.Y / b.Y, Z: a.Z / b.Z}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Int3) Scale(s int32) Int3 {
	return Int3{X: a.X * s, Y: a.Y * s, Z: a.Z * s}
}

// Neg returns -a (GLSL -a).
func (a Int3) Neg() Int3 {
	return Int3{X: -a.X, Y: -a.Y, Z: -a.Z}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)).
func (a Int3) Min(b Int3) Int3 {
	return Int3{X: min(a.X, b.X), Y: min(a.Y, b.Y), Z: min(a.Z, b.Z)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)).
func (a Int3) Max(b Int3) Int3 {
	return Int3{X: max(a.X, b.X), Y: max(a.Y, b.Y), Z: max(a.Z, b.Z)}
}

// Dot returns the dot product of a and b, in int32 arithmetic that wraps around. GLSL's dot
// takes float vectors only, so on the GPU it is the sum of the products.
func (a Int3) Dot(b Int3) int32 {
	return a.X*b.X + a.Y*b.Y + a.Z*b.Z
}

// Int4 is GLSL's ivec4: 4 int32 components. Its size is 16 bytes, std430's array stride for
// ivec4; a struct field of this type must sit at a multiple of 16 bytes.
type Int4 struct {
	// X is component 0 (ivec4.x).
	X int32
	// Y is component 1 (ivec4.y).
	Y int32
	// Z is component 2 (ivec4.z).
	Z int32
	// W is component 3 (ivec4.w).
	W int32
}

// I4 returns the Int4 (x, y, z, w), GLSL's ivec4(x, y, z, w).
func I4(x, y, z, w int32) Int4 { return Int4{X: x, Y: y, Z: z, W: w} }

// Add returns a + b, component by component (GLSL a + b).
func (a Int4) Add(b Int4) Int4 {
	return Int4{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z, W: a.W + b.W}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Int4) Sub(b Int4) Int4 {
	return Int4{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z, W: a.W - b.W}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Int4) Mul(b Int4) Int4 {
	return Int4{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z, W: a.W * b.W}
}

// Div returns a / b, component by component, truncated toward zero (GLSL a / b; a zero
// divisor panics in Go and is undefined in GLSL).
func (a Int4) Div(b Int4) Int4 {
	return Int4{X: a.X / b.X, Y: a.Y / b.Y, Z: a.Z / b.Z, W: a.W / b.W}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Int4) Scale(s int32) Int4 {
	return Int4{X: a.X * s, Y: a.Y * s, Z: a.Z * s, W: a.W * s}
}

// Neg returns -a (GLSL -a).
func (a Int4) Neg() Int4 {
	return Int4{X: -a.X, Y: -a.Y, Z: -a.Z, W: -a.W}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)).
func (a Int4) Min(b Int4) Int4 {
	return Int4{X: min(a.X, b.X), Y: min(a.Y, b.Y), Z: min(a.Z, b.Z), W: min(a.W, b.W)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)).
func (a Int4) Max(b Int4) Int4 {
	return Int4{X: max(a.X, b.X), Y: max(a.Y, b.Y), Z: max(a.Z, b.Z), W: max(a.W, b.W)}
}

// Dot returns the dot product of a and b, in int32 arithmetic that wraps around. GLSL's dot
// takes float vectors only, so on the GPU it is the sum of the products.
func (a Int4) Dot(b Int4) int32 {
	return a.X*b.X + a.Y*b.Y + a.Z*b.Z + a.W*b.W
}

// Uint2 is GLSL's uvec2: 2 uint32 components. Its size is 8 bytes, std430's array stride
// for uvec2; a struct field of this type must sit at a multiple of 8 bytes.
type Uint2 struct {
	// X is component 0 (uvec2.x).
	X uint32
	// Y is component 1 (uvec2.y).
	Y uint32
}

// U2 returns the Uint2 (x, y), GLSL's uvec2(x, y).
func U2(x, y uint32) Uint2 { return Uint2{X: x, Y: y} }

// Add returns a + b, component by component (GLSL a + b).
func (a Uint2) Add(b Uint2) Uint2 {
	return Uint2{X: a.X + b.X, Y: a.Y + b.Y}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Uint2) Sub(b Uint2) Uint2 {
	return Uint2{X: a.X - b.X, Y: a.Y - b.Y}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Uint2) Mul(b Uint2) Uint2 {
	return Uint2{X: a.X * b.X, Y: a.Y * b.Y}
}

// Div returns a / b, component by component (GLSL a / b; a zero divisor panics in Go
// and is undefined in GLSL).
func (a Uint2) Div(b Uint2) Uint2 {
	return Uint2{X: a.X / b.X, Y: a.Y / b.Y}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Uint2) Scale(s uint32) Uint2 {
	return Uint2{X: a.X * s, Y: a.Y * s}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)).
func (a Uint2) Min(b Uint2) Uint2 {
	return Uint2{X: min(a.X, b.X), Y: min(a.Y, b.Y)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)).
func (a Uint2) Max(b Uint2) Uint2 {
	return Uint2{X: max(a.X, b.X), Y: max(a.Y, b.Y)}
}

// Dot returns the dot product of a and b, in uint32 arithmetic that wraps around. GLSL's dot
// takes float vectors only, so on the GPU it is the sum of the products.
func (a Uint2) Dot(b Uint2) uint32 {
	return a.X*b.X + a.Y*b.Y
}

// Uint3 is GLSL's uvec3: 3 uint32 components. Its size is 16 bytes: a blank fourth
// component pads it to std430's array stride and alignment for uvec3, so a View[Uint3]
// matches a GLSL uvec3 buffer, and a struct field of this type must sit at a multiple of 16
// bytes.
type Uint3 struct {
	// X is component 0 (uvec3.x).
	X uint32
	// Y is component 1 (uvec3.y).
	Y uint32
	// Z is component 2 (uvec3.z).
	Z uint32
	_ uint32
}

// U3 returns the Uint3 (x, y, z), GLSL's uvec3(x, y, z).
func U3(x, y, z uint32) Uint3 { return Uint3{X: x, Y: y, Z: z} }

// Add returns a + b, component by component (GLSL a + b).
func (a Uint3) Add(b Uint3) Uint3 {
	return Uint3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Uint3) Sub(b Uint3) Uint3 {
	return Uint3{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Uint3) Mul(b Uint3) Uint3 {
	return Uint3{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z}
}

// Div returns a / b, component by component (GLSL a / b; a zero divisor panics in Go
// and is undefined in GLSL).
func (a Uint3) Div(b Uint3) Uint3 {
	return Uint3{X: a.X / b.X, Y: a.Y / b.Y, Z: a.Z / b.Z}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Uint3) Scale(s uint32) Uint3 {
	return Uint3{X: a.X * s, Y: a.Y * s, Z: a.Z * s}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)).
func (a Uint3) Min(b Uint3) Uint3 {
	return Uint3{X: min(a.X, b.X), Y: min(a.Y, b.Y), Z: min(a.Z, b.Z)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)).
func (a Uint3) Max(b Uint3) Uint3 {
	return Uint3{X: max(a.X, b.X), Y: max(a.Y, b.Y), Z: max(a.Z, b.Z)}
}

// Dot returns the dot product of a and b, in uint32 arithmetic that wraps around. GLSL's dot
// takes float vectors only, so on the GPU it is the sum of the products.
func (a Uint3) Dot(b Uint3) uint32 {
	return a.X*b.X + a.Y*b.Y + a.Z*b.Z
}

// Uint4 is GLSL's uvec4: 4 uint32 components. Its size is 16 bytes, std430's array stride
// for uvec4; a struct field of this type must sit at a multiple of 16 bytes.
type Uint4 struct {
	// X is component 0 (uvec4.x).
	X uint32
	// Y is component 1 (uvec4.y).
	Y uint32
	// Z is component 2 (uvec4.z).
	Z uint32
	// W is component 3 (uvec4.w).
	W uint32
}

// U4 returns the Uint4 (x, y, z, w), GLSL's uvec4(x, y, z, w).
func U4(x, y, z, w uint32) Uint4 { return Uint4{X: x, Y: y, Z: z, W: w} }

// Add returns a + b, component by component (GLSL a + b).
func (a Uint4) Add(b Uint4) Uint4 {
	return Uint4{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z, W: a.W + b.W}
}

// Sub returns a - b, component by component (GLSL a - b).
func (a Uint4) Sub(b Uint4) Uint4 {
	return Uint4{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z, W: a.W - b.W}
}

// Mul returns a * b, component by component (GLSL a * b).
func (a Uint4) Mul(b Uint4) Uint4 {
	return Uint4{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z, W: a.W * b.W}
}

// Div returns a / b, component by component (GLSL a / b; a zero divisor panics in Go
// and is undefined in GLSL).
func (a Uint4) Div(b Uint4) Uint4 {
	return Uint4{X: a.X / b.X, Y: a.Y / b.Y, Z: a.Z / b.Z, W: a.W / b.W}
}

// Scale returns a * s, every component times s (GLSL a * s).
func (a Uint4) Scale(s uint32) Uint4 {
	return Uint4{X: a.X * s, Y: a.Y * s, Z: a.Z * s, W: a.W * s}
}

// Min returns the smaller of a and b in each component (GLSL min(a, b)).
func (a Uint4) Min(b Uint4) Uint4 {
	return Uint4{X: min(a.X, b.X), Y: min(a.Y, b.Y), Z: min(a.Z, b.Z), W: min(a.W, b.W)}
}

// Max returns the larger of a and b in each component (GLSL max(a, b)).
func (a Uint4) Max(b Uint4) Uint4 {
	return Uint4{X: max(a.X, b.X), Y: max(a.Y, b.Y), Z: max(a.Z, b.Z), W: max(a.W, b.W)}
}

// Dot returns the dot product of a and b, in uint32 arithmetic that wraps around. GLSL's dot
// takes float vectors only, so on the GPU it is the sum of the products.
func (a Uint4) Dot(b Uint4) uint32 {
	return a.X*b.X + a.Y*b.Y + a.Z*b.Z + a.W*b.W
}
