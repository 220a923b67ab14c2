package runtime

import "github.com/goamp/goamp/internal/spirv"

// The evaluator of specialization-constant expressions: the workgroup size and the
// lengths of shared arrays for given specialization values. It reads the Interface only
// and allocates nothing unless it fails, so a dispatch can call it.

const (
	maxEvalSteps = 1 << 14
	maxEvalDepth = 256
)

// specOpArity is the number of id operands (then literals) of each supported opcode.
var specOpArity = map[spirv.Op]int{
	spirv.OpUConvert: 1, spirv.OpSConvert: 1, spirv.OpSNegate: 1, spirv.OpNot: 1, spirv.OpLogicalNot: 1,
	spirv.OpIAdd: 2, spirv.OpISub: 2, spirv.OpIMul: 2, spirv.OpUDiv: 2, spirv.OpSDiv: 2, spirv.OpUMod: 2, spirv.OpSRem: 2, spirv.OpSMod: 2,
	spirv.OpLogicalEqual: 2, spirv.OpLogicalNotEqual: 2, spirv.OpLogicalOr: 2, spirv.OpLogicalAnd: 2,
	spirv.OpIEqual: 2, spirv.OpINotEqual: 2, spirv.OpUGreaterThan: 2, spirv.OpSGreaterThan: 2, spirv.OpUGreaterThanEqual: 2,
	spirv.OpSGreaterThanEqual: 2, spirv.OpULessThan: 2, spirv.OpSLessThan: 2, spirv.OpULessThanEqual: 2, spirv.OpSLessThanEqual: 2,
	spirv.OpShiftRightLogical: 2, spirv.OpShiftRightArithmetic: 2, spirv.OpShiftLeftLogical: 2,
	spirv.OpBitwiseOr: 2, spirv.OpBitwiseXor: 2, spirv.OpBitwiseAnd: 2,
	spirv.OpSelect: 3, spirv.OpCompositeExtract: 1, spirv.OpCompositeInsert: 2, spirv.OpVectorShuffle: 2,
}

// checkSpecOp checks an OpSpecConstantOp's operands when the evaluator implements its
// opcode: their number, and that each id operand is a constant declared before it (so
// that expressions have no cycles). Other opcodes are kept and fail if evaluated.
func (r *spvReader) checkSpecOp(c *spvConst) error {
	code := spirv.Op(c.args[0])
	n, ok := specOpArity[code]
	if !ok {
		return nil
	}
	ops := c.args[1:]
	lits := 0
	switch code {
	case spirv.OpCompositeExtract, spirv.OpCompositeInsert:
		lits = 1
	}
	if len(ops) < n+lits || len(ops) > n && lits == 0 && code != spirv.OpVectorShuffle {
		return spvErr(c.off, "OpSpecConstantOp %d has %d operands", code, len(ops))
	}
	for _, id := range ops[:n] {
		if r.consts[id] == nil {
			return spvErr(c.off, "operand %d of OpSpecConstantOp %d is not a constant declared before it", id, code)
		}
	}
	return nil
}

// specEval evaluates constants for specialization values spec (spec[i] is the value of
// SpecId i; other specialization constants keep their defaults).
type specEval struct {
	consts map[uint32]*spvConst
	spec   []uint32
	steps  int
}

// scalarInfo is the width (1 for booleans) and signedness of t or its components.
func scalarInfo(t *Type) (width int, signed bool) {
	if t.Kind == TypeVector {
		t = t.Elem
	}
	switch t.Kind {
	case TypeBool:
		return 1, false
	case TypeInt:
		return t.Width, true
	}
	return t.Width, false
}

func maskTo(v uint64, w int) uint64 {
	if w >= 64 {
		return v
	}
	return v & (1<<uint(w) - 1)
}

