// Package vec gives kernels GLSL's short vectors: Float2, Float3 and Float4 (vec2, vec3,
// vec4), Int2, Int3 and Int4 (ivec2..4) and Uint2, Uint3 and Uint4 (uvec2..4). They are
// plain structs with exported components X, Y, Z and W, made with F2..F4, I2..I4 and
// U2..U4, so a CPU kernel uses them as any Go value; the translator (package translate)
// maps the types to GLSL's vector types, the constructors to vec3(x, y, z) and so on, and
// the methods to GLSL's operators and built-ins:
//
//	Go                    GLSL
//	vec.F3(x, y, z)       vec3(x, y, z)
//	a.X, a.Y, a.Z, a.W    a.x, a.y, a.z, a.w
//	a.Add(b), a.Sub(b)    a + b, a - b
//	a.Mul(b), a.Div(b)    a * b, a / b       (component by component)
//	a.Scale(s)            a * s
//	a.Neg()               -a                 (Float and Int types)
//	a.Min(b), a.Max(b)    min(a, b), max(a, b)
//	a.Dot(b)              dot(a, b)          (Int and Uint types: the sum of the products)
//	a.Length()            length(a)          (Float types)
//	a.Normalize()         normalize(a)       (Float types)
//	a.Cross(b)            cross(a, b)        (Float3)
//
// Methods take value receivers and return new values; == compares the components. The
// nine types share one template (internal/vecgen), from which go generate writes
// vec_gen.go.
//
// # Layout in views
//
// std430, the layout of storage buffers, aligns vec2 to 8 bytes and vec3 and vec4 to 16,
// and gives an array of vec3 a stride of 16. Float3, Int3 and Uint3 therefore carry a
// blank fourth component, so every type here has its std430 array stride as its Go size
// (8 for the 2-vectors, 16 for the others) and View[vec.Float3] binds to a GLSL vec3
// buffer as it is. Inside a struct element, arrayview checks that each vector field sits
// at a Go offset that is a multiple of its std430 alignment, and that the struct's size is
// a multiple of its largest alignment; where it is not, New returns an
// *arrayview.TypeError, and blank padding fields (_ [2]float32, say) put it right.
//
// # Accuracy
//
// Integer arithmetic wraps around on both backends. Float components follow the fmath
// package: on the CPU, Dot, Length, Normalize and Cross are computed in float64 and
// rounded once; on the GPU, the Vulkan specification lets dot inherit its error from
// the sum of the products, length from sqrt(dot(x, x)), normalize from
// x * inversesqrt(dot(x, x)) and cross from its products and differences.
package vec

//go:generate go run ../internal/vecgen/gen vec_gen.go
