package translate

import (
	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
)

// exactOps are the SPIR-V opcodes of float arithmetic and of conversions to and from
// floats. Each has its result id in its second operand word.
var exactOps = map[spirv.Op]bool{
	spirv.OpConvertFToU: true, spirv.OpConvertFToS: true, spirv.OpConvertSToF: true,
	spirv.OpConvertUToF: true, spirv.OpFConvert: true, spirv.OpFNegate: true,
	spirv.OpFAdd: true, spirv.OpFSub: true, spirv.OpFMul: true, spirv.OpFDiv: true,
	spirv.OpFRem: true, spirv.OpFMod: true, spirv.OpVectorTimesScalar: true,
	spirv.OpMatrixTimesScalar: true, spirv.OpVectorTimesMatrix: true,
	spirv.OpMatrixTimesVector: true, spirv.OpMatrixTimesMatrix: true,
	spirv.OpOuterProduct: true, spirv.OpDot: true,
}

// The enumerant words exactFloats reads and writes.
const (
	capFloat16        = uint32(spirv.CapabilityFloat16)
	capFloat64        = uint32(spirv.CapabilityFloat64)
	decNoContraction  = uint32(spirv.DecorationNoContraction)
	modeSignedZeroInf = uint32(spirv.ExecutionModeSignedZeroInfNanPreserve) // with the float width as operand
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
		inBody = inBody || op == spirv.OpFunction
		switch {
		case op == spirv.OpCapability && len(a) == 1 && a[0] == capFloat16:
			widths = append(widths, 16)
		case op == spirv.OpCapability && len(a) == 1 && a[0] == capFloat64:
			widths = append(widths, 64)
		case op == spirv.OpExecutionMode && len(a) == 3 && a[1] == modeSignedZeroInf && a[2] == 32:
			mode = i
		case op == spirv.OpDecorate && len(a) == 2 && a[1] == decNoContraction:
			decorated[a[0]] = true
		case exactOps[op] && len(a) > 1:
			ops = append(ops, in)
		}
		if annot < 0 && annotationOrType(op) {
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
					out = append(out, spvwords.Inst{Op: spirv.OpDecorate, Args: []uint32{id, decNoContraction}})
				}
			}
		}
		out = append(out, in)
		if i == mode {
			for _, width := range widths {
				out = append(out, spvwords.Inst{Op: spirv.OpExecutionMode, Args: []uint32{in.Args[0], modeSignedZeroInf, width}})
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
		if o.Op == spirv.OpFMul || o.Op == spirv.OpVectorTimesScalar {
			product[o.Args[1]] = true
		}
	}
	fusable := map[uint32]bool{}
	for _, o := range ops {
		if (o.Op != spirv.OpFAdd && o.Op != spirv.OpFSub) || len(o.Args) != 4 || decorated[o.Args[1]] {
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

// annotationOrType reports whether op is a decoration or a type declaration: the
// section before which exactFloats adds its decorations.
func annotationOrType(op spirv.Op) bool {
	in, ok := op.Info()
	return ok && (in.Class == "Annotation" || in.Class == "Type-Declaration")
}
