package runtime_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amprt "github.com/goamp/goamp/runtime"
)

const (
	atomTile  = 256 // threads per tile, all updating the same tile_static elements
	atomTiles = 4
)

// tileAtomics updates tile_static elements from every thread of its tile at once with
// each atomic, and records what each call returned (per global thread) and what the
// elements held at the end (per tile).
type tileAtomics struct {
	offer                    []int32 // per global thread: its value for AtomicMin and AtomicMax
	add, sub, cas, xchg, min []int32
	fadd                     []float32
	or, and                  []uint32
	final                    [][]int32   // per tile: add, sub, cas, min, max, xor
	ffinal                   []float32   // per tile
	ufinal                   [][2]uint32 // per tile: or, and
}

func newTileAtomics() *tileAtomics {
	n := atomTile * atomTiles
	k := &tileAtomics{offer: make([]int32, n), add: make([]int32, n), sub: make([]int32, n),
		cas: make([]int32, n), xchg: make([]int32, n), min: make([]int32, n), fadd: make([]float32, n),
		or: make([]uint32, n), and: make([]uint32, n), final: make([][]int32, atomTiles),
		ffinal: make([]float32, atomTiles), ufinal: make([][2]uint32, atomTiles)}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range k.offer {
		k.offer[i] = r.Int32() - math.MaxInt32/2
	}
	return k
}

func (k *tileAtomics) Tiled(t amprt.TiledIndex) {
	s := amprt.TileStatic[int32](t, 7) // add, sub, cas, xchg, min, max, xor
	f := amprt.TileStatic[float32](t, 1)
	u := amprt.TileStatic[uint32](t, 2) // or, and
	g, l := t.Global[0], t.Local[0]
	if l == 0 {
		s[4], s[5], u[1] = math.MaxInt32, math.MinInt32, math.MaxUint32
	}
	t.Barrier.Wait()
	k.add[g] = amprt.AtomicAdd(s, 0, 1)
	k.sub[g] = amprt.AtomicSub(s, 1, 3)
	for guess := int32(0); ; { // an increment by compare-and-swap
		cur := amprt.AtomicCompareExchange(s, 2, guess, guess+1)
		if cur == guess {
			k.cas[g] = cur
			break
		}
		guess = cur
	}
	k.xchg[g] = amprt.AtomicExchange(s, 3, int32(l+1))
	k.min[g] = amprt.AtomicMin(s, 4, k.offer[g])
	amprt.AtomicMax(s, 5, k.offer[g])
	amprt.AtomicXor(s, 6, 1<<(l%32)) // every bit flipped atomTile/32 = 8 times
	k.fadd[g] = amprt.AtomicAdd(f, 0, 0.25)
	k.or[g] = amprt.AtomicOr(u, 0, 1<<(l%32))
	k.and[g] = amprt.AtomicAnd(u, 1, ^uint32(1<<(l%32)))
	t.Barrier.Wait()
	if l == 0 {
		k.final[t.Tile[0]] = []int32{s[0], s[1], s[2], s[4], s[5], s[6]}
		k.ffinal[t.Tile[0]] = f[0]
		k.ufinal[t.Tile[0]] = [2]uint32{u[0], u[1]}
	}
}

