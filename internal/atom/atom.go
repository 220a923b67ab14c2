// Package atom holds the CPU implementations of goamp's kernel atomics: read-modify-write
// operations on 32-bit integers and float32 values that return the value they replaced.
// They are built on sync/atomic (float32 add and sub, and integer min and max, through a
// compare-and-swap loop on the value's bits), so they are safe under the race detector when
// they run concurrently with each other; a plain read or write of the same element at the same
// time is a data race, as it is on a GPU.
//
// arrayview's View atomics and runtime's tile_static atomics call these functions; the
// translator maps those public names, never these, to GLSL's atomic* built-ins.
package atom

import (
	"sync/atomic"
	"unsafe"
)

// Int is the set of element types every atomic accepts: 32-bit integers (and named types
// of them).
type Int interface{ ~int32 | ~uint32 }

// Value is the set of element types Add, Sub and Exchange accept: 32-bit integers and
// float32 (and named types of them).
type Value interface{ ~int32 | ~uint32 | ~float32 }

// bitsOf returns x's 32 bits.
func bitsOf[T Value](x T) uint32 { return *(*uint32)(unsafe.Pointer(&x)) }

// fromBits returns the T whose bits are b.
func fromBits[T Value](b uint32) T { return *(*T)(unsafe.Pointer(&b)) }

// word returns p as a pointer to its 32 bits.
func word[T Value](p *T) *uint32 { return (*uint32)(unsafe.Pointer(p)) }

// isFloat reports whether T is a float32 type. Conversions to a type parameter are not
// constant, so the division is computed in T: 1/2 is 0 in integer types only.
func isFloat[T Value]() bool {
	half := T(1)
	half /= 2
	return half != 0
}

// Add adds x to *p and returns the old value. Integers wrap around; float32 adds are
// rounded to nearest even, one at a time, in whatever order the callers arrive.
func Add[T Value](p *T, x T) T {
	w := word(p)
	if isFloat[T]() {
		// A compare-and-swap loop on the bits, not the values, so that a NaN or a signed
		// zero in *p cannot make it spin or overwrite a concurrent update.
		for {
			ob := atomic.LoadUint32(w)
			old := fromBits[T](ob)
			if atomic.CompareAndSwapUint32(w, ob, bitsOf(old+x)) {
				return old
			}
		}
	}
	b := bitsOf(x)
	return fromBits[T](atomic.AddUint32(w, b) - b)
}

// Sub subtracts x from *p and returns the old value. It is Add(p, -x), which is exact:
// negation never rounds, and integers wrap around.
func Sub[T Value](p *T, x T) T { return Add(p, -x) }

// Exchange stores x in *p and returns the old value.
func Exchange[T Value](p *T, x T) T {
	return fromBits[T](atomic.SwapUint32(word(p), bitsOf(x)))
}

// Min stores the smaller of *p and x in *p and returns the old value. The comparison is
// T's: signed for int32 types, unsigned for uint32 types.
func Min[T Int](p *T, x T) T {
	w := word(p)
	for {
		ob := atomic.LoadUint32(w)
		old := fromBits[T](ob)
		if old <= x || atomic.CompareAndSwapUint32(w, ob, bitsOf(x)) {
			return old
		}
	}
}

// Max stores the larger of *p and x in *p and returns the old value.
func Max[T Int](p *T, x T) T {
	w := word(p)
	for {
		ob := atomic.LoadUint32(w)
		old := fromBits[T](ob)
		if old >= x || atomic.CompareAndSwapUint32(w, ob, bitsOf(x)) {
			return old
		}
	}
}

// And stores *p & x in *p and returns the old value.
func And[T Int](p *T, x T) T { return fromBits[T](atomic.AndUint32(word(p), bitsOf(x))) }

// Or stores *p | x in *p and returns the old value.
func Or[T Int](p *T, x T) T { return fromBits[T](atomic.OrUint32(word(p), bitsOf(x))) }

// Xor stores *p ^ x in *p and returns the old value.
func Xor[T Int](p *T, x T) T {
	w := word(p)
	b := bitsOf(x)
	for {
		ob := atomic.LoadUint32(w)
		if atomic.CompareAndSwapUint32(w, ob, ob^b) {
			return fromBits[T](ob)
		}
	}
}

// CompareExchange stores new in *p if *p equals old, and returns the value *p held: old
// when the exchange happened, the value that prevented it otherwise (GLSL's atomicCompSwap).
func CompareExchange[T Int](p *T, old, new T) T {
	w := word(p)
	ob, nb := bitsOf(old), bitsOf(new)
	for {
		cur := atomic.LoadUint32(w)
		if cur != ob || atomic.CompareAndSwapUint32(w, ob, nb) {
			return fromBits[T](cur)
		}
	}
}
