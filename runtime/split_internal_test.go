package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestShareUnits checks the largest-remainder shares of Blocks: every unit is given, in
// proportion to the weights, the remainder to the largest fractions.
func TestShareUnits(t *testing.T) {
	for _, c := range []struct {
		units int
		w     []float64
		want  []int
	}{
		{10, []float64{1, 1}, []int{5, 5}},
		{11, []float64{1, 1}, []int{6, 5}},
		{3, []float64{1, 1, 1, 1}, []int{1, 1, 1, 0}},
		{8, []float64{3, 1}, []int{6, 2}},
		{10, []float64{1, 2, 7}, []int{1, 2, 7}},
		{7, []float64{1, 1000}, []int{0, 7}},
		{1, []float64{1, 3}, []int{0, 1}},
		{100, []float64{1e-9, 1e9}, []int{0, 100}},
	} {
		got := shareUnits(c.units, c.w)
		assert.Equal(t, c.want, got, "%d units over %v", c.units, c.w)
	}
}
