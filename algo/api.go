package algo

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/goamp/goamp/arrayview"
)

// Number is an element type the built-in numeric kernels accept.
type Number interface {
	~int32 | ~uint32 | ~float32
}

// ErrShape is matched by every *ShapeError.
var ErrShape = errors.New("goamp/algo: bad shape")

// ShapeError reports arguments whose shapes do not fit an operation, naming them.
type ShapeError struct {
	Op     string // the operation, e.g. "MatMul"
	Reason string // what is wrong, with the numbers
}

func (e *ShapeError) Error() string { return fmt.Sprintf("goamp/algo: %s: %s", e.Op, e.Reason) }

// Is matches ErrShape.
func (e *ShapeError) Is(target error) bool { return target == ErrShape }

// enumName is the String of v, a value of the integer type called typ whose values from 0
// are named names: names[v], or "typ(v)" outside them.
func enumName[E ~int](v E, typ string, names ...string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// ceilDiv is a/b rounded up, for a >= 0 and b > 0.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

func shapeErr(op, format string, args ...any) error {
	return &ShapeError{Op: op, Reason: fmt.Sprintf(format, args...)}
}

// apart returns op's *ShapeError where the view named wn, which op writes, shares memory
// with the one named rn, which it reads (arrayview.Overlap): the writes would land in what
// is still to be read, differently on each accelerator.
func apart[T, U any](op, wn string, w *arrayview.View[T], rn string, r *arrayview.View[U]) error {
	if arrayview.Overlap(w, r) {
		return shapeErr(op, "%s shares memory with %s (the same data, or sections or slices of it that overlap); "+
			"%s does not work in place: give %s data of its own", wn, rn, op, wn)
	}
	return nil
}

// nilNames returns op's *ShapeError naming the nil views among views (by names), or nil.
func nilNames(op string, names []string, isNil ...bool) error {
	var nils []string
	for i, n := range isNil {
		if n {
			nils = append(nils, names[i])
		}
	}
	if len(nils) == 0 {
		return nil
	}
	return shapeErr(op, "%s nil", strings.Join(nils, " and ")+map[bool]string{true: " is", false: " are"}[len(nils) == 1])
}

// typeCode is the GLSL element type index of T (0 int32, 1 uint32, 2 float32) by its
// underlying kind, so that named types (type Celsius float32) get their kind's arithmetic.
// Programs that serve several types receive it as a push constant.
func typeCode[T Number]() int32 {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32:
		return 0
	case reflect.Uint32:
		return 1
	}
	return 2
}
