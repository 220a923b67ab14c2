package usermod

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"example.com/usermod/geom"
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

func randomBodies(seed uint64, n int) []geom.Body {
	r := rand.New(rand.NewPCG(seed, 0))
	bs := make([]geom.Body, n)
	for i := range bs {
		bs[i] = geom.Body{P: geom.Vec{X: r.Float32()*2 - 1, Y: r.Float32()*2 - 1}, Mass: r.Float32() + 0.1}
	}
	return bs
}

// bodyViews returns n random bodies and a float32 per body, and views of both.
func bodyViews(t testing.TB, seed uint64, n int) ([]geom.Body, *arrayview.View[geom.Body], []float32, *arrayview.View[float32]) {
	bs := randomBodies(seed, n)
	bv, err := arrayview.New(runtime.Ext(n), bs)
	require.NoError(t, err)
	fs := make([]float32, n)
	fv, err := arrayview.New(runtime.Ext(n), fs)
	require.NoError(t, err)
	return bs, bv, fs, fv
}

// TestDrift runs Drift, whose body calls package geom, on every accelerator against the
// CPU, and the CPU's against the same Go code run directly.
func TestDrift(t *testing.T) {
	seed := amptest.Seed(t)
	cpu := amptest.Compare(t, func(t testing.TB, av *accelerator.View) []float32 {
		bs, bv, score, sv := bodyViews(t, seed, 500)
		require.NoError(t, runtime.ParallelForEach(av, runtime.Ext(len(bs)), Drift{Bodies: bv, Score: sv, D: 0.25, Wind: geom.Vec{X: 0.125, Y: 0.5}}))
		require.NoError(t, sv.Synchronize())
		require.NoError(t, bv.Synchronize())
		for _, b := range bs {
			score = append(score, b.P.X, b.P.Y)
		}
		return score
	}, amptest.Near[float32](1e-6, 1e-6))
	for i, b := range randomBodies(seed, 500) {
		v := geom.Add(geom.Add(b.P, geom.Vec{X: 0.25, Y: -0.25}), geom.Vec{X: 0.125, Y: 0.5})
		v.Scale(0.5)
		require.Equal(t, []float32{v.X, v.Y}, cpu[500+2*i:500+2*i+2], "body %d", i)
	}
}

// TestShare runs Share, whose body calls geom.TileSum with its barriers, on every
// accelerator against the CPU; each tile's shares add up to 1.
func TestShare(t *testing.T) {
	seed := amptest.Seed(t)
	cpu := amptest.Compare(t, func(t testing.TB, av *accelerator.View) []float32 {
		bs, bv, share, sv := bodyViews(t, seed, 1024)
		require.NoError(t, runtime.ParallelForEachTiled(av, runtime.Ext(len(bs)).Tile(64), Share{Bodies: bv.ReadOnly(), Share: sv}))
		require.NoError(t, sv.Synchronize())
		return share
	}, amptest.Near[float32](1e-6, 1e-5))
	for tile := range 1024 / 64 {
		sum := float32(0)
		for _, s := range cpu[64*tile : 64*tile+64] {
			sum += s
		}
		require.InDelta(t, 1, sum, 1e-5, "tile %d", tile)
	}
}
