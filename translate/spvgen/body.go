package spvgen

import (
	"github.com/goamp/goamp/internal/ampabi"
	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/translate/ir"
)

// stmts writes a statement list; statements after a branch out (break,
// continue, return) are dead and not written.
func (w *writer) stmts(list []ir.Stmt) {
	for _, s := range list {
		if w.block == 0 {
			return
		}
		w.stmt(s)
	}
}

func (w *writer) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Store:
		p := w.varPart(s.Var, s.Path)
		w.do(spirv.OpStore, p, w.value(s.Value, false))
	case *ir.ViewStore:
		if t := w.k.Views[s.View].Elem; t.IsComposite() {
			addr := w.elementAddr(s.View, s.Index)
			w.storeParts([]uint32{w.bufs[s.View], w.uconst(0), addr}, t, w.value(s.Value, false))
			return
		}
		p := w.element(s.View, s.Index)
		x := w.value(s.Value, false)
		switch t := w.k.Views[s.View].Elem; {
		case w.k.Views[s.View].Bits:
			x = w.emit(spirv.OpBitcast, w.uintT(), x)
		case t.Narrow() > 0 && t.Signed(): // the low bits
			x = w.emit(spirv.OpSConvert, w.viewElem(s.View), x)
		case t.Narrow() > 0:
			x = w.emit(spirv.OpUConvert, w.viewElem(s.View), x)
		}
		w.do(spirv.OpStore, p, x)
	case *ir.SharedStore:
		p := w.sharedElem(s.Array, s.Index, s.Path...)
		x := w.value(s.Value, false)
		if w.k.Shared[s.Array].Bits {
			x = w.emit(spirv.OpBitcast, w.uintT(), x)
		}
		w.do(spirv.OpStore, p, x)
	case *ir.ViewStore4:
		w.store4(s)
	case *ir.Barrier:
		w.barrier(s)
	case *ir.Eval:
		w.value(s.X, false)
	case *ir.If:
		c := w.value(s.Cond, false)
		then, merge := w.id(), w.id()
		els := merge
		if len(s.Else) > 0 {
			els = w.id()
		}
		w.do(spirv.OpSelectionMerge, merge, uint32(spirv.SelectionControlNone))
		w.do(spirv.OpBranchConditional, c, then, els)
		w.label(then)
		w.stmts(s.Then)
		w.branch(merge)
		if len(s.Else) > 0 {
			w.label(els)
			w.stmts(s.Else)
			w.branch(merge)
		}
		w.label(merge)
	case *ir.Loop:
		w.loop(s)
	case *ir.Break:
		if s.Loop != nil || len(w.loops) == 0 {
			w.fail("a break out of other than the innermost loop (run ir.Structurize)")
			return
		}
		w.branch(w.loops[len(w.loops)-1].merge)
	case *ir.Continue:
		if s.Loop != nil || len(w.loops) == 0 {
			w.fail("a continue of other than the innermost loop (run ir.Structurize)")
			return
		}
		w.branch(w.loops[len(w.loops)-1].cont)
	case *ir.Return:
		w.do(spirv.OpReturn)
		w.block = 0
	default:
		w.fail("statement %T", s)
	}
}

// loop writes a loop: the header (OpLoopMerge), the condition's block, the
// body, the continue block (Post) and the merge block.
func (w *writer) loop(s *ir.Loop) {
	header, cond, body, cont, merge := w.id(), w.id(), w.id(), w.id(), w.id()
	w.branch(header)
	w.label(header)
	w.do(spirv.OpLoopMerge, merge, cont, uint32(spirv.LoopControlNone))
	w.branch(cond)
	w.label(cond)
	if s.Cond != nil {
		c := w.value(s.Cond, false)
		w.do(spirv.OpBranchConditional, c, body, merge)
		w.block = 0
	} else {
		w.branch(body)
	}
	w.loops = append(w.loops, loopTargets{merge: merge, cont: cont})
	w.label(body)
	w.stmts(s.Body)
	w.branch(cont)
	w.loops = w.loops[:len(w.loops)-1]
	w.label(cont)
	w.stmts(s.Post)
	w.branch(header)
	w.label(merge)
}

