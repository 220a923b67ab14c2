package vec_test

import (
	"fmt"
	"unsafe"

	"github.com/goamp/goamp/vec"
)

func Example() {
	a, b := vec.F3(1, 2, 2), vec.F3(0, 1, 0)
	c := a.Cross(b)
	fmt.Println(a.Length(), a.Dot(b), c.X, c.Y, c.Z)
	n := a.Normalize()
	fmt.Printf("%.4f %.4f %.4f\n", n.X, n.Y, n.Z)
	s := a.Add(b).Scale(2)
	fmt.Println(s.X, s.Y, s.Z, s == vec.F3(2, 6, 4))
	q := vec.I2(7, -7).Div(vec.I2(2, 2)) // truncated, as in Go and GLSL
	fmt.Println(q.X, q.Y, vec.U4(1, 2, 3, 4).Dot(vec.U4(4, 3, 2, 1)))
	// Output:
	// 3 2 -2 0 1
	// 0.3333 0.6667 0.6667
	// 2 6 4 true
	// 3 -3 20
}

// The 3-vectors are padded to 16 bytes, std430's stride of vec3 arrays, so that a
// View[vec.Float3] matches a GLSL vec3 buffer.
func Example_layout() {
	fmt.Println(unsafe.Sizeof(vec.Float2{}), unsafe.Sizeof(vec.Float3{}), unsafe.Sizeof(vec.Int4{}))
	// Output: 8 16 16
}
