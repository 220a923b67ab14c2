package runtime_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/runtime"
)

// TestScratch checks that Scratch.Get returns zeroed buffers of the length asked for,
// also when it reuses one that was written and handed back, and that a negative length
// panics with TileStatic's message.
func TestScratch(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 16))
	var s runtime.Scratch[int32]
	for _, n := range []int{0, 1 + r.IntN(100), 1 + r.IntN(1000), 1 + r.IntN(10)} {
		var held *[]int32
		b := s.Get(&held, n)
		require.Len(t, b, n)
		require.NotNil(t, held)
		assert.Equal(t, make([]int32, n), b, "length %d", n)
		for i := range b {
			b[i] = 1 + r.Int32N(1000)
		}
		s.Put(&held)
		assert.Nil(t, held)
		s.Put(&held) // nothing held: no effect
	}
	var held *[]int32
	assert.PanicsWithValue(t, "goamp/runtime: TileStatic: negative length -3", func() { s.Get(&held, -3) })
}