// viewRank returns view k's rank (AMP_RANKS bits 2+2k) as a uint.
func (w *writer) viewRank(k int) uint32 {
	u := w.uintT()
	shifted := w.emit(spirv.OpShiftRightLogical, u, w.ranks, w.uconst(uint32(2+2*k)))
	return w.emit(spirv.OpBitwiseAnd, u, shifted, w.uconst(3))
}

// extent returns word 2k+c-1 of the ampExtents array (view k's dimension c,
// for c of 1 or 2), at a uint index that may be computed.
func (w *writer) extent(k int, word uint32) uint32 {
	u := w.uintT()
	m := uint32(1 + len(w.k.Views) + len(w.k.Scalars))
	if k >= w.k.Extents {
		w.fail("view %d's extent read past the ampExtents array (%d views)", k, w.k.Extents)
		return w.uconst(0)
	}
	p := w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassPushConstant, u), w.push, w.uconst(m), word)
	return w.emit(spirv.OpLoad, u, p)
}

// shape writes an extent method of a view, as the GLSL path's ampDim,
// ampSize and ampContains: dimension 0 is the AmpView's e0, dimensions 1 and
// 2 the ampExtents array's, 0 past the rank.
func (w *writer) shape(v *ir.Shape) uint32 {
	u, i, b := w.uintT(), w.intT(), w.boolT()
	k := v.View
	rank := w.viewRank(k)
	e0 := w.pushLoad(u, uint32(1+k), ampabi.ViewE0)
	one := w.uconst(1)
	// dim(c) for a constant c of 1 or 2, 1 past the rank (for Size and Contains).
	dimOr1 := func(c uint32) uint32 {
		in := w.emit(spirv.OpUGreaterThan, b, rank, w.uconst(c))
		return w.emit(spirv.OpSelect, u, in, w.extent(k, w.uconst(uint32(2*k)+c-1)), one)
	}
	switch v.What {
	case ir.Rank:
		return w.emit(spirv.OpBitcast, i, rank)
	case ir.Size:
		s := w.emit(spirv.OpIMul, u, e0, dimOr1(1))
		return w.emit(spirv.OpBitcast, i, w.emit(spirv.OpIMul, u, s, dimOr1(2)))
	case ir.Contains:
		// Components past the rank are not looked at.
		var ok uint32
		for c, x := range v.Index {
			xu := w.emit(spirv.OpBitcast, u, w.value(x, false))
			if c == 0 {
				ok = w.emit(spirv.OpULessThan, b, xu, e0)
				continue
			}
			in := w.emit(spirv.OpULessThan, b, xu, dimOr1(uint32(c)))
			past := w.emit(spirv.OpULessThanEqual, b, rank, w.uconst(uint32(c)))
			ok = w.emit(spirv.OpLogicalAnd, b, ok, w.emit(spirv.OpLogicalOr, b, past, in))
		}
		return ok
	}
	// Dim(c): e0 for 0, ampExtents[2k+c-1] for 0 < c < rank, else 0.
	c := w.emit(spirv.OpBitcast, u, w.value(v.Comp, false))
	isZero := w.emit(spirv.OpIEqual, b, c, w.uconst(0))
	inRank := w.emit(spirv.OpULessThan, b, c, rank) // c as a uint: negative is large
	useExt := w.emit(spirv.OpLogicalAnd, b, w.emit(spirv.OpLogicalNot, b, isZero), inRank)
	var ext uint32
	if w.k.Extents > k {
		word := w.emit(spirv.OpIAdd, u, w.uconst(uint32(2*k)), w.emit(spirv.OpISub, u, c, one))
		word = w.emit(spirv.OpSelect, u, useExt, word, w.uconst(uint32(2*k))) // stay inside the array
		ext = w.extent(k, word)
	} else {
		ext = w.uconst(0) // the body reads only dimension 0 of this view
	}
	r := w.emit(spirv.OpSelect, u, useExt, ext, w.uconst(0))
	r = w.emit(spirv.OpSelect, u, isZero, e0, r)
	return w.emit(spirv.OpBitcast, i, r)
}

