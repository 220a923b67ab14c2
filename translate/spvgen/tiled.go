package spvgen

import (
	"fmt"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/translate/ir"
)

// tileConsts are the tile's shape as specialization-constant expressions of
// the workgroup size and AMP_RANKS (the domain's rank in bits 0-1), which the
// driver folds at pipeline creation: the rank, whether it is 1, 2 or 3, the
// tile's dimensions in C++ order (0 past the rank) and its size. A rank-r
// domain's component c is the workgroup's axis r-1-c (x the fastest).
type tileConsts struct {
	rank, is1, is2, is3 uint32
	dim                 [3]uint32
	size                uint32
}

// specOp declares an OpSpecConstantOp of type t.
func (w *writer) specOp(t uint32, op spirv.Op, args ...uint32) uint32 {
	id := w.id()
	add(&w.globals, spirv.OpSpecConstantOp, append([]uint32{t, id, uint32(op)}, args...)...)
	return id
}

// tileShape returns the tile's constants, declaring them at first use.
func (w *writer) tileShape() *tileConsts {
	if w.tile != nil {
		return w.tile
	}
	u, b := w.uintT(), w.boolT()
	x, y, z := w.wgXYZ[0], w.wgXYZ[1], w.wgXYZ[2]
	c := &tileConsts{}
	c.rank = w.specOp(u, spirv.OpBitwiseAnd, w.ranks, w.uconst(3))
	c.is1 = w.specOp(b, spirv.OpIEqual, c.rank, w.uconst(1))
	c.is2 = w.specOp(b, spirv.OpIEqual, c.rank, w.uconst(2))
	c.is3 = w.specOp(b, spirv.OpIEqual, c.rank, w.uconst(3))
	sel := func(cond, a, b uint32) uint32 { return w.specOp(u, spirv.OpSelect, cond, a, b) }
	c.dim[0] = sel(c.is1, x, sel(c.is2, y, z))
	c.dim[1] = sel(c.is1, w.uconst(0), sel(c.is2, x, y))
	c.dim[2] = sel(c.is3, x, w.uconst(0))
	c.size = w.specOp(u, spirv.OpIMul, w.specOp(u, spirv.OpIMul, x, y), z)
	for i, n := range []string{"ampTD0", "ampTD1", "ampTD2"} {
		w.name(c.dim[i], n)
	}
	w.name(c.size, "ampTileSize")
	w.tile = c
	return c
}

// specValue writes a tile_static array's size (ir.Shared.Size) as a uint
// specialization-constant expression.
func (w *writer) specValue(v ir.Value) uint32 {
	u := w.uintT()
	switch v := v.(type) {
	case *ir.Const:
		return w.uconst(v.Bits)
	case *ir.TileShape:
		c, ok := v.Comp.(*ir.Const)
		switch {
		case v.What == ir.Size:
			return w.tileShape().size
		case v.What == ir.Dim && ok && c.Bits < 3:
			return w.tileShape().dim[c.Bits]
		case v.What == ir.Dim && ok:
			return w.uconst(0)
		}
	case *ir.Binary:
		op := map[ir.Op]spirv.Op{ir.Add: spirv.OpIAdd, ir.Sub: spirv.OpISub, ir.Mul: spirv.OpIMul,
			ir.Div: spirv.OpUDiv}[v.Op]
		if op != 0 {
			return w.specOp(u, op, w.specValue(v.X), w.specValue(v.Y))
		}
	}
	w.fail("a tile_static size of %T", v)
	return w.uconst(1)
}

// sharedVars declares the tile_static arrays: Workgroup variables whose
// lengths are specialization-constant expressions.
func (w *writer) sharedVars() {
	for i, s := range w.k.Shared {
		et := w.irType(s.Elem)
		if s.Bits {
			et = w.uintT()
		}
		n := w.specValue(s.Size)
		arr := w.typ(key("shared", et, n), spirv.OpTypeArray, et, n)
		v := w.variable(w.ptr(spirv.StorageClassWorkgroup, arr), spirv.StorageClassWorkgroup,
			fmt.Sprintf("ampS_%s_%d", s.Name, i))
		w.shared = append(w.shared, v)
		w.lengths = append(w.lengths, n)
	}
}

// tiledMain writes main as the Tiled body, run once per thread of the
// dispatch: a Go return is main's.
func (w *writer) tiledMain() {
	main := w.id()
	w.name(main, "main")
	body := w.function(main, w.fnType(w.void()), w.void(), nil, w.k.Locals, func() { w.stmts(w.k.Body) })
	w.funcs = append(w.funcs, body...)
	w.entryPoint(main, w.wgID, w.localID, w.globID)
}

