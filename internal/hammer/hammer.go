package hammer

import (
	"cmp"
	"slices"
	"sync"
)

// Run calls fn(g, j) for j from 0 to rounds-1 in each of workers goroutines g, all at
// once, and returns what each call returned, indexed g*rounds + j.
func Run[T any](workers, rounds int, fn func(g, j int) T) []T {
	out := make([]T, workers*rounds)
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			for j := range rounds {
				out[g*rounds+j] = fn(g, j)
			}
		})
	}
	wg.Wait()
	return out
}

// Sequence returns start, start+step, ..., n values, in T's wrapping arithmetic.
func Sequence[T ~int32 | ~uint32 | ~float32](start, step T, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = start
		start += step
	}
	return s
}

// Sorted returns a sorted copy of s.
func Sorted[T cmp.Ordered](s []T) []T {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
