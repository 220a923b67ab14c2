package atom_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/internal/atom"
	"github.com/goamp/goamp/internal/hammer"
)

const (
	workers = 16
	rounds  = 2000
)

// concurrently runs fn(g, j) for rounds values of j in each of workers goroutines and
// returns what each call returned, indexed g*rounds + j.
func concurrently[T any](fn func(g, j int) T) []T { return hammer.Run(workers, rounds, fn) }

type count int32 // a named type: the atomics take ~int32

func TestAddSubHammer(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := workers * rounds
	t.Run("int32 Add", func(t *testing.T) {
		s0 := r.Int32N(1000) + 1
		x := s0
		olds := concurrently(func(_, _ int) int32 { return atom.Add(&x, 1) })
		assert.Equal(t, s0+int32(n), x)
		assert.Equal(t, hammer.Sequence(s0, 1, n), sorted(olds), "each call saw a distinct value")
	})
	t.Run("named int32 Sub", func(t *testing.T) {
		s0 := count(r.Int32N(1000) + 1)
		x := s0
		olds := concurrently(func(_, _ int) count { return atom.Sub(&x, 3) })
		assert.Equal(t, s0-count(3*n), x)
		assert.Equal(t, hammer.Sequence(s0-count(3*(n-1)), 3, n), sorted(olds))
	})
	t.Run("uint32 Add wraps", func(t *testing.T) {
		s0 := math.MaxUint32 - uint32(r.IntN(n/2))
		x := s0
		olds := concurrently(func(_, _ int) uint32 { return atom.Add(&x, 1) })
		assert.Equal(t, s0+uint32(n), x)
		assert.Equal(t, sorted(hammer.Sequence(s0, 1, n)), sorted(olds), "a permutation of s0, s0+1, ... wrapping past 2^32-1")
	})
	t.Run("float32 Add", func(t *testing.T) {
		s0 := float32(r.IntN(1000) + 1) // integers: every sum is exact below 2^24
		x := s0
		olds := concurrently(func(_, _ int) float32 { return atom.Add(&x, 1) })
		assert.Equal(t, s0+float32(n), x)
		assert.Equal(t, hammer.Sequence(s0, 1, n), sorted(olds))
	})
	t.Run("float32 Sub", func(t *testing.T) {
		s0 := float32(r.IntN(1000) + 1)
		x := s0
		olds := concurrently(func(_, _ int) float32 { return atom.Sub(&x, 0.5) })
		assert.Equal(t, s0-float32(n)/2, x)
		assert.Equal(t, hammer.Sequence(s0-float32(n-1)/2, 0.5, n), sorted(olds))
	})
}

func sorted[T atom.Value](s []T) []T { return hammer.Sorted(s) }

// TestExchangeHammer: every value stored is returned exactly once, by the exchange that
// replaced it, except the last, which stays.
func TestExchangeHammer(t *testing.T) {
	t.Run("int32", func(t *testing.T) {
		x := int32(-7)
		olds := concurrently(func(g, j int) int32 { return atom.Exchange(&x, int32(g*rounds+j)) })
		assert.ElementsMatch(t, hammer.Sequence[int32](-7, 0, 1), missing(hammer.Sequence[int32](0, 1, workers*rounds), olds, x))
	})
	t.Run("float32", func(t *testing.T) {
		x := float32(-0.5)
		olds := concurrently(func(g, j int) float32 { return atom.Exchange(&x, float32(g*rounds+j)) })
		assert.Equal(t, []float32{-0.5}, missing(hammer.Sequence[float32](0, 1, workers*rounds), olds, x))
	})
}

// missing returns what olds holds beyond stored minus final: the initial value, when the
// exchanges lost nothing.
func missing[T atom.Value](stored, olds []T, final T) []T {
	left := map[T]int{}
	for _, v := range olds {
		left[v]++
	}
	for _, v := range stored {
		if v != final {
			left[v]--
		}
	}
	var out []T
	for v, c := range left {
		for range c {
			out = append(out, v)
		}
	}
	return out
}