// tileIndex writes component Comp of one of the thread's indices in C++
// order: the workgroup axis rank-1-Comp, 0 past the rank.
func (w *writer) tileIndex(v *ir.TileIndex) uint32 {
	u := w.uintT()
	uv := w.vec(u, 3)
	var xyz uint32
	switch v.What {
	case ir.Global:
		xyz = w.emit(spirv.OpLoad, uv, w.globID)
	case ir.Local:
		xyz = w.emit(spirv.OpLoad, uv, w.localID)
	case ir.Tile:
		xyz = w.emit(spirv.OpLoad, uv, w.wgID)
	case ir.TileOrigin:
		xyz = w.emit(spirv.OpIMul, uv, w.emit(spirv.OpLoad, uv, w.wgID), w.wgSize)
	default:
		w.fail("tile index %s", v.What)
		return w.iconst(0)
	}
	c := w.tileShape()
	axis := func(i uint32) uint32 { return w.emit(spirv.OpCompositeExtract, u, xyz, i) }
	sel := func(cond, a, b uint32) uint32 { return w.emit(spirv.OpSelect, u, cond, a, b) }
	var r uint32
	switch v.Comp {
	case 0:
		r = sel(c.is1, axis(0), sel(c.is2, axis(1), axis(2)))
	case 1:
		r = sel(c.is1, w.uconst(0), sel(c.is2, axis(0), axis(1)))
	case 2:
		r = sel(c.is3, axis(0), w.uconst(0))
	default:
		w.fail("tile index component %d", v.Comp)
	}
	return w.emit(spirv.OpBitcast, w.intT(), r)
}

// tileExtent writes TileExtent's Dim, Rank or Size as an int.
func (w *writer) tileExtent(v *ir.TileShape) uint32 {
	i, u, b := w.intT(), w.uintT(), w.boolT()
	c := w.tileShape()
	switch v.What {
	case ir.Size:
		return w.emit(spirv.OpBitcast, i, c.size)
	case ir.Rank:
		return w.emit(spirv.OpBitcast, i, c.rank)
	}
	if k, ok := v.Comp.(*ir.Const); ok {
		if k.Bits < 3 {
			return w.emit(spirv.OpBitcast, i, c.dim[k.Bits])
		}
		return w.iconst(0)
	}
	// A component chosen at run time: 0 outside 0-2.
	d := w.value(v.Comp, false)
	r := w.uconst(0)
	for k := 2; k >= 0; k-- {
		is := w.emit(spirv.OpIEqual, b, d, w.constant(w.irType(v.Comp.Type()), uint32(k)))
		r = w.emit(spirv.OpSelect, u, is, c.dim[k], r)
	}
	return w.emit(spirv.OpBitcast, i, r)
}

// sharedElem returns a pointer to element index of tile_static array a, or
// to the part of it path selects.
func (w *writer) sharedElem(a int, index ir.Value, path ...ir.Value) uint32 {
	t := w.k.Shared[a].Elem
	ids := []uint32{w.shared[a], w.value(index, false)}
	for _, x := range path {
		c, ok := x.(*ir.Const)
		if !t.IsComposite() || w.k.Composite(t).Fields != nil && !ok {
			w.fail("a path into %s", w.k.TypeName(t))
			break
		}
		i := 0
		if ok {
			i = int(c.Bits)
		}
		t = w.k.Part(t, i)
		ids = append(ids, w.value(x, false))
	}
	et := w.irType(t)
	if w.k.Shared[a].Bits {
		et = w.uintT()
	}
	return w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassWorkgroup, et), ids...)
}

// Memory semantics (SPIR-V's MemorySemantics mask) and scopes.
const (
	semAcqRel    = 0x8
	semUniform   = 0x40 // storage buffers: the views
	semWorkgroup = 0x100
)

// barrier writes a tile barrier or fence. C++ AMP's fences order the
// tile's threads' accesses to the memory they name, for the other threads of
// the tile: Workgroup scope, acquire-release semantics on the views' memory
// (global), the tile_static memory, or both.
func (w *writer) barrier(s *ir.Barrier) {
	sem := uint32(semAcqRel)
	switch s.Fence {
	case ir.FenceAll:
		sem |= semUniform | semWorkgroup
	case ir.FenceGlobal:
		sem |= semUniform
	case ir.FenceTileStatic:
		sem |= semWorkgroup
	default:
		w.fail("fence %d", s.Fence)
	}
	wg := w.uconst(uint32(spirv.ScopeWorkgroup))
	if s.NoWait {
		w.do(spirv.OpMemoryBarrier, wg, w.uconst(sem))
		return
	}
	w.barriers = true
	w.do(spirv.OpControlBarrier, wg, wg, w.uconst(sem))
}