func signExt(v uint64, w int) int64 {
	if w >= 64 {
		return int64(v)
	}
	s := uint(64 - w)
	return int64(v<<s) >> s
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// value is component comp (0 for scalars) of constant id.
func (e *specEval) value(id, comp uint32, depth int) (uint64, error) {
	c := e.consts[id]
	if c == nil {
		return 0, spvErr(0, "id %d is used as a constant but is not one", id)
	}
	e.steps++
	if e.steps > maxEvalSteps || depth > maxEvalDepth {
		return 0, spvErr(c.off, "a specialization-constant expression is too large to evaluate")
	}
	w, _ := scalarInfo(c.typ)
	inSpec := c.specID >= 0 && c.specID < len(e.spec)
	switch c.op {
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
		if inSpec {
			return b2u(e.spec[c.specID] != 0), nil
		}
		return b2u(c.op == spirv.OpConstantTrue || c.op == spirv.OpSpecConstantTrue), nil
	case spirv.OpConstantNull:
		return 0, nil
	case spirv.OpConstant, spirv.OpSpecConstant:
		if inSpec {
			return maskTo(uint64(e.spec[c.specID]), w), nil
		}
		v := uint64(c.args[0])
		if w > 32 {
			v |= uint64(c.args[1]) << 32
		}
		return maskTo(v, w), nil
	case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
		if int(comp) >= len(c.args) {
			return 0, spvErr(c.off, "component %d of a composite of %d", comp, len(c.args))
		}
		return e.value(c.args[comp], 0, depth+1)
	case spirv.OpSpecConstantOp:
		v, err := e.op(c, comp, depth)
		return maskTo(v, w), err
	}
	return 0, spvErr(c.off, "constant %d cannot be evaluated", id)
}

// op evaluates component comp of an OpSpecConstantOp.
func (e *specEval) op(c *spvConst, comp uint32, depth int) (uint64, error) {
	code, ops := spirv.Op(c.args[0]), c.args[1:]
	if _, ok := specOpArity[code]; !ok {
		return 0, spvErr(c.off, "OpSpecConstantOp with opcode %d is not supported by the evaluator", code)
	}
	switch code {
	case spirv.OpCompositeExtract:
		return e.extract(c, ops, comp, depth)
	case spirv.OpCompositeInsert:
		if len(ops) != 3 {
			return 0, spvErr(c.off, "OpCompositeInsert with %d indexes is not supported", len(ops)-2)
		}
		if comp == ops[2] {
			return e.value(ops[0], 0, depth+1)
		}
		return e.value(ops[1], comp, depth+1)
	case spirv.OpVectorShuffle:
		if int(comp) >= len(ops)-2 {
			return 0, spvErr(c.off, "component %d of a shuffle of %d", comp, len(ops)-2)
		}
		s, n1 := ops[2+comp], uint32(1)
		if t := e.consts[ops[0]].typ; t.Kind == TypeVector {
			n1 = uint32(t.Len)
		}
		switch {
		case s == 0xFFFFFFFF:
			return 0, nil
		case s < n1:
			return e.value(ops[0], s, depth+1)
		}
		return e.value(ops[1], s-n1, depth+1)
	case spirv.OpSelect:
		cc := uint32(0)
		if e.consts[ops[0]].typ.Kind == TypeVector {
			cc = comp
		}
		cond, err := e.value(ops[0], cc, depth+1)
		if err != nil {
			return 0, err
		}
		if cond != 0 {
			return e.value(ops[1], comp, depth+1)
		}
		return e.value(ops[2], comp, depth+1)
	}
	a, err := e.value(ops[0], comp, depth+1)
	if err != nil {
		return 0, err
	}
	ow, _ := scalarInfo(e.consts[ops[0]].typ)
	if specOpArity[code] == 1 {
		return unaryOp(code, a, ow), nil
	}
	b, err := e.value(ops[1], comp, depth+1)
	if err != nil {
		return 0, err
	}
	return binaryOp(c, code, a, b, ow)
}

// extract evaluates an OpCompositeExtract: indexes walk into composite constants; the
// last one may select a component of a vector expression.
func (e *specEval) extract(c *spvConst, ops []uint32, comp uint32, depth int) (uint64, error) {
	id, idx := ops[0], ops[1:]
	for len(idx) > 0 {
		k := e.consts[id]
		if k == nil || k.op != spirv.OpConstantComposite && k.op != spirv.OpSpecConstantComposite {
			break
		}
		if int(idx[0]) >= len(k.args) {
			return 0, spvErr(c.off, "OpCompositeExtract index %d of a composite of %d", idx[0], len(k.args))
		}
		id, idx = k.args[idx[0]], idx[1:]
	}
	switch len(idx) {
	case 0:
		return e.value(id, comp, depth+1)
	case 1:
		return e.value(id, idx[0], depth+1)
	}
	return 0, spvErr(c.off, "OpCompositeExtract of %d levels of a computed composite is not supported", len(idx))
}

func unaryOp(code spirv.Op, a uint64, ow int) uint64 {
	switch code {
	case spirv.OpUConvert:
		return maskTo(a, ow)
	case spirv.OpSConvert:
		return uint64(signExt(a, ow))
	case spirv.OpSNegate:
		return -a
	case spirv.OpLogicalNot:
		return b2u(a == 0)
	}
	return ^a // spirv.OpNot
}

// binaryOp applies a two-operand opcode; ow is the width of the operands.
func binaryOp(c *spvConst, code spirv.Op, a, b uint64, ow int) (uint64, error) {
	a, b = maskTo(a, ow), maskTo(b, ow)
	sa, sb := signExt(a, ow), signExt(b, ow)
	switch code {
	case spirv.OpIAdd:
		return a + b, nil
	case spirv.OpISub:
		return a - b, nil
	case spirv.OpIMul:
		return a * b, nil
	case spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod, spirv.OpSRem, spirv.OpSMod:
		if b == 0 {
			return 0, spvErr(c.off, "a specialization-constant expression divides by zero")
		}
		return divOp(code, a, b, sa, sb), nil
	case spirv.OpShiftLeftLogical:
		return a << b, nil
	case spirv.OpShiftRightLogical:
		return a >> b, nil
	case spirv.OpShiftRightArithmetic:
		return uint64(sa >> min(b, 63)), nil
	case spirv.OpBitwiseOr, spirv.OpLogicalOr:
		return a | b, nil
	case spirv.OpBitwiseXor, spirv.OpLogicalNotEqual, spirv.OpINotEqual:
		if code == spirv.OpINotEqual {
			return b2u(a != b), nil
		}
		return a ^ b, nil
	case spirv.OpBitwiseAnd, spirv.OpLogicalAnd:
		return a & b, nil
	case spirv.OpLogicalEqual, spirv.OpIEqual:
		return b2u(a == b), nil
	}
	return compareOp(code, a, b, sa, sb), nil
}

func divOp(code spirv.Op, a, b uint64, sa, sb int64) uint64 {
	switch code {
	case spirv.OpUDiv:
		return a / b
	case spirv.OpSDiv:
		return uint64(sa / sb)
	case spirv.OpUMod:
		return a % b
	case spirv.OpSRem:
		return uint64(sa % sb)
	}
	m := sa % sb // spirv.OpSMod: the sign of the divisor
	if m != 0 && (m < 0) != (sb < 0) {
		m += sb
	}
	return uint64(m)
}

func compareOp(code spirv.Op, a, b uint64, sa, sb int64) uint64 {
	switch code {
	case spirv.OpUGreaterThan:
		return b2u(a > b)
	case spirv.OpSGreaterThan:
		return b2u(sa > sb)
	case spirv.OpUGreaterThanEqual:
		return b2u(a >= b)
	case spirv.OpSGreaterThanEqual:
		return b2u(sa >= sb)
	case spirv.OpULessThan:
		return b2u(a < b)
	case spirv.OpSLessThan:
		return b2u(sa < sb)
	case spirv.OpULessThanEqual:
		return b2u(a <= b)
	}
	return b2u(sa <= sb) // spirv.OpSLessThanEqual
}

// WorkgroupSize returns the workgroup size for the specialization values spec (spec[i]
// is the value of SpecId i; specialization constants with other ids keep their
// defaults). It allocates nothing unless it fails.
func (in *Interface) WorkgroupSize(spec []uint32) ([3]uint32, error) {
	if in.ls.builtin == 0 && in.ls.ids == [3]uint32{} {
		return in.ls.lit, nil
	}
	e := specEval{consts: in.consts, spec: spec}
	var ws [3]uint32
	for k := range 3 {
		var v uint64
		var err error
		if in.ls.builtin != 0 {
			v, err = e.value(in.ls.builtin, uint32(k), 0)
		} else {
			v, err = e.value(in.ls.ids[k], 0, 0)
		}
		if err != nil {
			return ws, err
		}
		ws[k] = uint32(v)
	}
	return ws, nil
}

// SharedBytes returns the bytes of the module's Workgroup (shared) variables for the
// specialization values spec (as for WorkgroupSize), laid out as std430 would lay them
// out: the number a device compares with maxComputeSharedMemorySize, give or take its
// own padding. It allocates nothing unless it fails.
func (in *Interface) SharedBytes(spec []uint32) (int, error) {
	e := specEval{consts: in.consts, spec: spec}
	total := 0
	for _, v := range in.Shared {
		size, align, err := e.implicitSize(v.Type)
		if err != nil {
			return 0, err
		}
		total = min(roundUp(total, align)+size, satLimit)
	}
	return total, nil
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// implicitSize is the std430 size and alignment of t, array lengths evaluated for e.
func (e *specEval) implicitSize(t *Type) (size, align int, err error) {
	if e.steps++; e.steps > maxEvalSteps {
		return 0, 1, spvErr(0, "the shared variables' types are too large to size")
	}
	switch t.Kind {
	case TypeBool:
		return 4, 4, nil
	case TypeInt, TypeUint, TypeFloat:
		return t.Width / 8, t.Width / 8, nil
	case TypeVector:
		s := t.Elem.Width / 8
		if t.Elem.Kind == TypeBool {
			s = 4
		}
		a := t.Len
		if a == 3 {
			a = 4
		}
		return t.Len * s, a * s, nil
	case TypeMatrix:
		s, a, err := e.implicitSize(t.Elem)
		return t.Len * roundUp(s, a), a, err
	case TypeArray:
		n, err := e.value(t.lenID, 0, 0)
		if err != nil {
			return 0, 1, err
		}
		s, a, err := e.implicitSize(t.Elem)
		return satMul(int(min(n, satLimit)), roundUp(s, a)), a, err
	case TypeStruct:
		off, maxA := 0, 1
		for _, m := range t.Members {
			s, a, err := e.implicitSize(m.Type)
			if err != nil {
				return 0, 1, err
			}
			off, maxA = min(roundUp(off, a)+s, satLimit), max(maxA, a)
		}
		return roundUp(off, maxA), maxA, nil
	}
	return 0, 1, nil
}
