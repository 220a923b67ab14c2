package translate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate/testdata/corpus"
)

// The corpus's kernels on the forms a generated EachRange rewrites.
func init() {
	corpusCases = append(corpusCases,
		corpusCase{"RangeForms", runRangeForms, exact},
		corpusCase{"RangeMoved", runRangeMoved, exact},
	)
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
