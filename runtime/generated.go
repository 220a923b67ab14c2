package runtime

import (
	"fmt"
	"io/fs"
	"reflect"
	"strings"
)

// EmbeddedProgram is the program name whose SPIR-V module is file of fsys, for the
// code that ampgen (cmd/ampgen) generates: it embeds each kernel's module as a .spv file
// beside amp_gen.go and makes the kernel's Program from it when the package is
// initialized. It panics, naming the file and the program, when there is no such file.
// The module is read, and its name registered as NewProgram does, when the program is
// first used (Interface, a dispatch), so that a package's start-up costs no parsing:
// a module that is not valid is the first dispatch's error.
func EmbeddedProgram(fsys fs.FS, file, name string) *Program {
	if _, err := fs.Stat(fsys, file); err != nil {
		panic(fmt.Errorf("goamp/runtime: the SPIR-V of %s: %w", name, err))
	}
	return &Program{Name: name, generated: true, fsys: fsys, file: file}
}

// Instances are the programs of a generic kernel type, one for each instance ampgen
// built, keyed by the kinds of its type arguments joined by commas ("float32",
// "int32,float32"). The Program methods that ampgen generates for generic kernels look
// their instance up with Of.
type Instances map[string]*Program

// Of returns the program of the instance whose type arguments are types, or nil when
// ampgen built none for their kinds.
func (in Instances) Of(types ...reflect.Type) *Program {
	if len(types) == 1 {
		return in[types[0].Kind().String()]
	}
	kinds := make([]string, len(types))
	for i, t := range types {
		kinds[i] = t.Kind().String()
	}
	return in[strings.Join(kinds, ",")]
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

// Start3 is where the EachRange methods that ampgen generates begin a chunk of d at its
// row-major offset lo: the index there as scalars (0 past d's rank), and n1, n2, d's last
// two dimensions (1 past its rank), which Next3 steps over.
func (d Extent) Start3(lo int) (i0, i1, i2, n1, n2 int) {
	i := d.Delinearize(lo)
	return i[0], i[1], i[2], max(d.Dim(1), 1), max(d.Dim(2), 1)
}

// Next3 steps the loop of an EachRange method that ampgen generates: the next offset j+1
// and the index after (i0, i1, i2) in row-major order over dimensions of n1 and n2 in its
// last two places (see Start3). The generated methods keep an index's components as
// scalars, so that the compiler keeps them in registers.
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
// TileCount counts them): tile times the tile's dimensions, per dimension. The EachTile
// methods that ampgen generates start from it.
func (t TiledExtent) TileOrigin(tile Index) Index {
	for d := range tile {
		tile[d] *= t.Tile.Dim(d)
	}
	return tile
}
