package spvgen

import (
	"fmt"

	"github.com/goamp/goamp/internal/ampabi"
	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/translate/ir"
)

// Error says why a kernel's IR cannot be written: it breaks the IR's own
// rules (a translator bug, not the user's).
type Error struct {
	Kernel string
	Reason string
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("goamp/translate/spvgen: kernel %s: %s", e.Kernel, e.Reason)
}

// writer writes one kernel.
type writer struct {
	*module
	k *ir.Kernel
	// Module-scope ids.
	push, ranks, gridLoop, wgSize uint32
	wgXYZ                         [3]uint32 // the workgroup size's spec constants
	wgID, numWG, localID, globID  uint32
	bufs, blocks                  []uint32 // each view's variable and block type
	pushStruct                    uint32
	// A Tiled body's: the tile's shape as specialization constants (tile),
	// its tile_static arrays and their lengths, and whether it waits at a
	// barrier (then the views it reads and writes are Coherent).
	tile            *tileConsts
	shared, lengths []uint32
	barriers        bool
	glsl            uint32         // the GLSL.std.450 import, 0 before the first use
	aliases         map[int]uint32 // the views\' 4-vector aliases (At4, Set4)
	// The function being written: its body, current block and loops.
	body   []inst
	block  uint32 // the current block's label; 0 after a terminator
	loops  []loopTargets
	vars   map[*ir.Var]uint32
	idx    uint32 // the ampEach parameter (an ivec3)
	exact  map[uint32]bool
	errMsg string
}

type loopTargets struct{ merge, cont uint32 }

// Write returns the SPIR-V module of kernel k: main loops over the domain's
// points with a grid stride (AMP_GRID_LOOP) and calls the body for each.
func Write(k *ir.Kernel) ([]byte, error) {
	w := &writer{module: newModule(), k: k, vars: map[*ir.Var]uint32{}, exact: map[uint32]bool{}}
	w.header()
	w.interfaceVars()
	if k.Tiled {
		w.sharedVars()
		w.tiledMain()
	} else {
		each := w.eachFunc()
		w.mainFunc(each)
	}
	if w.barriers {
		for i, v := range k.Views {
			if v.Written && v.Read { // threads of a tile read what others wrote before a barrier
				w.memberDecorate(w.blocks[i], 0, spirv.DecorationCoherent)
			}
		}
	}
	if w.errMsg != "" {
		return nil, &Error{Kernel: k.Name, Reason: w.errMsg}
	}
	return w.bytes(), nil
}

func (w *writer) fail(format string, args ...any) {
	if w.errMsg == "" {
		w.errMsg = fmt.Sprintf(format, args...)
	}
}

func (w *writer) header() {
	add(&w.caps, spirv.OpCapability, uint32(spirv.CapabilityShader))
	add(&w.caps, spirv.OpCapability, uint32(spirv.CapabilitySignedZeroInfNanPreserve))
	add(&w.exts, spirv.OpExtension, str("SPV_KHR_float_controls")...)
	add(&w.memModel, spirv.OpMemoryModel, uint32(spirv.AddressingModelLogical), uint32(spirv.MemoryModelGLSL450))
}

// irType returns the SPIR-V type of an IR scalar type.
func (w *writer) irType(t ir.Type) uint32 {
	switch t {
	case ir.Bool:
		return w.boolT()
	case ir.Int32:
		return w.intT()
	case ir.Uint32:
		return w.uintT()
	case ir.Float32:
		return w.floatT()
	case ir.Float64:
		if _, ok := w.types["double"]; !ok {
			add(&w.caps, spirv.OpCapability, uint32(spirv.CapabilityFloat64))
		}
		return w.typ("double", spirv.OpTypeFloat, 64)
	case ir.Int8, ir.Int16: // in registers, 32 bits sign-extended
		return w.intT()
	case ir.Uint8, ir.Uint16:
		return w.uintT()
	}
	if t.IsComposite() && int(t-ir.FirstComposite) < len(w.k.Types) {
		return w.compositeType(t, false)
	}
	w.fail("type %s", t)
	return w.intT()
}

