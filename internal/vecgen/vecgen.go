package vecgen

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
	"text/template"
)

// Vector is one of the generated types.
type Vector struct {
	// Name is the Go type, e.g. "Float3".
	Name string
	// Ctor is its constructor, e.g. "F3".
	Ctor string
	// Elem is the component type, e.g. "float32".
	Elem string
	// GLSL is the GLSL type, e.g. "vec3".
	GLSL string
	// N is the number of components, 2 to 4.
	N int
}

// Float reports whether the components are float32.
func (v Vector) Float() bool { return v.Elem == "float32" }

// Signed reports whether the type has Neg: float32 and int32 components.
func (v Vector) Signed() bool { return v.Elem != "uint32" }

// Comps are the component names, X to W.
func (v Vector) Comps() []string { return []string{"X", "Y", "Z", "W"}[:v.N] }

// Size is the type's size in bytes: its std430 array stride.
func (v Vector) Size() int { return map[int]int{2: 8, 3: 16, 4: 16}[v.N] }

// Op is a method that computes each component of its result alone.
type Op struct {
	// Name is the method's name.
	Name string
	// Doc is its doc comment, unwrapped.
	Doc string
	// Param is its parameter list.
	Param string
	// Expr is a component of the result, # standing for the component's name.
	Expr string
}

// Ops are the type's component-wise methods.
func (v Vector) Ops() []Op {
	t := v.Name
	div := "Div returns a / b, component by component (GLSL a / b)."
	switch {
	case v.Elem == "int32":
		div = "Div returns a / b, component by component, truncated toward zero (GLSL a / b; a zero divisor panics in Go and is undefined in GLSL)."
	case v.Elem == "uint32":
		div = "Div returns a / b, component by component (GLSL a / b; a zero divisor panics in Go and is undefined in GLSL)."
	}
	ops := []Op{
		{"Add", "Add returns a + b, component by component (GLSL a + b).", "b " + t, "a.# + b.#"},
		{"Sub", "Sub returns a - b, component by component (GLSL a - b).", "b " + t, "a.# - b.#"},
		{"Mul", "Mul returns a * b, component by component (GLSL a * b).", "b " + t, "a.# * b.#"},
		{"Div", div, "b " + t, "a.# / b.#"},
		{"Scale", "Scale returns a * s, every component times s (GLSL a * s).", "s " + v.Elem, "a.# * s"},
	}
	if v.Signed() {
		ops = append(ops, Op{"Neg", "Neg returns -a (GLSL -a).", "", "-a.#"})
	}
	minDoc, maxDoc, minF, maxF := "", "", "min", "max"
	if v.Float() {
		minDoc, maxDoc, minF, maxF = ", with fmath.Min's rule for NaN", ", with fmath.Max's rule for NaN", "fmath.Min", "fmath.Max"
	}
	return append(ops,
		Op{"Min", "Min returns the smaller of a and b in each component (GLSL min(a, b))" + minDoc + ".", "b " + t, minF + "(a.#, b.#)"},
		Op{"Max", "Max returns the larger of a and b in each component (GLSL max(a, b))" + maxDoc + ".", "b " + t, maxF + "(a.#, b.#)"})
}

// Vectors are the generated types, in the file's order.
func Vectors() []Vector {
	var vs []Vector
	for _, k := range []struct{ name, ctor, elem, glsl string }{
		{"Float", "F", "float32", "vec"}, {"Int", "I", "int32", "ivec"}, {"Uint", "U", "uint32", "uvec"},
	} {
		for n := 2; n <= 4; n++ {
			vs = append(vs, Vector{fmt.Sprint(k.name, n), fmt.Sprint(k.ctor, n), k.elem, fmt.Sprint(k.glsl, n), n})
		}
	}
	return vs
}

// Source returns vec_gen.go, gofmt'ed.
func Source() ([]byte, error) {
	var b bytes.Buffer
	if err := tmpl.Execute(&b, Vectors()); err != nil {
		return nil, err
	}
	return format.Source(b.Bytes())
}

// each joins f applied to the vector's components (lower-case names for "x") with sep.
func each(v Vector, sep, f string) string {
	var parts []string
	for _, c := range v.Comps() {
		parts = append(parts, strings.NewReplacer("#", c, "@", strings.ToLower(c)).Replace(f))
	}
	return strings.Join(parts, sep)
}

// wrap formats text as a comment of lines no longer than 92 columns.
func wrap(text string) string {
	var lines []string
	line := "//"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 92 && line != "//" {
			lines = append(lines, line)
			line = "//"
		}
		line += " " + w
	}
	return strings.Join(append(lines, line), "\n")
}

var tmpl = template.Must(template.New("vec").Funcs(template.FuncMap{"each": each, "wrap": wrap, "lower": strings.ToLower}).Parse(text))
