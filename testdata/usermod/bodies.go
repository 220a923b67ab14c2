package usermod

import (
	"example.com/usermod/geom"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Vec is this package's own Vec, beside geom.Vec: the GPU body keeps them apart.
type Vec struct{ A, B int32 }

// Drift moves each body by D and returns a score, through package geom's functions,
// methods and types.
type Drift struct {
	Bodies *arrayview.View[geom.Body]
	Score  *arrayview.View[float32]
	D      float32
	Wind   geom.Vec // a struct field of another package: a push constant
}

// Each is the kernel.
func (k Drift) Each(i runtime.Index) {
	b := k.Bodies.At(i)
	v := geom.Add(geom.Add(b.P, geom.Vec{X: k.D, Y: -k.D}), k.Wind)
	v.Scale(0.5)
	b.P = v
	k.Bodies.Set(i, b)
	own := Vec{1, 2}
	k.Score.Set(i, geom.Clamp(v.Len2(), 0, 2)+geom.Max3(b.Mass, 0.5, v.X)+geom.Eps+float32(geom.Max3(own.A, own.B, 0)))
}

// Share gives each body its share of its tile's mass, through geom.TileSum's barriers.
type Share struct {
	Bodies *arrayview.ReadView[geom.Body]
	Share  *arrayview.View[float32]
}

// Tiled is the kernel.
func (k Share) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[float32](t, t.TileExtent.Size())
	m := k.Bodies.At(t.Global).Mass
	k.Share.Set(t.Global, m/geom.TileSum(t, s, m))
}