// compositeType returns the SPIR-V type of composite t: for values and
// function variables, or with layout for a view's buffer (Offset and
// ArrayStride decorations, Go's layout). The two are distinct types.
func (w *writer) compositeType(t ir.Type, layout bool) uint32 {
	k := key("plain", uint32(t))
	if layout {
		k = key("layout", uint32(t))
	}
	if id, ok := w.types[k]; ok {
		return id
	}
	c := w.k.Composite(t)
	if !layout && len(c.Fields) >= 2 && len(c.Fields) <= 4 && !c.Fields[0].Type.IsComposite() {
		same := true
		for _, f := range c.Fields {
			same = same && f.Type == c.Fields[0].Type
		}
		if same { // a value of 2 to 4 scalars of one type (vec's vectors): a vector
			id := w.vec(w.irType(c.Fields[0].Type), len(c.Fields))
			w.types[k] = id
			return id
		}
	}
	part := func(p ir.Type) uint32 {
		if layout && p.IsComposite() {
			return w.compositeType(p, true)
		}
		return w.irType(p)
	}
	id := w.id()
	if c.Fields == nil {
		add(&w.globals, spirv.OpTypeArray, id, part(c.Elem), w.uconst(uint32(c.Len)))
		if layout {
			w.decorate(id, spirv.DecorationArrayStride, uint32(w.k.Size(c.Elem)))
		}
	} else {
		// A buffer's struct leaves blank fields (padding) out, as the
		// runtime's contract reads Go's elements: their bytes are kept.
		var members []uint32
		off := 0
		for _, f := range c.Fields {
			if layout && f.Name == "_" {
				off += w.k.Size(f.Type)
				continue
			}
			if layout {
				w.memberDecorate(id, len(members), spirv.DecorationOffset, uint32(off))
			}
			members = append(members, part(f.Type))
			off += w.k.Size(f.Type)
		}
		add(&w.globals, spirv.OpTypeStruct, append([]uint32{id}, members...)...)
		w.name(id, c.Name)
	}
	w.types[k] = id
	return id
}

// interfaceVars declares the specialization constants, built-ins, the
// push-constant block and the views' buffers.
func (w *writer) interfaceVars() {
	u := w.uintT()
	x := w.specConstant(ampabi.SpecLocalSizeX, 1, "ampLocalSizeX")
	y := w.specConstant(ampabi.SpecLocalSizeY, 1, "ampLocalSizeY")
	z := w.specConstant(ampabi.SpecLocalSizeZ, 1, "ampLocalSizeZ")
	w.wgXYZ = [3]uint32{x, y, z}
	w.wgSize = w.id()
	add(&w.globals, spirv.OpSpecConstantComposite, w.vec(u, 3), w.wgSize, x, y, z)
	w.decorate(w.wgSize, spirv.DecorationBuiltIn, uint32(spirv.BuiltInWorkgroupSize))
	w.ranks = w.specConstant(ampabi.SpecRanks, 1, "AMP_RANKS")
	type builtin struct {
		id   *uint32
		bi   spirv.BuiltIn
		name string
	}
	builtins := []builtin{{&w.wgID, spirv.BuiltInWorkgroupId, "gl_WorkGroupID"}}
	if !w.k.Tiled { // a tiled body has no grid loop: a thread per point
		w.gridLoop = w.specConstant(ampabi.SpecGridLoop, 1, "AMP_GRID_LOOP")
		builtins = append(builtins, builtin{&w.numWG, spirv.BuiltInNumWorkgroups, "gl_NumWorkGroups"})
	}
	builtins = append(builtins, builtin{&w.localID, spirv.BuiltInLocalInvocationId, "gl_LocalInvocationID"})
	if w.k.Tiled {
		builtins = append(builtins, builtin{&w.globID, spirv.BuiltInGlobalInvocationId, "gl_GlobalInvocationID"})
	}
	in := w.ptr(spirv.StorageClassInput, w.vec(u, 3))
	for _, b := range builtins {
		*b.id = w.variable(in, spirv.StorageClassInput, b.name)
		w.decorate(*b.id, spirv.DecorationBuiltIn, uint32(b.bi))
	}

	w.pushBlock()
	w.buffers()
}

