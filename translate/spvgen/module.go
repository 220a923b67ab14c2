// Package spvgen writes a SPIR-V module from the kernel translator's IR
// (package ir): SPIR-V 1.3 for Vulkan 1.1, laid out as the runtime's
// dispatch contract reads it (internal/ampabi), with Go's float rules
// written in: NoContraction on every float operation and conversion but a
// product and the addition that is its one use, and SignedZeroInfNanPreserve
// for 32-bit floats. It needs no tool outside Go; spirv-val accepts its
// output (the translator's tests check that on the corpus).
package spvgen

import (
	"encoding/binary"

	"github.com/goamp/goamp/internal/spirv"
)

// version is the SPIR-V version written: 1.3, Vulkan 1.1's.
const version = 0x00010300

// inst is one instruction being built.
type inst struct {
	op   spirv.Op
	args []uint32
}

// module accumulates a module's sections and hands out ids.
type module struct {
	next uint32
	// The sections in the order the specification lays them out.
	caps, exts, imports, memModel, entries, modes, names, annots, globals, funcs []inst
	types                                                                        map[string]uint32
	consts                                                                       map[[3]uint32]uint32
}

func newModule() *module {
	return &module{next: 1, types: map[string]uint32{}, consts: map[[3]uint32]uint32{}}
}

func (m *module) id() uint32 {
	m.next++
	return m.next - 1
}

func add(sec *[]inst, op spirv.Op, args ...uint32) { *sec = append(*sec, inst{op, args}) }

// str packs a nul-terminated literal string into words.
func str(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

func (m *module) name(id uint32, s string) {
	add(&m.names, spirv.OpName, append([]uint32{id}, str(s)...)...)
}

func (m *module) memberName(id uint32, k int, s string) {
	add(&m.names, spirv.OpMemberName, append([]uint32{id, uint32(k)}, str(s)...)...)
}

func (m *module) decorate(id uint32, d spirv.Decoration, lits ...uint32) {
	add(&m.annots, spirv.OpDecorate, append([]uint32{id, uint32(d)}, lits...)...)
}

func (m *module) memberDecorate(id uint32, k int, d spirv.Decoration, lits ...uint32) {
	add(&m.annots, spirv.OpMemberDecorate, append([]uint32{id, uint32(k), uint32(d)}, lits...)...)
}

// typ returns the id of the type that op and its operands declare, declaring
// it once; key names it in the cache.
func (m *module) typ(key string, op spirv.Op, operands ...uint32) uint32 {
	if id, ok := m.types[key]; ok {
		return id
	}
	id := m.id()
	add(&m.globals, op, append([]uint32{id}, operands...)...)
	m.types[key] = id
	return id
}

func (m *module) void() uint32   { return m.typ("void", spirv.OpTypeVoid) }
func (m *module) boolT() uint32  { return m.typ("bool", spirv.OpTypeBool) }
func (m *module) intT() uint32   { return m.typ("int", spirv.OpTypeInt, 32, 1) }
func (m *module) uintT() uint32  { return m.typ("uint", spirv.OpTypeInt, 32, 0) }
func (m *module) floatT() uint32 { return m.typ("float", spirv.OpTypeFloat, 32) }

func (m *module) vec(elem uint32, n int) uint32 {
	return m.typ(key("vec", elem, uint32(n)), spirv.OpTypeVector, elem, uint32(n))
}

func (m *module) ptr(class spirv.StorageClass, t uint32) uint32 {
	return m.typ(key("ptr", uint32(class), t), spirv.OpTypePointer, uint32(class), t)
}

func (m *module) fnType(ret uint32, params ...uint32) uint32 {
	return m.typ(key("fn", append([]uint32{ret}, params...)...), spirv.OpTypeFunction, append([]uint32{ret}, params...)...)
}

func key(kind string, ids ...uint32) string {
	b := []byte(kind)
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint32(b, id)
	}
	return string(b)
}

// constant returns the id of a 32-bit constant of type t (bool: 0 or 1).
func (m *module) constant(t, bits uint32) uint32 {
	k := [3]uint32{t, bits}
	if id, ok := m.consts[k]; ok {
		return id
	}
	id := m.id()
	switch {
	case t == m.boolT() && bits != 0:
		add(&m.globals, spirv.OpConstantTrue, t, id)
	case t == m.boolT():
		add(&m.globals, spirv.OpConstantFalse, t, id)
	default:
		add(&m.globals, spirv.OpConstant, t, id, bits)
	}
	m.consts[k] = id
	return id
}

// double returns the id of the float64 constant of words lo and hi.
func (m *module) double(t, lo, hi uint32) uint32 {
	k := [3]uint32{t, lo, hi}
	if id, ok := m.consts[k]; ok {
		return id
	}
	id := m.id()
	add(&m.globals, spirv.OpConstant, t, id, lo, hi)
	m.consts[k] = id
	return id
}

func (m *module) uconst(v uint32) uint32 { return m.constant(m.uintT(), v) }
func (m *module) iconst(v int32) uint32  { return m.constant(m.intT(), uint32(v)) }

// specConstant declares a uint specialization constant with SpecId specID.
func (m *module) specConstant(specID int, def uint32, name string) uint32 {
	id := m.id()
	add(&m.globals, spirv.OpSpecConstant, m.uintT(), id, def)
	m.decorate(id, spirv.DecorationSpecId, uint32(specID))
	m.name(id, name)
	return id
}

// variable declares a module-scope variable of pointer type ptrT.
func (m *module) variable(ptrT uint32, class spirv.StorageClass, name string) uint32 {
	id := m.id()
	add(&m.globals, spirv.OpVariable, ptrT, id, uint32(class))
	m.name(id, name)
	return id
}

// bytes encodes the module.
func (m *module) bytes() []byte {
	words := []uint32{spirv.MagicNumber, version, 0, m.next, 0}
	for _, sec := range [][]inst{m.caps, m.exts, m.imports, m.memModel, m.entries, m.modes, m.names, m.annots,
		m.globals, m.funcs} {
		for _, in := range sec {
			words = append(words, uint32(1+len(in.args))<<16|uint32(in.op))
			words = append(words, in.args...)
		}
	}
	b := make([]byte, 0, 4*len(words))
	for _, w := range words {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}
