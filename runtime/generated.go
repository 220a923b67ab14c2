package runtime

import (
	"fmt"
	"io/fs"
)

// EmbeddedProgram is MustProgram of the SPIR-V module in file of fsys, for the code that
// ampgen (cmd/ampgen) generates: it embeds each kernel's module as a .spv file beside
// amp_gen.go and makes the kernel's Program from it when the package is initialized.
// It panics, naming the file and the program, when the file cannot be read or does not
// hold a valid module.
func EmbeddedProgram(fsys fs.FS, file, name string) *Program {
	spirv, err := fs.ReadFile(fsys, file)
	if err != nil {
		panic(fmt.Errorf("goamp/runtime: the SPIR-V of %s: %w", name, err))
	}
	return MustProgram(name, spirv, 0)
}

// Next steps i to the index after it in d's row-major order (the last dimension
// fastest, wrapping into the one before), for the EachRange methods that ampgen
// generates. After d's last index, i is one past the end: its first coordinate is
// d.Dim(0), the others 0.
func (i *Index) Next(d Extent) {
	for n := min(d.Rank(), len(i)) - 1; n >= 0; n-- {
		if i[n]++; i[n] < d.Dim(n) || n == 0 {
			return
		}
		i[n] = 0
	}
}

// Step3 returns the index after (i0, i1, i2) in row-major order over dimensions of n1 and
// n2 in its last two places (1 past the domain's rank), for the EachRange methods that
// ampgen generates, which keep an index's components as scalars.
func Step3(i0, i1, i2, n1, n2 int) (int, int, int) {
	if i2++; i2 == n2 {
		i2 = 0
		if i1++; i1 == n1 {
			i1 = 0
			i0++
		}
	}
	return i0, i1, i2
}

// TileOrigin is the global index of the first thread of tile (a tile's coordinates, as
// TileCount counts them): tile times the tile's dimensions, per dimension. The EachTile
// methods that ampgen generates start from it.
func (t TiledExtent) TileOrigin(tile Index) Index {
	for d := range tile {
		tile[d] *= t.Tile.Dim(d)
	}
	return tile
}
