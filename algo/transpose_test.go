package algo

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// transposeShapes are rows x cols: single elements, rows and columns, shapes that are
// not multiples of the 32x32 block, and exact multiples.
var transposeShapes = [][2]int{{1, 1}, {1, 7}, {7, 1}, {2, 3}, {31, 33}, {32, 32}, {33, 65}, {64, 8}, {100, 37}, {256, 300}}

func testTranspose[T Number](t *testing.T, av *accelerator.View, perThread bool, rows, cols int) {
	r := rand.New(rand.NewPCG(uint64(rows*1000+cols), 4))
	in := ewRandom[T](r, rows*cols, false)
	inCopy := append([]T(nil), in...)
	out := ewRandom[T](r, rows*cols, false) // old contents, discarded
	vin, vout := arrayview.MustNew(runtime.Ext(rows, cols), in), arrayview.MustNew(runtime.Ext(cols, rows), out)
	require.NoError(t, transposeOp(av, vin, vout, perThread))
	require.NoError(t, vout.Synchronize())
	for rr := range rows {
		for c := range cols {
			if ewBitsOf(out[c*rows+rr]) != ewBitsOf(in[rr*cols+c]) {
				require.Equal(t, in[rr*cols+c], out[c*rows+rr], "out[%d][%d]", c, rr)
			}
		}
	}
	require.NoError(t, vin.Synchronize())
	assert.Equal(t, inCopy, in, "in is read-only")
}

func TestTranspose(t *testing.T) {
	name := func(s [2]int) string { return fmt.Sprintf("%dx%d", s[0], s[1]) }
	small := func(s [2]int) bool { return s[0]*s[1] <= 10000 } // per thread: slow under the race detector; 100x37 covers it
	ewEach(t, transposeShapes, name, small, func(t *testing.T, av *accelerator.View, perThread bool, s [2]int) {
		t.Run("int32", func(t *testing.T) { testTranspose[int32](t, av, perThread, s[0], s[1]) })
		t.Run("uint32", func(t *testing.T) { testTranspose[uint32](t, av, perThread, s[0], s[1]) })
		t.Run("float32", func(t *testing.T) { testTranspose[float32](t, av, perThread, s[0], s[1]) })
	})
}

// TestTransposeSections transposes a section of a larger matrix into a section of
// another: strided, non-contiguous views (the fast CPU body's element-wise path).
func TestTransposeSections(t *testing.T) {
	for _, av := range ewViews(t) {
		for _, perThread := range []bool{false, true} {
			if perThread && !av.Accelerator().Traits().HostMemory {
				continue
			}
			t.Run(fmt.Sprintf("%s/perthread=%v", av.Accelerator().Path(), perThread), func(t *testing.T) {
				const R, C = 50, 70
				src := make([]int32, R*C)
				for i := range src {
					src[i] = int32(i)
				}
				dst := make([]int32, 80*60)
				vs := arrayview.MustNew(runtime.Ext(R, C), src)
				vd := arrayview.MustNew(runtime.Ext(80, 60), dst)
				in, err := vs.Section(runtime.Idx(3, 5), runtime.Ext(40, 45)) // rows 3..42, cols 5..49
				require.NoError(t, err)
				out, err := vd.Section(runtime.Idx(10, 7), runtime.Ext(45, 40))
				require.NoError(t, err)
				require.NoError(t, transposeOp(av, in, out, perThread))
				require.NoError(t, vd.Synchronize())
				for r := range 80 {
					for c := range 60 {
						want := int32(0)
						if r >= 10 && r < 55 && c >= 7 && c < 47 {
							want = src[(3+c-7)*C+5+r-10]
						}
						require.Equal(t, want, dst[r*60+c], "dst[%d][%d]", r, c)
					}
				}
			})
		}
	}
}

func TestTransposeShapeErrors(t *testing.T) {
	m := arrayview.MustNew(runtime.Ext(2, 3), []int32{1, 2, 3, 4, 5, 6})
	same := arrayview.MustNew(runtime.Ext(2, 3), make([]int32, 6))
	sq := arrayview.MustNew(runtime.Ext(2, 2), make([]int32, 4))
	v := arrayview.MustNew(runtime.Ext(6), make([]int32, 6))
	for _, c := range []struct {
		name string
		err  error
		want []string
	}{
		{"not transposed", Transpose(nil, m, same), []string{"Transpose", "in is 2x3", "out must be 3x2", "not (2, 3)"}},
		{"wrong size", Transpose(nil, m, sq), []string{"out must be 3x2"}},
		{"rank in", Transpose(nil, v, m), []string{"in has rank 1"}},
		{"rank out", Transpose(nil, m, v), []string{"out has rank 1"}},
		{"nil", Transpose(nil, nil, m), []string{"in is nil"}},
		{"in place", Transpose(nil, sq, sq), []string{"out shares memory with in", "does not work in place"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.ErrorIs(t, c.err, ErrShape)
			for _, w := range c.want {
				assert.Contains(t, c.err.Error(), w)
			}
		})
	}
	got := make([]int32, 6)
	require.NoError(t, m.CopyTo(got))
	assert.Equal(t, []int32{1, 2, 3, 4, 5, 6}, got)
}

// TestOutputOnlyMismatch checks that Fill and Transpose report an output that lives on
// another accelerator view before discarding it: its data stays intact.
func TestOutputOnlyMismatch(t *testing.T) {
	home, other := apartViews(t)
	arr, err := arrayview.NewArray(home, runtime.Ext(2, 2), []int32{1, 2, 3, 4})
	require.NoError(t, err)
	defer arr.Close()
	in := arrayview.MustNew(runtime.Ext(2, 2), []int32{5, 6, 7, 8})
	err = Transpose(other, in, arr.View)
	require.ErrorIs(t, err, runtime.ErrAcceleratorMismatch)
	assert.Contains(t, err.Error(), "field out")
	got := make([]int32, 4)
	require.NoError(t, arr.CopyTo(got))
	assert.Equal(t, []int32{1, 2, 3, 4}, got)

	vec, err := arrayview.NewArray(home, runtime.Ext(3), []int32{1, 2, 3})
	require.NoError(t, err)
	defer vec.Close()
	err = Fill(other, vec.View, 9)
	require.ErrorIs(t, err, runtime.ErrAcceleratorMismatch)
	assert.Contains(t, err.Error(), "field v")
	require.NoError(t, vec.CopyTo(got[:3]))
	assert.Equal(t, []int32{1, 2, 3}, got[:3])
}