// element returns a pointer to element index of view k.
func (w *writer) element(k int, index [3]ir.Value) uint32 {
	addr := w.elementAddr(k, index)
	return w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassStorageBuffer, w.viewElem(k)), w.bufs[k], w.uconst(0),
		addr)
}

// varPart returns a pointer to local v, or to the part of it path selects.
func (w *writer) varPart(v *ir.Var, path []ir.Value) uint32 {
	if len(path) == 0 {
		return w.vars[v]
	}
	t := v.Type
	ids := []uint32{w.vars[v]}
	for _, x := range path {
		c, ok := x.(*ir.Const)
		if !t.IsComposite() || w.k.Composite(t).Fields != nil && !ok {
			w.fail("a path into %s", w.k.TypeName(t))
			return w.vars[v]
		}
		i := 0
		if ok {
			i = int(c.Bits)
		}
		t = w.k.Part(t, i)
		ids = append(ids, w.value(x, false))
	}
	return w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassFunction, w.irType(t)), ids...)
}

// loadParts loads a composite t of a view's buffer through the access chain
// base (the buffer, 0, the element's address, the parts' indices so far),
// scalar by scalar, into a value of t's plain type.
func (w *writer) loadParts(class spirv.StorageClass, base []uint32, t ir.Type) uint32 {
	if !t.IsComposite() {
		p := w.emit(spirv.OpAccessChain, w.ptr(class, w.irType(t)), base...)
		return w.emit(spirv.OpLoad, w.irType(t), p)
	}
	n, member := w.members(t)
	parts := make([]uint32, n)
	for i := range parts {
		if member[i] < 0 { // padding: zero
			parts[i] = w.value(&ir.Zero{T: w.k.Part(t, i)}, false)
			continue
		}
		parts[i] = w.loadParts(class, append(base[:len(base):len(base)], w.uconst(uint32(member[i]))),
			w.k.Part(t, i))
	}
	return w.emit(spirv.OpCompositeConstruct, w.irType(t), parts...)
}

// storeParts stores value x of composite t into a view's buffer, scalar by
// scalar (loadParts' converse).
func (w *writer) storeParts(base []uint32, t ir.Type, x uint32) {
	if !t.IsComposite() {
		p := w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassStorageBuffer, w.irType(t)), base...)
		w.do(spirv.OpStore, p, x)
		return
	}
	n, member := w.members(t)
	for i := range n {
		if member[i] < 0 {
			continue // padding
		}
		pt := w.k.Part(t, i)
		part := w.emit(spirv.OpCompositeExtract, w.irType(pt), x, uint32(i))
		w.storeParts(append(base[:len(base):len(base)], w.uconst(uint32(member[i]))), pt, part)
	}
}

// members returns composite t's parts and the member index of each in its
// buffer layout (-1 for a struct's blank field, which the layout leaves out).
func (w *writer) members(t ir.Type) (int, []int) {
	c := w.k.Composite(t)
	if c.Fields == nil {
		m := make([]int, c.Len)
		for i := range m {
			m[i] = i
		}
		return c.Len, m
	}
	m := make([]int, len(c.Fields))
	k := 0
	for i, f := range c.Fields {
		m[i] = -1
		if f.Name != "_" {
			m[i] = k
			k++
		}
	}
	return len(c.Fields), m
}

