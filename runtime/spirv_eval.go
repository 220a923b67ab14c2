package runtime

// The evaluator of specialization-constant expressions: the workgroup size and the
// lengths of shared arrays for given specialization values. It reads the Interface only
// and allocates nothing unless it fails, so a dispatch can call it.

// OpSpecConstantOp opcodes the evaluator implements.
const (
	opVectorShuffle        = 79
	opCompositeExtract     = 81
	opCompositeInsert      = 82
	opUConvert             = 113
	opSConvert             = 114
	opSNegate              = 126
	opIAdd                 = 128
	opISub                 = 130
	opIMul                 = 132
	opUDiv                 = 134
	opSDiv                 = 135
	opUMod                 = 137
	opSRem                 = 138
	opSMod                 = 139
	opLogicalEqual         = 164
	opLogicalNotEqual      = 165
	opLogicalOr            = 166
	opLogicalAnd           = 167
	opLogicalNot           = 168
	opSelect               = 169
	opIEqual               = 170
	opINotEqual            = 171
	opUGreaterThan         = 172
	opSGreaterThan         = 173
	opUGreaterThanEqual    = 174
	opSGreaterThanEqual    = 175
	opULessThan            = 176
	opSLessThan            = 177
	opULessThanEqual       = 178
	opSLessThanEqual       = 179
	opShiftRightLogical    = 194
	opShiftRightArithmetic = 195
	opShiftLeftLogical     = 196
	opBitwiseOr            = 197
	opBitwiseXor           = 198
	opBitwiseAnd           = 199
	opNot                  = 200

	maxEvalSteps = 1 << 14
	maxEvalDepth = 256
)

// specOpArity is the number of id operands (then literals) of each supported opcode.
var specOpArity = map[uint32]int{
	opUConvert: 1, opSConvert: 1, opSNegate: 1, opNot: 1, opLogicalNot: 1,
	opIAdd: 2, opISub: 2, opIMul: 2, opUDiv: 2, opSDiv: 2, opUMod: 2, opSRem: 2, opSMod: 2,
	opLogicalEqual: 2, opLogicalNotEqual: 2, opLogicalOr: 2, opLogicalAnd: 2,
	opIEqual: 2, opINotEqual: 2, opUGreaterThan: 2, opSGreaterThan: 2, opUGreaterThanEqual: 2,
	opSGreaterThanEqual: 2, opULessThan: 2, opSLessThan: 2, opULessThanEqual: 2, opSLessThanEqual: 2,
	opShiftRightLogical: 2, opShiftRightArithmetic: 2, opShiftLeftLogical: 2,
	opBitwiseOr: 2, opBitwiseXor: 2, opBitwiseAnd: 2,
	opSelect: 3, opCompositeExtract: 1, opCompositeInsert: 2, opVectorShuffle: 2,
}

// checkSpecOp checks an OpSpecConstantOp's operands when the evaluator implements its
// opcode: their number, and that each id operand is a constant declared before it (so
// that expressions have no cycles). Other opcodes are kept and fail if evaluated.
func (r *spvReader) checkSpecOp(c *spvConst) error {
	code := c.args[0]
	n, ok := specOpArity[code]
	if !ok {
		return nil
	}
	ops := c.args[1:]
	lits := 0
	switch code {
	case opCompositeExtract, opCompositeInsert:
		lits = 1
	}
	if len(ops) < n+lits || len(ops) > n && lits == 0 && code != opVectorShuffle {
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
	case opConstantTrue, opConstantFalse, opSpecConstantTrue, opSpecConstantFalse:
		if inSpec {
			return b2u(e.spec[c.specID] != 0), nil
		}
		return b2u(c.op == opConstantTrue || c.op == opSpecConstantTrue), nil
	case opConstantNull:
		return 0, nil
	case opConstant, opSpecConstant:
		if inSpec {
			return maskTo(uint64(e.spec[c.specID]), w), nil
		}
		v := uint64(c.args[0])
		if w > 32 {
			v |= uint64(c.args[1]) << 32
		}
		return maskTo(v, w), nil
	case opConstantComposite, opSpecConstantComposite:
		if int(comp) >= len(c.args) {
			return 0, spvErr(c.off, "component %d of a composite of %d", comp, len(c.args))
		}
		return e.value(c.args[comp], 0, depth+1)
	case opSpecConstantOp:
		v, err := e.op(c, comp, depth)
		return maskTo(v, w), err
	}
	return 0, spvErr(c.off, "constant %d cannot be evaluated", id)
}

