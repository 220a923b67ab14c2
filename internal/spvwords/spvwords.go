// Package spvwords reads a SPIR-V module into its instructions and writes instructions back
// into a module, for the passes that edit a compiled module word by word: ampgen's
// exactness pass (translate) and the accelerator's float-controls fitting. It imports only
// the standard library.
package spvwords

import "encoding/binary"

// Magic is the first word of a SPIR-V module.
const Magic = 0x07230203

// Inst is one instruction: its opcode and its operand words (a result type and id first,
// where the instruction has them).
type Inst struct {
	Op   uint32
	Args []uint32
}

// Parse splits spv into its five header words and its instructions; ok is false where spv
// is not a well-formed module (its length, its magic number, an instruction's word count).
func Parse(spv []byte) (header []uint32, insts []Inst, ok bool) {
	if len(spv)%4 != 0 || len(spv) < 20 || binary.LittleEndian.Uint32(spv) != Magic {
		return nil, nil, false
	}
	words := make([]uint32, len(spv)/4)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(spv[4*i:])
	}
	for i := 5; i < len(words); {
		n := int(words[i] >> 16)
		if n == 0 || i+n > len(words) {
			return nil, nil, false
		}
		insts = append(insts, Inst{Op: words[i] & 0xffff, Args: words[i+1 : i+n]})
		i += n
	}
	return words[:5], insts, true
}

// Encode writes the header and the instructions as a module.
func Encode(header []uint32, insts []Inst) []byte {
	n := len(header)
	for _, in := range insts {
		n += 1 + len(in.Args)
	}
	b := make([]byte, 0, 4*n)
	for _, w := range header {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	for _, in := range insts {
		b = binary.LittleEndian.AppendUint32(b, uint32(1+len(in.Args))<<16|in.Op)
		for _, w := range in.Args {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
	}
	return b
}