// elementAddr returns the address of element index of view k: its AmpView's
// base plus the index's offset by the view's rank (AMP_RANKS bits 2+2k), as
// the GLSL path's ampAt.
func (w *writer) elementAddr(k int, index [3]ir.Value) uint32 {
	u, b := w.uintT(), w.boolT()
	var ix [3]uint32
	for c, v := range index {
		ix[c] = w.emit(spirv.OpBitcast, u, w.value(v, false))
	}
	member := uint32(1 + k)
	base := w.pushLoad(u, member, ampabi.ViewBase)
	s0 := w.pushLoad(u, member, ampabi.ViewS0)
	s1 := w.pushLoad(u, member, ampabi.ViewS1)
	shifted := w.emit(spirv.OpShiftRightLogical, u, w.ranks, w.uconst(uint32(2+2*k)))
	rank := w.emit(spirv.OpBitwiseAnd, u, shifted, w.uconst(3))
	x0 := w.emit(spirv.OpIMul, u, ix[0], s0)
	r2 := w.emit(spirv.OpIAdd, u, x0, ix[1])
	r3 := w.emit(spirv.OpIAdd, u, w.emit(spirv.OpIAdd, u, x0, w.emit(spirv.OpIMul, u, ix[1], s1)), ix[2])
	is1 := w.emit(spirv.OpIEqual, b, rank, w.uconst(1))
	is2 := w.emit(spirv.OpIEqual, b, rank, w.uconst(2))
	off := w.emit(spirv.OpSelect, u, is1, ix[0], w.emit(spirv.OpSelect, u, is2, r2, r3))
	return w.emit(spirv.OpIAdd, u, base, off)
}

// viewLoad reads an element of a view: a composite part by part, a float32
// that atomics update from its bits, an 8- or 16-bit integer extended.
func (w *writer) viewLoad(v *ir.ViewLoad) uint32 {
	if v.T.IsComposite() {
		addr := w.elementAddr(v.View, v.Index)
		return w.loadParts(spirv.StorageClassStorageBuffer, []uint32{w.bufs[v.View], w.uconst(0), addr}, v.T)
	}
	x := w.emit(spirv.OpLoad, w.viewElem(v.View), w.element(v.View, v.Index))
	switch {
	case w.k.Views[v.View].Bits:
		x = w.emit(spirv.OpBitcast, w.irType(v.T), x)
	case v.T.Narrow() > 0 && v.T.Signed():
		x = w.emit(spirv.OpSConvert, w.irType(v.T), x)
	case v.T.Narrow() > 0:
		x = w.emit(spirv.OpUConvert, w.irType(v.T), x)
	}
	return x
}

// exactOp writes a float operation and marks it NoContraction unless fused.
func (w *writer) exactOp(fused bool, op spirv.Op, t uint32, args ...uint32) uint32 {
	id := w.emit(op, t, args...)
	if !fused {
		w.decorate(id, spirv.DecorationNoContraction)
	}
	return id
}

