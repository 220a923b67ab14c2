package spvwords

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseEncode: a module comes back word for word; what is not a module is refused.
func TestParseEncode(t *testing.T) {
	words := []uint32{Magic, 0x10300, 0, 20, 0, 2<<16 | 17, 1, 3<<16 | 14, 0, 1, 4<<16 | 16, 4, 17, 64}
	var spv []byte
	for _, w := range words {
		spv = binary.LittleEndian.AppendUint32(spv, w)
	}
	header, insts, ok := Parse(spv)
	require.True(t, ok)
	assert.Equal(t, words[:5], header)
	assert.Equal(t, []Inst{{17, []uint32{1}}, {14, []uint32{0, 1}}, {16, []uint32{4, 17, 64}}}, insts)
	assert.Equal(t, spv, Encode(header, insts))
	for name, bad := range map[string][]byte{
		"empty":       nil,
		"short":       spv[:16],
		"odd length":  spv[:len(spv)-1],
		"magic":       append([]byte{0, 0, 0, 0}, spv[4:]...),
		"word count":  spv[:len(spv)-4],
		"zero length": append(append([]byte(nil), spv[:20]...), 0, 0, 0, 0),
	} {
		_, _, ok := Parse(bad)
		assert.False(t, ok, name)
	}
}
