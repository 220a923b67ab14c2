package negative

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// Quads64 reads quads of a float64 view: At4 and Set4 are for 4-byte elements.
type Quads64 struct {
	In  *arrayview.ReadView[float64]
	Out *arrayview.View[float64]
}

func (k Quads64) Each(i runtime.Index) {
	q := k.In.At4(runtime.Idx(4 * i[0]))
	k.Out.Set4(runtime.Idx(4*i[0]), q)
}
