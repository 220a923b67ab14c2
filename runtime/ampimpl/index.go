package ampimpl

import "github.com/goamp/goamp/runtime"

// Next steps i to the index after it in d's row-major order (the last dimension
// fastest, wrapping into the one before), for the EachRange methods. After d's last
// index, i is one past the end: its first coordinate is d.Dim(0), the others 0.
func Next(i *runtime.Index, d runtime.Extent) {
	for n := min(d.Rank(), len(i)) - 1; n >= 0; n-- {
		if i[n]++; i[n] < d.Dim(n) || n == 0 {
			return
		}
		i[n] = 0
	}
}

// Start3 is where the EachRange methods begin a chunk of d at its row-major offset lo:
// the index there as scalars (0 past d's rank), and n1, n2, d's last two dimensions (1
// past its rank), which Next3 steps over.
func Start3(d runtime.Extent, lo int) (i0, i1, i2, n1, n2 int) {
	i := d.Delinearize(lo)
	return i[0], i[1], i[2], max(d.Dim(1), 1), max(d.Dim(2), 1)
}

// Next3 steps the loop of an EachRange method: the next offset j+1 and the index after
// (i0, i1, i2) in row-major order over dimensions of n1 and n2 in its last two places
// (see Start3). The methods keep an index's components as scalars, so that the compiler
// keeps them in registers.
func Next3(j, i0, i1, i2, n1, n2 int) (int, int, int, int) {
	if i2++; i2 == n2 {
		i2 = 0
		if i1++; i1 == n1 {
			i1 = 0
			i0++
		}
	}
	return j + 1, i0, i1, i2
}

// TileOrigin is the global index of the first thread of tile (a tile's coordinates, as
// TiledExtent.TileCount counts them): tile times the tile's dimensions, per dimension.
func TileOrigin(t runtime.TiledExtent, tile runtime.Index) runtime.Index {
	for d := range tile {
		tile[d] *= t.Tile.Dim(d)
	}
	return tile
}

// Frame is where the EachTile methods begin tile (a tile's coordinates) of a valid t:
// the tile's size (its threads, as t.Tile.Size()), the global index of its first
// thread (TileOrigin) and its dimensions, 1 past its rank: the loops over a tile's
// threads nest one per dimension, so that a thread's local index is the loops'
// variables. The methods keep them as scalars, so that the compiler keeps them in
// registers; Frame is small enough to be inlined.
func Frame(t runtime.TiledExtent, tile runtime.Index) (size, o0, o1, o2, n0, n1, n2 int) {
	n0, n1, n2 = t.Tile.Dim(0), max(t.Tile.Dim(1), 1), max(t.Tile.Dim(2), 1)
	return n0 * n1 * n2, tile[0] * n0, tile[1] * t.Tile.Dim(1), tile[2] * t.Tile.Dim(2), n0, n1, n2
}
