package translate

import "github.com/goamp/goamp/internal/spvwords"

// exactOps are the SPIR-V opcodes of float arithmetic and of conversions to and from
// floats: OpConvertFToU 109, OpConvertFToS 110, OpConvertSToF 111, OpConvertUToF 112,
// OpFConvert 115, OpFNegate 127, OpFAdd 129, OpFSub 131, OpFMul 133, OpFDiv 136, OpFRem
// 140, OpFMod 141, OpVectorTimesScalar 142 .. OpDot 148. Each has its result id in its
// second operand word.
var exactOps = map[uint32]bool{109: true, 110: true, 111: true, 112: true, 115: true, 127: true,
	129: true, 131: true, 133: true, 136: true, 140: true, 141: true, 142: true, 143: true,
	144: true, 145: true, 146: true, 147: true, 148: true}

// SPIR-V numbers exactFloats reads and writes.
const (
	opCapability        = 17
	opExecutionMode     = 16
	opDecorate          = 71
	opFunction          = 54
	opFAdd              = 129
	opFSub              = 131
	opFMul              = 133
	opVectorTimesScalar = 142
	capFloat16          = 9
	capFloat64          = 10
	decNoContraction    = 42
	modeSignedZeroInf   = 4461 // SignedZeroInfNanPreserve, with the float width as operand
)

// exactFloats makes the float arithmetic of the SPIR-V module spv exact for the compilers
// behind the driver, as Go's is: it decorates the result of every float operation and
// conversion NoContraction, so that none may regroup a sum (Kahan's compensation vanished
// on lavapipe, whose NIR regrouped x+c1+c2), fold int32(float32(i)) to i (lavapipe did,
// where Go rounds to float32 first), or cancel x-x, and a GPU computes what Go computes,
// operation by operation. The one exception is Go's own: a product whose only use is an
// addition or subtraction, a*b + c, may fuse into one rounding (the Go specification
// allows it, and arm64's Go does it; NVIDIA's GPUs run n-body 1.45 times as fast with it),
// so that multiply and that add stay undecorated, unless the translator marked the
// product precise (an explicit float32(a*b), which in Go prevents fusion: ampMulR). GLSL's
// precise qualifier says the rest only for the expressions that reach a precise variable,
// and glslang never marks conversions, so ampgen marks the whole module here, after glslc.
// And where the module computes in 16- or 64-bit floats it adds the
// SignedZeroInfNanPreserve execution mode for those widths beside the 32-bit one that
// floatControls declares. Modules that are not well-formed SPIR-V are returned as they
// are (spirv-val and the runtime's reader report them).
func exactFloats(spv []byte) []byte {
	header, insts, err := spvwords.Parse(spv)
	if err != nil {
		return spv
	}
	var ops []spvwords.Inst // the float operations
	var widths []uint32
	mode, annot := -1, -1 // the 32-bit mode's instruction; the first annotation (or type)
	decorated := map[uint32]bool{}
	uses := map[uint32]int{} // words of function bodies: an id's definition and uses, or more
	inBody := false
	for i, in := range insts {
		op, a := in.Op, in.Args
		inBody = inBody || op == opFunction
		switch {
		case op == opCapability && len(a) == 1 && a[0] == capFloat16:
			widths = append(widths, 16)
		case op == opCapability && len(a) == 1 && a[0] == capFloat64:
			widths = append(widths, 64)
		case op == opExecutionMode && len(a) == 3 && a[1] == modeSignedZeroInf && a[2] == 32:
			mode = i
		case op == opDecorate && len(a) == 2 && a[1] == decNoContraction:
			decorated[a[0]] = true
		case exactOps[op] && len(a) > 1:
			ops = append(ops, in)
		}
		if annot < 0 && (op >= 71 && op <= 75 || op == 332 || op == 5632 || op == 5633 || op >= 19 && op <= 39) {
			annot = i
		}
		if inBody {
			for _, w := range a {
				uses[w]++
			}
		}
	}
	if annot < 0 {
		return spv
	}
	fusable := contractible(ops, uses, decorated)
	out := make([]spvwords.Inst, 0, len(insts)+len(ops)+len(widths))
	for i, in := range insts {
		if i == annot {
			for _, o := range ops {
				if id := o.Args[1]; !fusable[id] && !decorated[id] {
					out = append(out, spvwords.Inst{Op: opDecorate, Args: []uint32{id, decNoContraction}})
				}
			}
		}
		out = append(out, in)
		if i == mode {
			for _, width := range widths {
				out = append(out, spvwords.Inst{Op: opExecutionMode, Args: []uint32{in.Args[0], modeSignedZeroInf, width}})
			}
		}
	}
	return spvwords.Encode(header, out)
}

// contractible returns the result ids of the pairs a*b + c that may fuse: an OpFAdd or
// OpFSub with an operand that an OpFMul (or OpVectorTimesScalar) computes for it alone and
// that nothing marked precise, with that product; one product an addition.
func contractible(ops []spvwords.Inst, uses map[uint32]int, decorated map[uint32]bool) map[uint32]bool {
	product := map[uint32]bool{}
	for _, o := range ops {
		if o.Op == opFMul || o.Op == opVectorTimesScalar {
			product[o.Args[1]] = true
		}
	}
	fusable := map[uint32]bool{}
	for _, o := range ops {
		if (o.Op != opFAdd && o.Op != opFSub) || len(o.Args) != 4 || decorated[o.Args[1]] {
			continue
		}
		for _, x := range o.Args[2:] {
			if product[x] && uses[x] == 2 && !decorated[x] && !fusable[x] { // defined, used here
				fusable[x], fusable[o.Args[1]] = true, true
				break
			}
		}
	}
	return fusable
}
