// Package geom is a package of the user's module that kernels in another of its packages
// use: value types, functions and methods, a generic function, a constant and a function
// with barriers. ampgen translates what the kernels call of it from its source.
package geom

import "github.com/goamp/goamp/runtime"

// Eps is a small distance.
const Eps = 1e-6

// Vec is a 2-D point.
type Vec struct{ X, Y float32 }

// Len2 is v's squared length.
func (v Vec) Len2() float32 { return v.X*v.X + v.Y*v.Y }

// Scale scales v in place.
func (v *Vec) Scale(f float32) { v.X, v.Y = v.X*f, v.Y*f }

// Add returns a + b.
func Add(a, b Vec) Vec { return Vec{a.X + b.X, a.Y + b.Y} }

// Clamp clamps x to [lo, hi].
func Clamp(x, lo, hi float32) float32 { return min(max(x, lo), hi) }

// Number is the constraint of Max3.
type Number interface{ ~int32 | ~float32 }

// Max3 is the largest of three values.
func Max3[T Number](a, b, c T) T { return max(a, b, c) }

// Body is a point mass.
type Body struct {
	P    Vec
	Mass float32
}

// TileSum returns the sum of v over the threads of t's tile, through s, a tile_static
// array of one element per thread; every thread of the tile must call it.
func TileSum(t runtime.TiledIndex, s []float32, v float32) float32 {
	l := t.Local[0]
	s[l] = v
	t.Barrier.Wait()
	for h := len(s) / 2; h > 0; h /= 2 {
		if l < h {
			s[l] += s[l+h]
		}
		t.Barrier.Wait()
	}
	sum := s[0]
	t.Barrier.Wait()
	return sum
}