// value writes v and returns its id; fused says v is a product that the add
// using it may contract with.
func (w *writer) value(v ir.Value, fused bool) uint32 {
	switch v := v.(type) {
	case *ir.Const:
		if v.T == ir.Float64 {
			return w.double(w.irType(v.T), v.Bits, v.Hi)
		}
		return w.constant(w.irType(v.T), v.Bits)
	case *ir.Load:
		return w.emit(spirv.OpLoad, w.irType(v.Type()), w.varPart(v.Var, v.Path))
	case *ir.Builtin:
		return w.builtin(v)
	case *ir.Make:
		parts := make([]uint32, len(v.Parts))
		for i, p := range v.Parts {
			parts[i] = w.value(p, false)
		}
		return w.emit(spirv.OpCompositeConstruct, w.irType(v.T), parts...)
	case *ir.Extract:
		return w.emit(spirv.OpCompositeExtract, w.irType(v.T), w.value(v.X, false), uint32(v.Index))
	case *ir.Zero:
		t := w.irType(v.T)
		if id, ok := w.types[key("null", t)]; ok {
			return id
		}
		id := w.id()
		add(&w.globals, spirv.OpConstantNull, t, id)
		w.types[key("null", t)] = id
		return id
	case *ir.LoadScalar:
		if v.T.IsComposite() {
			member := w.uconst(uint32(1 + len(w.k.Views) + v.Index))
			return w.loadParts(spirv.StorageClassPushConstant, []uint32{w.push, member}, v.T)
		}
		if v.T == ir.Bool {
			x := w.pushLoad(w.uintT(), uint32(1+len(w.k.Views)+v.Index))
			return w.emit(spirv.OpINotEqual, w.boolT(), x, w.uconst(0))
		}
		return w.pushLoad(w.irType(v.T), uint32(1+len(w.k.Views)+v.Index))
	case *ir.ViewLoad:
		return w.viewLoad(v)
	case *ir.ViewLoad4:
		return w.load4(v)
	case *ir.SharedLoad:
		sh := w.k.Shared[v.Array]
		et := w.irType(v.T)
		if sh.Bits {
			return w.emit(spirv.OpBitcast, et, w.emit(spirv.OpLoad, w.uintT(), w.sharedElem(v.Array, v.Index)))
		}
		return w.emit(spirv.OpLoad, et, w.sharedElem(v.Array, v.Index, v.Path...))
	case *ir.SharedLen:
		return w.emit(spirv.OpBitcast, w.intT(), w.lengths[v.Array])
	case *ir.TileIndex:
		return w.tileIndex(v)
	case *ir.TileShape:
		return w.tileExtent(v)
	case *ir.Atomic:
		return w.atomic(v)
	case *ir.Seq:
		w.stmts(v.Body)
		return w.value(v.X, fused)
	case *ir.ThreadIndex:
		return w.emit(spirv.OpCompositeExtract, w.intT(), w.idx, uint32(v.Comp))
	case *ir.Unary:
		return w.unary(v)
	case *ir.Binary:
		return w.binary(v, fused)
	case *ir.Convert:
		return w.convert(v)
	case *ir.Bits:
		return w.emit(spirv.OpBitcast, w.irType(v.To), w.value(v.X, false))
	case *ir.Select:
		c, x, y := w.value(v.Cond, false), w.value(v.X, false), w.value(v.Y, false)
		return w.emit(spirv.OpSelect, w.irType(v.Type()), c, x, y)
	case *ir.Shape:
		return w.shape(v)
	}
	w.fail("value %T", v)
	return w.iconst(0)
}

func (w *writer) unary(v *ir.Unary) uint32 {
	x := w.value(v.X, false)
	t := w.irType(v.Type())
	switch {
	case v.Op == ir.Neg && v.Type().IsFloat():
		return w.exactOp(false, spirv.OpFNegate, t, x)
	case v.Op == ir.Neg:
		return w.wrap(w.emit(spirv.OpSNegate, t, x), v.Type())
	case v.Op == ir.Not:
		return w.emit(spirv.OpLogicalNot, t, x)
	case v.Op == ir.Com:
		return w.wrap(w.emit(spirv.OpNot, t, x), v.Type())
	}
	w.fail("unary %s", v.Op)
	return x
}

// opcodes of the binary operators by operand type: int32, uint32, float32,
// bool.
var binOps = map[ir.Op][4]spirv.Op{
	ir.Add:    {spirv.OpIAdd, spirv.OpIAdd, spirv.OpFAdd, 0},
	ir.Sub:    {spirv.OpISub, spirv.OpISub, spirv.OpFSub, 0},
	ir.Mul:    {spirv.OpIMul, spirv.OpIMul, spirv.OpFMul, 0},
	ir.Div:    {spirv.OpSDiv, spirv.OpUDiv, spirv.OpFDiv, 0},
	ir.Rem:    {spirv.OpSRem, spirv.OpUMod, 0, 0},
	ir.BitAnd: {spirv.OpBitwiseAnd, spirv.OpBitwiseAnd, 0, 0},
	ir.BitOr:  {spirv.OpBitwiseOr, spirv.OpBitwiseOr, 0, 0},
	ir.BitXor: {spirv.OpBitwiseXor, spirv.OpBitwiseXor, 0, 0},
	// Go's comparisons: NaN is unequal to everything, and unordered otherwise.
	ir.Eq: {spirv.OpIEqual, spirv.OpIEqual, spirv.OpFOrdEqual, spirv.OpLogicalEqual},
	ir.Ne: {spirv.OpINotEqual, spirv.OpINotEqual, spirv.OpFUnordNotEqual, spirv.OpLogicalNotEqual},
	ir.Lt: {spirv.OpSLessThan, spirv.OpULessThan, spirv.OpFOrdLessThan, 0},
	ir.Le: {spirv.OpSLessThanEqual, spirv.OpULessThanEqual, spirv.OpFOrdLessThanEqual, 0},
	ir.Gt: {spirv.OpSGreaterThan, spirv.OpUGreaterThan, spirv.OpFOrdGreaterThan, 0},
	ir.Ge: {spirv.OpSGreaterThanEqual, spirv.OpUGreaterThanEqual, spirv.OpFOrdGreaterThanEqual, 0},
}

