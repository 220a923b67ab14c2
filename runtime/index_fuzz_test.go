package runtime_test

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/internal/fuzzin"
	amprt "github.com/goamp/goamp/runtime"
)

// bigProduct returns the product of dims, exactly.
func bigProduct(dims []int) *big.Int {
	p := big.NewInt(1)
	for _, d := range dims {
		p.Mul(p, big.NewInt(int64(d)))
	}
	return p
}

// modelExtentValid is the extent rule: rank 1..3, dimensions >= 1, size within int.
func modelExtentValid(dims []int) bool {
	if len(dims) < 1 || len(dims) > 3 {
		return false
	}
	for _, d := range dims {
		if d < 1 {
			return false
		}
	}
	return bigProduct(dims).IsInt64()
}

// modelTiledValid is C++ AMP's tiling rule, computed without overflow.
func modelTiledValid(dims, tile []int) bool {
	if !modelExtentValid(dims) || len(tile) != len(dims) {
		return false
	}
	for _, td := range tile {
		if td < 1 {
			return false
		}
	}
	if bigProduct(tile).Cmp(big.NewInt(amprt.MaxTileThreads)) > 0 {
		return false
	}
	if len(tile) == 3 && tile[0] > amprt.MaxTileD0Rank3 {
		return false
	}
	for k := range dims {
		if dims[k]%tile[k] != 0 {
			return false
		}
	}
	return true
}

// stored is the number of dimensions an Extent keeps: its rank capped at 3.
func stored(rank int) int { return min(rank, 3) }

// FuzzIndexSpace builds extents, indices and tiled extents from numbers over the whole int
// range: every method either reports a typed error or agrees with a model computed with
// exact (big) arithmetic, and none panics.
func FuzzIndexSpace(f *testing.F) {
	f.Add([]byte{1, 0, 10, 0, 3, 0, 0, 0, 0, 0, 0, 0, 7, 1, 0, 2})
	f.Add([]byte{2, 0, 20, 0, 22, 0, 2, 0, 5, 0, 0, 0, 100, 2, 0, 4, 0, 4})
	f.Add([]byte{3, 1, 0, 0, 2, 0, 2, 0, 1, 0, 1, 0, 1, 0, 9, 3, 0, 64, 0, 2, 0, 2})
	f.Add([]byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		in := fuzzin.New(b)
		dims := in.Ints(int(in.Byte() % 5))
		e := amprt.Ext(dims...)
		checkExtent(t, e, dims)
		checkIndex(t, e, dims, amprt.Index{in.Int(), in.Int(), in.Int()}, in.Int())
		tile := in.Ints(int(in.Byte() % 5))
		checkTiled(t, e.Tile(tile...), dims, tile)
	})
}

// checkExtent compares e, built from dims, with the model.
func checkExtent(t *testing.T, e amprt.Extent, dims []int) {
	require.Equal(t, len(dims), e.Rank())
	n := stored(len(dims))
	for k := -1; k <= 3; k++ {
		want := 0
		if k >= 0 && k < n {
			want = dims[k]
		}
		require.Equal(t, want, e.Dim(k), "Dim(%d)", k)
	}
	require.Len(t, e.Dims(), n)
	for k, d := range e.Dims() {
		require.Equal(t, dims[k], d)
	}
	require.True(t, e.Equal(amprt.Ext(dims...)))
	err := e.Validate()
	if !modelExtentValid(dims) {
		require.ErrorIs(t, err, amprt.ErrInvalidExtent, "%v", dims)
		var ee *amprt.ExtentError
		require.ErrorAs(t, err, &ee)
		require.Equal(t, len(dims), ee.Rank)
		require.True(t, strings.HasPrefix(err.Error(), "goamp/runtime: "), err.Error())
		require.Zero(t, e.Size())
		return
	}
	require.NoError(t, err, "%v", dims)
	require.Equal(t, bigProduct(dims).Int64(), int64(e.Size()))
	for _, d := range dims {
		require.Contains(t, e.String(), big.NewInt(int64(d)).String())
	}
}

// checkIndex checks Contains, Linear and Delinearize of e at i, and Delinearize at n
// (reduced into the extent).
func checkIndex(t *testing.T, e amprt.Extent, dims []int, i amprt.Index, n int) {
	if !modelExtentValid(dims) {
		require.False(t, e.Contains(i))
		require.Equal(t, amprt.Index{}, e.Delinearize(n))
		return
	}
	inside := true
	var j amprt.Index // i without its entries past the rank
	for k, d := range dims {
		inside = inside && i[k] >= 0 && i[k] < d
		j[k] = i[k]
	}
	require.Equal(t, inside, e.Contains(i), "%v in %v", i, dims)
	if inside {
		l := e.Linear(i)
		require.GreaterOrEqual(t, l, 0)
		require.Less(t, l, e.Size())
		require.Equal(t, j, e.Delinearize(l))
	}
	m := n % e.Size()
	if m < 0 {
		m += e.Size()
	}
	p := e.Delinearize(m)
	require.True(t, e.Contains(p), "Delinearize(%d) = %v", m, p)
	require.Equal(t, m, e.Linear(p))
}

