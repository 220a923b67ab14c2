package main

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/runtime"
)

//go:generate go run github.com/goamp/goamp/cmd/ampgen

// fmaChains is the number of independent fmath.Fma chains FmaPeak runs per thread: enough
// to hide the latency of a fused multiply-add behind the others on a GPU.
const fmaChains = 8

// fmaIters is the length of each chain; each thread does 2·fmaChains·fmaIters FLOPs and
// moves 8 bytes (one float32 in, one out).
const fmaIters = 256

// FmaPeak is the compute-peak kernel of the roofline (case fma-peak-f32): each thread
// loads one element of In, runs fmaChains chains of Iters fused multiply-adds on
// registers (x = x·0.9999 + 0.0001, which stays in [0, 1]), and stores the chains' sum
// in Out. Its arithmetic intensity is 2·fmaChains·Iters / 8 FLOP/byte.
type FmaPeak struct {
	In    *arrayview.ReadView[float32]
	Out   *arrayview.View[float32]
	Iters int32 // a multiple of 4
}

// Each is the kernel.
func (k FmaPeak) Each(idx runtime.Index) {
	x := k.In.At(idx)
	a0, a1, a2, a3 := x, x+0.125, x+0.25, x+0.375
	a4, a5, a6, a7 := x+0.5, x+0.625, x+0.75, x+0.875
	const m, c = float32(0.9999), float32(0.0001)
	// Unrolled 4 times by hand, so that the loop's own instructions are few beside the FMAs.
	for i := int32(0); i < k.Iters; i += 4 {
		a0 = fmath.Fma(a0, m, c)
		a1 = fmath.Fma(a1, m, c)
		a2 = fmath.Fma(a2, m, c)
		a3 = fmath.Fma(a3, m, c)
		a4 = fmath.Fma(a4, m, c)
		a5 = fmath.Fma(a5, m, c)
		a6 = fmath.Fma(a6, m, c)
		a7 = fmath.Fma(a7, m, c)
		a0 = fmath.Fma(a0, m, c)
		a1 = fmath.Fma(a1, m, c)
		a2 = fmath.Fma(a2, m, c)
		a3 = fmath.Fma(a3, m, c)
		a4 = fmath.Fma(a4, m, c)
		a5 = fmath.Fma(a5, m, c)
		a6 = fmath.Fma(a6, m, c)
		a7 = fmath.Fma(a7, m, c)
		a0 = fmath.Fma(a0, m, c)
		a1 = fmath.Fma(a1, m, c)
		a2 = fmath.Fma(a2, m, c)
		a3 = fmath.Fma(a3, m, c)
		a4 = fmath.Fma(a4, m, c)
		a5 = fmath.Fma(a5, m, c)
		a6 = fmath.Fma(a6, m, c)
		a7 = fmath.Fma(a7, m, c)
		a0 = fmath.Fma(a0, m, c)
		a1 = fmath.Fma(a1, m, c)
		a2 = fmath.Fma(a2, m, c)
		a3 = fmath.Fma(a3, m, c)
		a4 = fmath.Fma(a4, m, c)
		a5 = fmath.Fma(a5, m, c)
		a6 = fmath.Fma(a6, m, c)
		a7 = fmath.Fma(a7, m, c)
	}
	k.Out.Set(idx, ((a0+a1)+(a2+a3))+((a4+a5)+(a6+a7)))
}

// fmaPeakRef is FmaPeak's result for one input, in float64.
func fmaPeakRef(x float32, iters int) float64 {
	var sum float64
	for j := range fmaChains {
		a := float64(x) + float64(j)*0.125
		for range iters {
			a = a*float64(float32(0.9999)) + float64(float32(0.0001))
		}
		sum += a
	}
	return sum
}

// fmaPeak is case fma-peak-f32: FmaPeak over -n threads. Its FLOPs are 2 per fused
// multiply-add (fmaChains·fmaIters per thread; the 7 additions of the final sum are not
// counted) and its bytes 8 per thread.
func fmaPeak(av *accelerator.View, sz sizes) (*instance, error) {
	in, out := randF32(sz.N, 15), make([]float32, sz.N)
	vi, vo := arrayview.MustNew(runtime.Ext(sz.N), in), arrayview.MustNew(runtime.Ext(sz.N), out)
	vo.DiscardData()
	k := FmaPeak{In: vi.ReadOnly(), Out: vo, Iters: fmaIters}
	flops := 2 * fmaChains * fmaIters * float64(sz.N)
	return &instance{
		size: fmt.Sprintf("%d x %d fma", sz.N, fmaChains*fmaIters), work: flops, unit: "GFLOP/s",
		flops: flops, bytes: 8 * float64(sz.N),
		run: func() error { return runtime.ParallelForEach(av, vi.Extent(), k) },
		check: func() error {
			if err := vo.Synchronize(); err != nil {
				return err
			}
			// A sample of about 2^16 elements: the reference costs 2048 float64 FMAs each.
			step := max(1, len(in)>>16)
			for i := 0; i < len(in); i += step {
				if want := fmaPeakRef(in[i], fmaIters); !near(float64(out[i]), want, 1e-3) {
					return fmt.Errorf("out[%d] = %g, want %g", i, out[i], want)
				}
			}
			return nil
		},
		cleanup: closeAll(vi, vo),
	}, nil
}
