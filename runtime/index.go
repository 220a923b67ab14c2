package runtime

import (
	"fmt"
	"math"
)

// Index is a point of an index space of rank 1, 2 or 3, like C++ AMP's
// index<N>. The rank comes from context (the Extent it is used with); unused
// trailing entries are 0. Indices are row-major: entry 0 is the slowest
// varying dimension and entry rank-1 the fastest.
type Index [3]int

// Idx builds an Index from up to three coordinates; extra values are
// ignored and missing ones are 0.
func Idx(v ...int) Index {
	var i Index
	copy(i[:], v)
	return i
}

// Add returns the component-wise sum i + o.
func (i Index) Add(o Index) Index {
	return Index{i[0] + o[0], i[1] + o[1], i[2] + o[2]}
}

// Sub returns the component-wise difference i - o.
func (i Index) Sub(o Index) Index {
	return Index{i[0] - o[0], i[1] - o[1], i[2] - o[2]}
}

// Extent is the shape of an index space, like C++ AMP's extent<N>: a rank
// (1, 2 or 3) and one size per dimension, row-major. The zero Extent has
// rank 0 and is invalid. Build one with Ext; check it with Validate.
type Extent struct {
	rank int
	d    [3]int
}

// Ext builds an Extent from its dimensions. It never panics: the number of
// dims is recorded as the rank even when it is 0 or greater than 3 (only the
// first three dims are kept), and dims smaller than 1 are kept as given, so
// that Validate can report the problem.
func Ext(dims ...int) Extent {
	e := Extent{rank: len(dims)}
	copy(e.d[:], dims)
	return e
}

// Rank returns the number of dimensions the extent was built with.
func (e Extent) Rank() int { return e.rank }

// stored returns the number of recorded dimensions: the rank capped at 3.
func (e Extent) stored() int { return max(0, min(e.rank, 3)) }

// Dim returns the size of dimension i, or 0 when i is out of range.
func (e Extent) Dim(i int) int {
	if i < 0 || i >= e.stored() {
		return 0
	}
	return e.d[i]
}

// Dims returns a copy of the recorded dimensions (at most three).
func (e Extent) Dims() []int {
	return append([]int(nil), e.d[:e.stored()]...)
}

// Size returns the number of points of the extent (the product of its
// dimensions), or 0 when the extent is invalid.
func (e Extent) Size() int {
	if e.Validate() != nil {
		return 0
	}
	n := 1
	for _, d := range e.d[:e.rank] {
		n *= d
	}
	return n
}

// Contains reports whether i lies inside the extent: 0 <= i[k] < Dim(k) for
// every k below the rank. Entries of i beyond the rank are ignored. An
// invalid extent contains nothing.
func (e Extent) Contains(i Index) bool {
	if e.Validate() != nil {
		return false
	}
	for k := range e.rank {
		if i[k] < 0 || i[k] >= e.d[k] {
			return false
		}
	}
	return true
}

// Validate checks that the rank is 1, 2 or 3, that every dimension is at
// least 1 and that the size fits in an int. It returns an *ExtentError
// (matching ErrInvalidExtent) otherwise.
func (e Extent) Validate() error {
	if e.rank < 1 || e.rank > 3 {
		return &ExtentError{Rank: e.rank, Dims: e.Dims(),
			Reason: fmt.Sprintf("rank %d is not 1, 2 or 3", e.rank)}
	}
	n := 1
	for k, d := range e.d[:e.rank] {
		if d < 1 {
			return &ExtentError{Rank: e.rank, Dims: e.Dims(),
				Reason: fmt.Sprintf("dimension %d is %d; every dimension must be >= 1", k, d)}
		}
		if n > math.MaxInt/d {
			return &ExtentError{Rank: e.rank, Dims: e.Dims(),
				Reason: "the number of points overflows int"}
		}
		n *= d
	}
	return nil
}

// String formats the extent like "(4, 6)".
func (e Extent) String() string {
	return formatDims(e.d[:e.stored()], e.rank)
}

// Linear returns the row-major offset of i within the extent:
// for rank 2, i[0]*Dim(1) + i[1]. It does not check bounds (see Contains).
func (e Extent) Linear(i Index) int {
	off := 0
	for k := range e.stored() {
		off = off*e.d[k] + i[k]
	}
	return off
}

// Delinearize is the inverse of Linear: it returns the index whose row-major
// offset is n, for 0 <= n < Size(). An n past the end overflows into
// dimension 0. It returns the zero Index when the extent is invalid.
func (e Extent) Delinearize(n int) Index {
	var i Index
	if e.Validate() != nil {
		return i
	}
	for k := e.rank - 1; k > 0; k-- {
		i[k] = n % e.d[k]
		n /= e.d[k]
	}
	i[0] = n
	return i
}

// Tile returns the tiled compute domain that splits e into tiles of the
// given dims, like C++ AMP's extent<N>::tile<D0, D1, D2>(). It does not
// validate; call TiledExtent.Validate (the executors do).
func (e Extent) Tile(d ...int) TiledExtent {
	return TiledExtent{Extent: e, Tile: Ext(d...)}
}

// Equal reports whether e and o have the same rank and dimensions.
func (e Extent) Equal(o Extent) bool { return e == o }

// next advances i to the next index of e in row-major order.
func (e Extent) next(i *Index) {
	for k := e.rank - 1; k > 0; k-- {
		i[k]++
		if i[k] < e.d[k] {
			return
		}
		i[k] = 0
	}
	i[0]++
}
