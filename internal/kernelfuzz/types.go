package kernelfuzz

// Type is a value type of the kernel language that the generator writes.
type Type int

// The types the generator writes expressions of.
const (
	I8 Type = iota
	I16
	I32
	U8
	U16
	U32
	Int
	F32
	F64
	Half
	Bool
	VF2
	VF4
	VI3
	VU4
	nTypes
)

// typeInfo describes each Type: its Go spelling, integer width and kind.
var typeInfo = [nTypes]struct {
	name   string
	bits   int
	signed bool
	comps  int  // vector components
	comp   Type // vector component type
}{
	I8:   {name: "int8", bits: 8, signed: true},
	I16:  {name: "int16", bits: 16, signed: true},
	I32:  {name: "int32", bits: 32, signed: true},
	U8:   {name: "uint8", bits: 8},
	U16:  {name: "uint16", bits: 16},
	U32:  {name: "uint32", bits: 32},
	Int:  {name: "int", bits: 32, signed: true},
	F32:  {name: "float32"},
	F64:  {name: "float64"},
	Half: {name: "half.Float16"},
	Bool: {name: "bool"},
	VF2:  {name: "vec.Float2", comps: 2, comp: F32},
	VF4:  {name: "vec.Float4", comps: 4, comp: F32},
	VI3:  {name: "vec.Int3", comps: 3, comp: I32},
	VU4:  {name: "vec.Uint4", comps: 4, comp: U32},
}

func (t Type) String() string { return typeInfo[t].name }

// isInt reports a fixed-width integer type with Go's wrapping on every device
// (Int, 64 bits on the CPU and 32 on GPUs, is not one).
func (t Type) isInt() bool { return t <= U32 }

func (t Type) isFloat() bool { return t == F32 || t == F64 }

func (t Type) isVec() bool { return typeInfo[t].comps > 0 }

// ident is a name usable in helper function names: int8, float32, half, vec_Float4.
func (t Type) ident() string {
	switch t {
	case Half:
		return "half"
	case VF2, VF4, VI3, VU4:
		return "vec" + typeInfo[t].name[4:]
	}
	return typeInfo[t].name
}

// intRange is the range of an integer type, as float literals that bound a float's
// truncation into it: lo < x < hi converts defined.
var intRange = map[Type][2]string{
	I8:  {"-129", "128"},
	I16: {"-32769", "32768"},
	I32: {"-2147483649", "2147483648"},
	U8:  {"-1", "256"},
	U16: {"-1", "65536"},
	U32: {"-1", "4294967296"},
	Int: {"-2147483649", "2147483648"},
}

// comps are the vector components' names.
var comps = []string{"X", "Y", "Z", "W"}