// atomicOps are the opcodes of the integer atomics by element type: int32,
// uint32.
var atomicOps = map[ir.AtomicOp][2]spirv.Op{
	ir.AtomicAdd:      {spirv.OpAtomicIAdd, spirv.OpAtomicIAdd},
	ir.AtomicSub:      {spirv.OpAtomicISub, spirv.OpAtomicISub},
	ir.AtomicExchange: {spirv.OpAtomicExchange, spirv.OpAtomicExchange},
	ir.AtomicMin:      {spirv.OpAtomicSMin, spirv.OpAtomicUMin},
	ir.AtomicMax:      {spirv.OpAtomicSMax, spirv.OpAtomicUMax},
	ir.AtomicAnd:      {spirv.OpAtomicAnd, spirv.OpAtomicAnd},
	ir.AtomicOr:       {spirv.OpAtomicOr, spirv.OpAtomicOr},
	ir.AtomicXor:      {spirv.OpAtomicXor, spirv.OpAtomicXor},
}

// atomic writes an atomic operation and returns the element's old value.
// Atomics are relaxed (the barriers order memory), at Device scope on a
// view and Workgroup scope on a tile_static array. Floats are held as bits:
// Exchange and Load reinterpret them, Add and Sub are a compare-exchange loop.
func (w *writer) atomic(v *ir.Atomic) uint32 {
	var p uint32
	scope := w.uconst(uint32(spirv.ScopeDevice))
	if v.Shared {
		p = w.sharedElem(v.Target, v.Index[0])
		scope = w.uconst(uint32(spirv.ScopeWorkgroup))
	} else {
		p = w.element(v.Target, v.Index)
	}
	args := make([]uint32, len(v.Args))
	for i, a := range v.Args {
		args[i] = w.value(a, false)
	}
	relaxed := w.uconst(0)
	t := w.irType(v.T)
	if v.T == ir.Float32 {
		return w.floatAtomic(v, p, scope, args)
	}
	switch {
	case v.Op == ir.AtomicLoad && len(args) == 0:
		return w.emit(spirv.OpAtomicLoad, t, p, scope, relaxed)
	case v.Op == ir.AtomicCompareExchange && len(args) == 2:
		return w.emit(spirv.OpAtomicCompareExchange, t, p, scope, relaxed, relaxed, args[1], args[0])
	}
	ops, ok := atomicOps[v.Op]
	if !ok || len(args) != 1 || !v.T.IsInt() {
		w.fail("atomic %s of %s", v.Op, v.T)
		return w.constant(t, 0)
	}
	op := ops[0]
	if v.T == ir.Uint32 {
		op = ops[1]
	}
	return w.emit(op, t, p, scope, relaxed, args[0])
}

// floatAtomic writes an atomic on a float32 held as uint bits at p.
func (w *writer) floatAtomic(v *ir.Atomic, p, scope uint32, args []uint32) uint32 {
	u, f, b := w.uintT(), w.floatT(), w.boolT()
	relaxed := w.uconst(0)
	switch {
	case v.Op == ir.AtomicLoad && len(args) == 0:
		return w.emit(spirv.OpBitcast, f, w.emit(spirv.OpAtomicLoad, u, p, scope, relaxed))
	case v.Op == ir.AtomicExchange && len(args) == 1:
		old := w.emit(spirv.OpAtomicExchange, u, p, scope, relaxed, w.emit(spirv.OpBitcast, u, args[0]))
		return w.emit(spirv.OpBitcast, f, old)
	case (v.Op == ir.AtomicAdd || v.Op == ir.AtomicSub) && len(args) == 1:
	default:
		w.fail("atomic %s of float32", v.Op)
		return w.constant(f, 0)
	}
	x := args[0]
	if v.Op == ir.AtomicSub { // Go's: an add of -x
		x = w.exactOp(false, spirv.OpFNegate, f, x)
	}
	// old = *p; loop { prev = compare-exchange(p, bits(float(old)+x), old);
	// if prev == old { break }; old = prev }
	first := w.emit(spirv.OpAtomicLoad, u, p, scope, relaxed)
	from := w.block
	header, body, cont, merge := w.id(), w.id(), w.id(), w.id()
	old, prev := w.id(), w.id()
	w.branch(header)
	w.label(header)
	w.body = append(w.body, inst{spirv.OpPhi, []uint32{u, old, first, from, prev, cont}})
	w.do(spirv.OpLoopMerge, merge, cont, uint32(spirv.LoopControlNone))
	w.branch(body)
	w.label(body)
	sum := w.exactOp(false, spirv.OpFAdd, f, w.emit(spirv.OpBitcast, f, old), x)
	w.body = append(w.body, inst{spirv.OpAtomicCompareExchange, []uint32{u, prev, p, scope, relaxed, relaxed,
		w.emit(spirv.OpBitcast, u, sum), old}})
	done := w.emit(spirv.OpIEqual, b, prev, old)
	w.do(spirv.OpBranchConditional, done, merge, cont)
	w.block = 0
	w.label(cont)
	w.branch(header)
	w.label(merge)
	return w.emit(spirv.OpBitcast, f, old)
}
