package accelerator

import (
	"bytes"
	"encoding/binary"
)

// SPIR-V numbers fitFloatControls reads.
const (
	spvExtension         = 10
	spvExecutionMode     = 16
	spvCapability        = 17
	spvModeSZInfNan      = 4461 // SignedZeroInfNanPreserve, with the float width as operand
	spvCapDenormPreserve = 4464 // the first of SPV_KHR_float_controls's five capabilities
	spvCapSZInfNan       = 4466
	spvCapRTZ            = 4468 // the last
)

// fitFloatControls returns spirv without the SignedZeroInfNanPreserve execution modes for
// the float widths (16, 32, 64: keep[0], keep[1], keep[2]) whose property the device
// lacks, and, where none is left, without the capability, and the SPV_KHR_float_controls
// extension where no other capability of it is declared. ampgen declares the mode in every
// kernel so that no compiler folds away Go's signed zeros, infinities and NaNs; a device
// that cannot promise it runs the kernel under its own rules (docs/kernel-language.md)
// rather than refusing it. A module that needs no change (or that is not well-formed
// SPIR-V: the pipeline's creation reports that) comes back as it is.
func fitFloatControls(spirv []byte, keep [3]bool) []byte {
	le := binary.LittleEndian
	if len(spirv)%4 != 0 || len(spirv) < 20 || le.Uint32(spirv) != 0x07230203 {
		return spirv
	}
	type span struct{ at, n int }
	var drop, caps, exts []span
	kept, other := false, false
	for i := 20; i+4 <= len(spirv); {
		w := le.Uint32(spirv[i:])
		n, op := int(w>>16)*4, w&0xffff
		if n == 0 || i+n > len(spirv) {
			return spirv
		}
		switch {
		case op == spvExecutionMode && n == 16 && le.Uint32(spirv[i+8:]) == spvModeSZInfNan:
			if width := le.Uint32(spirv[i+12:]); (width == 16 && keep[0]) || (width == 32 && keep[1]) || (width == 64 && keep[2]) {
				kept = true
			} else {
				drop = append(drop, span{i, n})
			}
		case op == spvCapability && n == 8 && le.Uint32(spirv[i+4:]) == spvCapSZInfNan:
			caps = append(caps, span{i, n})
		case op == spvCapability && n == 8 && le.Uint32(spirv[i+4:]) >= spvCapDenormPreserve && le.Uint32(spirv[i+4:]) <= spvCapRTZ:
			other = true
		case op == spvExtension && bytes.HasPrefix(spirv[i+4:i+n], []byte("SPV_KHR_float_controls\x00")):
			exts = append(exts, span{i, n})
		}
		i += n
	}
	if len(drop) == 0 {
		return spirv
	}
	if !kept {
		drop = append(drop, caps...)
		if !other {
			drop = append(drop, exts...)
		}
	}
	cut := map[int]int{}
	for _, s := range drop {
		cut[s.at] = s.n
	}
	out := make([]byte, 0, len(spirv))
	out = append(out, spirv[:20]...)
	for i := 20; i < len(spirv); {
		n := int(le.Uint32(spirv[i:])>>16) * 4
		if _, ok := cut[i]; !ok {
			out = append(out, spirv[i:i+n]...)
		}
		i += n
	}
	return out
}
