package runtime_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amprt "github.com/goamp/goamp/runtime"
)

func TestIdx(t *testing.T) {
	tests := []struct {
		name string
		in   []int
		want amprt.Index
	}{
		{"empty", nil, amprt.Index{}},
		{"rank1", []int{7}, amprt.Index{7, 0, 0}},
		{"rank2", []int{1, 2}, amprt.Index{1, 2, 0}},
		{"rank3", []int{1, 2, 3}, amprt.Index{1, 2, 3}},
		{"extra values ignored", []int{1, 2, 3, 4}, amprt.Index{1, 2, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, amprt.Idx(tt.in...))
		})
	}
}

func TestIndexAddSub(t *testing.T) {
	tests := []struct {
		name          string
		a, b, sum, df amprt.Index
	}{
		{"zero", amprt.Idx(), amprt.Idx(), amprt.Idx(), amprt.Idx()},
		{"rank2", amprt.Idx(4, 6), amprt.Idx(1, 2), amprt.Idx(5, 8), amprt.Idx(3, 4)},
		{"rank3 negative", amprt.Idx(1, 2, 3), amprt.Idx(3, 2, 1), amprt.Idx(4, 4, 4), amprt.Idx(-2, 0, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.sum, tt.a.Add(tt.b))
			assert.Equal(t, tt.df, tt.a.Sub(tt.b))
			assert.Equal(t, tt.a, tt.a.Add(tt.b).Sub(tt.b))
		})
	}
}

func TestExtentValid(t *testing.T) {
	tests := []struct {
		name string
		e    amprt.Extent
		rank int
		dims []int
		size int
		str  string
	}{
		{"rank1", amprt.Ext(10), 1, []int{10}, 10, "(10)"},
		{"rank2", amprt.Ext(4, 6), 2, []int{4, 6}, 24, "(4, 6)"},
		{"rank3", amprt.Ext(2, 3, 4), 3, []int{2, 3, 4}, 24, "(2, 3, 4)"},
		{"ones", amprt.Ext(1, 1, 1), 3, []int{1, 1, 1}, 1, "(1, 1, 1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.e.Validate())
			assert.Equal(t, tt.rank, tt.e.Rank())
			assert.Equal(t, tt.dims, tt.e.Dims())
			assert.Equal(t, tt.size, tt.e.Size())
			assert.Equal(t, tt.str, tt.e.String())
			for i, d := range tt.dims {
				assert.Equal(t, d, tt.e.Dim(i))
			}
			assert.Zero(t, tt.e.Dim(-1))
			assert.Zero(t, tt.e.Dim(tt.rank))
			assert.Zero(t, tt.e.Dim(5))
		})
	}
}

func TestExtentValidate(t *testing.T) {
	tests := []struct {
		name    string
		e       amprt.Extent
		rank    int
		str     string
		wantMsg string
	}{
		{"rank0", amprt.Ext(), 0, "()", "invalid extent (): rank 0 is not 1, 2 or 3"},
		{"zero value", amprt.Extent{}, 0, "()", "rank 0 is not 1, 2 or 3"},
		{"rank4", amprt.Ext(1, 2, 3, 4), 4, "(1, 2, 3, ...)", "invalid extent (1, 2, 3, ...): rank 4 is not 1, 2 or 3"},
		{"zero dim", amprt.Ext(0, 4), 2, "(0, 4)", "invalid extent (0, 4): dimension 0 is 0; every dimension must be >= 1"},
		{"negative dim", amprt.Ext(4, -1), 2, "(4, -1)", "dimension 1 is -1; every dimension must be >= 1"},
		{"zero last dim rank3", amprt.Ext(2, 3, 0), 3, "(2, 3, 0)", "dimension 2 is 0"},
		{"overflow", amprt.Ext(math.MaxInt, 2), 2, "", "the number of points overflows int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.e.Validate()
			require.Error(t, err)
			assert.True(t, errors.Is(err, amprt.ErrInvalidExtent))
			assert.False(t, errors.Is(err, amprt.ErrInvalidComputeDomain))
			var ee *amprt.ExtentError
			require.True(t, errors.As(err, &ee))
			assert.Equal(t, tt.rank, ee.Rank)
			assert.Equal(t, tt.e.Dims(), ee.Dims)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Equal(t, tt.rank, tt.e.Rank())
			if tt.str != "" {
				assert.Equal(t, tt.str, tt.e.String())
			}
			assert.Zero(t, tt.e.Size())
			assert.False(t, tt.e.Contains(amprt.Idx()))
			assert.Equal(t, amprt.Index{}, tt.e.Delinearize(3))
		})
	}
}

