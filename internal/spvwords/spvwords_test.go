package spvwords

import (
	"encoding/binary"
	"testing"

	"github.com/goamp/goamp/internal/spirv"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module is a small module of words in little-endian (or big-endian) bytes.
func module(order binary.AppendByteOrder, words ...uint32) []byte {
	var spv []byte
	for _, w := range words {
		spv = order.AppendUint32(spv, w)
	}
	return spv
}

// TestParseEncode: a module, in either byte order, comes back word for word, each
// instruction with the offset it was read at.
func TestParseEncode(t *testing.T) {
	capOp, mem, mode := uint32(spirv.OpCapability), uint32(spirv.OpMemoryModel), uint32(spirv.OpExecutionMode)
	words := []uint32{spirv.MagicNumber, 0x10300, 0, 20, 0, 2<<16 | capOp, 1, 3<<16 | mem, 0, 1, 4<<16 | mode, 4, 17, 64}
	want := []Inst{{Op: spirv.OpCapability, Args: []uint32{1}, Off: 20},
		{Op: spirv.OpMemoryModel, Args: []uint32{0, 1}, Off: 28},
		{Op: spirv.OpExecutionMode, Args: []uint32{4, 17, 64}, Off: 40}}
	le := module(binary.LittleEndian, words...)
	for _, spv := range [][]byte{le, module(binary.BigEndian, words...)} {
		header, insts, err := Parse(spv)
		require.NoError(t, err)
		assert.Equal(t, words[:5], header)
		assert.Equal(t, want, insts)
		assert.Equal(t, le, Encode(header, insts))
	}
}

// TestParseErrors: what is not a module is an *Error naming the byte at fault and why.
func TestParseErrors(t *testing.T) {
	good := module(binary.LittleEndian, spirv.MagicNumber, 0x10300, 0, 20, 0, 2<<16|17, 1, 3<<16|14, 0, 1)
	for _, c := range []struct {
		name   string
		spv    []byte
		offset int
		reason string
	}{
		{"empty", nil, 0, "the module has 0 bytes, less than the 20-byte header"},
		{"short", good[:16], 0, "the module has 16 bytes, less than the 20-byte header"},
		{"odd length", good[:len(good)-1], len(good) - 4, "the module's length 39 is not a multiple of 4"},
		{"magic", append(module(binary.LittleEndian, 0xdeadbeef), good[4:]...), 0,
			"bad magic number 0xdeadbeef (SPIR-V's is 0x07230203)"},
		{"truncated", good[:len(good)-4], 28, "instruction with opcode 14 is truncated: it has 3 words, 2 remain"},
		{"zero word count", append(append([]byte(nil), good[:20]...), 17, 0, 0, 0), 20,
			"instruction with opcode 17 has a word count of 0"},
	} {
		_, _, err := Parse(c.spv)
		var e *Error
		if assert.ErrorAs(t, err, &e, c.name) {
			assert.Equal(t, c.offset, e.Offset, c.name)
			assert.Equal(t, c.reason, e.Reason, c.name)
		}
	}
}