func (w *writer) binary(v *ir.Binary, fused bool) uint32 {
	switch v.Op {
	case ir.And, ir.Or:
		return w.shortCircuit(v)
	case ir.Min, ir.Max:
		return w.minMax(v)
	case ir.Shl, ir.Shr:
		return w.shift(v)
	}
	ot := v.X.Type()
	// The product an add may contract with: its first operand if that is one,
	// else its second (as the exactness pass over glslc's output picks it).
	fuseX := v.Fuse && isMul(v.X)
	fuseY := v.Fuse && !fuseX && isMul(v.Y)
	x, y := w.value(v.X, fuseX), w.value(v.Y, fuseY)
	t := w.irType(v.Type())
	if v.Op == ir.AndNot {
		return w.emit(spirv.OpBitwiseAnd, t, x, w.emit(spirv.OpNot, t, y))
	}
	col := map[ir.Type]int{ir.Int32: 0, ir.Uint32: 1, ir.Float32: 2, ir.Float64: 2, ir.Bool: 3}[ot]
	if ot.Narrow() > 0 && !ot.Signed() {
		col = 1
	}
	op := binOps[v.Op][col]
	if op == 0 {
		w.fail("operator %s on %s", v.Op, ot)
		return x
	}
	if ot.IsFloat() && !v.Op.IsCompare() {
		return w.exactOp(fused || v.Fuse, op, t, x, y)
	}
	if ot.Signed() && (v.Op == ir.Div || v.Op == ir.Rem) {
		return w.wrap(w.signedDiv(v.Op, x, y), ot)
	}
	r := w.emit(op, t, x, y)
	if v.Op == ir.Add || v.Op == ir.Sub || v.Op == ir.Mul {
		r = w.wrap(r, ot)
	}
	return r
}

// wrap makes x, the 32-bit result of an operation on an 8- or 16-bit type t,
// a value of t as Go computes it (its low bits, sign- or zero-extended);
// other types' x as it is.
func (w *writer) wrap(x uint32, t ir.Type) uint32 {
	n := t.Narrow()
	if n == 0 {
		return x
	}
	op := spirv.OpBitFieldUExtract
	if t.Signed() {
		op = spirv.OpBitFieldSExtract
	}
	return w.emit(op, w.irType(t), x, w.uconst(0), w.uconst(uint32(n)))
}

// shift writes Go's x << s and x >> s: the count read as unsigned (a
// negative one, which panics in Go, is then 32 or more), a count of 32 or
// more shifting every bit out (>> of an int32 keeps the sign), where SPIR-V's
// result is undefined.
func (w *writer) shift(v *ir.Binary) uint32 {
	x, s := w.value(v.X, false), w.value(v.Y, false)
	u, b, t := w.uintT(), w.boolT(), w.irType(v.Type())
	if v.Y.Type() != ir.Uint32 {
		s = w.emit(spirv.OpBitcast, u, s)
	}
	big := w.emit(spirv.OpUGreaterThanEqual, b, s, w.uconst(32))
	zero := w.constant(t, 0)
	switch {
	case v.Op == ir.Shl:
		return w.wrap(w.emit(spirv.OpSelect, t, big, zero, w.emit(spirv.OpShiftLeftLogical, t, x, s)), v.Type())
	case v.Type().Signed():
		s = w.emit(spirv.OpSelect, u, big, w.uconst(31), s)
		return w.emit(spirv.OpShiftRightArithmetic, t, x, s)
	}
	return w.emit(spirv.OpSelect, t, big, zero, w.emit(spirv.OpShiftRightLogical, t, x, s))
}