// pushBlock declares the push-constant block: the domain, an AmpView per
// view, the scalars and the ampExtents array, at ampabi's offsets.
func (w *writer) pushBlock() {
	u := w.uintT()
	view := w.typ("AmpView", spirv.OpTypeStruct, u, u, u, u)
	w.name(view, "AmpView")
	for i, n := range []string{"base", "s0", "s1", "e0"} {
		w.memberDecorate(view, i, spirv.DecorationOffset, uint32(4*i))
		w.memberName(view, i, n)
	}
	members := []uint32{w.vec(u, 4)}
	for range w.k.Views {
		members = append(members, view)
	}
	for _, s := range w.k.Scalars {
		switch {
		case s.Type == ir.Bool:
			members = append(members, u)
		case s.Type.IsComposite():
			members = append(members, w.compositeType(s.Type, true))
		default:
			members = append(members, w.irType(s.Type))
		}
	}
	if w.k.Extents > 0 { // uint ampExtents[2m]
		arr := w.typ("ampExtents", spirv.OpTypeArray, u, w.uconst(uint32(2*w.k.Extents)))
		w.decorate(arr, spirv.DecorationArrayStride, 4)
		members = append(members, arr)
	}
	w.pushStruct = w.typ("AmpPush", spirv.OpTypeStruct, members...)
	w.name(w.pushStruct, "AmpPush")
	w.decorate(w.pushStruct, spirv.DecorationBlock)
	w.memberDecorate(w.pushStruct, 0, spirv.DecorationOffset, 0)
	w.memberName(w.pushStruct, 0, "domain")
	for i, v := range w.k.Views {
		w.memberDecorate(w.pushStruct, 1+i, spirv.DecorationOffset, uint32(ampabi.ViewOffset(i)))
		w.memberName(w.pushStruct, 1+i, v.Name)
	}
	off := ampabi.ScalarOffset(len(w.k.Views))
	for i, s := range w.k.Scalars {
		size, align := w.place(s)
		off = (off + align - 1) &^ (align - 1)
		w.memberDecorate(w.pushStruct, 1+len(w.k.Views)+i, spirv.DecorationOffset, uint32(off))
		w.memberName(w.pushStruct, 1+len(w.k.Views)+i, s.Name)
		off += size
	}
	if w.k.Extents > 0 {
		m := 1 + len(w.k.Views) + len(w.k.Scalars)
		w.memberDecorate(w.pushStruct, m, spirv.DecorationOffset, uint32(off))
		w.memberName(w.pushStruct, m, "ampExtents")
	}
	w.push = w.variable(w.ptr(spirv.StorageClassPushConstant, w.pushStruct), spirv.StorageClassPushConstant, "amp")
}

// place returns a push field's bytes and alignment as the runtime places
// it: a word 4 and 4; a vec vector std430's (8 and 8 for two components, 4n
// and 16 else); a struct or array of words Go's size at 4.
func (w *writer) place(s ir.Scalar) (size, align int) {
	if s.Type == ir.Float64 {
		return 8, 8
	}
	if !s.Type.IsComposite() {
		return ampabi.ScalarBytes, ampabi.ScalarBytes
	}
	if s.Vec {
		n, member := w.members(s.Type)
		for _, m := range member {
			if m < 0 {
				n--
			}
		}
		if n == 2 {
			return 8, 8
		}
		return 4 * n, 16
	}
	return w.k.Size(s.Type), 4
}

// buffers declares each view's storage buffer at its binding.
func (w *writer) buffers() {

	for i, v := range w.k.Views {
		et := w.viewElem(i)
		_, declared := w.types[key("rta", et)]
		rta := w.typ(key("rta", et), spirv.OpTypeRuntimeArray, et)
		if !declared {
			w.decorate(rta, spirv.DecorationArrayStride, uint32(w.k.Size(v.Elem)))
		}
		// One block type per buffer: each has its own NonWritable decoration.
		blk := w.id()
		add(&w.globals, spirv.OpTypeStruct, blk, rta)
		w.name(blk, fmt.Sprintf("AmpBuffer%d", i))
		w.decorate(blk, spirv.DecorationBlock)
		w.memberDecorate(blk, 0, spirv.DecorationOffset, 0)
		if !v.Written {
			w.memberDecorate(blk, 0, spirv.DecorationNonWritable)
		}
		w.blocks = append(w.blocks, blk)
		b := w.variable(w.ptr(spirv.StorageClassStorageBuffer, blk), spirv.StorageClassStorageBuffer, "ampV_"+v.Name)
		w.decorate(b, spirv.DecorationDescriptorSet, ampabi.DescriptorSet)
		w.decorate(b, spirv.DecorationBinding, uint32(ampabi.DataBinding(i)))
		w.bufs = append(w.bufs, b)
	}
}

// emit appends an instruction with a result to the function body and returns
// the result id.
func (w *writer) emit(op spirv.Op, t uint32, args ...uint32) uint32 {
	id := w.id()
	w.body = append(w.body, inst{op, append([]uint32{t, id}, args...)})
	return id
}

// do appends an instruction without a result.
func (w *writer) do(op spirv.Op, args ...uint32) { w.body = append(w.body, inst{op, args}) }

// label starts block id.
func (w *writer) label(id uint32) {
	w.do(spirv.OpLabel, id)
	w.block = id
}

