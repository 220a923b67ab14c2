package main

import (
	"fmt"
	"math"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

func reduceCase[T float32 | int32](op algo.Op) func(*accelerator.View, sizes) (*instance, error) {
	return func(av *accelerator.View, sz sizes) (*instance, error) {
		var data []T
		switch any(data).(type) {
		case []float32:
			data = any(randF32(sz.N, 12)).([]T)
		default:
			data = any(randI32(sz.N, 12, -1000, 1000)).([]T)
		}
		want := float64(data[0])
		for _, x := range data[1:] {
			switch op {
			case algo.Sum:
				want += float64(x)
			case algo.Min:
				want = math.Min(want, float64(x))
			case algo.Max:
				want = math.Max(want, float64(x))
			}
		}
		v := arrayview.MustNew(runtime.Ext(sz.N), data)
		var got T
		return &instance{
			size: fmt.Sprint(sz.N), work: 4 * float64(sz.N), unit: "GB/s",
			flops: float64(sz.N), bytes: 4 * float64(sz.N),
			run: func() (err error) {
				got, err = algo.Reduce(av, v, op)
				return err
			},
			runOn: func(avs []*accelerator.View) (err error) {
				got, err = algo.ReduceOn(avs, v, op)
				return err
			},
			check: func() error {
				if !near(float64(got), want, 1e-4) {
					return fmt.Errorf("%v = %v, want %v", op, got, want)
				}
				return nil
			},
			cleanup: closeAll(v),
		}, nil
	}
}

func scanCase(av *accelerator.View, sz sizes) (*instance, error) {
	in, out := randF32(sz.N, 13), make([]float32, sz.N)
	vi, vo := arrayview.MustNew(runtime.Ext(sz.N), in), arrayview.MustNew(runtime.Ext(sz.N), out)
	return &instance{
		size: fmt.Sprint(sz.N), work: 8 * float64(sz.N), unit: "GB/s",
		flops: float64(sz.N), bytes: 8 * float64(sz.N),
		run: func() error { return algo.InclusiveScan(av, vi, vo) },
		check: func() error {
			if err := vo.Synchronize(); err != nil {
				return err
			}
			var run float64
			for i, x := range in {
				run += float64(x)
				if !near(float64(out[i]), run, 1e-3) {
					return fmt.Errorf("out[%d] = %g, want %g", i, out[i], run)
				}
			}
			return nil
		},
		cleanup: closeAll(vi, vo),
	}, nil
}

func histogramCase(av *accelerator.View, sz sizes) (*instance, error) {
	const bins = 256
	in := randF32(sz.N, 14)
	want := make([]uint32, bins)
	for _, x := range in {
		want[min(int(x*bins), bins-1)]++
	}
	vi := arrayview.MustNew(runtime.Ext(sz.N), in)
	var got []uint32
	return &instance{
		size: fmt.Sprintf("%d, %d bins", sz.N, bins), work: 4 * float64(sz.N), unit: "GB/s",
		flops: 2 * float64(sz.N), bytes: 4 * float64(sz.N),
		run: func() (err error) {
			got, err = algo.Histogram(av, vi, bins, 0, 1)
			return err
		},
		check: func() error {
			for b := range want {
				if got[b] != want[b] {
					return fmt.Errorf("bin %d = %d, want %d", b, got[b], want[b])
				}
			}
			return nil
		},
		cleanup: closeAll(vi),
	}, nil
}
