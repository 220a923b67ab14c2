package fuzzin

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDecode checks each kind of number against the bytes that encode it, and that an
// exhausted input gives zeros.
func TestDecode(t *testing.T) {
	raw := make([]byte, 9)
	raw[0] = 3
	binary.LittleEndian.PutUint64(raw[1:], uint64(0x8000_0000_0000_0005))
	in := New(append([]byte{0, 20, 1, 7, 2, 9, 200, 0xfe, 0xff, 0xff, 0xff}, raw...))
	assert.Equal(t, 4, in.Int())             // small: 20-16
	assert.Equal(t, math.MaxInt-7, in.Int()) // near MaxInt
	assert.Equal(t, math.MinInt+9, in.Int()) // near MinInt
	assert.Equal(t, 200%7, in.N(7))          // a byte below m
	assert.Equal(t, int32(-2), in.Int32())   // four raw bytes
	assert.Equal(t, math.MinInt+5, in.Int()) // eight raw bytes
	assert.False(t, in.More())
	assert.Equal(t, []int{-16, -16}, in.Ints(2)) // past the end: tag 0, byte 0
	assert.Zero(t, in.Byte())
}
