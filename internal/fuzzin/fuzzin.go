// Package fuzzin decodes a fuzz target's input bytes into the numbers its test draws:
// small ones, ones spread over the whole int range (near the extremes as often as not), and
// raw ones. Past the end of the input every number is 0, so that any input decodes. The
// fuzz targets of runtime and arrayview share it; it imports nothing of goamp's.
package fuzzin

import (
	"encoding/binary"
	"math"
)

// Input is a fuzz input being decoded.
type Input struct{ b []byte }

// New returns the decoder of b.
func New(b []byte) *Input { return &Input{b} }

// More reports whether input is left.
func (in *Input) More() bool { return len(in.b) > 0 }

// Byte returns the next byte.
func (in *Input) Byte() byte {
	if len(in.b) == 0 {
		return 0
	}
	c := in.b[0]
	in.b = in.b[1:]
	return c
}

// N returns the next byte reduced below m (m >= 1).
func (in *Input) N(m int) int { return int(in.Byte()) % m }

// Int32 returns the next four bytes as an int32.
func (in *Input) Int32() int32 {
	var w [4]byte
	for k := range w {
		w[k] = in.Byte()
	}
	return int32(binary.LittleEndian.Uint32(w[:]))
}

// Int returns the next int: a tag byte picks a small one (-16..239), one near MaxInt, one
// near MinInt, or eight raw bytes.
func (in *Input) Int() int {
	switch in.Byte() % 4 {
	case 0:
		return int(in.Byte()) - 16
	case 1:
		return math.MaxInt - int(in.Byte())
	case 2:
		return math.MinInt + int(in.Byte())
	}
	var w [8]byte
	for k := range w {
		w[k] = in.Byte()
	}
	return int(binary.LittleEndian.Uint64(w[:]))
}

// Ints returns the next n ints.
func (in *Input) Ints(n int) []int {
	v := make([]int, n)
	for k := range v {
		v[k] = in.Int()
	}
	return v
}
