package runtime_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/testprog"
	amprt "github.com/goamp/goamp/runtime"
)

// prepared records the accelerators TestPrepare has built its pipeline on: accelerators
// live as long as the process, so under -count=2 the second run finds it built.
var prepared = map[*accelerator.Accelerator]bool{}

// TestPrepare checks that PrepareTiled builds the pipeline a dispatch then uses (the
// dispatch builds none), binds no argument, and refuses what ParallelForEachTiled refuses
// with the same error.
func TestPrepare(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		acc := v.Accelerator()
		// A tile of 24 threads: a shape no other test of this package dispatches, so that
		// its pipeline is new.
		dom := amprt.Ext(96).Tile(24)
		a, b := newArg(amprt.Ext(96), amprt.Read), newArg(amprt.Ext(96), amprt.Write)
		defer a.free()
		defer b.free()
		for i := range a.host {
			a.host[i] = int32(i*i - 50)
		}
		k := tileK{A: a, B: b, prog: testprog.MustProgram("tile1", 1)}
		before := acc.Pipelines()
		require.NoError(t, amprt.PrepareTiled(v, dom, k))
		assert.Nil(t, a.bufs, "Prepare bound an argument")
		assert.Nil(t, b.bufs, "Prepare bound an argument")
		built := acc.Pipelines() - before
		if goBodies(acc) || prepared[acc] {
			assert.Zero(t, built, "Prepare built a pipeline it had built before")
		} else {
			assert.Equal(t, 1, built, "Prepare built no pipeline")
		}
		prepared[acc] = true
		require.NoError(t, amprt.ParallelForEachTiled(v, dom, k))
		require.NoError(t, b.sync())
		assert.Equal(t, before+built, acc.Pipelines(), "the dispatch built a pipeline Prepare had not")
		for i, got := range b.host {
			l, tile := i%24, i/24
			want := a.host[tile*24+23-l] + a.host[tile*24] +
				tileTag(amprt.Idx(i), amprt.Idx(l), amprt.Idx(tile), amprt.Idx(tile*24), amprt.Ext(24))
			require.Equal(t, want, got, "element %d", i)
		}
	})
}

// TestPrepareErrors checks that Prepare and PrepareTiled give the errors of
// ParallelForEach and ParallelForEachTiled for a nil kernel, a bad domain and a kernel
// whose program does not match it.
func TestPrepareErrors(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		out := newArg(amprt.Ext(10), amprt.Write)
		defer out.free()
		tests := []struct {
			name     string
			prepare  func() error
			parallel func() error
		}{
			{"nil kernel",
				func() error { return amprt.Prepare(v, amprt.Ext(10), nil) },
				func() error { return amprt.ParallelForEach(v, amprt.Ext(10), nil) }},
			{"bad extent",
				func() error { return amprt.Prepare(v, amprt.Ext(0), iotaK{Out: out}) },
				func() error { return amprt.ParallelForEach(v, amprt.Ext(0), iotaK{Out: out}) }},
			{"bad tiling",
				func() error { return amprt.PrepareTiled(v, amprt.Ext(10).Tile(4), tileK{A: out, B: out}) },
				func() error { return amprt.ParallelForEachTiled(v, amprt.Ext(10).Tile(4), tileK{A: out, B: out}) }},
			{"rank not the program's",
				func() error { return amprt.Prepare(v, amprt.Ext(2, 5), iotaK{Out: out}) },
				func() error { return amprt.ParallelForEach(v, amprt.Ext(2, 5), iotaK{Out: out}) }},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				err := tc.prepare()
				require.Error(t, err)
				want := tc.parallel()
				assert.Equal(t, want.Error(), err.Error())
				assert.Equal(t, errors.Is(want, amprt.ErrInvalidComputeDomain), errors.Is(err, amprt.ErrInvalidComputeDomain))
			})
		}
		assert.Nil(t, out.bufs, "a failed Prepare bound an argument")
	})
}
