// Package spirv declares SPIR-V's opcodes, the enumerants of its operand
// kinds (capabilities, decorations, storage classes, execution modes, ...),
// the operands each instruction takes and the GLSL.std.450 extended
// instructions, generated from the Khronos machine-readable grammar. It is
// the one place goamp writes these numbers: the SPIR-V writer, the runtime's
// interface reader and the passes that edit compiled modules read them here.
// It imports only the standard library.
package spirv

//go:generate go run ../spirvgen -o spirv_gen.go third_party/spirv-headers/spirv.core.grammar.json third_party/spirv-headers/extinst.glsl.std.450.grammar.json

import (
	"sort"
	"strconv"
	"strings"
)

// Op is an opcode of the core instruction set.
type Op uint32

// OperandKind is one of the grammar's operand kinds (IdRef, LiteralInteger,
// Decoration, ...).
type OperandKind uint8

// Category is what an operand kind is: an enumeration of values or of bits,
// an id, a literal or a composite of those.
type Category uint8

// The operand kinds' categories.
const (
	ValueEnum Category = iota + 1
	BitEnum
	IDKind
	LiteralKind
	CompositeKind
)

// Quantifier is how many times an operand occurs.
type Quantifier uint8

// The quantifiers.
const (
	One      Quantifier = iota // exactly once
	Optional                   // zero times or once
	Variadic                   // zero or more times
)

// Operand is one operand of an instruction or a parameter of an enumerant.
type Operand struct {
	Kind       OperandKind
	Quantifier Quantifier
	// Name is the grammar's name for the operand, or "" where it has none.
	Name string
}

// Instruction describes an opcode: its name, its class in the
// specification, the SPIR-V version that introduced it ("None" for an
// extension's), its operands in order and the capabilities that enable it
// (any one suffices; none for the core ones).
type Instruction struct {
	Op           Op
	Name         string
	Class        string
	Version      string
	Operands     []Operand
	Capabilities []Capability
}

type enumName struct {
	v    uint32
	name string
}

type enumParam struct {
	kind     OperandKind
	v        uint32
	operands []Operand
}

// Info returns op's description, and false for an opcode the grammar does not
// declare. It does not allocate.
func (op Op) Info() (*Instruction, bool) {
	i := sort.Search(len(instructions), func(i int) bool { return instructions[i].Op >= op })
	if i == len(instructions) || instructions[i].Op != op {
		return nil, false
	}
	return &instructions[i], true
}

// String returns the opcode's name (OpLoad), or "Op" and its value in decimal
// for an opcode the grammar does not declare.
func (op Op) String() string {
	if in, ok := op.Info(); ok {
		return in.Name
	}
	return "Op" + strconv.FormatUint(uint64(op), 10)
}

// String returns the operand kind's name in the grammar.
func (k OperandKind) String() string {
	if int(k) < len(kindNames) && k > 0 {
		return kindNames[k]
	}
	return "OperandKind" + strconv.Itoa(int(k))
}

// Category returns the operand kind's category, or 0 for a value that is no
// operand kind.
func (k OperandKind) Category() Category {
	if int(k) < len(kindCategories) {
		return kindCategories[k]
	}
	return 0
}

// Params returns the parameters that enumerant v of operand kind k takes
// after it (the literal of Decoration SpecId, the three sizes of
// ExecutionMode LocalSize), or nil where it takes none.
func (k OperandKind) Params(v uint32) []Operand {
	for _, p := range enumParams {
		if p.kind == k && p.v == v {
			return p.operands
		}
	}
	return nil
}

func lookup(v uint32, names []enumName) (string, bool) {
	i := sort.Search(len(names), func(i int) bool { return names[i].v >= v })
	if i < len(names) && names[i].v == v {
		return names[i].name, true
	}
	return "", false
}

func enumString(v uint32, names []enumName) string {
	if s, ok := lookup(v, names); ok {
		return s
	}
	return strconv.FormatUint(uint64(v), 10)
}

// bitString names each bit of v that names has, joined by |, and the rest
// in hexadecimal.
func bitString(v uint32, names []enumName) string {
	if s, ok := lookup(v, names); ok {
		return s
	}
	var parts []string
	for bit := uint32(1); bit != 0 && v != 0; bit <<= 1 {
		if v&bit == 0 {
			continue
		}
		if s, ok := lookup(bit, names); ok {
			parts = append(parts, s)
			v &^= bit
		}
	}
	if v != 0 {
		parts = append(parts, "0x"+strconv.FormatUint(uint64(v), 16))
	}
	return strings.Join(parts, "|")
}