// signedDiv writes Go's int32 x / y or x % y: by -1 the quotient is -x (it
// wraps for the least int32) and the remainder 0, where SPIR-V's are
// undefined for the least int32; the divisor is then 1.
func (w *writer) signedDiv(op ir.Op, x, y uint32) uint32 {
	i, b := w.intT(), w.boolT()
	m1 := w.emit(spirv.OpIEqual, b, y, w.iconst(-1))
	d := w.emit(spirv.OpSelect, i, m1, w.iconst(1), y)
	if op == ir.Div {
		q := w.emit(spirv.OpSDiv, i, x, d)
		return w.emit(spirv.OpSelect, i, m1, w.emit(spirv.OpSNegate, i, x), q)
	}
	r := w.emit(spirv.OpSRem, i, x, d)
	return w.emit(spirv.OpSelect, i, m1, w.iconst(0), r)
}

// minMax writes Go's min or max of two values. Integers: the lesser or
// greater. Floats: a NaN operand gives NaN; of equal operands min takes the
// OR of their bits (so -0 wins over +0) and max the AND (+0 wins).
func (w *writer) minMax(v *ir.Binary) uint32 {
	x, y := w.value(v.X, false), w.value(v.Y, false)
	t, b := w.irType(v.Type()), w.boolT()
	lt := map[bool]spirv.Op{true: spirv.OpSLessThan, false: spirv.OpULessThan}[v.Type().Signed()]
	if v.Type().IsFloat() {
		lt = spirv.OpFOrdLessThan
	} else if !v.Type().IsInt() {
		lt = 0
	}
	if lt == 0 {
		w.fail("%s of %s", v.Op, v.Type())
		return x
	}
	first, second := x, y // min: x < y picks x
	if v.Op == ir.Max {
		first, second = y, x // max: y < x picks x
	}
	less := w.emit(lt, b, first, second)
	pick := w.emit(spirv.OpSelect, t, less, x, y)
	if !v.Type().IsFloat() {
		return pick
	}
	u := w.uintT()
	if v.Type() == ir.Float64 {
		u = w.vec(u, 2)
	}
	xb, yb := w.emit(spirv.OpBitcast, u, x), w.emit(spirv.OpBitcast, u, y)
	bitOp := spirv.OpBitwiseOr
	if v.Op == ir.Max {
		bitOp = spirv.OpBitwiseAnd
	}
	same := w.emit(spirv.OpBitcast, t, w.emit(bitOp, u, xb, yb))
	eq := w.emit(spirv.OpFOrdEqual, b, x, y)
	r := w.emit(spirv.OpSelect, t, eq, same, pick)
	xNaN := w.emit(spirv.OpIsNan, b, x)
	yNaN := w.emit(spirv.OpIsNan, b, y)
	r = w.emit(spirv.OpSelect, t, yNaN, y, r)
	return w.emit(spirv.OpSelect, t, xNaN, x, r)
}

func isMul(v ir.Value) bool {
	b, ok := v.(*ir.Binary)
	return ok && b.Op == ir.Mul && b.Type() == ir.Float32
}

// shortCircuit writes && or ||: the right operand in a block of its own that
// runs only where it decides the result, joined by an OpPhi.
func (w *writer) shortCircuit(v *ir.Binary) uint32 {
	b := w.boolT()
	x := w.value(v.X, false)
	from := w.block
	right, merge := w.id(), w.id()
	w.do(spirv.OpSelectionMerge, merge, uint32(spirv.SelectionControlNone))
	if v.Op == ir.And {
		w.do(spirv.OpBranchConditional, x, right, merge)
	} else {
		w.do(spirv.OpBranchConditional, x, merge, right)
	}
	w.block = 0
	w.label(right)
	y := w.value(v.Y, false)
	rightEnd := w.block
	w.branch(merge)
	w.label(merge)
	return w.emit(spirv.OpPhi, b, x, from, y, rightEnd)
}

