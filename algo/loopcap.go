package algo

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// matMulKChunk is the longest K that one dispatch of a matrix product may have on acc:
// 0 where loops run to their end; on a device that ends a thread's loops after
// Limits.MaxLoopIterations in all (lavapipe: 65,535), half that, since the products'
// kernels run at most 1.44 loop iterations per step of K (on lavapipe the tiled ones, at
// every tile shape, stopped at K = 45,584 and the simple one at 65,535).
func matMulKChunk(acc *accelerator.Accelerator) int {
	return int(acc.Limits().MaxLoopIterations / 2)
}

// matMulSplitK computes c = a x b (a: M x K, b: K x N, both checked) where K is longer
// than chunk: the product of the first chunk columns of a and rows of b goes to c, each
// further one to a scratch matrix that is then added to c (accumulateKernel). product
// runs one product of sections whose K is at most chunk. Integer sums wrap as one
// product's do; float sums are rounded once per slice of K more.
func matMulSplitK[T any, O Number](av *accelerator.View, a, b *arrayview.View[T], c *arrayview.View[O], chunk int,
	product func(a, b *arrayview.View[T], c *arrayview.View[O]) error) error {
	m, k, n := a.Extent().Dim(0), a.Extent().Dim(1), b.Extent().Dim(1)
	var tmp *arrayview.View[O]
	defer func() {
		if tmp != nil { // nothing of the scratch matrix is copied back
			_ = tmp.Discard()
			_ = tmp.Release()
		}
	}()
	for k0 := 0; k0 < k; k0 += chunk {
		kc := min(chunk, k-k0)
		as, err := a.Section(runtime.Idx(0, k0), runtime.Ext(m, kc))
		if err != nil {
			return err
		}
		bs, err := b.Section(runtime.Idx(k0, 0), runtime.Ext(kc, n))
		if err != nil {
			return err
		}
		out := c
		if k0 > 0 {
			if tmp == nil {
				tmp = arrayview.MustNew(runtime.Ext(m, n), make([]O, m*n))
			}
			out = tmp
		}
		err = product(as, bs, out)
		if err == nil && k0 > 0 {
			err = dispatch(av, c.Extent(), accumulateKernel[O]{Src: tmp.ReadOnly(), Dst: c})
		}
		_, _ = as.Release(), bs.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// matMulNarrowSplitK is matMulSplitK for MatMulI8 and MatMulF16, whose c is int32,
// float32 or float16: a float16 c is refused with an *accelerator.FeatureError, since
// each slice of K would round the sums to float16 once more.
func matMulNarrowSplitK[T, O any](op string, av *accelerator.View, a, b *arrayview.View[T], c *arrayview.View[O],
	chunk int, product func(a, b *arrayview.View[T], c *arrayview.View[O]) error) error {
	switch cc := any(c).(type) {
	case *arrayview.View[int32]:
		return matMulSplitK(av, a, b, cc, chunk, func(a, b *arrayview.View[T], c *arrayview.View[int32]) error {
			return product(a, b, any(c).(*arrayview.View[O]))
		})
	case *arrayview.View[float32]:
		return matMulSplitK(av, a, b, cc, chunk, func(a, b *arrayview.View[T], c *arrayview.View[float32]) error {
			return product(a, b, any(c).(*arrayview.View[O]))
		})
	}
	acc := av.Accelerator()
	return &accelerator.FeatureError{Accelerator: acc.Path(), Feature: fmt.Sprintf(
		"loops of more than %d iterations in a thread, which %s with K = %d and a %s c needs (the device "+
			"ends longer loops early; with a float32 c the product is split over K instead)",
		acc.Limits().MaxLoopIterations, op, a.Extent().Dim(1), c.ArgInfo().Elem)}
}

// accumulateKernel adds Src to Dst element by element (Dst[i] += Src[i]): the slices of
// K of a product split by matMulSplitK. Its GPU body is generated from Each by ampgen.
type accumulateKernel[T Number] struct {
	Src *arrayview.ReadView[T]
	Dst *arrayview.View[T]
}

// Each is the definition and the GPU body.
func (k accumulateKernel[T]) Each(i runtime.Index) { k.Dst.Set(i, k.Dst.At(i)+k.Src.At(i)) }
