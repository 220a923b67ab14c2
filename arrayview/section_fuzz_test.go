package arrayview_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/fuzzin"
	"github.com/goamp/goamp/runtime"
)

// mview is the model of a view: its dimensions and where each index lies in the root's
// row-major data (base + i0*st[0] + i1*st[1] + i2*st[2]).
type mview struct {
	dims []int
	base int
	st   [3]int
}

// rootModel is the model of a view of the whole data, of dimensions dims.
func rootModel(dims []int) mview {
	m := mview{dims: append([]int(nil), dims...)}
	s := 1
	for d := len(dims) - 1; d >= 0; d-- {
		m.st[d] = s
		s *= dims[d]
	}
	return m
}

// size is the number of elements.
func (m mview) size() int {
	n := 1
	for _, d := range m.dims {
		n *= d
	}
	return n
}

// index returns the k-th index of the view in row-major order.
func (m mview) index(k int) runtime.Index {
	var i runtime.Index
	for d := len(m.dims) - 1; d >= 0; d-- {
		i[d] = k % m.dims[d]
		k /= m.dims[d]
	}
	return i
}

// offset is where index i lies in the root's data.
func (m mview) offset(i runtime.Index) int {
	return m.base + i[0]*m.st[0] + i[1]*m.st[1] + i[2]*m.st[2]
}

// offsets lists the root offsets of the view's elements in row-major order.
func (m mview) offsets() []int {
	o := make([]int, m.size())
	for k := range o {
		o[k] = m.offset(m.index(k))
	}
	return o
}

// contiguous reports whether the view's elements are one run of the root's data.
func (m mview) contiguous() bool {
	o := m.offsets()
	return o[len(o)-1]-o[0] == len(o)-1
}

// section is the model of Section(origin, ext): the view or the kind of error expected.
func (m mview) section(origin runtime.Index, ext []int) (mview, error) {
	if !validExtent(ext) {
		return mview{}, runtime.ErrInvalidExtent
	}
	if len(ext) != len(m.dims) {
		return mview{}, arrayview.ErrOutOfRange
	}
	for d, e := range ext {
		if origin[d] < 0 || origin[d] > m.dims[d]-e { // m.dims[d]-e >= 1-MaxInt: no overflow
			return mview{}, arrayview.ErrOutOfRange
		}
	}
	s := m
	s.dims = append([]int(nil), ext...)
	s.base = m.offset(origin)
	return s, nil
}

// project is the model of Project(i).
func (m mview) project(i int) (mview, error) {
	if len(m.dims) < 2 || i < 0 || i >= m.dims[0] {
		return mview{}, arrayview.ErrOutOfRange
	}
	return mview{dims: append([]int(nil), m.dims[1:]...), base: m.base + i*m.st[0], st: [3]int{m.st[1], m.st[2]}}, nil
}

// validExtent is the extent rule: rank 1..3, dimensions >= 1, size within int.
func validExtent(dims []int) bool {
	if len(dims) < 1 || len(dims) > 3 {
		return false
	}
	n := 1
	for _, d := range dims {
		if d < 1 || n > math.MaxInt/d {
			return false
		}
		n *= d
	}
	return true
}

// FuzzSection makes chains of sections and projections of a view of rank 1 to 3, with
// origins and extents over the whole int range. Each call either fails with the typed error
// the model expects or gives the model's view: every element read (At, CopyTo, Data,
// ReadData) and written (Set) where the model says, and nothing else written; a section of a
// section equals the section composed from the root; a closed view refuses sections, data
// access and writes, and leaves the data alone.
func FuzzSection(f *testing.F) {
	f.Add([]byte{1, 3, 4, 0, 0, 2, 1, 0, 1, 2, 3, 0, 1, 1, 0, 1, 0, 2, 1, 1, 2, 0, 0, 3})
	f.Add([]byte{2, 2, 3, 4, 0, 0, 1, 1, 1, 1, 2, 1, 1, 1, 2, 0, 1, 0, 1, 5, 0, 0, 0, 3})
	f.Add([]byte{0, 5, 1, 1, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		in := fuzzin.New(b)
		dims := make([]int, 1+in.N(3))
		for k := range dims {
			dims[k] = 1 + in.N(6)
		}
		data := make([]int32, rootModel(dims).size())
		for k := range data {
			data[k] = int32(k)*3 + 1
		}
		want := append([]int32(nil), data...)
		root := arrayview.MustNew(runtime.Ext(dims...), data)
		views, models := []*arrayview.View[int32]{root}, []mview{rootModel(dims)}
		var at runtime.Index // the last view's origin in the root, while it is a section of it
		composed := true
	chain:
		for step := 0; step < 8 && in.More(); step++ {
			v, m := views[len(views)-1], models[len(models)-1]
			var s *arrayview.View[int32]
			var ms mview
			var err, merr error
			switch in.N(4) {
			case 0, 1:
				origin, ext := sectionArgs(in, m)
				s, err = v.Section(origin, runtime.Ext(ext...))
				if ms, merr = m.section(origin, ext); merr == nil && composed {
					checkComposed(t, root, at.Add(origin), ext, ms, in, data, want)
					at = at.Add(origin)
				}
			case 2:
				i := in.Int()
				s, err = v.Project(i)
				if ms, merr = m.project(i); merr == nil {
					composed = false
				}
			default:
				checkClosed(t, v, m, data, want) // the chain ends with its last view
				break chain
			}
			if merr != nil {
				require.ErrorIs(t, err, merr)
				require.Nil(t, s)
				require.True(t, strings.HasPrefix(err.Error(), "goamp/"), err.Error())
				continue
			}
			require.NoError(t, err)
			checkView(t, s, ms, in, data, want)
			views, models = append(views, s), append(models, ms)
		}
		for _, v := range views {
			require.NoError(t, v.Close())
		}
		require.Equal(t, want, data)
	})
}

