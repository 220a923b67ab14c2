package spvgen

import (
	"fmt"

	"github.com/goamp/goamp/internal/ampabi"
	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/translate/ir"
)

// A view's At4 and Set4 move four elements: one 16-byte access through the
// view's 4-vector alias (a second variable at its binding) where the first
// element's place in the buffer is a multiple of four, four 4-byte accesses
// elsewhere, as the GLSL path's ampAt4_k and ampSet4_k.

// alias4 returns view k's 4-vector alias, declaring it at first use.
func (w *writer) alias4(k int) uint32 {
	if w.aliases == nil {
		w.aliases = map[int]uint32{}
	}
	if id, ok := w.aliases[k]; ok {
		return id
	}
	v4 := w.vec(w.viewElem(k), 4)
	rta := w.id()
	add(&w.globals, spirv.OpTypeRuntimeArray, rta, v4)
	w.decorate(rta, spirv.DecorationArrayStride, 16)
	blk := w.id()
	add(&w.globals, spirv.OpTypeStruct, blk, rta)
	w.name(blk, fmt.Sprintf("AmpVec%d", k))
	w.decorate(blk, spirv.DecorationBlock)
	w.memberDecorate(blk, 0, spirv.DecorationOffset, 0)
	if !w.k.Views[k].Written {
		w.memberDecorate(blk, 0, spirv.DecorationNonWritable)
	}
	b := w.variable(w.ptr(spirv.StorageClassStorageBuffer, blk), spirv.StorageClassStorageBuffer,
		"ampV4_"+w.k.Views[k].Name)
	w.decorate(b, spirv.DecorationDescriptorSet, ampabi.DescriptorSet)
	w.decorate(b, spirv.DecorationBinding, uint32(ampabi.DataBinding(k)))
	w.aliases[k] = b
	return b
}

// split4 opens the branch on whether address a is a multiple of four: it
// returns the labels of the aligned and the other block and the merge's,
// with the aligned block started.
func (w *writer) split4(a uint32) (aligned, other, merge uint32) {
	u, b := w.uintT(), w.boolT()
	low := w.emit(spirv.OpBitwiseAnd, u, a, w.uconst(3))
	cond := w.emit(spirv.OpIEqual, b, low, w.uconst(0))
	aligned, other, merge = w.id(), w.id(), w.id()
	w.do(spirv.OpSelectionMerge, merge, uint32(spirv.SelectionControlNone))
	w.do(spirv.OpBranchConditional, cond, aligned, other)
	w.block = 0
	w.label(aligned)
	return aligned, other, merge
}

// load4 writes At4: an array of four elements.
func (w *writer) load4(v *ir.ViewLoad4) uint32 {
	k, u := v.View, w.uintT()
	et := w.viewElem(k)
	a := w.elementAddr(k, v.Index)
	t := w.irType(v.T)
	alias := w.alias4(k)
	_, other, merge := w.split4(a)
	q := w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassStorageBuffer, w.vec(et, 4)), alias, w.uconst(0),
		w.emit(spirv.OpShiftRightLogical, u, a, w.uconst(2)))
	vec := w.emit(spirv.OpLoad, w.vec(et, 4), q)
	var parts [4]uint32
	for j := range parts {
		parts[j] = w.emit(spirv.OpCompositeExtract, et, vec, uint32(j))
	}
	fast := w.emit(spirv.OpCompositeConstruct, t, parts[:]...)
	fastEnd := w.block
	w.branch(merge)
	w.label(other)
	for j := range parts {
		aj := w.emit(spirv.OpIAdd, u, a, w.uconst(uint32(j)))
		p := w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassStorageBuffer, et), w.bufs[k], w.uconst(0), aj)
		parts[j] = w.emit(spirv.OpLoad, et, p)
	}
	slow := w.emit(spirv.OpCompositeConstruct, t, parts[:]...)
	slowEnd := w.block
	w.branch(merge)
	w.label(merge)
	return w.emit(spirv.OpPhi, t, fast, fastEnd, slow, slowEnd)
}

// store4 writes Set4: the value, then its four elements.
func (w *writer) store4(s *ir.ViewStore4) {
	k, u := s.View, w.uintT()
	et := w.viewElem(k)
	a := w.elementAddr(k, s.Index)
	x := w.value(s.Value, false)
	var parts [4]uint32
	for j := range parts {
		parts[j] = w.emit(spirv.OpCompositeExtract, et, x, uint32(j))
	}
	alias := w.alias4(k)
	_, other, merge := w.split4(a)
	q := w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassStorageBuffer, w.vec(et, 4)), alias, w.uconst(0),
		w.emit(spirv.OpShiftRightLogical, u, a, w.uconst(2)))
	w.do(spirv.OpStore, q, w.emit(spirv.OpCompositeConstruct, w.vec(et, 4), parts[:]...))
	w.branch(merge)
	w.label(other)
	for j := range parts {
		aj := w.emit(spirv.OpIAdd, u, a, w.uconst(uint32(j)))
		p := w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassStorageBuffer, et), w.bufs[k], w.uconst(0), aj)
		w.do(spirv.OpStore, p, parts[j])
	}
	w.branch(merge)
	w.label(merge)
}
