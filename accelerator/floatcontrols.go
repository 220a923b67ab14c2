package accelerator

import (
	"bytes"
	"encoding/binary"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
)

// The enumerant words fitFloatControls reads.
const (
	// SignedZeroInfNanPreserve, with the float width as operand.
	spvModeSZInfNan = uint32(spirv.ExecutionModeSignedZeroInfNanPreserve)
	spvCapSZInfNan  = uint32(spirv.CapabilitySignedZeroInfNanPreserve)
	// The first and the last of SPV_KHR_float_controls's five capabilities.
	spvCapDenormPreserve = uint32(spirv.CapabilityDenormPreserve)
	spvCapRTZ            = uint32(spirv.CapabilityRoundingModeRTZ)
)

// fitFloatControls returns spv without the SignedZeroInfNanPreserve execution modes for
// the float widths (16, 32, 64: keep[0], keep[1], keep[2]) whose property the device
// lacks, and, where none is left, without the capability, and the SPV_KHR_float_controls
// extension where no other capability of it is declared. ampgen declares the mode in every
// kernel so that no compiler folds away Go's signed zeros, infinities and NaNs; a device
// that cannot promise it runs the kernel under its own rules (docs/kernel-language.md)
// rather than refusing it. A module that needs no change (or that is not well-formed
// SPIR-V: the pipeline's creation reports that) comes back as it is.
func fitFloatControls(spv []byte, keep [3]bool) []byte {
	header, insts, err := spvwords.Parse(spv)
	if err != nil {
		return spv
	}
	var drop, caps, exts []int // instructions, by index
	kept, other := false, false
	for i, in := range insts {
		a := in.Args
		switch {
		case in.Op == spirv.OpExecutionMode && len(a) == 3 && a[1] == spvModeSZInfNan:
			if width := a[2]; (width == 16 && keep[0]) || (width == 32 && keep[1]) || (width == 64 && keep[2]) {
				kept = true
			} else {
				drop = append(drop, i)
			}
		case in.Op == spirv.OpCapability && len(a) == 1 && a[0] == spvCapSZInfNan:
			caps = append(caps, i)
		case in.Op == spirv.OpCapability && len(a) == 1 && a[0] >= spvCapDenormPreserve && a[0] <= spvCapRTZ:
			other = true
		case in.Op == spirv.OpExtension && isFloatControls(a):
			exts = append(exts, i)
		}
	}
	if len(drop) == 0 {
		return spv
	}
	if !kept {
		drop = append(drop, caps...)
		if !other {
			drop = append(drop, exts...)
		}
	}
	cut := map[int]bool{}
	for _, i := range drop {
		cut[i] = true
	}
	out := make([]spvwords.Inst, 0, len(insts))
	for i, in := range insts {
		if !cut[i] {
			out = append(out, in)
		}
	}
	return spvwords.Encode(header, out)
}

// isFloatControls says whether an OpExtension's operand words name SPV_KHR_float_controls.
func isFloatControls(words []uint32) bool {
	b := make([]byte, 0, 4*len(words))
	for _, w := range words {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return bytes.HasPrefix(b, []byte("SPV_KHR_float_controls\x00"))
}
