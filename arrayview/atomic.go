package arrayview

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/goamp/goamp/internal/atom"
	"github.com/goamp/goamp/runtime"
)

// The atomics below are the kernel language's atomic operations on view elements (C++
// AMP's atomic_fetch_add and friends). Each updates the element at i and returns the value
// it held before, as GLSL's atomic* built-ins do. On the CPU they act on the host copy
// (bringing it up to date first, like Set) with sync/atomic, so the threads of a CPU kernel
// may call them on one element at once, also under the race detector; on the GPU the
// translator (package translate) spells them as GLSL's atomicAdd, atomicMin, atomicMax,
// atomicAnd, atomicOr, atomicXor, atomicExchange and atomicCompSwap on the bound buffer
// (float32 add, sub and exchange are a compare-and-swap loop on the element's bits, on
// every device: portable, and exact as a sequence of float32 additions in some order). A plain At or Set of an element that other threads of
// the same dispatch update atomically is a data race on both.
//
// The element type must be int32 or uint32 (or a named type of them); AtomicAdd, AtomicSub,
// AtomicExchange and AtomicLoad also take float32. Any other element type panics, as does an index
// outside the extent. Array embeds *View, so arrays have the same methods.

// atomicKind is how the atomics see an element type.
type atomicKind uint8

const (
	notAtomic atomicKind = iota
	atomicInt32
	atomicUint32
	atomicFloat32
)

// kindOf says which of the atomic element types T is.
func kindOf[T any]() atomicKind {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Int32:
		return atomicInt32
	case reflect.Uint32:
		return atomicUint32
	case reflect.Float32:
		return atomicFloat32
	}
	return notAtomic
}

// notAtomicType panics for an atomic that the element type does not support. It is a
// function of its own so that the callers' fast path stays free of the message's
// allocations.
func notAtomicType[T any](v *View[T], op string, floats bool) {
	want := "int32 or uint32 elements"
	if floats {
		want = "int32, uint32 or float32 elements"
	}
	panic(fmt.Sprintf("goamp/arrayview: %s on %v: the element type is %v; %s needs %s",
		op, v, reflect.TypeFor[T](), op, want))
}

// slot returns a pointer to the host copy of element i, made current for writing.
func (v *View[T]) slot(i runtime.Index) unsafe.Pointer {
	if v.hostW.Load() != v.src.version.Load() {
		v.mustHost("atomic operation", runtime.ReadWrite)
	}
	return unsafe.Pointer(&v.data[v.index(i)])
}

// as reinterprets x, of an element type of kind k, as the same-sized E.
func as[E, T any](x T) E { return *(*E)(unsafe.Pointer(&x)) }

// intOp applies an operation defined on int32 and uint32 to element i.
func intOp[T any](v *View[T], op string, i runtime.Index, x T,
	fi func(*int32, int32) int32, fu func(*uint32, uint32) uint32) T {
	return valueOp(v, op, i, x, fi, fu, nil)
}

// valueOp applies an operation defined on int32, uint32 and (ff not nil) float32 to
// element i.
func valueOp[T any](v *View[T], op string, i runtime.Index, x T,
	fi func(*int32, int32) int32, fu func(*uint32, uint32) uint32, ff func(*float32, float32) float32) T {
	switch kindOf[T]() {
	case atomicInt32:
		return as[T](fi((*int32)(v.slot(i)), as[int32](x)))
	case atomicUint32:
		return as[T](fu((*uint32)(v.slot(i)), as[uint32](x)))
	case atomicFloat32:
		if ff != nil {
			return as[T](ff((*float32)(v.slot(i)), as[float32](x)))
		}
	}
	notAtomicType(v, op, ff != nil)
	panic("goamp/arrayview: unreachable")
}

// AtomicAdd adds x to the element at i and returns its old value. Integers wrap around.
func (v *View[T]) AtomicAdd(i runtime.Index, x T) T {
	return valueOp(v, "AtomicAdd", i, x, atom.Add[int32], atom.Add[uint32], atom.Add[float32])
}

// AtomicSub subtracts x from the element at i and returns its old value.
func (v *View[T]) AtomicSub(i runtime.Index, x T) T {
	return valueOp(v, "AtomicSub", i, x, atom.Sub[int32], atom.Sub[uint32], atom.Sub[float32])
}

// AtomicExchange stores x at i and returns the element's old value.
func (v *View[T]) AtomicExchange(i runtime.Index, x T) T {
	return valueOp(v, "AtomicExchange", i, x, atom.Exchange[int32], atom.Exchange[uint32], atom.Exchange[float32])
}

// AtomicMin stores the smaller of the element at i and x and returns the element's old
// value (signed comparison for int32 elements, unsigned for uint32).
func (v *View[T]) AtomicMin(i runtime.Index, x T) T {
	return intOp(v, "AtomicMin", i, x, atom.Min[int32], atom.Min[uint32])
}

// AtomicMax stores the larger of the element at i and x and returns the element's old value.
func (v *View[T]) AtomicMax(i runtime.Index, x T) T {
	return intOp(v, "AtomicMax", i, x, atom.Max[int32], atom.Max[uint32])
}

// AtomicAnd stores the element at i & x and returns the element's old value.
func (v *View[T]) AtomicAnd(i runtime.Index, x T) T {
	return intOp(v, "AtomicAnd", i, x, atom.And[int32], atom.And[uint32])
}

// AtomicOr stores the element at i | x and returns the element's old value.
func (v *View[T]) AtomicOr(i runtime.Index, x T) T {
	return intOp(v, "AtomicOr", i, x, atom.Or[int32], atom.Or[uint32])
}

// AtomicXor stores the element at i ^ x and returns the element's old value.
func (v *View[T]) AtomicXor(i runtime.Index, x T) T {
	return intOp(v, "AtomicXor", i, x, atom.Xor[int32], atom.Xor[uint32])
}

// AtomicLoad returns the element at i, read atomically: the read that starts a
// compare-and-swap loop (old := v.AtomicLoad(i); ... v.AtomicCompareExchange(i, old, new))
// where other threads update the element atomically, which a plain At would race with.
// It takes int32, uint32 and float32 elements; on the GPU it is an atomicOr of 0 (of the
// bits, for float32), which leaves the element as it is.
func (v *View[T]) AtomicLoad(i runtime.Index) T {
	switch kindOf[T]() {
	case atomicInt32:
		return as[T](atomic.LoadInt32((*int32)(v.slot(i))))
	case atomicUint32, atomicFloat32:
		return as[T](atomic.LoadUint32((*uint32)(v.slot(i))))
	}
	notAtomicType(v, "AtomicLoad", true)
	panic("goamp/arrayview: unreachable")
}

// AtomicCompareExchange stores new at i if the element equals old, and returns the value
// the element held: old when the exchange happened, the value that prevented it otherwise.
func (v *View[T]) AtomicCompareExchange(i runtime.Index, old, new T) T {
	switch kindOf[T]() {
	case atomicInt32:
		return as[T](atom.CompareExchange((*int32)(v.slot(i)), as[int32](old), as[int32](new)))
	case atomicUint32:
		return as[T](atom.CompareExchange((*uint32)(v.slot(i)), as[uint32](old), as[uint32](new)))
	}
	notAtomicType(v, "AtomicCompareExchange", false)
	panic("goamp/arrayview: unreachable")
}
