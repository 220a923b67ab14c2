// Package spvwords reads a SPIR-V module into its instructions and writes instructions back
// into a module. It is the one place that knows the module's framing (the header, each
// instruction's word count and opcode, the byte order) for the code that reads or edits a
// compiled module word by word: the runtime's interface reader (runtime.ReadInterface),
// ampgen's exactness pass (translate) and the accelerator's float-controls fitting. It
// imports only the standard library and internal/spirv.
package spvwords

import (
	"encoding/binary"
	"fmt"

	"github.com/goamp/goamp/internal/spirv"
)

// Inst is one instruction: its opcode and its operand words (a result type and id first,
// where the instruction has them).
type Inst struct {
	// Op is the opcode.
	Op spirv.Op
	// Args are the operand words.
	Args []uint32
	// Off is the byte offset in the module at which Parse read the instruction (0 for an
	// instruction that a pass makes); Encode does not use it.
	Off int
}

// Error says why a module is not well-formed SPIR-V and where: the byte offset of the
// word at fault.
type Error struct {
	// Offset is the byte offset of the word at fault.
	Offset int
	// Reason says what is wrong, with the values involved.
	Reason string
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("goamp/spvwords: invalid SPIR-V at byte %d: %s", e.Offset, e.Reason)
}

func errorf(off int, format string, args ...any) *Error {
	return &Error{Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// Parse splits spv into its five header words and its instructions, in either byte order
// (a module whose magic number reads byte-swapped is big-endian). A module that is not
// well-formed as far as its framing goes (its length, its magic number, an instruction's
// word count) is an *Error.
func Parse(spv []byte) (header []uint32, insts []Inst, err error) {
	if len(spv)%4 != 0 {
		return nil, nil, errorf(len(spv)&^3, "the module's length %d is not a multiple of 4", len(spv))
	}
	if len(spv) < 20 {
		return nil, nil, errorf(0, "the module has %d bytes, less than the 20-byte header", len(spv))
	}
	var order binary.ByteOrder = binary.LittleEndian
	switch m := binary.LittleEndian.Uint32(spv); m {
	case spirv.MagicNumber:
	case 0x03022307:
		order = binary.BigEndian
	default:
		return nil, nil, errorf(0, "bad magic number %#08x (SPIR-V's is %#08x)", m, spirv.MagicNumber)
	}
	words := make([]uint32, len(spv)/4)
	for i := range words {
		words[i] = order.Uint32(spv[4*i:])
	}
	for i := 5; i < len(words); {
		n, op := int(words[i]>>16), words[i]&0xffff
		if n == 0 {
			return nil, nil, errorf(4*i, "instruction with opcode %d has a word count of 0", op)
		}
		if n > len(words)-i {
			return nil, nil, errorf(4*i, "instruction with opcode %d is truncated: it has %d words, %d remain", op, n, len(words)-i)
		}
		insts = append(insts, Inst{Op: spirv.Op(op), Args: words[i+1 : i+n], Off: 4 * i})
		i += n
	}
	return words[:5], insts, nil
}

// Encode writes the header and the instructions as a little-endian module.
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
		b = binary.LittleEndian.AppendUint32(b, uint32(1+len(in.Args))<<16|uint32(in.Op))
		for _, w := range in.Args {
			b = binary.LittleEndian.AppendUint32(b, w)
		}
	}
	return b
}
