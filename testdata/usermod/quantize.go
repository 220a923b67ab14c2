package usermod

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// Quantize rounds float32 values to int8 steps of a scale, as int8 inference kernels
// take their inputs: Out[i] = In[i]/scale rounded half away from zero and saturated to
// -127..127.
type Quantize struct {
	In  *arrayview.ReadView[float32]
	Out *arrayview.View[int8]
	// InvScale is 1/scale (a multiply is correctly rounded on every device; a division
	// is not).
	InvScale float32
}

// Each is the kernel.
func (k Quantize) Each(i runtime.Index) {
	q := fmath.Round(k.In.At(i) * k.InvScale)
	k.Out.Set(i, int8(fmath.Clamp(q, -127, 127)))
}

// Dequantize turns int8 steps back into float16 values, and sums each row's steps in an
// int8 that wraps (a checksum, as Go computes it): Out[r][c] = In[r][c] * Scale and
// Sums[r] = the row's steps added in int8.
type Dequantize struct {
	In   *arrayview.ReadView[int8]
	Out  *arrayview.View[half.Float16]
	Sums *arrayview.View[int8]
	// Scale is the size of one step.
	Scale float32
}

// Each is the kernel: one thread per element; the first column's thread sums its row,
// whose length is In's extent.
func (k Dequantize) Each(i runtime.Index) {
	v := k.In.At(i)
	k.Out.Set(i, half.FromFloat32(float32(v)*k.Scale))
	if i[1] == 0 {
		var s int8
		for c := range k.In.Extent().Dim(1) {
			s += k.In.At(runtime.Idx(i[0], c))
		}
		k.Sums.Set(runtime.Idx(i[0]), s)
	}
}
