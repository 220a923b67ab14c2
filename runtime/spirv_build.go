package runtime

import (
	"cmp"
	"maps"
	"slices"

	"github.com/goamp/goamp/internal/spirv"
)

// noDeco stands for the decorations of an id that has none.
var noDeco = newDeco()

func (r *spvReader) decoPeek(id uint32) *spvDeco {
	if d := r.deco[id]; d != nil {
		return d
	}
	return noDeco
}

// build resolves what the pass over a module of size bytes collected into an Interface.
func (r *spvReader) build(size int) (*Interface, error) {
	if r.entry == 0 {
		return nil, spvErr(size, "the module has no GLCompute entry point named \"main\"")
	}
	if r.open >= 0 {
		return nil, spvErr(size, "the module ends inside the function at byte %d: it is truncated", r.open)
	}
	if !r.funcs[r.entry] {
		return nil, spvErr(size, "the entry point main (id %d) is not a function of the module", r.entry)
	}
	for _, c := range r.calls {
		if !r.funcs[c.args[2]] {
			return nil, spvErr(c.off, "OpFunctionCall calls %d, which is not a function of the module", c.args[2])
		}
	}
	in := &Interface{consts: r.consts, LocalSizeSpecIDs: [3]int{-1, -1, -1}, Capabilities: r.caps}
	for _, id := range slices.Sorted(maps.Keys(r.consts)) {
		c := r.consts[id]
		t, err := r.typeOf(c.typeID, c.off)
		if err != nil {
			return nil, err
		}
		c.typ = t
		if err := checkConstWords(c); err != nil {
			return nil, err
		}
		if c.op == spirv.OpSpecConstant || c.op == spirv.OpSpecConstantTrue || c.op == spirv.OpSpecConstantFalse {
			c.specID = r.decoPeek(id).specID
		}
	}
	for _, d := range r.deco {
		if d.specID >= 0 {
			in.SpecIDs = append(in.SpecIDs, d.specID)
		}
	}
	slices.Sort(in.SpecIDs)
	in.SpecIDs = slices.Compact(in.SpecIDs)
	for _, v := range r.vars {
		if err := r.variable(in, v); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(in.Buffers, func(a, b StorageBuffer) int { return cmp.Compare(a.Binding, b.Binding) })
	slices.Sort(in.OtherBindings)
	if err := r.arrayLengths(in); err != nil {
		return nil, err
	}
	if err := r.localSize(in, size); err != nil {
		return nil, err
	}
	if _, err := in.SharedBytes(nil); err != nil {
		return nil, err
	}
	return in, nil
}

// checkConstWords checks that a scalar constant has the value words its width needs.
func checkConstWords(c *spvConst) error {
	if c.op != spirv.OpConstant && c.op != spirv.OpSpecConstant {
		return nil
	}
	switch c.typ.Kind {
	case TypeInt, TypeUint, TypeFloat:
	default:
		return spvErr(c.off, "a scalar constant has the non-scalar type %s", c.typ)
	}
	if n := (c.typ.Width + 31) / 32; len(c.args) < n {
		return spvErr(c.off, "a %d-bit constant has %d value words", c.typ.Width, len(c.args))
	}
	return nil
}

// typeOf resolves type id, referenced by the instruction at off.
func (r *spvReader) typeOf(id uint32, off int) (*Type, error) {
	if t := r.types[id]; t != nil {
		return t, nil
	}
	d, ok := r.typeDefs[id]
	if !ok {
		return nil, spvErr(off, "id %d is used as a type but is not a type declaration", id)
	}
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxTypeDepth {
		return nil, spvErr(d.off, "types nest more than %d deep, or refer to themselves", maxTypeDepth)
	}
	t, err := r.newType(id, d)
	if err != nil {
		return nil, err
	}
	r.types[id] = t
	return t, nil
}

// newType builds the Type of declaration d.
func (r *spvReader) newType(id uint32, d rawInst) (*Type, error) {
	a := d.args
	t := &Type{Name: r.names[id]}
	switch d.op {
	case spirv.OpTypeBool:
		t.Kind = TypeBool
	case spirv.OpTypeInt:
		t.Kind, t.Width = TypeUint, int(a[1])
		if a[2] != 0 {
			t.Kind = TypeInt
		}
		if a[1] != 8 && a[1] != 16 && a[1] != 32 && a[1] != 64 {
			return nil, spvErr(d.off, "OpTypeInt has width %d", a[1])
		}
	case spirv.OpTypeFloat:
		t.Kind, t.Width = TypeFloat, int(a[1])
		if a[1] != 16 && a[1] != 32 && a[1] != 64 {
			return nil, spvErr(d.off, "OpTypeFloat has width %d", a[1])
		}
	case spirv.OpTypeVector, spirv.OpTypeMatrix:
		return r.vectorType(t, d)
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray:
		t.Kind = TypeRuntimeArray
		if d.op == spirv.OpTypeArray {
			t.Kind, t.lenID = TypeArray, a[2]
			if r.consts[a[2]] == nil {
				return nil, spvErr(d.off, "the length %d of array type %d is not a constant", a[2], id)
			}
		}
		t.Stride = max(r.decoPeek(id).arrayStride, 0)
		var err error
		t.Elem, err = r.typeOf(a[1], d.off)
		return t, err
	case spirv.OpTypeStruct:
		return r.structType(id, t, d)
	}
	return t, nil
}

// vectorType completes a vector or matrix type.
func (r *spvReader) vectorType(t *Type, d rawInst) (*Type, error) {
	elem, err := r.typeOf(d.args[1], d.off)
	if err != nil {
		return nil, err
	}
	t.Elem, t.Len = elem, int(d.args[2])
	if d.op == spirv.OpTypeVector {
		t.Kind = TypeVector
		if elem.Kind < TypeBool || elem.Kind > TypeFloat || d.args[2] < 2 || d.args[2] > 16 {
			return nil, spvErr(d.off, "OpTypeVector of %d %s components", d.args[2], elem)
		}
		return t, nil
	}
	t.Kind = TypeMatrix
	if elem.Kind != TypeVector || d.args[2] < 2 || d.args[2] > 4 {
		return nil, spvErr(d.off, "OpTypeMatrix of %d %s columns", d.args[2], elem)
	}
	return t, nil
}

// structType completes a struct type with its members and their decorations.
func (r *spvReader) structType(id uint32, t *Type, d rawInst) (*Type, error) {
	t.Kind = TypeStruct
	t.Members = make([]Member, len(d.args)-1)
	for i, mid := range d.args[1:] {
		mt, err := r.typeOf(mid, d.off)
		if err != nil {
			return nil, err
		}
		k := memberKey{id, uint32(i)}
		md := noDeco
		if x := r.mdeco[k]; x != nil {
			md = x
		}
		t.Members[i] = Member{Name: r.mnames[k], Offset: md.offset, Type: mt, MatrixStride: max(md.matrixStride, 0),
			NonWritable: md.nonWrite, NonReadable: md.nonRead}
	}
	return t, nil
}

// arrayLengths sets the Len of every array type from its length's default value, then
// the explicit sizes of all types.
func (r *spvReader) arrayLengths(in *Interface) error {
	e := specEval{consts: in.consts}
	for _, id := range slices.Sorted(maps.Keys(r.types)) {
		t := r.types[id]
		if t.Kind != TypeArray {
			continue
		}
		n, err := e.value(t.lenID, 0, 0)
		if err != nil {
			return err
		}
		t.Len = int(min(n, satLimit))
	}
	for _, t := range r.types {
		computeSizes(t)
	}
	if in.Push != nil {
		in.Push.Size = explicitSize(in.Push.Block, 0)
	}
	return nil
}

// variable adds a module-scope variable to the interface.
func (r *spvReader) variable(in *Interface, v rawInst) error {
	ptrID, id, class := v.args[0], v.args[1], spirv.StorageClass(v.args[2])
	pd, ok := r.typeDefs[ptrID]
	if !ok || pd.op != spirv.OpTypePointer {
		return spvErr(v.off, "the type %d of variable %d is not a pointer type", ptrID, id)
	}
	if spirv.StorageClass(pd.args[1]) != class {
		return spvErr(v.off, "variable %d has storage class %d, its pointer type %d has %d", id, class, ptrID, pd.args[1])
	}
	switch class {
	case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassUniformConstant,
		spirv.StorageClassPushConstant, spirv.StorageClassWorkgroup:
	default:
		return nil
	}
	t, err := r.typeOf(pd.args[2], v.off)
	if err != nil {
		return err
	}
	name := r.names[id]
	if name == "" {
		name = t.Name
	}
	switch class {
	case spirv.StorageClassPushConstant:
		if in.Push != nil {
			return spvErr(v.off, "a second push-constant variable (%d)", id)
		}
		if t.Kind != TypeStruct {
			return spvErr(v.off, "the push-constant variable %d is a %s, not a block", id, t)
		}
		in.Push = &PushConstants{Name: name, Block: t} // Size: arrayLengths
		return nil
	case spirv.StorageClassWorkgroup:
		in.Shared = append(in.Shared, SharedVariable{Name: name, Type: t})
		return nil
	}
	d := r.decoPeek(id)
	switch {
	case d.binding < 0:
		return spvErr(v.off, "resource variable %d (%s) has no Binding decoration", id, name)
	case d.set != 0:
		return spvErr(v.off, "resource variable %d (%s) at binding %d is in descriptor set %d; goamp binds set 0 only",
			id, name, d.binding, d.set)
	}
	td := r.decoPeek(pd.args[2])
	if t.Kind != TypeStruct || !(class == spirv.StorageClassStorageBuffer && td.block || class == spirv.StorageClassUniform && td.bufferBlock) {
		in.OtherBindings = append(in.OtherBindings, d.binding)
		return nil
	}
	in.addBuffer(d.binding, bufferVar(name, t, d, class == spirv.StorageClassUniform))
	return nil
}

// bufferVar describes a storage-buffer variable of block type t.
func bufferVar(name string, t *Type, d *spvDeco, bufferBlock bool) BufferVariable {
	bv := BufferVariable{Name: name, Block: t, NonWritable: d.nonWrite, NonReadable: d.nonRead, BufferBlock: bufferBlock}
	allW, allR := len(t.Members) > 0, len(t.Members) > 0
	for _, m := range t.Members {
		allW = allW && m.NonWritable
		allR = allR && m.NonReadable
	}
	bv.NonWritable = bv.NonWritable || allW
	bv.NonReadable = bv.NonReadable || allR
	if n := len(t.Members); n > 0 {
		if last := t.Members[n-1]; last.Type.Kind == TypeArray || last.Type.Kind == TypeRuntimeArray {
			bv.Elem, bv.ArrayStride, bv.ArrayOffset = last.Type.Elem, last.Type.Stride, last.Offset
		}
	}
	return bv
}

func (in *Interface) addBuffer(binding int, v BufferVariable) {
	for i := range in.Buffers {
		if in.Buffers[i].Binding == binding {
			in.Buffers[i].Vars = append(in.Buffers[i].Vars, v)
			return
		}
	}
	in.Buffers = append(in.Buffers, StorageBuffer{Binding: binding, Vars: []BufferVariable{v}})
}

// localSize finds where the workgroup size comes from and evaluates its defaults.
func (r *spvReader) localSize(in *Interface, size int) error {
	for _, id := range slices.Sorted(maps.Keys(r.deco)) {
		if r.deco[id].builtin == int(spirv.BuiltInWorkgroupSize) && r.consts[id] != nil {
			in.ls.builtin = id
			break
		}
	}
	found := in.ls.builtin != 0
	for _, m := range r.modes {
		mode := spirv.ExecutionMode(m.args[1])
		lit := m.op == spirv.OpExecutionMode && mode == spirv.ExecutionModeLocalSize
		if m.args[0] != r.entry || !lit && mode != spirv.ExecutionModeLocalSizeId {
			continue
		}
		if len(m.args) < 5 {
			return spvErr(m.off, "a LocalSize execution mode needs 3 operands")
		}
		if lit {
			in.ls.lit = [3]uint32(m.args[2:5])
		} else {
			in.ls.ids = [3]uint32(m.args[2:5])
			for _, id := range in.ls.ids {
				if r.consts[id] == nil {
					return spvErr(m.off, "LocalSizeId operand %d is not a constant", id)
				}
			}
		}
		found = true
	}
	if !found {
		return spvErr(size, "the entry point has no LocalSize, LocalSizeId or WorkgroupSize built-in")
	}
	ws, err := in.WorkgroupSize(nil)
	if err != nil {
		return err
	}
	in.LocalSize = ws
	in.fixed = true
	budget := maxEvalSteps
	for k := range 3 {
		id := in.lsComponent(k)
		if c := r.consts[id]; c != nil && c.specID >= 0 {
			in.LocalSizeSpecIDs[k] = c.specID
		}
		in.fixed = in.fixed && !in.dependsOnSpec(id, &budget)
	}
	return nil
}

// lsComponent returns the constant that is component k of the workgroup size, or 0
// when it is a literal.
func (in *Interface) lsComponent(k int) uint32 {
	if b := in.ls.builtin; b != 0 {
		c := in.consts[b]
		if (c.op == spirv.OpConstantComposite || c.op == spirv.OpSpecConstantComposite) && k < len(c.args) {
			return c.args[k]
		}
		return b
	}
	return in.ls.ids[k]
}

// dependsOnSpec reports whether constant id depends on a specialization constant;
// *budget bounds the constants visited (past it, the answer is yes).
func (in *Interface) dependsOnSpec(id uint32, budget *int) bool {
	c := in.consts[id]
	if c == nil {
		return false
	}
	if *budget--; *budget < 0 {
		return true
	}
	switch c.op {
	case spirv.OpSpecConstant, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstantOp:
		return true
	case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
		for _, a := range c.args {
			if in.dependsOnSpec(a, budget) {
				return true
			}
		}
	}
	return false
}

// explicitSize is the size in bytes of t in an explicitly laid out block (push
// constants, buffers); matrixStride is the member's MatrixStride decoration. It reads
// the sizes that computeSizes left in the types.
func explicitSize(t *Type, matrixStride int) int {
	if t.Kind == TypeMatrix && matrixStride > 0 {
		return satMul(t.Len, matrixStride)
	}
	return t.size
}

// computeSizes computes the explicit size of t and of the types in it, once each.
func computeSizes(t *Type) {
	if t.sized {
		return
	}
	t.sized = true
	if t.Elem != nil {
		computeSizes(t.Elem)
	}
	for _, m := range t.Members {
		computeSizes(m.Type)
	}
	switch t.Kind {
	case TypeBool:
		t.size = 4
	case TypeInt, TypeUint, TypeFloat:
		t.size = t.Width / 8
	case TypeVector, TypeMatrix:
		t.size = satMul(t.Len, t.Elem.size)
	case TypeArray:
		if t.Stride > 0 {
			t.size = satMul(t.Len, t.Stride)
		} else {
			t.size = satMul(t.Len, t.Elem.size)
		}
	case TypeStruct:
		end, off := 0, 0
		for _, m := range t.Members {
			if m.Offset >= 0 {
				off = m.Offset
			}
			off = min(off+explicitSize(m.Type, m.MatrixStride), satLimit)
			end = max(end, off)
		}
		t.size = end
	}
}

// satLimit caps sizes and lengths: any larger number exceeds every device.
const satLimit = 1 << 40

func satMul(a, b int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > satLimit/b {
		return satLimit
	}
	return a * b
}
