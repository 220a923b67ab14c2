package algo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// convReference is the plain Go separable convolution with clamp-to-edge borders.
func convReference(in []float32, rows, cols int, rk, ck []float32) []float32 {
	tmp, out := make([]float32, rows*cols), make([]float32, rows*cols)
	rr, cr := len(rk)/2, len(ck)/2
	for y := range rows {
		for x := range cols {
			var s float32
			for i, w := range rk {
				s += w * in[y*cols+convClamp(x+i-rr, cols)]
			}
			tmp[y*cols+x] = s
		}
	}
	for y := range rows {
		for x := range cols {
			var s float32
			for j, w := range ck {
				s += w * tmp[convClamp(y+j-cr, rows)*cols+x]
			}
			out[y*cols+x] = s
		}
	}
	return out
}

func convRandom(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

func TestConvolve2D(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	sizes := [][2]int{{1, 1}, {3, 5}, {17, 70}, {65, 33}, {130, 129}}
	kernels := [][2]int{{1, 1}, {3, 5}, {9, 9}, {65, 7}}
	for _, av := range ewViews(t) {
		for _, perThread := range []bool{false, true} {
			if perThread && !av.Accelerator().Traits().HostMemory {
				continue
			}
			for _, sz := range sizes {
				for _, ks := range kernels {
					if perThread && sz[0]*sz[1] > 2500 || ks[0] > 9 && sz[0]*sz[1] > 2500 {
						continue // keep -race fast
					}
					name := av.Accelerator().Path() + "/" + runtime.Ext(sz[0], sz[1]).String() + "/" + runtime.Ext(ks[0], ks[1]).String()
					if perThread {
						name += "/perthread"
					}
					t.Run(name, func(t *testing.T) {
						rows, cols := sz[0], sz[1]
						in := convRandom(r, rows*cols)
						rk, ck := convRandom(r, ks[0]), convRandom(r, ks[1])
						in0, rk0, ck0 := append([]float32(nil), in...), append([]float32(nil), rk...), append([]float32(nil), ck...)
						out := make([]float32, rows*cols)
						iv, ov := arrayview.MustNew(runtime.Ext(rows, cols), in), arrayview.MustNew(runtime.Ext(rows, cols), out)
						require.NoError(t, convolveOp(av, iv, ov, rk, ck, perThread))
						require.NoError(t, ov.Synchronize())
						want := convReference(in0, rows, cols, rk0, ck0)
						for i := range want {
							require.LessOrEqual(t, math.Abs(float64(want[i]-out[i])), 1e-4*float64(ks[0]*ks[1]), "element %d: want %v, got %v", i, want[i], out[i])
						}
						assert.Equal(t, in0, in, "in is unchanged")
						assert.Equal(t, rk0, rk)
						assert.Equal(t, ck0, ck)
						require.NoError(t, iv.Close())
						require.NoError(t, ov.Close())
					})
				}
			}
		}
	}
}

// TestConvolve2DSections filters a section into a section: strided rows on both sides.
func TestConvolve2DSections(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const rows, cols = 23, 37
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			big := convRandom(r, (rows+2)*(cols+3))
			obig := make([]float32, (rows+1)*(cols+2))
			bv, ob := arrayview.MustNew(runtime.Ext(rows+2, cols+3), big), arrayview.MustNew(runtime.Ext(rows+1, cols+2), obig)
			is, err := bv.Section(runtime.Idx(2, 1), runtime.Ext(rows, cols))
			require.NoError(t, err)
			os, err := ob.Section(runtime.Idx(1, 1), runtime.Ext(rows, cols))
			require.NoError(t, err)
			rk, ck := []float32{0.25, 0.5, 0.25}, []float32{1, 2, 3, 2, 1}
			require.NoError(t, Convolve2D(av, is, os, rk, ck))
			require.NoError(t, ob.Synchronize())
			in := make([]float32, rows*cols)
			require.NoError(t, is.CopyTo(in))
			want := convReference(in, rows, cols, rk, ck)
			for y := range rows + 1 {
				for x := range cols + 2 {
					got := obig[y*(cols+2)+x]
					if y >= 1 && x >= 1 && x <= cols {
						require.InDelta(t, want[(y-1)*cols+x-1], got, 1e-4, "(%d, %d)", y, x)
					} else {
						require.Zero(t, got, "outside the section (%d, %d)", y, x)
					}
				}
			}
		})
	}
}

