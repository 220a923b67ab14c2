package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// closedArgs makes a call's views, closing the one numbered closed (counting from 0 in
// the order they are made) right after it is made; check reports whether the closed
// view's data is as it was.
type closedArgs struct {
	closed, n int
	r         *rand.Rand
	t         *testing.T
	checks    []func() bool
}

// closedView returns a view of extent ext over random data of T for a, closed when it is
// the one a closes.
func closedView[T comparable](a *closedArgs, ext runtime.Extent) *arrayview.View[T] {
	data := make([]T, ext.Size())
	for i := range data {
		data[i] = closedValue[T](a.r)
	}
	v := arrayview.MustNew(ext, data)
	if a.n == a.closed {
		want := slices.Clone(data)
		require.NoError(a.t, v.Close())
		a.checks = append(a.checks, func() bool { return slices.Equal(data, want) })
	} else {
		a.t.Cleanup(func() { _ = v.Close() })
	}
	a.n++
	return v
}

// closedValue is a random value of T, small enough that products do not overflow.
func closedValue[T comparable](r *rand.Rand) T {
	var x T
	switch p := any(&x).(type) {
	case *float32:
		*p = float32(r.IntN(16))
	case *int32:
		*p = int32(r.IntN(16))
	case *uint32:
		*p = uint32(r.IntN(16))
	case *int8:
		*p = int8(r.IntN(16))
	case *half.Float16:
		*p = half.FromFloat32(float32(r.IntN(16)))
	}
	return x
}

// closedCall is an exported function of the package called with views made by a; views
// says how many it makes.
type closedCall struct {
	name  string
	views int
	call  func(av *accelerator.View, a *closedArgs) error
}

func closedCalls() []closedCall {
	e1, e2 := runtime.Ext(300), runtime.Ext(8, 8)
	on := func(av *accelerator.View) []*accelerator.View { return []*accelerator.View{av} }
	return []closedCall{
		{"Add", 3, func(av *accelerator.View, a *closedArgs) error {
			return Add(av, closedView[float32](a, e1), closedView[float32](a, e1), closedView[float32](a, e1))
		}},
		{"Saxpy", 2, func(av *accelerator.View, a *closedArgs) error {
			return Saxpy(av, 2, closedView[float32](a, e1), closedView[float32](a, e1))
		}},
		{"Fill", 1, func(av *accelerator.View, a *closedArgs) error { return Fill(av, closedView[int32](a, e1), 7) }},
		{"Transpose", 2, func(av *accelerator.View, a *closedArgs) error {
			return Transpose(av, closedView[float32](a, e2), closedView[float32](a, e2))
		}},
		{"Convolve2D", 2, func(av *accelerator.View, a *closedArgs) error {
			return Convolve2D(av, closedView[float32](a, e2), closedView[float32](a, e2), []float32{1, 2, 1}, []float32{1, 2, 1})
		}},
		{"Reduce", 1, func(av *accelerator.View, a *closedArgs) error {
			_, err := Reduce(av, closedView[uint32](a, e1), Sum)
			return err
		}},
		{"ReduceOn", 1, func(av *accelerator.View, a *closedArgs) error {
			_, err := ReduceOn(on(av), closedView[int32](a, e1), Max)
			return err
		}},
		{"Histogram", 1, func(av *accelerator.View, a *closedArgs) error {
			_, err := Histogram(av, closedView[float32](a, e1), 8, 0, 16)
			return err
		}},
		{"InclusiveScan", 2, func(av *accelerator.View, a *closedArgs) error {
			return InclusiveScan(av, closedView[int32](a, e1), closedView[int32](a, e1))
		}},
		{"ExclusiveScan", 2, func(av *accelerator.View, a *closedArgs) error {
			return ExclusiveScan(av, closedView[float32](a, e1), closedView[float32](a, e1))
		}},
		{"Sort", 1, func(av *accelerator.View, a *closedArgs) error { return Sort(av, closedView[float32](a, e1)) }},
		{"SortWith", 1, func(av *accelerator.View, a *closedArgs) error {
			return SortWith(av, closedView[uint32](a, e2), SortOptions{Descending: true})
		}},
		{"SortOn", 1, func(av *accelerator.View, a *closedArgs) error {
			return SortOn(on(av), closedView[int32](a, e1), SortOptions{})
		}},
		{"SortPairs", 2, func(av *accelerator.View, a *closedArgs) error {
			return SortPairs(av, closedView[int32](a, e1), closedView[float32](a, e1), SortOptions{})
		}},
		{"Argsort", 2, func(av *accelerator.View, a *closedArgs) error {
			return Argsort(av, closedView[float32](a, e1), closedView[int32](a, e1), SortOptions{})
		}},
		{"MatMul", 3, func(av *accelerator.View, a *closedArgs) error {
			return MatMul(av, closedView[float32](a, e2), closedView[float32](a, e2), closedView[float32](a, e2))
		}},
		{"MatMulSimple", 3, func(av *accelerator.View, a *closedArgs) error {
			return MatMulSimple(av, closedView[int32](a, e2), closedView[int32](a, e2), closedView[int32](a, e2))
		}},
		{"MatMulWith", 3, func(av *accelerator.View, a *closedArgs) error {
			return MatMulWith(av, closedView[float32](a, e2), closedView[float32](a, e2), closedView[float32](a, e2),
				MatMulOptions{TransB: true})
		}},
		{"MatMulOn", 3, func(av *accelerator.View, a *closedArgs) error {
			return MatMulOn(on(av), closedView[float32](a, e2), closedView[float32](a, e2), closedView[float32](a, e2))
		}},
		{"MatMulF16", 3, func(av *accelerator.View, a *closedArgs) error {
			return MatMulF16(av, closedView[half.Float16](a, e2), closedView[half.Float16](a, e2), closedView[float32](a, e2))
		}},
		{"MatMulI8", 3, func(av *accelerator.View, a *closedArgs) error {
			return MatMulI8(av, closedView[int8](a, e2), closedView[int8](a, e2), closedView[int32](a, e2))
		}},
	}
}

// TestClosedViews calls every exported function of the package with each of its views
// closed in turn, on every accelerator: each returns an error matching
// arrayview.ErrClosed (no panic, no other error), and the closed view's data is as it was.
func TestClosedViews(t *testing.T) {
	r := rand.New(rand.NewPCG(amptest.Seed(t), 36))
	for _, av := range ewViews(t) {
		for _, c := range closedCalls() {
			for i := range c.views {
				t.Run(fmt.Sprintf("%s/%s/arg%d", av.Accelerator().Path(), c.name, i), func(t *testing.T) {
					a := &closedArgs{closed: i, r: r, t: t}
					var err error
					require.NotPanics(t, func() { err = c.call(av, a) })
					require.Equal(t, c.views, a.n, "views made")
					require.ErrorIs(t, err, arrayview.ErrClosed)
					var ce *arrayview.ClosedError
					assert.ErrorAs(t, err, &ce)
					for _, ok := range a.checks {
						assert.True(t, ok(), "the closed view's data is as it was")
					}
				})
			}
		}
	}
}
