package translate_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	amprt "github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/runtime/ampimpl"
)

// TestIndexNext checks ampimpl.Next, which the EachRange methods that GoFile writes
// step with: from any offset it reaches the next one in row-major order, as Delinearize
// says, and after the last it is one past the end (the first coordinate at the first
// dimension, the others 0).
func TestIndexNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, rank := range []int{1, 2, 3} {
		t.Run(string(rune('0'+rank))+"d", func(t *testing.T) {
			for range 20 {
				dims := make([]int, rank)
				for d := range dims {
					dims[d] = 1 + rng.IntN(5)
				}
				e := amprt.Ext(dims...)
				idx := e.Delinearize(0)
				for n := 1; n <= e.Size(); n++ {
					ampimpl.Next(&idx, e)
					want := amprt.Index{dims[0]}
					if n < e.Size() {
						want = e.Delinearize(n)
					}
					if !assert.Equal(t, want, idx, "extent %v, after offset %d", dims, n-1) {
						return
					}
				}
			}
		})
	}
}

// TestStart3Next3 checks ampimpl.Start3 and ampimpl.Next3, which the EachRange
// methods that GoFile writes begin a chunk with and step its offset and index's scalar
// components with: from any offset of a domain of rank 1 to 3 they reach Delinearize of
// each later offset, and the offset counts with them.
func TestStart3Next3(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for _, rank := range []int{1, 2, 3} {
		for range 20 {
			dims := make([]int, rank)
			for d := range dims {
				dims[d] = 1 + rng.IntN(5)
			}
			e := amprt.Ext(dims...)
			lo := rng.IntN(e.Size())
			i0, i1, i2, n1, n2 := ampimpl.Start3(e, lo)
			assert.Equal(t, [2]int{max(e.Dim(1), 1), max(e.Dim(2), 1)}, [2]int{n1, n2}, "extent %v", dims)
			for j := lo; j < e.Size(); j, i0, i1, i2 = ampimpl.Next3(j, i0, i1, i2, n1, n2) {
				if !assert.Equal(t, e.Delinearize(j), amprt.Index{i0, i1, i2}, "extent %v, offset %d from %d", dims, j, lo) {
					return
				}
			}
		}
	}
}

// TestInstancesOf checks ampimpl.Instances.Of, which the Program methods that GoFile
// writes for generic kernels pick their instance with: by the kinds of one or more type
// arguments, nil for an instance ampgen did not build.
func TestInstancesOf(t *testing.T) {
	f32, i32 := new(amprt.Program), new(amprt.Program)
	in := ampimpl.Instances{"float32": f32, "int32,float32": i32}
	type celsius float32
	for _, c := range []struct {
		name  string
		types []reflect.Type
		want  *amprt.Program
	}{
		{"one", []reflect.Type{reflect.TypeFor[float32]()}, f32},
		{"named type of the kind", []reflect.Type{reflect.TypeFor[celsius]()}, f32},
		{"two", []reflect.Type{reflect.TypeFor[int32](), reflect.TypeFor[float32]()}, i32},
		{"not built", []reflect.Type{reflect.TypeFor[uint32]()}, nil},
		{"two, not built", []reflect.Type{reflect.TypeFor[float32](), reflect.TypeFor[int32]()}, nil},
	} {
		assert.Same(t, c.want, in.Of(c.types...), c.name)
	}
}

// TestTileOrigin checks runtime.TiledExtent.TileOrigin, which the EachTile methods that
// GoFile writes start from: each tile's origin is its coordinates times the tile's
// dimensions, and the tiles' origins cover the domain's indices exactly once.
func TestTileOrigin(t *testing.T) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	for range 20 {
		rank := 1 + rng.IntN(3)
		dims, tile := make([]int, rank), make([]int, rank)
		for d := range dims {
			tile[d] = 1 + rng.IntN(4)
			dims[d] = tile[d] * (1 + rng.IntN(4))
		}
		te := amprt.TiledExtent{Extent: amprt.Ext(dims...), Tile: amprt.Ext(tile...)}
		seen := map[amprt.Index]bool{}
		count := te.TileCount()
		for n := range te.Tiles() {
			c := amprt.Ext(count[:rank]...).Delinearize(n)
			o := ampimpl.TileOrigin(te, c)
			for d := range rank {
				assert.Equal(t, c[d]*tile[d], o[d], "%v tile %v dimension %d", te, c, d)
			}
			for m := range te.TileSize() {
				seen[o.Add(te.Tile.Delinearize(m))] = true
			}
		}
		assert.Len(t, seen, te.Extent.Size(), "%v: the tiles cover the domain once", te)
	}
}