func TestConvolve2DShapeErrors(t *testing.T) {
	v := func(r, c int) *arrayview.View[float32] {
		return arrayview.MustNew(runtime.Ext(r, c), make([]float32, r*c))
	}
	long := make([]float32, ConvolveMaxKernel+2)
	for _, av := range ewViews(t) {
		for _, tt := range []struct {
			name    string
			in, out *arrayview.View[float32]
			rk, ck  []float32
			want    []string
		}{
			{"extent", v(4, 5), v(5, 4), []float32{1}, []float32{1}, []string{"(4, 5)", "(5, 4)"}},
			{"rank", arrayview.MustNew(runtime.Ext(20), make([]float32, 20)), v(4, 5), []float32{1}, []float32{1}, []string{"(20)", "rank 2"}},
			{"even", v(4, 5), v(4, 5), []float32{1, 2}, []float32{1}, []string{"row kernel", "length 2"}},
			{"empty", v(4, 5), v(4, 5), []float32{1}, nil, []string{"column kernel", "length 0"}},
			{"long", v(4, 5), v(4, 5), []float32{1}, long, []string{"length 67", "65"}},
			{"nil", nil, v(4, 5), []float32{1}, []float32{1}, []string{"nil"}},
		} {
			t.Run(av.Accelerator().Path()+"/"+tt.name, func(t *testing.T) {
				tt.out.Set(runtime.Idx(0, 0), 7)
				err := Convolve2D(av, tt.in, tt.out, tt.rk, tt.ck)
				requireShapeError(t, err, "Convolve2D", tt.want)
				assert.Equal(t, float32(7), tt.out.At(runtime.Idx(0, 0)), "out is intact")
			})
		}
	}
}

// TestConvolve2DQueued makes several calls on one accelerator view without reading
// anything back in between: they share the cached scratch views (the intermediate and the
// coefficients), so each call must see its own kernels and input, in call order, also
// when the kernels repeat (no new upload) and when the size changes.
func TestConvolve2DQueued(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	type call struct {
		rows, cols int
		rk, ck     []float32
	}
	k3, k5 := convRandom(r, 3), convRandom(r, 5)
	calls := []call{{20, 30, k3, k5}, {20, 30, k5, k3}, {20, 30, k5, k3}, {9, 7, k3, k3}, {20, 30, k3, k5}}
	for _, av := range ewViews(t) {
		t.Run(av.Accelerator().Path(), func(t *testing.T) {
			var ins, outs [][]float32
			var views []*arrayview.View[float32]
			for _, c := range calls {
				in, out := convRandom(r, c.rows*c.cols), make([]float32, c.rows*c.cols)
				iv, ov := arrayview.MustNew(runtime.Ext(c.rows, c.cols), in), arrayview.MustNew(runtime.Ext(c.rows, c.cols), out)
				require.NoError(t, Convolve2D(av, iv, ov, c.rk, c.ck))
				ins, outs, views = append(ins, in), append(outs, out), append(views, iv, ov)
			}
			for i, c := range calls {
				require.NoError(t, views[2*i+1].Synchronize())
				want := convReference(ins[i], c.rows, c.cols, c.rk, c.ck)
				for j := range want {
					require.InDelta(t, want[j], outs[i][j], 1e-4, "call %d, element %d", i, j)
				}
			}
			for _, v := range views {
				require.NoError(t, v.Close())
			}
		})
	}
}

// TestConvolve2DMismatch passes an image that lives on another accelerator view: the
// error comes before out is discarded.
func TestConvolve2DMismatch(t *testing.T) {
	home, other := apartViews(t)
	arr, err := arrayview.NewArray(home, runtime.Ext(4, 5), make([]float32, 20))
	require.NoError(t, err)
	defer arr.Close()
	out := arrayview.MustNew(runtime.Ext(4, 5), make([]float32, 20))
	out.Set(runtime.Idx(0, 0), 7)
	err = Convolve2D(other, arr.View, out, []float32{1}, []float32{1})
	var me *runtime.AcceleratorMismatchError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "in", me.Field)
	assert.Equal(t, float32(7), out.At(runtime.Idx(0, 0)), "out is intact")
}
