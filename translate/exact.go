package translate

import "encoding/binary"

// exactOps are the SPIR-V opcodes of float arithmetic and of conversions to and from
// floats: OpConvertFToU 109, OpConvertFToS 110, OpConvertSToF 111, OpConvertUToF 112,
// OpFConvert 115, OpFNegate 127, OpFAdd 129, OpFSub 131, OpFMul 133, OpFDiv 136, OpFRem
// 140, OpFMod 141, OpVectorTimesScalar 142 .. OpDot 148. Each has its result id in word 2.
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
	if len(spv)%4 != 0 || len(spv) < 20 || binary.LittleEndian.Uint32(spv) != 0x07230203 {
		return spv
	}
	words := make([]uint32, len(spv)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(spv[4*i:])
	}
	var ops []int // the float operations' instructions
	var widths []uint32
	mode, annot := -1, -1 // the 32-bit mode's instruction; the first annotation (or type)
	decorated := map[uint32]bool{}
	uses := map[uint32]int{} // words of function bodies: an id's definition and uses, or more
	inBody := false
	for i := 5; i < len(words); {
		n, op := int(words[i]>>16), words[i]&0xffff
		if n == 0 || i+n > len(words) {
			return spv
		}
		if op == opFunction {
			inBody = true
		}
		switch {
		case op == opCapability && n == 2 && words[i+1] == capFloat16:
			widths = append(widths, 16)
		case op == opCapability && n == 2 && words[i+1] == capFloat64:
			widths = append(widths, 64)
		case op == opExecutionMode && n == 4 && words[i+2] == modeSignedZeroInf && words[i+3] == 32:
			mode = i
		case op == opDecorate && n == 3 && words[i+2] == decNoContraction:
			decorated[words[i+1]] = true
		case exactOps[op] && n > 2:
			ops = append(ops, i)
		}
		if annot < 0 && (op >= 71 && op <= 75 || op == 332 || op == 5632 || op == 5633 || op >= 19 && op <= 39) {
			annot = i
		}
		if inBody {
			for _, w := range words[i+1 : i+n] {
				uses[w]++
			}
		}
		i += n
	}
	if annot < 0 {
		return spv
	}
	fusable := contractible(words, ops, uses, decorated)
	out := make([]uint32, 0, len(words)+3*len(ops)+4*len(widths))
	for i, w := range words {
		if i == annot {
			for _, at := range ops {
				if id := words[at+2]; !fusable[id] && !decorated[id] {
					out = append(out, 3<<16|opDecorate, id, decNoContraction)
				}
			}
		}
		out = append(out, w)
		if i == mode+3 && mode >= 0 {
			for _, width := range widths {
				out = append(out, 4<<16|opExecutionMode, words[mode+1], modeSignedZeroInf, width)
			}
		}
	}
	b := make([]byte, 0, 4*len(out))
	for _, w := range out {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// contractible returns the result ids of the pairs a*b + c that may fuse: an OpFAdd or
// OpFSub with an operand that an OpFMul (or OpVectorTimesScalar) computes for it alone and
// that nothing marked precise, with that product; one product an addition.
func contractible(words []uint32, ops []int, uses map[uint32]int, decorated map[uint32]bool) map[uint32]bool {
	product := map[uint32]bool{}
	for _, at := range ops {
		if op := words[at] & 0xffff; op == opFMul || op == opVectorTimesScalar {
			product[words[at+2]] = true
		}
	}
	fusable := map[uint32]bool{}
	for _, at := range ops {
		if op := words[at] & 0xffff; (op != opFAdd && op != opFSub) || words[at]>>16 != 5 || decorated[words[at+2]] {
			continue
		}
		for _, x := range words[at+3 : at+5] {
			if product[x] && uses[x] == 2 && !decorated[x] && !fusable[x] { // defined, used here
				fusable[x], fusable[words[at+2]] = true, true
				break
			}
		}
	}
	return fusable
}
