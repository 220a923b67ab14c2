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
type QuantizeI8 struct {
	In       *arrayview.ReadView[float32]
	Out      *arrayview.View[int8]
	InvScale float32
}

// Each is the kernel.
func (k QuantizeI8) Each(i runtime.Index) {
	k.Out.Set(i, int8(fmath.Clamp(fmath.Round(k.In.At(i)*k.InvScale), -127, 127)))
}

// quantizeInvScale maps quantize's inputs, -2..2, to -160..160 steps: a sixth saturate.
const quantizeInvScale = 80

// quantize is case quantize-i8: QuantizeI8 over -n elements. Its bytes are 5 per element,
// its flops 2 (the scaling and the rounding; the clamp is not counted).
func quantize(av *accelerator.View, sz sizes) (*instance, error) {
	in, out := randF32(sz.N, 16), make([]int8, sz.N)
	for i := range in {
		in[i] = 4*in[i] - 2
	}
	vi, vo := arrayview.MustNew(runtime.Ext(sz.N), in), arrayview.MustNew(runtime.Ext(sz.N), out)
	vo.DiscardData()
	k := QuantizeI8{In: vi.ReadOnly(), Out: vo, InvScale: quantizeInvScale}
	return &instance{
		size: fmt.Sprint(sz.N), work: 5 * float64(sz.N), unit: "GB/s",
		flops: 2 * float64(sz.N), bytes: 5 * float64(sz.N),
		run: func() error { return runtime.ParallelForEach(av, vi.Extent(), k) },
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
