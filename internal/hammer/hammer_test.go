package hammer_test

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/internal/hammer"
)

// TestRun: every (g, j) is called once, and its result stands at g*rounds + j.
func TestRun(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	workers, rounds := r.IntN(8)+2, r.IntN(100)+10
	var calls atomic.Int32
	got := hammer.Run(workers, rounds, func(g, j int) [2]int {
		calls.Add(1)
		return [2]int{g, j}
	})
	require.Len(t, got, workers*rounds)
	assert.Equal(t, int32(workers*rounds), calls.Load())
	for i, p := range got {
		assert.Equal(t, [2]int{i / rounds, i % rounds}, p, "result %d", i)
	}
}

// TestSequenceSorted: Sequence steps in T's wrapping arithmetic, Sorted sorts a copy.
func TestSequenceSorted(t *testing.T) {
	tests := []struct {
		name             string
		start, step      uint32
		n                int
		want, wantSorted []uint32
	}{
		{"rising", 5, 3, 4, []uint32{5, 8, 11, 14}, []uint32{5, 8, 11, 14}},
		{"wrapping", 1<<32 - 2, 1, 4, []uint32{1<<32 - 2, 1<<32 - 1, 0, 1}, []uint32{0, 1, 1<<32 - 2, 1<<32 - 1}},
		{"none", 7, 1, 0, []uint32{}, []uint32{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := hammer.Sequence(tt.start, tt.step, tt.n)
			assert.Equal(t, tt.want, s)
			assert.Equal(t, tt.wantSorted, hammer.Sorted(s))
			assert.Equal(t, tt.want, s, "Sorted leaves its argument alone")
		})
	}
}
