package main

import (
	"fmt"
	"math"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/runtime"
)

// QuantizeI8 is case quantize-i8, a single-source kernel on 8-bit data: Out[i] = In[i]
// times InvScale, rounded half away from zero and saturated to -127..127, as int8
// inference quantizes its inputs. It reads 4 bytes and writes 1 per element.
//
// It is written as algo's elementwise kernels are, grid-stride over Threads threads with
// four elements of each thread in flight: the same kernel with one element per thread
// (ParallelForEach over the elements) ran at 515 GB/s on the H100, 0.21 of torch's
// quantize_per_tensor, its loads' latency exposed (RESULTS.md).
type QuantizeI8 struct {
	In       *arrayview.ReadView[float32]
	Out      *arrayview.View[int8]
	InvScale float32
	N        int32
	Threads  int32
}

// Tiled is the kernel: thread g quantizes the elements g, g+Threads, ..., four strides at
// a time (all loads before the stores).
func (k QuantizeI8) Tiled(t runtime.TiledIndex) {
	n, step, s := int(k.N), int(k.Threads), k.InvScale
	i := t.Tile[0]*t.TileExtent.Dim(0) + t.Local[0]
	for ; i+3*step < n; i += 4 * step {
		x0, x1 := k.In.At(runtime.Idx(i)), k.In.At(runtime.Idx(i+step))
		x2, x3 := k.In.At(runtime.Idx(i+2*step)), k.In.At(runtime.Idx(i+3*step))
		k.Out.Set(runtime.Idx(i), quantize1(x0, s))
		k.Out.Set(runtime.Idx(i+step), quantize1(x1, s))
		k.Out.Set(runtime.Idx(i+2*step), quantize1(x2, s))
		k.Out.Set(runtime.Idx(i+3*step), quantize1(x3, s))
	}
	for ; i < n; i += step {
		k.Out.Set(runtime.Idx(i), quantize1(k.In.At(runtime.Idx(i)), s))
	}
}

// QuantizeEach is case quantize-each-i8: QuantizeI8's work written the way a kernel is
// first written, one element a thread (ParallelForEach over the elements), to measure
// what the runtime makes of that shape.
type QuantizeEach struct {
	In       *arrayview.ReadView[float32]
	Out      *arrayview.View[int8]
	InvScale float32
}

// Each is the kernel.
func (k QuantizeEach) Each(i runtime.Index) { k.Out.Set(i, quantize1(k.In.At(i), k.InvScale)) }

// quantize1 is one element's step.
func quantize1(x, invScale float32) int8 {
	return int8(fmath.Clamp(fmath.Round(x*invScale), -127, 127))
}

// quantizeInvScale maps quantize's inputs, -2..2, to -160..160 steps: a sixth saturate.
const quantizeInvScale = 80

// quantize is case quantize-i8: QuantizeI8 over -n elements. Its bytes are 5 per element,
// its flops 2 (the scaling and the rounding; the clamp is not counted).
func quantize(av *accelerator.View, sz sizes) (*instance, error) {
	const tile, per = 256, 4
	groups := max(1, min(4096, (sz.N+tile*per-1)/(tile*per)))
	dom := runtime.Ext(groups * tile).Tile(tile)
	return quantizeCase(sz, func(in *arrayview.ReadView[float32], out *arrayview.View[int8]) error {
		k := QuantizeI8{In: in, Out: out, InvScale: quantizeInvScale, N: int32(sz.N), Threads: int32(groups * tile)}
		return runtime.ParallelForEachTiled(av, dom, k)
	})
}

// quantizeEach is case quantize-each-i8: QuantizeEach over -n elements (counted as
// quantize-i8 is).
func quantizeEach(av *accelerator.View, sz sizes) (*instance, error) {
	return quantizeCase(sz, func(in *arrayview.ReadView[float32], out *arrayview.View[int8]) error {
		return runtime.ParallelForEach(av, out.Extent(), QuantizeEach{In: in, Out: out, InvScale: quantizeInvScale})
	})
}

// quantizeCase sets up a quantize case over -n elements in -2..2 that run dispatches.
func quantizeCase(sz sizes, run func(in *arrayview.ReadView[float32], out *arrayview.View[int8]) error) (*instance, error) {
	in, out := randF32(sz.N, 16), make([]int8, sz.N)
	for i := range in {
		in[i] = 4*in[i] - 2
	}
	vi, vo := arrayview.MustNew(runtime.Ext(sz.N), in), arrayview.MustNew(runtime.Ext(sz.N), out)
	vo.DiscardData()
	return &instance{
		size: fmt.Sprint(sz.N), work: 5 * float64(sz.N), unit: "GB/s",
		flops: 2 * float64(sz.N), bytes: 5 * float64(sz.N),
		run: func() error { return run(vi.ReadOnly(), vo) },
		check: func() error {
			if err := vo.Synchronize(); err != nil {
				return err
			}
			for i, x := range in {
				if want := int8(max(-127, min(127, math.Round(float64(x*quantizeInvScale))))); out[i] != want {
					return fmt.Errorf("out[%d] = %d, want %d (in %g)", i, out[i], want, x)
				}
			}
			return nil
		},
		cleanup: closeAll(vi, vo),
	}, nil
}
