package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

func randF32(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()
	}
	return s
}

func randI32(n int, seed uint64, lo, hi int32) []int32 {
	r := rand.New(rand.NewPCG(seed, 2))
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(int64(lo) + r.Int64N(int64(hi)-int64(lo)))
	}
	return s
}

// closeAll closes views, for instance cleanup.
func closeAll(vs ...interface{ Close() error }) func() {
	return func() {
		for _, v := range vs {
			_ = v.Close()
		}
	}
}

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func checkF32(name string, got, want []float32, tol float64) error {
	for i := range want {
		if !near(float64(got[i]), float64(want[i]), tol) {
			return fmt.Errorf("%s[%d] = %g, want %g", name, i, got[i], want[i])
		}
	}
	return nil
}

func vadd(av *accelerator.View, sz sizes) (*instance, error) {
	a, b, out := randF32(sz.N, 1), randF32(sz.N, 2), make([]float32, sz.N)
	ext := runtime.Ext(sz.N)
	va, vb, vo := arrayview.MustNew(ext, a), arrayview.MustNew(ext, b), arrayview.MustNew(ext, out)
	return &instance{
		size: fmt.Sprint(sz.N), work: 12 * float64(sz.N), unit: "GB/s",
		flops: float64(sz.N), bytes: 12 * float64(sz.N),
		run: func() error { return algo.Add(av, va, vb, vo) },
		check: func() error {
			if err := vo.Synchronize(); err != nil {
				return err
			}
			want := make([]float32, sz.N)
			for i := range want {
				want[i] = a[i] + b[i]
			}
			return checkF32("out", out, want, 0)
		},
		cleanup: closeAll(va, vb, vo),
	}, nil
}

func saxpy(av *accelerator.View, sz sizes) (*instance, error) {
	x, y := randF32(sz.N, 3), randF32(sz.N, 4)
	y0 := slices.Clone(y)
	ext := runtime.Ext(sz.N)
	vx, vy := arrayview.MustNew(ext, x), arrayview.MustNew(ext, y)
	return &instance{
		size: fmt.Sprint(sz.N), work: 12 * float64(sz.N), unit: "GB/s",
		flops: 2 * float64(sz.N), bytes: 12 * float64(sz.N),
		run: func() error { return algo.Saxpy(av, 2, vx, vy) },
		check: func() error { // after the warm-up call: y = 2x + y0
			if err := vy.Synchronize(); err != nil {
				return err
			}
			want := make([]float32, sz.N)
			for i := range want {
				want[i] = 2*x[i] + y0[i]
			}
			return checkF32("y", y, want, 1e-6)
		},
		cleanup: closeAll(vx, vy),
	}, nil
}

func fill(av *accelerator.View, sz sizes) (*instance, error) {
	out := make([]float32, sz.N)
	vo := arrayview.MustNew(runtime.Ext(sz.N), out)
	return &instance{
		size: fmt.Sprint(sz.N), work: 4 * float64(sz.N), unit: "GB/s",
		flops: float64(sz.N), bytes: 4 * float64(sz.N),
		run: func() error { return algo.Fill(av, vo, 1.5) },
		check: func() error {
			if err := vo.Synchronize(); err != nil {
				return err
			}
			for i, x := range out {
				if x != 1.5 {
					return fmt.Errorf("out[%d] = %g, want 1.5", i, x)
				}
			}
			return nil
		},
		cleanup: closeAll(vo),
	}, nil
}

func transpose(av *accelerator.View, sz sizes) (*instance, error) {
	n := sz.Img
	in, out := randF32(n*n, 5), make([]float32, n*n)
	vi, vo := arrayview.MustNew(runtime.Ext(n, n), in), arrayview.MustNew(runtime.Ext(n, n), out)
	return &instance{
		size: fmt.Sprintf("%dx%d", n, n), work: 8 * float64(n*n), unit: "GB/s",
		flops: float64(n * n), bytes: 8 * float64(n*n),
		run: func() error { return algo.Transpose(av, vi, vo) },
		check: func() error {
			if err := vo.Synchronize(); err != nil {
				return err
			}
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					if out[c*n+r] != in[r*n+c] {
						return fmt.Errorf("out[%d][%d] = %g, want %g", c, r, out[c*n+r], in[r*n+c])
					}
				}
			}
			return nil
		},
		cleanup: closeAll(vi, vo),
	}, nil
}

