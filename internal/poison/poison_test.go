package poison

import (
	"math"
	"reflect"
	"testing"

	"github.com/goamp/goamp/half"
)

// TestSlice: every scalar type gets its poison, in arrays and structs, at every element.
func TestSlice(t *testing.T) {
	type pair struct {
		A float32
		B int32
		C [2]uint8
		_ [2]byte
	}
	tests := []struct {
		name  string
		check func(t *testing.T, n int)
	}{
		{"float32", func(t *testing.T, n int) {
			s := make([]float32, n)
			Slice(s)
			for i, x := range s {
				if !math.IsNaN(float64(x)) || math.Float32bits(x) != Float32 {
					t.Fatalf("element %d is %v (%#x)", i, x, math.Float32bits(x))
				}
			}
		}},
		{"float64", func(t *testing.T, n int) {
			s := make([]float64, n)
			Slice(s)
			for i, x := range s {
				if !math.IsNaN(x) {
					t.Fatalf("element %d is %v", i, x)
				}
			}
		}},
		{"half", func(t *testing.T, n int) {
			s := make([]half.Float16, n)
			Slice(s)
			for i, x := range s {
				if !math.IsNaN(float64(x.Float32())) {
					t.Fatalf("element %d is %v", i, x.Float32())
				}
			}
		}},
		{"int32", func(t *testing.T, n int) {
			s := make([]int32, n)
			Slice(s)
			for i, x := range s {
				if uint32(x) != Int32 {
					t.Fatalf("element %d is %#x", i, uint32(x))
				}
			}
		}},
		{"struct", func(t *testing.T, n int) {
			s := make([]pair, n)
			Slice(s)
			for i, x := range s {
				if !math.IsNaN(float64(x.A)) || uint32(x.B) != Int32 || x.C != [2]uint8{Int8, Int8} {
					t.Fatalf("element %d is %+v", i, x)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, n := range []int{1, 7, 64} {
				tt.check(t, n)
			}
		})
	}
	if got := len(Pattern(reflect.TypeFor[pair]())); got != 12 {
		t.Errorf("pattern of %d bytes, want 12", got)
	}
}