// sectionArgs decodes the origin and extent of a section of m: mostly inside m, or over
// the whole int range, with any rank from 0 to 4.
func sectionArgs(in *fuzzin.Input, m mview) (runtime.Index, []int) {
	var origin runtime.Index
	if in.N(2) == 0 {
		ext := make([]int, len(m.dims))
		for d, n := range m.dims {
			origin[d] = in.N(n)
			ext[d] = 1 + in.N(n)
		}
		return origin, ext
	}
	ext := make([]int, in.N(5))
	for d := range ext {
		ext[d] = in.Int()
	}
	for d := range origin {
		origin[d] = in.Int()
	}
	return origin, ext
}

// checkComposed checks that the section of the root at origin, of extent ext, is ms (the
// model of a section of a section), then closes it.
func checkComposed(t *testing.T, root *arrayview.View[int32], origin runtime.Index, ext []int, ms mview,
	in *fuzzin.Input, data, want []int32) {
	c, err := root.Section(origin, runtime.Ext(ext...))
	require.NoError(t, err, "the composed section %v at %v", ext, origin)
	checkView(t, c, ms, in, data, want)
	require.NoError(t, c.Close())
}

// checkView compares view v with its model m: data holds the elements, want what they
// should be (checkView's own write included).
func checkView(t *testing.T, v *arrayview.View[int32], m mview, in *fuzzin.Input, data, want []int32) {
	require.Equal(t, m.dims, v.Extent().Dims())
	offs := m.offsets()
	vals := make([]int32, len(offs))
	for k, off := range offs {
		vals[k] = want[off]
		require.Equal(t, want[off], v.At(m.index(k)), "element %v", m.index(k))
	}
	got := make([]int32, len(offs))
	require.NoError(t, v.CopyTo(got))
	require.Equal(t, vals, got)
	d, err := v.Data()
	rd, rerr := v.ReadData()
	if m.contiguous() {
		require.NoError(t, err)
		require.NoError(t, rerr)
		require.Equal(t, vals, d)
		require.Equal(t, vals, rd)
	} else {
		require.ErrorIs(t, err, arrayview.ErrOutOfRange)
		require.ErrorIs(t, rerr, arrayview.ErrOutOfRange)
	}
	k, x := in.N(len(offs)), in.Int32()
	v.Set(m.index(k), x)
	want[offs[k]] = x
	require.Equal(t, want, data, "Set(%v, %d)", m.index(k), x)
	i := m.index(in.N(len(offs)))
	d0 := in.N(len(m.dims))
	i[d0] = in.Int()
	if i[d0] >= 0 && i[d0] < m.dims[d0] {
		require.Equal(t, want[m.offset(i)], v.At(i))
	} else {
		require.Panics(t, func() { v.At(i) }, "At(%v) outside %v", i, m.dims)
		require.Panics(t, func() { v.Set(i, x+1) }, "Set(%v) outside %v", i, m.dims)
		require.Equal(t, want, data)
	}
}

// checkClosed closes v and checks that it refuses everything after, leaving the data alone.
func checkClosed(t *testing.T, v *arrayview.View[int32], m mview, data, want []int32) {
	require.NoError(t, v.Close())
	ones := make([]int, len(m.dims))
	for d := range ones {
		ones[d] = 1
	}
	_, err := v.Section(runtime.Index{}, runtime.Ext(ones...))
	require.ErrorIs(t, err, arrayview.ErrClosed)
	if len(m.dims) > 1 {
		_, err = v.Project(0)
		require.ErrorIs(t, err, arrayview.ErrClosed)
	}
	if m.contiguous() {
		_, err = v.Data()
		require.ErrorIs(t, err, arrayview.ErrClosed)
	}
	require.ErrorIs(t, v.CopyTo(make([]int32, m.size())), arrayview.ErrClosed)
	require.ErrorIs(t, v.Synchronize(), arrayview.ErrClosed)
	require.Panics(t, func() { v.Set(runtime.Index{}, -want[m.base]-1) })
	require.Panics(t, func() { v.At(runtime.Index{}) })
	require.Equal(t, want, data)
	require.NoError(t, v.Close())
	var ce *arrayview.ClosedError
	require.True(t, errors.As(v.Synchronize(), &ce))
}