// TestTileStaticAtomics: the threads of each tile hammer the same tile_static elements
// with every atomic; the elements end at the exact totals and the old values returned are
// the permutations each operation implies.
func TestTileStaticAtomics(t *testing.T) {
	k := newTileAtomics()
	require.NoError(t, amprt.RunTiledCPU(context.Background(), amprt.Ext(atomTile*atomTiles).Tile(atomTile), k))
	perm := func(start, step int32) []int32 {
		s := make([]int32, atomTile)
		for i := range s {
			s[i] = start + int32(i)*step
		}
		slices.Sort(s)
		return s
	}
	for tile := range atomTiles {
		lo, hi := tile*atomTile, (tile+1)*atomTile
		offers := k.offer[lo:hi]
		assert.Equal(t, []int32{atomTile, -3 * atomTile, atomTile, slices.Min(offers), slices.Max(offers), 0},
			k.final[tile], "tile %d: add, sub, cas, min, max, xor", tile)
		assert.Equal(t, perm(0, 1), sortedInts(k.add[lo:hi]), "AtomicAdd olds")
		assert.Equal(t, perm(-3*(atomTile-1), 3), sortedInts(k.sub[lo:hi]), "AtomicSub olds")
		assert.Equal(t, perm(0, 1), sortedInts(k.cas[lo:hi]), "AtomicCompareExchange olds of the successful calls")
		// Exchange: the olds are 0 and every stored value but the one left in place.
		xchg := sortedInts(k.xchg[lo:hi])
		assert.Equal(t, int32(0), xchg[0])
		assert.Len(t, slices.Compact(xchg), atomTile, "no value came back twice")
		assert.GreaterOrEqual(t, slices.Min(k.min[lo:hi]), slices.Min(offers), "AtomicMin olds")
		assert.Contains(t, k.min[lo:hi], int32(math.MaxInt32), "one AtomicMin saw the initial value")
		fadd := slices.Clone(k.fadd[lo:hi])
		slices.Sort(fadd)
		for i, v := range fadd {
			require.Equal(t, float32(i)*0.25, v, "float AtomicAdd olds are 0, 0.25, 0.5, ...")
		}
		assert.Equal(t, float32(atomTile)*0.25, k.ffinal[tile])
		assert.Equal(t, [2]uint32{math.MaxUint32, 0}, k.ufinal[tile], "or, and")
	}
}

func sortedInts(s []int32) []int32 {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestTileStaticAtomicSemantics checks each function's stored and returned values.
func TestTileStaticAtomicSemantics(t *testing.T) {
	type counter uint32 // named types are accepted
	tests := []struct {
		name           string
		run            func() (old, now any)
		wantOld, wantV any
	}{
		{"AtomicAdd", func() (any, any) { s := []int32{1, 7}; return amprt.AtomicAdd(s, 1, -9), s[1] }, int32(7), int32(-2)},
		{"AtomicAdd wraps", func() (any, any) { s := []uint32{math.MaxUint32}; return amprt.AtomicAdd(s, 0, 2), s[0] }, uint32(math.MaxUint32), uint32(1)},
		{"AtomicSub float32", func() (any, any) { s := []float32{1.5}; return amprt.AtomicSub(s, 0, 2), s[0] }, float32(1.5), float32(-0.5)},
		{"AtomicExchange float32", func() (any, any) { s := []float32{1.5}; return amprt.AtomicExchange(s, 0, 3), s[0] }, float32(1.5), float32(3)},
		{"AtomicMin signed", func() (any, any) { s := []int32{3}; return amprt.AtomicMin(s, 0, -3), s[0] }, int32(3), int32(-3)},
		{"AtomicMax unsigned", func() (any, any) { s := []counter{3}; return amprt.AtomicMax(s, 0, 1<<31), s[0] }, counter(3), counter(1 << 31)},
		{"AtomicAnd", func() (any, any) { s := []uint32{0b1100}; return amprt.AtomicAnd(s, 0, 0b1010), s[0] }, uint32(0b1100), uint32(0b1000)},
		{"AtomicOr", func() (any, any) { s := []int32{0b1100}; return amprt.AtomicOr(s, 0, 0b1010), s[0] }, int32(0b1100), int32(0b1110)},
		{"AtomicXor", func() (any, any) { s := []int32{0b1100}; return amprt.AtomicXor(s, 0, 0b1010), s[0] }, int32(0b1100), int32(0b0110)},
		{"AtomicCompareExchange hit", func() (any, any) { s := []int32{5}; return amprt.AtomicCompareExchange(s, 0, 5, 6), s[0] }, int32(5), int32(6)},
		{"AtomicCompareExchange miss", func() (any, any) { s := []int32{5}; return amprt.AtomicCompareExchange(s, 0, 4, 6), s[0] }, int32(5), int32(5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, now := tt.run()
			assert.Equal(t, tt.wantOld, old, "returned value")
			assert.Equal(t, tt.wantV, now, "stored value")
		})
	}
	assert.Panics(t, func() { amprt.AtomicAdd([]int32{1}, 1, 1) }, "out of range, like s[i]")
}
