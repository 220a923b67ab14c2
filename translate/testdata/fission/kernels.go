// Package fission holds tiled kernels that ampgen translates for the GPU but gives no
// generated fast CPU body, each for one reason, and one that gets one: the translator's
// tests check ampgen's notes about them.
package fission

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// SwitchBarrier waits at a barrier inside a switch on a scalar.
type SwitchBarrier struct {
	Out  *arrayview.View[int32]
	Mode int32
}

// Tiled is the kernel.
func (k SwitchBarrier) Tiled(t runtime.TiledIndex) {
	switch k.Mode {
	case 0:
		t.Barrier.Wait()
	default:
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, 1)
}

// CountSetInIf waits at a barrier in a loop whose trip count is uniform but set inside an
// if without a barrier: the fission keeps only variables set at tile level per tile.
type CountSetInIf struct {
	Out  *arrayview.View[int32]
	Mode int32
}

// Tiled is the kernel.
func (k CountSetInIf) Tiled(t runtime.TiledIndex) {
	n := 2
	if k.Mode > 0 {
		n = 3
	}
	for j := 0; j < n; j++ {
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, int32(n))
}

// PassT hands its TiledIndex to a method, which the fast CPU body expands in place.
type PassT struct {
	Out *arrayview.View[int32]
}

// local returns the thread's local index.
func (k PassT) local(t runtime.TiledIndex) int32 { return int32(t.Local[0]) }

// Tiled is the kernel.
func (k PassT) Tiled(t runtime.TiledIndex) {
	t.Barrier.Wait()
	k.Out.Set(t.Global, k.local(t))
}

// Hand has a hand-written EachTile.
type Hand struct {
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Hand) Tiled(t runtime.TiledIndex) { k.Out.Set(t.Global, 2) }

// EachTile is the hand-written fast CPU body.
func (k Hand) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	for l := range d.Tile.Size() {
		k.Out.Set(runtime.Idx(tile[0]*d.Tile.Dim(0)+l), 2)
	}
}

// Clash uses a name the generated body declares.
type Clash struct {
	Out *arrayview.View[int32]
}

// Tiled is the kernel.
func (k Clash) Tiled(t runtime.TiledIndex) {
	ampL := int32(t.Local[0])
	t.Barrier.Wait()
	k.Out.Set(t.Global, ampL)
}

// Good gets a generated body: a barrier in a loop over a scalar's count.
type Good struct {
	Out    *arrayview.View[int32]
	Rounds int32
}

// Tiled is the kernel.
func (k Good) Tiled(t runtime.TiledIndex) {
	s := runtime.TileStatic[int32](t, t.TileExtent.Size())
	v := int32(t.Local[0])
	for range k.Rounds {
		s[t.Local[0]] = v
		t.Barrier.Wait()
		v += s[(t.Local[0]+1)%t.TileExtent.Size()]
		t.Barrier.Wait()
	}
	k.Out.Set(t.Global, v)
}

// EarlyT hands its TiledIndex to a method that returns early, which the fast CPU body
// does not expand.
type EarlyT struct {
	Out *arrayview.View[int32]
}

// local returns 1 for every thread but the first.
func (k EarlyT) local(t runtime.TiledIndex) int32 {
	if t.Local[0] > 0 {
		return 1
	}
	return 0
}

// Tiled is the kernel.
func (k EarlyT) Tiled(t runtime.TiledIndex) {
	t.Barrier.Wait()
	k.Out.Set(t.Global, k.local(t))
}