// TestMinMaxHammer: the element ends at the extreme of everything offered, every call saw
// a value at least as extreme as the end, and the comparison is signed for int32 and
// unsigned for uint32.
func TestMinMaxHammer(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ints := make([]int32, workers*rounds)
	uints := make([]uint32, workers*rounds)
	for i := range ints {
		ints[i] = r.Int32() - math.MaxInt32/2
		uints[i] = r.Uint32()
	}
	t.Run("int32 Min", func(t *testing.T) {
		x := int32(math.MaxInt32 - 1)
		olds := concurrently(func(g, j int) int32 { return atom.Min(&x, ints[g*rounds+j]) })
		assert.Equal(t, slices.Min(ints), x)
		assert.GreaterOrEqual(t, slices.Min(olds), x)
		assert.Contains(t, olds, int32(math.MaxInt32-1))
	})
	t.Run("int32 Max", func(t *testing.T) {
		x := int32(math.MinInt32 + 1)
		olds := concurrently(func(g, j int) int32 { return atom.Max(&x, ints[g*rounds+j]) })
		assert.Equal(t, slices.Max(ints), x)
		assert.LessOrEqual(t, slices.Max(olds), x)
	})
	t.Run("uint32 Min is unsigned", func(t *testing.T) {
		x := uint32(math.MaxUint32)
		olds := concurrently(func(g, j int) uint32 { return atom.Min(&x, uints[g*rounds+j]) })
		assert.Equal(t, slices.Min(uints), x)
		assert.GreaterOrEqual(t, slices.Min(olds), x)
	})
	t.Run("uint32 Max is unsigned", func(t *testing.T) {
		x := uint32(1)
		olds := concurrently(func(g, j int) uint32 { return atom.Max(&x, uints[g*rounds+j]) })
		assert.Equal(t, slices.Max(uints), x)
		assert.Greater(t, x, uint32(math.MaxInt32), "a uint32 above 2^31 is the largest, not negative")
		assert.LessOrEqual(t, slices.Max(olds), x)
	})
}

// TestBitsHammer: goroutine g owns bit g of one uint32 and flips it again and again, with
// Or and And alternately, or with Xor; each old value must show g's own last write to its
// bit, whatever the others did to theirs meanwhile.
func TestBitsHammer(t *testing.T) {
	const bitsWorkers = 32
	s0 := rand.New(rand.NewPCG(5, 6)).Uint32()
	run := func(t *testing.T, op func(p *uint32, g, j int) (old uint32, want bool)) uint32 {
		x := s0
		var wg sync.WaitGroup
		for g := range bitsWorkers {
			wg.Go(func() {
				for j := range rounds {
					old, want := op(&x, g, j)
					if old&(1<<g) != 0 != want {
						assert.Failf(t, "lost update", "worker %d round %d: old %#x", g, j, old)
						return
					}
				}
			})
		}
		wg.Wait()
		return x
	}
	first := func(g int) bool { return s0&(1<<g) != 0 }
	t.Run("Or and And", func(t *testing.T) {
		final := run(t, func(p *uint32, g, j int) (uint32, bool) {
			if j%2 == 0 {
				return atom.Or(p, 1<<g), j == 0 && first(g)
			}
			return atom.And(p, ^uint32(1<<g)), true
		})
		assert.Equal(t, uint32(0), final, "the last op of every worker clears its bit")
	})
	t.Run("Xor", func(t *testing.T) {
		final := run(t, func(p *uint32, g, j int) (uint32, bool) {
			return atom.Xor(p, 1<<g), first(g) != (j%2 == 1)
		})
		assert.Equal(t, s0, final, "an even number of flips of every bit")
	})
	t.Run("int32 Xor", func(t *testing.T) {
		x := int32(-1)
		concurrently(func(g, _ int) int32 { return atom.Xor(&x, int32(1)<<g) })
		assert.Equal(t, int32(-1), x, "rounds is even")
	})
}

// TestCompareExchangeHammer counts with a compare-and-swap loop: exactly one exchange
// succeeds per value, and the values the successful ones replaced are a permutation.
func TestCompareExchangeHammer(t *testing.T) {
	s0 := int32(rand.New(rand.NewPCG(7, 8)).Int32N(1000) + 1)
	x := s0
	olds := concurrently(func(_, _ int) int32 {
		guess := s0
		for {
			cur := atom.CompareExchange(&x, guess, guess+1)
			if cur == guess {
				return cur
			}
			guess = cur
		}
	})
	assert.Equal(t, s0+workers*rounds, x)
	assert.Equal(t, hammer.Sequence(s0, 1, workers*rounds), sorted(olds))
}

