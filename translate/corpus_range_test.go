package translate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate/testdata/corpus"
)

// runGridLoop runs corpus.Axpy[int32] over more points than a GPU dispatch of a looping
// body launches threads (runtime.MaxLoopGroups workgroups of runtime.GroupSize), so that
// its threads take several points each, in a rank-2 domain whose rows do not divide them.
func runGridLoop(t testing.TB, av *accelerator.View, r *rand.Rand) any {
	const rows, cols = 997, 2503 // 2,495,491 points
	o, od := inout(t, randInts(r, rows*cols, -1e9, 1e9), rows, cols)
	k := corpus.Axpy[int32]{X: in(t, randInts(r, rows*cols, -1e9, 1e9), rows, cols), Y: o, Alpha: 7}
	return ran(t, forEach(av, runtime.Ext(rows, cols), k), o, od)
}

// runRangeForms runs corpus.RangeForms over a 29 x 33 domain.
func runRangeForms(t testing.TB, av *accelerator.View, r *rand.Rand) any {
	const rows, cols = 29, 33
	o, od := out[int32](t, rows, cols)
	k := corpus.RangeForms{In: in(t, randInts(r, rows*cols, -1e6, 1e6), rows, cols), Out: o}
	return ran(t, forEach(av, runtime.Ext(rows, cols), k), o, od)
}

// runRangeMoved runs corpus.RangeMoved over a 17 x 5 domain.
func runRangeMoved(t testing.TB, av *accelerator.View, r *rand.Rand) any {
	const rows, cols = 17, 5
	o, od := out[int32](t, rows, cols)
	k := corpus.RangeMoved{In: in(t, randInts(r, rows*cols, -1e6, 1e6), rows, cols), Out: o, Rows: rows}
	return ran(t, forEach(av, runtime.Ext(rows, cols), k), o, od)
}
