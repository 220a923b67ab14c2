package runtime

import "github.com/goamp/goamp/internal/atom"

// Atomic is the set of element types that AtomicAdd, AtomicSub and AtomicExchange accept:
// int32, uint32, float32 and named types of them.
type Atomic interface{ ~int32 | ~uint32 | ~float32 }

// AtomicInt is the set of element types that every atomic accepts: int32, uint32 and named
// types of them.
type AtomicInt interface{ ~int32 | ~uint32 }

// The tile_static atomics below act on s[i], where s is storage that TileStatic returned
// (or any slice: on the CPU they are plain sync/atomic operations). Each returns the value
// s[i] held before it, as GLSL's atomic* built-ins and C++ AMP's atomic_fetch_* do, and is
// safe when the threads of a tile call them on one element at once. A plain read or write
// of an element that other threads update atomically needs a barrier in between, on the
// GPU as on the CPU. They panic when i is out of range, like s[i].
//
// On the GPU they are GLSL's atomicAdd, atomicMin, atomicMax, atomicAnd, atomicOr,
// atomicXor, atomicExchange and atomicCompSwap on the shared array; package translate
// chooses the spelling (a float32 array used with atomics is stored as uint bits on the
// GPU and its add is a compare-and-swap loop, on every device).

// AtomicAdd adds x to s[i] and returns the old value. Integers wrap around.
func AtomicAdd[T Atomic](s []T, i int, x T) T { return atom.Add(&s[i], x) }

// AtomicSub subtracts x from s[i] and returns the old value. Integers wrap around.
func AtomicSub[T Atomic](s []T, i int, x T) T { return atom.Sub(&s[i], x) }

// AtomicExchange stores x in s[i] and returns the old value.
func AtomicExchange[T Atomic](s []T, i int, x T) T { return atom.Exchange(&s[i], x) }

// AtomicMin stores the smaller of s[i] and x in s[i] and returns the old value (signed
// comparison for int32 types, unsigned for uint32 types).
func AtomicMin[T AtomicInt](s []T, i int, x T) T { return atom.Min(&s[i], x) }

// AtomicMax stores the larger of s[i] and x in s[i] and returns the old value.
func AtomicMax[T AtomicInt](s []T, i int, x T) T { return atom.Max(&s[i], x) }

// AtomicAnd stores s[i] & x in s[i] and returns the old value.
func AtomicAnd[T AtomicInt](s []T, i int, x T) T { return atom.And(&s[i], x) }

// AtomicOr stores s[i] | x in s[i] and returns the old value.
func AtomicOr[T AtomicInt](s []T, i int, x T) T { return atom.Or(&s[i], x) }

// AtomicXor stores s[i] ^ x in s[i] and returns the old value.
func AtomicXor[T AtomicInt](s []T, i int, x T) T { return atom.Xor(&s[i], x) }

// AtomicCompareExchange stores new in s[i] if s[i] equals old, and returns the value s[i]
// held: old when the exchange happened, the value that prevented it otherwise.
func AtomicCompareExchange[T AtomicInt](s []T, i int, old, new T) T {
	return atom.CompareExchange(&s[i], old, new)
}