// convert writes Go's conversion between the scalar types.
func (w *writer) convert(v *ir.Convert) uint32 {
	from := v.X.Type()
	x := w.value(v.X, false)
	t := w.irType(v.To)
	switch {
	case from == v.To:
		return x // float32(a*b): the product stays exact (not fused)
	case from.IsInt() && v.To.IsInt(): // the same bits, wrapped to a narrow type
		return w.wrap(w.emit(spirv.OpBitcast, t, x), v.To)
	case from.Signed() && v.To.IsFloat():
		return w.exactOp(false, spirv.OpConvertSToF, t, x)
	case from.IsInt() && v.To.IsFloat():
		return w.exactOp(false, spirv.OpConvertUToF, t, x)
	case from.IsFloat() && v.To.Signed():
		return w.wrap(w.exactOp(false, spirv.OpConvertFToS, t, x), v.To)
	case from.IsFloat() && v.To.IsInt():
		return w.wrap(w.exactOp(false, spirv.OpConvertFToU, t, x), v.To)
	case from.IsFloat() && v.To.IsFloat():
		return w.exactOp(false, spirv.OpFConvert, t, x)
	}
	w.fail("conversion from %s to %s", from, v.To)
	return x
}

// glslFns are the GLSL.std.450 instructions of the IR's math functions.
var glslFns = map[ir.BuiltinFn]spirv.GLSLstd450{ir.Sqrt: spirv.GLSLstd450Sqrt,
	ir.InverseSqrt: spirv.GLSLstd450InverseSqrt, ir.Floor: spirv.GLSLstd450Floor, ir.Ceil: spirv.GLSLstd450Ceil,
	ir.Trunc: spirv.GLSLstd450Trunc, ir.RoundEven: spirv.GLSLstd450RoundEven, ir.FAbs: spirv.GLSLstd450FAbs,
	ir.FindLSB: spirv.GLSLstd450FindILsb, ir.FindMSB: spirv.GLSLstd450FindUMsb}

// builtin writes a math function: a core instruction or a GLSL.std.450 one.
func (w *writer) builtin(v *ir.Builtin) uint32 {
	args := make([]uint32, len(v.Args))
	for i, a := range v.Args {
		args[i] = w.value(a, false)
	}
	t := w.irType(v.Type())
	switch {
	case v.Fn == ir.BitCount && len(args) == 1:
		return w.emit(spirv.OpBitCount, t, args[0])
	case v.Fn == ir.BitReverse && len(args) == 1:
		return w.emit(spirv.OpBitReverse, t, args[0])
	case (v.Fn == ir.LowWord || v.Fn == ir.HighWord) && len(args) == 1:
		u := w.uintT()
		words := w.emit(spirv.OpBitcast, w.vec(u, 2), args[0])
		return w.emit(spirv.OpCompositeExtract, u, words, map[ir.BuiltinFn]uint32{ir.LowWord: 0, ir.HighWord: 1}[v.Fn])
	case v.Fn == ir.Pack64 && len(args) == 2:
		return w.emit(spirv.OpBitcast, t, w.emit(spirv.OpCompositeConstruct, w.vec(w.uintT(), 2), args[0], args[1]))
	case v.Fn == ir.IsNaN && len(args) == 1:
		return w.emit(spirv.OpIsNan, t, args[0])
	case v.Fn == ir.IsInf && len(args) == 1:
		return w.emit(spirv.OpIsInf, t, args[0])
	case v.Fn == ir.MulHi && len(args) == 2:
		u := w.uintT()
		r := w.emit(spirv.OpUMulExtended, w.typ("umulext", spirv.OpTypeStruct, u, u), args[0], args[1])
		return w.emit(spirv.OpCompositeExtract, u, r, 1)
	}
	fn, ok := glslFns[v.Fn]
	if !ok || len(args) != 1 {
		w.fail("math function %s", v.Fn)
		return w.constant(t, 0)
	}
	if w.glsl == 0 {
		w.glsl = w.id()
		add(&w.imports, spirv.OpExtInstImport, append([]uint32{w.glsl}, str("GLSL.std.450")...)...)
	}
	return w.emit(spirv.OpExtInst, t, w.glsl, uint32(fn), args[0])
}