// TestSemantics checks each operation's result and returned value on one goroutine.
func TestSemantics(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	tests := []struct {
		name               string
		run                func() (old, now any)
		wantOld, wantAfter any
	}{
		{"Add int32", func() (any, any) { x := int32(5); return atom.Add(&x, -8), x }, int32(5), int32(-3)},
		{"Add int32 wraps", func() (any, any) { x := int32(math.MaxInt32); return atom.Add(&x, 1), x }, int32(math.MaxInt32), int32(math.MinInt32)},
		{"Sub uint32 wraps", func() (any, any) { x := uint32(2); return atom.Sub(&x, 3), x }, uint32(2), uint32(math.MaxUint32)},
		{"Sub int32 MinInt32", func() (any, any) { x := int32(1); return atom.Sub(&x, math.MinInt32), x }, int32(1), int32(math.MinInt32 + 1)},
		{"Add float32", func() (any, any) { x := float32(1.5); return atom.Add(&x, 0.25), x }, float32(1.5), float32(1.75)},
		{"Add float32 -0", func() (any, any) { x := negZero; return atom.Add(&x, negZero), math.Signbit(float64(x)) }, negZero, true},
		{"Add float32 to NaN", func() (any, any) { x := float32(math.NaN()); atom.Add(&x, 1); return nil, x != x }, nil, true},
		{"Sub float32", func() (any, any) { x := float32(1.5); return atom.Sub(&x, 2), x }, float32(1.5), float32(-0.5)},
		{"Exchange float32", func() (any, any) { x := float32(1.5); return atom.Exchange(&x, -2), x }, float32(1.5), float32(-2)},
		{"Exchange uint32", func() (any, any) { x := uint32(9); return atom.Exchange(&x, 4), x }, uint32(9), uint32(4)},
		{"Min int32 signed", func() (any, any) { x := int32(3); return atom.Min(&x, -4), x }, int32(3), int32(-4)},
		{"Min keeps smaller", func() (any, any) { x := int32(3); return atom.Min(&x, 4), x }, int32(3), int32(3)},
		{"Max uint32 unsigned", func() (any, any) { x := uint32(3); return atom.Max(&x, 1<<31), x }, uint32(3), uint32(1 << 31)},
		{"Max keeps larger", func() (any, any) { x := int32(3); return atom.Max(&x, -4), x }, int32(3), int32(3)},
		{"And", func() (any, any) { x := uint32(0b1100); return atom.And(&x, 0b1010), x }, uint32(0b1100), uint32(0b1000)},
		{"Or", func() (any, any) { x := int32(0b1100); return atom.Or(&x, 0b1010), x }, int32(0b1100), int32(0b1110)},
		{"Xor", func() (any, any) { x := uint32(0b1100); return atom.Xor(&x, 0b1010), x }, uint32(0b1100), uint32(0b0110)},
		{"Xor int32 sign", func() (any, any) { x := int32(-1); return atom.Xor(&x, math.MinInt32), x }, int32(-1), int32(math.MaxInt32)},
		{"CompareExchange hit", func() (any, any) { x := int32(7); return atom.CompareExchange(&x, 7, 9), x }, int32(7), int32(9)},
		{"CompareExchange miss", func() (any, any) { x := int32(7); return atom.CompareExchange(&x, 8, 9), x }, int32(7), int32(7)},
		{"CompareExchange uint32", func() (any, any) { x := uint32(1 << 31); return atom.CompareExchange(&x, 1<<31, 2), x }, uint32(1 << 31), uint32(2)},
		{"named type", func() (any, any) { x := count(7); return atom.Max(&x, 8), x }, count(7), count(8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, now := tt.run()
			require.Equal(t, tt.wantOld, old, "returned value")
			require.Equal(t, tt.wantAfter, now, "stored value")
		})
	}
}