func sortCase[T float32 | int32](av *accelerator.View, sz sizes) (*instance, error) {
	var orig []T
	switch any(orig).(type) {
	case []float32:
		orig = any(randF32(sz.N, 6)).([]T)
	default:
		orig = any(randI32(sz.N, 6, -1<<30, 1<<30)).([]T)
	}
	data := make([]T, len(orig))
	v := arrayview.MustNew(runtime.Ext(sz.N), data)
	keys, zero := arrayview.MustNew(runtime.Ext(sz.N), orig), arrayview.MustNew(runtime.Ext(sz.N), make([]T, sz.N))
	want := slices.Clone(orig)
	slices.Sort(want)
	// Every call sorts the random keys: it first copies them into v on the device (v = keys
	// + 0, about 5% of a sort's time at 268M keys on an H100), which the time includes. (A
	// radix sort of keys already sorted runs faster: its scatters write in order.)
	return &instance{
		size: fmt.Sprint(sz.N), work: 8 * float64(sz.N), unit: "GB/s",
		flops: float64(sz.N) * math.Log2(float64(max(sz.N, 2))), bytes: 8 * float64(sz.N),
		run: func() error {
			if err := algo.Add(av, keys, zero, v); err != nil {
				return err
			}
			return algo.Sort(av, v)
		},
		runOn: func(avs []*accelerator.View) error {
			if err := algo.Add(avs[0], keys, zero, v); err != nil {
				return err
			}
			return algo.SortOn(avs, v, algo.SortOptions{})
		},
		check: func() error {
			if err := v.Synchronize(); err != nil {
				return err
			}
			if !slices.Equal(data, want) {
				return fmt.Errorf("keys not sorted")
			}
			return nil
		},
		cleanup: closeAll(v, keys, zero),
	}, nil
}

func matmulCase[T float32 | int32](av *accelerator.View, sz sizes, simple bool) (*instance, error) {
	n := sz.Mat
	var a, b []T
	switch any(a).(type) {
	case []float32:
		a, b = any(randF32(n*n, 7)).([]T), any(randF32(n*n, 8)).([]T)
	default:
		a, b = any(randI32(n*n, 7, -8, 8)).([]T), any(randI32(n*n, 8, -8, 8)).([]T)
	}
	c := make([]T, n*n)
	ext := runtime.Ext(n, n)
	va, vb, vc := arrayview.MustNew(ext, a), arrayview.MustNew(ext, b), arrayview.MustNew(ext, c)
	run := func() error { return algo.MatMul(av, va, vb, vc) }
	runOn := func(avs []*accelerator.View) error { return algo.MatMulOn(avs, va, vb, vc) }
	if simple {
		run, runOn = func() error { return algo.MatMulSimple(av, va, vb, vc) }, nil
	}
	return &instance{
		runOn: runOn,
		size:  fmt.Sprintf("%d^3", n), work: 2 * float64(n) * float64(n) * float64(n), unit: "GFLOP/s",
		flops: 2 * float64(n) * float64(n) * float64(n), bytes: 12 * float64(n*n),
		run: run,
		check: func() error {
			return checkRows(vc, "c", n, func(r, col int) (got, want float64) {
				for k := 0; k < n; k++ {
					want += float64(a[r*n+k]) * float64(b[k*n+col])
				}
				return float64(c[r*n+col]), want
			})
		},
		cleanup: closeAll(va, vb, vc),
	}, nil
}

func matmul[T float32 | int32](av *accelerator.View, sz sizes) (*instance, error) {
	return matmulCase[T](av, sz, false)
}

func matmulSimple(av *accelerator.View, sz sizes) (*instance, error) {
	return matmulCase[float32](av, sz, true)
}

// conv2d is a separable 9-tap convolution of an img x img image, clamped at the edges.
func conv2d(av *accelerator.View, sz sizes) (*instance, error) {
	n := sz.Img
	in, out := randF32(n*n, 9), make([]float32, n*n)
	krow, kcol := randF32(9, 10), randF32(9, 11)
	vi, vo := arrayview.MustNew(runtime.Ext(n, n), in), arrayview.MustNew(runtime.Ext(n, n), out)
	clamp := func(i int) int { return min(max(i, 0), n-1) }
	return &instance{
		size: fmt.Sprintf("%dx%d k9", n, n), work: 8 * float64(n*n), unit: "GB/s",
		flops: 36 * float64(n*n), bytes: 8 * float64(n*n),
		run: func() error { return algo.Convolve2D(av, vi, vo, krow, kcol) },
		check: func() error {
			return checkRows(vo, "out", n, func(r, c int) (got, want float64) {
				for i := -4; i <= 4; i++ {
					var row float64
					for j := -4; j <= 4; j++ {
						row += float64(krow[j+4]) * float64(in[clamp(r+i)*n+clamp(c+j)])
					}
					want += float64(kcol[i+4]) * row
				}
				return float64(out[r*n+c]), want
			})
		},
		cleanup: closeAll(vi, vo),
	}, nil
}

// checkRows synchronizes v, the n x n result called name, and compares its rows 0, n/2 and
// n-1 with a float64 reference: at(r, c) returns the result's element and the reference's.
// A sample of rows, because a full check would dominate the run at large n.
func checkRows(v interface{ Synchronize() error }, name string, n int, at func(r, c int) (got, want float64)) error {
	if err := v.Synchronize(); err != nil {
		return err
	}
	for _, r := range []int{0, n / 2, n - 1} {
		for c := range n {
			if got, want := at(r, c); !near(got, want, 1e-4) {
				return fmt.Errorf("%s[%d][%d] = %g, want %g", name, r, c, got, want)
			}
		}
	}
	return nil
}
