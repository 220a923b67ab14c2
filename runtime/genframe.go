package runtime

// Frame is where the EachTile methods that ampgen generates begin tile (a tile's
// coordinates, as TileCount counts them) of a valid t: the tile's size (its threads, as
// t.Tile.Size()), the global index of its first thread (TileOrigin) and its dimensions, 1
// past its rank: the loops over a tile's threads nest one per dimension, so that a
// thread's local index is the loops' variables. The methods keep them as scalars, so that
// the compiler keeps them in registers; Frame is small enough to be inlined.
func (t TiledExtent) Frame(tile Index) (size, o0, o1, o2, n0, n1, n2 int) {
	d := t.Tile.d // 0 past a valid tile's rank
	n0, n1, n2 = d[0], max(d[1], 1), max(d[2], 1)
	return n0 * n1 * n2, tile[0] * d[0], tile[1] * d[1], tile[2] * d[2], n0, n1, n2
}
