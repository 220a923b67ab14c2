package negative

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// Bytes8 has views of arrays of int8: GLSL would lay [4]int8 out as four 32-bit ints.
type Bytes8 struct {
	In  *arrayview.ReadView[[4]int8]
	Out *arrayview.View[int32]
}

func (k Bytes8) Each(i runtime.Index) {
	q := k.In.At(i)
	k.Out.Set(i, int32(q[0]))
}

// packed has an 8-bit field: its GLSL struct would lay it out as 32 bits.
type packed struct {
	A int32
	B uint8
}

type PackedField struct{ out }

func (k PackedField) Each(i runtime.Index) {
	p := packed{A: 1, B: 2}
	k.V.Set(i, p.A+int32(p.B))
}

// Count8 adds to an int8 view atomically: atomics need 32-bit elements.
type Count8 struct {
	C *arrayview.View[int8]
}

func (k Count8) Each(i runtime.Index) {
	k.C.AtomicAdd(runtime.Idx(0), 1)
}

// HalfWide widens a float16 to float64, and rounds a float64 to one.
type HalfWide struct {
	H *arrayview.View[half.Float16]
}

func (k HalfWide) Each(i runtime.Index) {
	f := k.H.At(i).Float64()
	k.H.Set(i, half.FromFloat64(f))
}