// branch ends the current block with a branch to target, if it is open.
func (w *writer) branch(target uint32) {
	if w.block != 0 {
		w.do(spirv.OpBranch, target)
		w.block = 0
	}
}

// pushWord loads uint word member[sub...] of the push-constant block.
func (w *writer) pushLoad(t uint32, idx ...uint32) uint32 {
	ids := make([]uint32, len(idx))
	for i, x := range idx {
		ids[i] = w.uconst(x)
	}
	p := w.emit(spirv.OpAccessChain, w.ptr(spirv.StorageClassPushConstant, t), append([]uint32{w.push}, ids...)...)
	return w.emit(spirv.OpLoad, t, p)
}

// function writes a function: its header, locals, body (by fill) and end.
func (w *writer) function(id, fnT, ret uint32, params []uint32, locals []*ir.Var, fill func()) []inst {
	w.body = nil
	w.vars = map[*ir.Var]uint32{}
	w.do(spirv.OpFunction, ret, id, uint32(spirv.FunctionControlNone), fnT)
	for _, p := range params {
		w.body = append(w.body, inst{spirv.OpFunctionParameter, []uint32{w.vec(w.intT(), 3), p}})
	}
	w.label(w.id())
	for _, v := range locals {
		vid := w.emit(spirv.OpVariable, w.ptr(spirv.StorageClassFunction, w.irType(v.Type)),
			uint32(spirv.StorageClassFunction))
		w.vars[v] = vid
	}
	fill()
	if w.block != 0 {
		w.do(spirv.OpReturn)
		w.block = 0
	}
	w.do(spirv.OpFunctionEnd)
	return w.body
}

// eachFunc writes the body as void ampEach(ivec3 index) and returns its id.
func (w *writer) eachFunc() uint32 {
	id := w.id()
	w.name(id, "ampEach")
	w.idx = w.id()
	fnT := w.fnType(w.void(), w.vec(w.intT(), 3))
	body := w.function(id, fnT, w.void(), []uint32{w.idx}, w.k.Locals, func() { w.stmts(w.k.Body) })
	w.funcs = append(w.funcs, body...)
	return id
}

// mainFunc writes main: the grid-stride loop over the domain's points.
func (w *writer) mainFunc(each uint32) {
	u, b := w.uintT(), w.boolT()
	main := w.id()
	w.name(main, "main")
	n := &ir.Var{Name: "ampN", Type: ir.Uint32}
	body := w.function(main, w.fnType(w.void()), w.void(), nil, []*ir.Var{n}, func() {
		wg := w.emit(spirv.OpLoad, w.vec(u, 3), w.wgID)
		nwg := w.emit(spirv.OpLoad, w.vec(u, 3), w.numWG)
		lid := w.emit(spirv.OpLoad, w.vec(u, 3), w.localID)
		c := func(v, i uint32) uint32 { return w.emit(spirv.OpCompositeExtract, u, v, i) }
		wsx := w.emit(spirv.OpCompositeExtract, u, w.wgSize, 0)
		// (WorkGroupID.y * NumWorkGroups.x + WorkGroupID.x) * WorkGroupSize.x + LocalInvocationID.x
		lin := w.emit(spirv.OpIMul, u, c(wg, 1), c(nwg, 0))
		lin = w.emit(spirv.OpIAdd, u, lin, c(wg, 0))
		lin = w.emit(spirv.OpIMul, u, lin, wsx)
		lin = w.emit(spirv.OpIAdd, u, lin, c(lid, 0))
		stride := w.emit(spirv.OpIMul, u, c(nwg, 0), c(nwg, 1))
		stride = w.emit(spirv.OpIMul, u, stride, wsx)
		w.do(spirv.OpStore, w.vars[n], lin)
		header, cond, bodyL, cont, merge := w.id(), w.id(), w.id(), w.id(), w.id()
		w.branch(header)
		w.label(header)
		w.do(spirv.OpLoopMerge, merge, cont, uint32(spirv.LoopControlNone))
		w.branch(cond)
		w.label(cond)
		nv := w.emit(spirv.OpLoad, u, w.vars[n])
		total := w.pushLoad(u, 0, ampabi.DomainTotal)
		on := w.emit(spirv.OpINotEqual, b, w.gridLoop, w.uconst(0))
		in := w.emit(spirv.OpULessThan, b, nv, total)
		ok := w.emit(spirv.OpLogicalAnd, b, on, in)
		w.do(spirv.OpBranchConditional, ok, bodyL, merge)
		w.block = 0
		w.label(bodyL)
		w.emit(spirv.OpFunctionCall, w.void(), each, w.delinearize(nv))
		w.branch(cont)
		w.label(cont)
		nv = w.emit(spirv.OpLoad, u, w.vars[n])
		w.do(spirv.OpStore, w.vars[n], w.emit(spirv.OpIAdd, u, nv, stride))
		w.branch(header)
		w.label(merge)
	})
	w.funcs = append(w.funcs, body...)
	w.entryPoint(main, w.wgID, w.numWG, w.localID)
}