// modelRound returns dims with each dimension whose tile dimension is usable (>= 1) and
// that is positive rounded up (pad) or down to a multiple of it; a padded size past MaxInt
// leaves the dimension as it is.
func modelRound(dims, tile []int, pad bool) []int {
	out := append([]int(nil), dims[:stored(len(dims))]...)
	for k, d := range out {
		if k >= stored(len(tile)) || tile[k] < 1 || d <= 0 {
			continue
		}
		q := d / tile[k]
		if pad && d%tile[k] != 0 {
			q++
		}
		r := new(big.Int).Mul(big.NewInt(int64(q)), big.NewInt(int64(tile[k])))
		if r.IsInt64() {
			out[k] = int(r.Int64())
		}
	}
	return out
}

// checkTiled compares te, dims tiled by tile, with the model: Validate, the tile counts,
// Pad and Truncate.
func checkTiled(t *testing.T, te amprt.TiledExtent, dims, tile []int) {
	require.True(t, te.Extent.Equal(amprt.Ext(dims...)))
	require.True(t, te.Tile.Equal(amprt.Ext(tile...)))
	checkTiledValidate(t, te, dims, tile)
	require.Equal(t, te.Tile.Size(), te.TileSize())
	var count amprt.Index
	tiles := big.NewInt(1)
	for k := range stored(len(dims)) {
		if k < stored(len(tile)) && tile[k] >= 1 && dims[k] > 0 {
			count[k] = dims[k]/tile[k] + min(dims[k]%tile[k], 1)
		}
		tiles.Mul(tiles, big.NewInt(int64(count[k])))
	}
	require.Equal(t, count, te.TileCount(), "%v tiled %v", dims, tile)
	if !modelExtentValid(dims) || len(tile) != len(dims) {
		tiles.SetInt64(0)
	}
	require.Equal(t, tiles.Int64(), int64(te.Tiles()))
	_ = te.String()
	for _, pad := range []bool{true, false} {
		r := te.Truncate()
		if pad {
			r = te.Pad()
		}
		want := modelRound(dims, tile, pad)
		require.True(t, r.Tile.Equal(te.Tile))
		require.Equal(t, len(dims), r.Extent.Rank())
		require.Equal(t, want, r.Extent.Dims(), "%v tiled %v, pad %v", dims, tile, pad)
		if len(dims) <= 3 {
			checkTiledValidate(t, r, want, tile)
		}
	}
}

// checkTiledValidate checks te.Validate against the model.
func checkTiledValidate(t *testing.T, te amprt.TiledExtent, dims, tile []int) {
	err := te.Validate()
	if modelTiledValid(dims, tile) {
		require.NoError(t, err)
		return
	}
	require.ErrorIs(t, err, amprt.ErrInvalidComputeDomain, "%v tiled %v", dims, tile)
	var ce *amprt.ComputeDomainError
	require.ErrorAs(t, err, &ce)
	require.True(t, ce.Extent.Equal(te.Extent) && ce.Tile.Equal(te.Tile))
	require.Equal(t, errors.Is(err, amprt.ErrInvalidExtent), !modelExtentValid(dims))
	assert.True(t, strings.HasPrefix(err.Error(), "goamp/runtime: "), err.Error())
}

// TestPadOverflow: a dimension whose padded size would overflow int is left as it is and
// Validate reports it, where it used to wrap to a negative dimension (FuzzIndexSpace).
func TestPadOverflow(t *testing.T) {
	tests := []struct {
		name       string
		dims, tile []int
		want       []int
		valid      bool
	}{
		{"MaxInt by 48", []int{math.MaxInt}, []int{48}, []int{math.MaxInt}, false},
		{"MaxInt-1 by 2 is divisible", []int{math.MaxInt - 1}, []int{2}, []int{math.MaxInt - 1}, true},
		{"MaxInt-5 by 4 fits", []int{math.MaxInt - 5}, []int{4}, []int{math.MaxInt - 3}, true},
		{"MaxInt-2 by 4", []int{math.MaxInt - 2}, []int{4}, []int{math.MaxInt - 2}, false},
		{"rank 2, dimension 1", []int{3, math.MaxInt - 2}, []int{1, 16}, []int{3, math.MaxInt - 2}, false},
		{"rank 3 beside padded ones", []int{5, math.MaxInt, 7}, []int{2, 2, 2}, []int{6, math.MaxInt, 8}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := amprt.Ext(tt.dims...).Tile(tt.tile...).Pad()
			assert.Equal(t, tt.want, p.Extent.Dims())
			if tt.valid {
				assert.NoError(t, p.Validate())
			} else {
				assert.ErrorIs(t, p.Validate(), amprt.ErrInvalidComputeDomain)
			}
		})
	}
}