// op evaluates component comp of an OpSpecConstantOp.
func (e *specEval) op(c *spvConst, comp uint32, depth int) (uint64, error) {
	code, ops := c.args[0], c.args[1:]
	if _, ok := specOpArity[code]; !ok {
		return 0, spvErr(c.off, "OpSpecConstantOp with opcode %d is not supported by the evaluator", code)
	}
	switch code {
	case opCompositeExtract:
		return e.extract(c, ops, comp, depth)
	case opCompositeInsert:
		if len(ops) != 3 {
			return 0, spvErr(c.off, "OpCompositeInsert with %d indexes is not supported", len(ops)-2)
		}
		if comp == ops[2] {
			return e.value(ops[0], 0, depth+1)
		}
		return e.value(ops[1], comp, depth+1)
	case opVectorShuffle:
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
	case opSelect:
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
		if k == nil || k.op != opConstantComposite && k.op != opSpecConstantComposite {
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

func unaryOp(code uint32, a uint64, ow int) uint64 {
	switch code {
	case opUConvert:
		return maskTo(a, ow)
	case opSConvert:
		return uint64(signExt(a, ow))
	case opSNegate:
		return -a
	case opLogicalNot:
		return b2u(a == 0)
	}
	return ^a // opNot
}

// binaryOp applies a two-operand opcode; ow is the width of the operands.
func binaryOp(c *spvConst, code uint32, a, b uint64, ow int) (uint64, error) {
	a, b = maskTo(a, ow), maskTo(b, ow)
	sa, sb := signExt(a, ow), signExt(b, ow)
	switch code {
	case opIAdd:
		return a + b, nil
	case opISub:
		return a - b, nil
	case opIMul:
		return a * b, nil
	case opUDiv, opSDiv, opUMod, opSRem, opSMod:
		if b == 0 {
			return 0, spvErr(c.off, "a specialization-constant expression divides by zero")
		}
		return divOp(code, a, b, sa, sb), nil
	case opShiftLeftLogical:
		return a << b, nil
	case opShiftRightLogical:
		return a >> b, nil
	case opShiftRightArithmetic:
		return uint64(sa >> min(b, 63)), nil
	case opBitwiseOr, opLogicalOr:
		return a | b, nil
	case opBitwiseXor, opLogicalNotEqual, opINotEqual:
		if code == opINotEqual {
			return b2u(a != b), nil
		}
		return a ^ b, nil
	case opBitwiseAnd, opLogicalAnd:
		return a & b, nil
	case opLogicalEqual, opIEqual:
		return b2u(a == b), nil
	}
	return compareOp(code, a, b, sa, sb), nil
}

func divOp(code uint32, a, b uint64, sa, sb int64) uint64 {
	switch code {
	case opUDiv:
		return a / b
	case opSDiv:
		return uint64(sa / sb)
	case opUMod:
		return a % b
	case opSRem:
		return uint64(sa % sb)
	}
	m := sa % sb // opSMod: the sign of the divisor
	if m != 0 && (m < 0) != (sb < 0) {
		m += sb
	}
	return uint64(m)
}

func compareOp(code uint32, a, b uint64, sa, sb int64) uint64 {
	switch code {
	case opUGreaterThan:
		return b2u(a > b)
	case opSGreaterThan:
		return b2u(sa > sb)
	case opUGreaterThanEqual:
		return b2u(a >= b)
	case opSGreaterThanEqual:
		return b2u(sa >= sb)
	case opULessThan:
		return b2u(a < b)
	case opSLessThan:
		return b2u(sa < sb)
	case opULessThanEqual:
		return b2u(a <= b)
	}
	return b2u(sa <= sb) // opSLessThanEqual
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
