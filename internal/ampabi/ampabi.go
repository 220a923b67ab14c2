// Package ampabi is the contract between a kernel's compiled program and the
// runtime that dispatches it, written once: the push-constant layout, the
// descriptor bindings, the specialization constants' ids and the words and
// fault codes of the bounds-checked build's check buffer. The runtime, the
// translator's writers and the GLSL include amp.glsl (checked against it by
// this package's tests) read these numbers here. It imports nothing.
//
// The push-constant block, in 4-byte little-endian words (std430):
//
//	offset 0:                  uvec4 domain = (e0, e1, e2, total)
//	offset ViewOffset(n):      AmpView of data argument n = (base, s0, s1, e0)
//	offset ScalarOffset(v):    the scalar fields, 4 bytes each, in field order
//	then, optional:            uint ampExtents[2m]: dimensions 1 and 2 of data
//	                           arguments 0..m-1
//
// Data argument n is bound at binding DataBinding(n) of descriptor set
// DescriptorSet; a bounds-checked build binds its check buffer after them, at
// CheckBinding(v) for v data arguments.
package ampabi

// Push constants.
const (
	// DomainBytes is the size of the domain vector at offset 0.
	DomainBytes = 16
	// ViewBytes is the size of one AmpView.
	ViewBytes = 16
	// ScalarBytes is the size of one scalar field.
	ScalarBytes = 4
	// The words of an AmpView: the view's first element in its buffer, the
	// strides of dimensions 0 and 1 in elements, and its dimension 0.
	ViewBase, ViewS0, ViewS1, ViewE0 = 0, 1, 2, 3
	// The words of the domain: its three dimensions in C++ order (missing
	// dimensions 1) and its number of points.
	DomainE0, DomainE1, DomainE2, DomainTotal = 0, 1, 2, 3
)

// ViewOffset returns the push-constant offset in bytes of data argument n's
// AmpView.
func ViewOffset(n int) int { return DomainBytes + ViewBytes*n }

// ScalarOffset returns the push-constant offset in bytes of the first scalar
// field of a kernel with views data arguments.
func ScalarOffset(views int) int { return ViewOffset(views) }

// Bindings.
const (
	// DescriptorSet is the one descriptor set a program may use.
	DescriptorSet = 0
)

// DataBinding returns the binding of data argument n.
func DataBinding(n int) int { return n }

// CheckBinding returns the binding of the check buffer of a bounds-checked
// kernel with views data arguments.
func CheckBinding(views int) int { return views }

// Specialization constants' SpecIds.
const (
	// SpecLocalSizeX, Y and Z are the workgroup (tile) size.
	SpecLocalSizeX, SpecLocalSizeY, SpecLocalSizeZ = 0, 1, 2
	// SpecRanks (AMP_RANKS) packs the ranks of the data arguments, for a
	// program that declares it.
	SpecRanks = 3
	// SpecGridLoop (AMP_GRID_LOOP): 1 where the non-tiled main loops over the
	// domain with a grid stride, 0 where each thread runs one point.
	SpecGridLoop = 4
)

// The check buffer of a bounds-checked build, in uint words: the first
// fault's code + 1 (0: none), its index (3 words), the index of the thread
// that made it (3 words) and the array's length, then three words per data
// argument (its extent, 1 past its rank), then the device's loop cap (0: none).
const (
	CheckFault, CheckIndex, CheckThread, CheckLength = 0, 1, 4, 7
	// CheckHeaderWords is the number of words before the extents.
	CheckHeaderWords = 8
)

// CheckExtent returns the word of dimension c of data argument n's extent.
func CheckExtent(n, c int) int { return CheckHeaderWords + 3*n + c }

// CheckLoopCap returns the word of the loop cap of a kernel with views data
// arguments.
func CheckLoopCap(views int) int { return CheckHeaderWords + 3*views }

// CheckWords returns the check buffer's length in words for views data
// arguments.
func CheckWords(views int) int { return CheckLoopCap(views) + 1 }

// Fault codes of the bounds-checked build, past the data arguments' (a fault
// of data argument n has code n).
const (
	// FaultShared + k: tile_static array k, in declaration order.
	FaultShared = 0x10000
	// FaultArray: a local array or an Index.
	FaultArray = 0x20000
	// FaultDiv: an integer division or remainder by zero.
	FaultDiv = 0x30000
	// FaultShift: a negative shift count.
	FaultShift = 0x40000
	// FaultLoop: the thread's loops reached the device's cap.
	FaultLoop = 0x50000
)
