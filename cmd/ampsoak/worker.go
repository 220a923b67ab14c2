package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// worker is one goroutine's share of a soak: an accelerator view and three long-lived
// views it dispatches on, with the values they must hold.
type worker struct {
	a       *accelerator.Accelerator
	av      *accelerator.View
	r       *rand.Rand
	n       int
	x, y    []int32
	xv, yv  *arrayview.View[int32]
	sum     *arrayview.View[int32]
	sumHost []int32
}

func newWorker(a *accelerator.Accelerator, c config, seed uint64) (*worker, error) {
	av, err := a.CreateView(accelerator.Automatic)
	if err != nil {
		return nil, err
	}
	w := &worker{a: a, av: av, r: rand.New(rand.NewPCG(seed, 99)), n: c.n}
	w.x, w.y, w.sumHost = w.ints(), w.ints(), make([]int32, c.n)
	w.xv = arrayview.MustNew(runtime.Ext(c.n), w.x)
	w.yv = arrayview.MustNew(runtime.Ext(c.n), w.y)
	w.sum = arrayview.MustNew(runtime.Ext(c.n), w.sumHost)
	return w, nil
}

func (w *worker) ints() []int32 {
	s := make([]int32, w.n)
	for i := range s {
		s[i] = w.r.Int32N(1 << 20)
	}
	return s
}

// round runs dispatches Adds on the long-lived views (sum += x, checked at the end), then
// views short-lived array views and accViews short-lived accelerator views, each used by
// a kernel whose result is checked, then closed.
func (w *worker) round(dispatches, views, accViews int) error {
	if err := w.sum.CopyFrom(w.x); err != nil {
		return err
	}
	for range dispatches - 1 {
		if err := algo.Add(w.av, w.sum, w.yv, w.sum); err != nil {
			return err
		}
	}
	if err := w.sum.Synchronize(); err != nil {
		return err
	}
	for i, got := range w.sumHost {
		if want := w.x[i] + int32(dispatches-1)*w.y[i]; got != want {
			return fmt.Errorf("dispatches: element %d is %d, want %d", i, got, want)
		}
	}
	for range views {
		if err := w.shortView(w.av); err != nil {
			return err
		}
	}
	for range accViews {
		av, err := w.a.CreateView(accelerator.Automatic)
		if err != nil {
			return err
		}
		err = w.shortView(av)
		if cerr := av.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// shortView adds a fresh slice to x on av through a view made for it, checks the sum and
// closes the view.
func (w *worker) shortView(av *accelerator.View) error {
	s := w.ints()
	want := make([]int32, w.n)
	for i := range s {
		want[i] = s[i] + w.x[i]
	}
	v := arrayview.MustNew(runtime.Ext(w.n), s)
	if err := algo.Add(av, v, w.xv, v); err != nil {
		return err
	}
	if err := v.Synchronize(); err != nil {
		return err
	}
	if err := v.Close(); err != nil {
		return err
	}
	for i := range s {
		if s[i] != want[i] {
			return fmt.Errorf("views: element %d is %d, want %d", i, s[i], want[i])
		}
	}
	return nil
}

func (w *worker) close() error {
	for _, v := range []*arrayview.View[int32]{w.xv, w.yv, w.sum} {
		if err := v.Close(); err != nil {
			return err
		}
	}
	return w.av.Close()
}