func TestExtentContains(t *testing.T) {
	e2 := amprt.Ext(4, 6)
	e3 := amprt.Ext(2, 3, 4)
	tests := []struct {
		name string
		e    amprt.Extent
		i    amprt.Index
		want bool
	}{
		{"origin", e2, amprt.Idx(0, 0), true},
		{"last", e2, amprt.Idx(3, 5), true},
		{"row past end", e2, amprt.Idx(4, 0), false},
		{"column past end", e2, amprt.Idx(0, 6), false},
		{"negative", e2, amprt.Idx(-1, 0), false},
		{"trailing entry ignored", e2, amprt.Idx(1, 1, 99), true},
		{"rank3 inside", e3, amprt.Idx(1, 2, 3), true},
		{"rank3 outside", e3, amprt.Idx(1, 2, 4), false},
		{"rank1", amprt.Ext(5), amprt.Idx(4), true},
		{"rank1 outside", amprt.Ext(5), amprt.Idx(5), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.e.Contains(tt.i))
		})
	}
}

func TestExtentLinear(t *testing.T) {
	tests := []struct {
		name string
		e    amprt.Extent
		i    amprt.Index
		want int
	}{
		{"rank1", amprt.Ext(10), amprt.Idx(7), 7},
		{"rank2 row-major", amprt.Ext(4, 6), amprt.Idx(2, 3), 2*6 + 3},
		{"rank2 last", amprt.Ext(4, 6), amprt.Idx(3, 5), 23},
		{"rank3 row-major", amprt.Ext(2, 3, 4), amprt.Idx(1, 2, 3), 1*12 + 2*4 + 3},
		{"rank3 origin", amprt.Ext(2, 3, 4), amprt.Idx(), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.e.Linear(tt.i))
			assert.Equal(t, tt.i, tt.e.Delinearize(tt.want))
		})
	}
}

func TestExtentLinearRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		e    amprt.Extent
	}{
		{"rank1", amprt.Ext(17)},
		{"rank2", amprt.Ext(4, 6)},
		{"rank2 thin", amprt.Ext(1, 9)},
		{"rank3", amprt.Ext(3, 5, 7)},
		{"rank3 ones", amprt.Ext(1, 1, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prev := amprt.Index{-1}
			for n := range tt.e.Size() {
				i := tt.e.Delinearize(n)
				require.True(t, tt.e.Contains(i), "index %v of offset %d", i, n)
				require.Equal(t, n, tt.e.Linear(i))
				require.NotEqual(t, prev, i)
				prev = i
			}
			// Row-major: the last offset is the last point.
			last := amprt.Idx()
			for k := range tt.e.Rank() {
				last[k] = tt.e.Dim(k) - 1
			}
			assert.Equal(t, last, tt.e.Delinearize(tt.e.Size()-1))
		})
	}
}

func TestExtentEqualAndTile(t *testing.T) {
	tests := []struct {
		name string
		a, b amprt.Extent
		want bool
	}{
		{"same", amprt.Ext(4, 6), amprt.Ext(4, 6), true},
		{"different dims", amprt.Ext(4, 6), amprt.Ext(6, 4), false},
		{"different rank", amprt.Ext(4), amprt.Ext(4, 1), false},
		{"zero values", amprt.Extent{}, amprt.Ext(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.a.Equal(tt.b))
			assert.Equal(t, tt.want, tt.b.Equal(tt.a))
		})
	}

	te := amprt.Ext(4, 6).Tile(2, 3)
	assert.True(t, te.Extent.Equal(amprt.Ext(4, 6)))
	assert.True(t, te.Tile.Equal(amprt.Ext(2, 3)))
	// Dims returns a copy.
	e := amprt.Ext(4, 6)
	e.Dims()[0] = 99
	assert.Equal(t, 4, e.Dim(0))
}
