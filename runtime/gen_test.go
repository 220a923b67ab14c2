package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amprt "github.com/goamp/goamp/runtime"
)

// TestHeld checks that Scratch.Take returns zeroed buffers of the length asked for, more
// than a Held keeps inline too, and that Release hands them all back, once.
func TestHeld(t *testing.T) {
	var a amprt.Scratch[int32]
	var b amprt.Scratch[float64]
	for range 3 {
		var h amprt.Held
		for i := range 12 {
			x, y := a.Take(&h, i), b.Take(&h, 2*i)
			require.Len(t, x, i)
			require.Len(t, y, 2*i)
			assert.Equal(t, make([]int32, i), x)
			assert.Equal(t, make([]float64, 2*i), y)
			for j := range x {
				x[j] = 7
			}
			for j := range y {
				y[j] = 7
			}
		}
		h.Release()
		h.Release() // nothing held: no effect
	}
	var h amprt.Held
	assert.PanicsWithValue(t, "goamp/runtime: TileStatic: negative length -3", func() { a.Take(&h, -3) })
}