// entryPoint declares main, with the Input variables it reads, as the
// compute entry point.
func (w *writer) entryPoint(main uint32, inputs ...uint32) {
	add(&w.entries, spirv.OpEntryPoint, append(append([]uint32{uint32(spirv.ExecutionModelGLCompute), main},
		str("main")...), inputs...)...)
	add(&w.modes, spirv.OpExecutionMode, main, uint32(spirv.ExecutionModeLocalSize), 1, 1, 1)
	add(&w.modes, spirv.OpExecutionMode, main, uint32(spirv.ExecutionModeSignedZeroInfNanPreserve), 32)
	if _, ok := w.types["double"]; ok {
		add(&w.modes, spirv.OpExecutionMode, main, uint32(spirv.ExecutionModeSignedZeroInfNanPreserve), 64)
	}
}

// narrowStorage returns the 8- or 16-bit integer type of a view of t,
// declaring the storage capability and extension it needs.
func (w *writer) narrowStorage(t ir.Type) uint32 {
	n, signed := uint32(t.Narrow()), uint32(0)
	if t.Signed() {
		signed = 1
	}
	cap, ext := spirv.CapabilityStorageBuffer8BitAccess, "SPV_KHR_8bit_storage"
	if n == 16 {
		cap, ext = spirv.CapabilityStorageBuffer16BitAccess, "SPV_KHR_16bit_storage"
	}
	if _, ok := w.types[key("cap", uint32(cap))]; !ok {
		w.types[key("cap", uint32(cap))] = 0
		add(&w.caps, spirv.OpCapability, uint32(cap))
		add(&w.exts, spirv.OpExtension, str(ext)...)
	}
	return w.typ(key("int", n, signed), spirv.OpTypeInt, n, signed)
}

// viewElem returns the SPIR-V type of view k's buffer elements: a float32
// view that atomics update holds uint bits.
func (w *writer) viewElem(k int) uint32 {
	if w.k.Views[k].Bits {
		return w.uintT()
	}
	if t := w.k.Views[k].Elem; t.IsComposite() {
		return w.compositeType(t, true)
	} else if n := t.Narrow(); n > 0 {
		return w.narrowStorage(t)
	}
	return w.irType(w.k.Views[k].Elem)
}

// delinearize returns the ivec3 index of point n of the domain, by its rank
// (AMP_RANKS bits 0-1), as the GLSL path's ampDelinearize.
func (w *writer) delinearize(n uint32) uint32 {
	u, i, b := w.uintT(), w.intT(), w.boolT()
	rank := w.emit(spirv.OpBitwiseAnd, u, w.ranks, w.uconst(3))
	d1 := w.pushLoad(u, 0, ampabi.DomainE1)
	d2 := w.pushLoad(u, 0, ampabi.DomainE2)
	toInt := func(x uint32) uint32 { return w.emit(spirv.OpBitcast, i, x) }
	zero := w.iconst(0)
	r1 := w.emit(spirv.OpCompositeConstruct, w.vec(i, 3), toInt(n), zero, zero)
	r2 := w.emit(spirv.OpCompositeConstruct, w.vec(i, 3), toInt(w.emit(spirv.OpUDiv, u, n, d1)),
		toInt(w.emit(spirv.OpUMod, u, n, d1)), zero)
	t := w.emit(spirv.OpUDiv, u, n, d2)
	r3 := w.emit(spirv.OpCompositeConstruct, w.vec(i, 3), toInt(w.emit(spirv.OpUDiv, u, t, d1)),
		toInt(w.emit(spirv.OpUMod, u, t, d1)), toInt(w.emit(spirv.OpUMod, u, n, d2)))
	is1 := w.emit(spirv.OpIEqual, b, rank, w.uconst(1))
	is2 := w.emit(spirv.OpIEqual, b, rank, w.uconst(2))
	bv := w.vec(b, 3)
	sel := func(c, x, y uint32) uint32 {
		cv := w.emit(spirv.OpCompositeConstruct, bv, c, c, c)
		return w.emit(spirv.OpSelect, w.vec(i, 3), cv, x, y)
	}
	return sel(is1, r1, sel(is2, r2, r3))
}
