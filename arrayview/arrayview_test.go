package arrayview

import (
	"encoding/binary"
	"github.com/goamp/goamp/amptest"
	"math"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain fails the run when the Vulkan validation layer reported anything.
func TestMain(m *testing.M) { amptest.Main(m) }

// everyView runs fn in a subtest per accelerator on a fresh view of it (amptest.EachView).
func everyView(t *testing.T, fn func(t *testing.T, av *accelerator.View)) { amptest.EachView(t, fn) }

func iota32(n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// deviceWrite writes vals over the elements of v as a kernel on av would: it binds v for
// read-write and stores into the bound buffer (on the CPU accelerator: into the host copy).
// It returns the bytes that binding uploaded.
func deviceWrite(t *testing.T, v *View[int32], av *accelerator.View, val func(i runtime.Index) int32) uint64 {
	t.Helper()
	e := v.Extent()
	before := av.Stats().BytesUp
	if av.Accelerator().Traits().HostMemory {
		require.NoError(t, v.BindHost(runtime.ReadWrite))
		forIndex(e, func(i runtime.Index) { v.data[v.g.offset(i)] = val(i) })
		return av.Stats().BytesUp - before
	}
	b, err := v.BindDevice(av, runtime.ReadWrite)
	require.NoError(t, err)
	up := av.Stats().BytesUp - before
	buf := make([]byte, 4)
	forIndex(e, func(i runtime.Index) {
		el := uint64(b.Base) + uint64(i[0])*uint64(b.Strides[0]) + uint64(i[1])*uint64(b.Strides[1]) + uint64(i[2])
		if e.Rank() == 1 {
			el = uint64(b.Base) + uint64(i[0])
		} else if e.Rank() == 2 {
			el = uint64(b.Base) + uint64(i[0])*uint64(b.Strides[0]) + uint64(i[1])
		}
		binary.LittleEndian.PutUint32(buf, uint32(val(i)))
		require.NoError(t, b.Buffer.Upload(b.Offset+4*el, buf))
	})
	return up
}

func forIndex(e runtime.Extent, fn func(runtime.Index)) {
	for n := 0; n < e.Size(); n++ {
		fn(e.Delinearize(n))
	}
}

func TestGuidelineADiscardedOutputUploadsNothing(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		for _, discard := range []bool{true, false} {
			data := iota32(1000)
			out := MustNew(runtime.Ext(1000), data)
			if discard {
				out.DiscardData()
			}
			up := deviceWrite(t, out, av, func(i runtime.Index) int32 { return -1 })
			if discard || av.Accelerator().Traits().HostMemory {
				assert.Zero(t, up, "discard=%v", discard)
			} else {
				assert.Equal(t, uint64(4000), up, "without a discard the data is uploaded")
			}
			require.NoError(t, out.Synchronize())
			assert.Equal(t, int32(-1), data[999])
			require.NoError(t, out.Close())
		}
	})
}

func TestGuidelineBDiscardBeforeCloseCopiesNothing(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(256)
		tmp := MustNew(runtime.Ext(16, 16), data)
		tmp.DiscardData()
		deviceWrite(t, tmp, av, func(i runtime.Index) int32 { return 7 })
		before := av.Stats().BytesDown
		tmp.DiscardData()
		require.NoError(t, tmp.Close())
		assert.Zero(t, av.Stats().BytesDown-before)
		if !av.Accelerator().Traits().HostMemory {
			assert.Equal(t, iota32(256), data, "the slice keeps its contents")
		}
	})
}

func TestDiscardIsTransient(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(64)
		v := MustNew(runtime.Ext(64), data)
		v.DiscardData()
		deviceWrite(t, v, av, func(i runtime.Index) int32 { return int32(100 + i[0]) })
		before := av.Stats().BytesDown
		assert.Equal(t, int32(163), v.At(runtime.Idx(63)), "the write made the data valid again")
		if !av.Accelerator().Traits().HostMemory {
			assert.Equal(t, uint64(256), av.Stats().BytesDown-before)
		}
		assert.Equal(t, int32(100), data[0])
	})
}

func TestSectionsAndProjectionsShareState(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(8 * 9)
		m := MustNew(runtime.Ext(8, 9), data)
		require.NoError(t, m.SynchronizeTo(av))
		sec, err := m.Section(runtime.Idx(2, 3), runtime.Ext(3, 4))
		require.NoError(t, err)
		deviceWrite(t, sec, av, func(i runtime.Index) int32 { return int32(1000 + 10*i[0] + i[1]) })
		before := av.Stats().BytesDown
		require.NoError(t, m.Synchronize())
		if !av.Accelerator().Traits().HostMemory {
			assert.Equal(t, uint64(3*4*4), av.Stats().BytesDown-before, "only the section's rows come back")
		}
		assert.Equal(t, int32(1000), m.At(runtime.Idx(2, 3)))
		assert.Equal(t, int32(1023), m.At(runtime.Idx(4, 6)))
		assert.Equal(t, int32(2*9+2), m.At(runtime.Idx(2, 2)), "outside the section: untouched")

		row, err := m.Project(4)
		require.NoError(t, err)
		assert.Equal(t, 1, row.Rank())
		assert.Equal(t, int32(1023), row.At(runtime.Idx(6)))
		row.Set(runtime.Idx(0), -5)
		assert.Equal(t, int32(-5), m.At(runtime.Idx(4, 0)))
		assert.Equal(t, int32(-5), data[4*9])

		// A device write through the projection is seen by the section and the parent.
		deviceWrite(t, row, av, func(i runtime.Index) int32 { return int32(-i[0]) })
		assert.Equal(t, int32(-5), sec.At(runtime.Idx(2, 2)))
		assert.Equal(t, int32(-8), m.At(runtime.Idx(4, 8)))
	})
}

func TestRefreshAfterHostWrite(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(32)
		v := MustNew(runtime.Ext(32), data)
		require.NoError(t, v.SynchronizeTo(av))
		data[5] = 555 // behind the view's back
		v.Refresh()
		before := av.Stats().BytesUp
		require.NoError(t, v.SynchronizeTo(av))
		if av.Accelerator().Traits().HostMemory {
			return
		}
		assert.Equal(t, uint64(128), av.Stats().BytesUp-before)
		b, err := v.BindDevice(av, runtime.Read)
		require.NoError(t, err)
		got := make([]byte, 4)
		require.NoError(t, b.Buffer.Download(b.Offset+4*5, got))
		assert.Equal(t, uint32(555), binary.LittleEndian.Uint32(got))
	})
}

func TestTwoViewsOnOneSliceStayCoherent(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(12)
		a := MustNew(runtime.Ext(3, 4), data)
		b := MustNew(runtime.Ext(3, 4), data)
		assert.Same(t, a.src, b.src)
		deviceWrite(t, a, av, func(i runtime.Index) int32 { return 42 })
		assert.Equal(t, int32(42), b.At(runtime.Idx(2, 3)))
		b.Set(runtime.Idx(0, 0), 9)
		deviceWrite(t, a, av, func(i runtime.Index) int32 {
			if i[0] == 0 && i[1] == 1 {
				return 10
			}
			return 42
		})
		assert.Equal(t, int32(10), b.At(runtime.Idx(0, 1)))
	})
}

func TestReadOnlyUseNeverCopiesBack(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(100)
		v := MustNew(runtime.Ext(100), data)
		r := v.ReadOnly()
		assert.Equal(t, runtime.Read, r.ArgInfo().Access)
		assert.Equal(t, runtime.ReadWrite, v.ArgInfo().Access)
		if !av.Accelerator().Traits().HostMemory {
			_, err := r.BindDevice(av, runtime.ReadWrite)
			require.NoError(t, err)
		} else {
			require.NoError(t, r.BindHost(runtime.ReadWrite))
		}
		before := av.Stats().BytesDown
		require.NoError(t, v.Synchronize())
		assert.Zero(t, av.Stats().BytesDown-before)
		assert.Equal(t, int32(99), r.At(runtime.Idx(99)))
		assert.Same(t, v, r.View())
	})
}

// Description is the seed's struct of seven ints (tiling sample).
type Description struct {
	Value, TileRow, TileColumn, GlobalRow, GlobalColumn, LocalRow, LocalColumn int32
}

func TestStructElements(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		descs := make([]Description, 72)
		for i := range descs {
			descs[i].Value = int32(i)
		}
		v, err := New(runtime.Ext(8, 9), descs)
		require.NoError(t, err)
		assert.Equal(t, 28, v.ArgInfo().ElemSize)
		require.NoError(t, v.SynchronizeTo(av))
		d := v.At(runtime.Idx(7, 8))
		assert.Equal(t, int32(71), d.Value)
	})
}

func TestBadInput(t *testing.T) {
	data := iota32(10)
	orig := append([]int32(nil), data...)
	_, err := New(runtime.Ext(3, 4), data)
	var le *LengthError
	require.ErrorAs(t, err, &le)
	assert.ErrorIs(t, err, ErrLength)
	assert.Contains(t, err.Error(), "12")
	assert.Contains(t, err.Error(), "10")

	_, err = New(runtime.Ext(1, 2, 3, 4), make([]int32, 24))
	assert.ErrorIs(t, err, runtime.ErrInvalidExtent)

	types := []struct {
		name string
		fn   func() error
	}{
		{"int", func() error { _, err := New(runtime.Ext(2), []int{1, 2}); return err }},
		{"int64", func() error { _, err := New(runtime.Ext(2), []int64{1, 2}); return err }},
		{"string", func() error { _, err := New(runtime.Ext(1), []string{"x"}); return err }},
		{"pointer field", func() error { _, err := New(runtime.Ext(1), []struct{ P *int }{{}}); return err }},
		{"bool", func() error { _, err := New(runtime.Ext(1), []bool{true}); return err }},
		{"int16", func() error { _, err := New(runtime.Ext(1), []int16{1}); return err }},
		{"empty struct", func() error { _, err := New(runtime.Ext(1), []struct{}{{}}); return err }},
	}
	for _, tc := range types {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.fn()
			var te *TypeError
			require.ErrorAs(t, err, &te)
			assert.ErrorIs(t, err, ErrUnsupportedType)
			assert.Contains(t, err.Error(), te.Type.String())
		})
	}
	for _, ok := range []func() error{
		func() error { _, err := New(runtime.Ext(1), []float64{1}); return err },
		func() error { _, err := New(runtime.Ext(1), []struct{ A [3]float32 }{{}}); return err },
		func() error { _, err := New(runtime.Ext(1), []uint32{1}); return err },
		func() error { _, err := New(runtime.Ext(3), []int8{1, -2, 3}); return err },
		func() error { _, err := New(runtime.Ext(1), []uint8{1}); return err },
		func() error {
			_, err := New(runtime.Ext(1), []struct {
				A, B int8
				C    int32
			}{{}})
			return err
		},
	} {
		assert.NoError(t, ok())
	}

	v := MustNew(runtime.Ext(2, 5), data)
	sections := []struct {
		origin runtime.Index
		ext    runtime.Extent
	}{
		{runtime.Idx(1, 0), runtime.Ext(2, 5)},
		{runtime.Idx(0, 3), runtime.Ext(1, 3)},
		{runtime.Idx(-1, 0), runtime.Ext(1, 1)},
		{runtime.Idx(0, 0), runtime.Ext(10)},
	}
	for _, s := range sections {
		_, err := v.Section(s.origin, s.ext)
		assert.ErrorIs(t, err, ErrOutOfRange, "%v %v", s.origin, s.ext)
	}
	_, err = v.Project(2)
	assert.ErrorIs(t, err, ErrOutOfRange)
	row, err := v.Project(1)
	require.NoError(t, err)
	_, err = row.Project(0)
	assert.ErrorIs(t, err, ErrOutOfRange)
	assert.Panics(t, func() { v.At(runtime.Idx(2, 0)) })
	assert.ErrorIs(t, v.CopyTo(make([]int32, 3)), ErrLength)
	assert.Equal(t, orig, data, "errors leave the slice untouched")
	assert.Panics(t, func() { MustNew(runtime.Ext(3), data) })
}

func TestArrayAndCopy(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		a, err := NewArray(av, runtime.Ext(4, 6), iota32(24))
		require.NoError(t, err)
		assert.Same(t, av, a.AcceleratorView())
		assert.Same(t, av, a.ArgInfo().Home)
		out := make([]int32, 24)
		require.NoError(t, a.CopyTo(out))
		assert.Equal(t, iota32(24), out)
		_, err = NewArray(av, runtime.Ext(4, 6), iota32(5))
		assert.ErrorIs(t, err, ErrLength)

		z, err := NewArray[int32](av, runtime.Ext(4, 6), nil)
		require.NoError(t, err)
		require.NoError(t, Copy(z.View, a.View))
		require.NoError(t, z.CopyTo(out))
		assert.Equal(t, iota32(24), out)
		wrong := MustNew(runtime.Ext(24), make([]int32, 24))
		assert.ErrorIs(t, Copy(wrong, a.View), ErrOutOfRange)

		dst := make([]int32, 24)
		dv := MustNew(runtime.Ext(4, 6), dst)
		f := CopyAsync(dv, a.View)
		require.NoError(t, f.Wait(t.Context()))
		assert.True(t, f.Done())
		assert.Equal(t, iota32(24), dst)
		fs := dv.SynchronizeAsync()
		require.NoError(t, fs.Wait(t.Context()))
		require.NoError(t, a.Close())
		require.NoError(t, a.Close(), "second Close is a no-op")
		_, err = a.BindDevice(av, runtime.Read)
		assert.ErrorIs(t, err, ErrClosed)
	})
}

func TestDataAndCopyFrom(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(20)
		v := MustNew(runtime.Ext(4, 5), data)
		deviceWrite(t, v, av, func(i runtime.Index) int32 { return int32(i[0]*5 + i[1] + 1) })
		d, err := v.Data()
		require.NoError(t, err)
		assert.Equal(t, int32(20), d[19])
		d[0] = 77 // Data marked the host modified: the next device use uploads it
		sec, err := v.Section(runtime.Idx(1, 1), runtime.Ext(2, 2))
		require.NoError(t, err)
		_, err = sec.Data()
		assert.ErrorIs(t, err, ErrOutOfRange)
		require.NoError(t, sec.CopyFrom([]int32{1, 2, 3, 4}))
		assert.Equal(t, int32(4), v.At(runtime.Idx(2, 2)))
		require.NoError(t, v.SynchronizeTo(av))
		assert.Equal(t, int32(77), v.At(runtime.Idx(0, 0)))
	})
}

func TestReadDataKeepsDeviceCopy(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		data := iota32(16)
		v := MustNew(runtime.Ext(16), data)
		require.NoError(t, v.SynchronizeTo(av))
		got, err := v.ReadOnly().ReadData()
		require.NoError(t, err)
		assert.Equal(t, data, got)
		before := av.Stats().BytesUp
		require.NoError(t, v.SynchronizeTo(av))
		assert.Zero(t, av.Stats().BytesUp-before, "reading on the host left the device copy valid")
		sec, err := MustNew(runtime.Ext(4, 4), data).Section(runtime.Idx(1, 1), runtime.Ext(2, 2))
		require.NoError(t, err)
		_, err = sec.ReadData()
		assert.ErrorIs(t, err, ErrOutOfRange)
	})
}

func TestFloat64NeedsDevice(t *testing.T) {
	everyView(t, func(t *testing.T, av *accelerator.View) {
		a, err := NewArray(av, runtime.Ext(3), []float64{1, math.Pi, 3})
		if !av.Accelerator().SupportsDoublePrecision() {
			assert.ErrorIs(t, err, accelerator.ErrUnsupportedFeature)
			return
		}
		require.NoError(t, err)
		assert.True(t, a.ArgInfo().Float64)
		assert.Equal(t, math.Pi, a.At(runtime.Idx(1)))
	})
}

// TestBindWindowPastStorageRange binds sections of a source larger than the device's
// maxStorageBufferRange: each section gets its own window; a view too large errs.
func TestBindWindowPastStorageRange(t *testing.T) {
	for _, a := range accelerator.All() {
		lim := a.Limits().MaxStorageBufferRange
		if a.Traits().HostMemory || lim > 256<<20 {
			continue // only lavapipe-sized limits are cheap enough to cross in a test
		}
		t.Run(a.Path(), func(t *testing.T) {
			av, err := a.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			defer av.Close()
			n := int(lim/4) + 1024
			data := make([]int32, n)
			data[n-1] = 12345
			v := MustNew(runtime.Ext(n), data)
			_, err = v.BindDevice(av, runtime.Read)
			var tl *TooLargeError
			require.ErrorAs(t, err, &tl)
			assert.ErrorIs(t, err, ErrTooLarge)
			tail, err := v.Section(runtime.Idx(n-100), runtime.Ext(100))
			require.NoError(t, err)
			b, err := tail.BindDevice(av, runtime.Read)
			require.NoError(t, err)
			assert.LessOrEqual(t, b.Range, uint64(lim))
			got := make([]byte, 4)
			require.NoError(t, b.Buffer.Download(b.Offset+4*(uint64(b.Base)+99), got))
			assert.Equal(t, uint32(12345), binary.LittleEndian.Uint32(got))
			require.NoError(t, v.Close())
		})
	}
}

func TestSegments(t *testing.T) {
	s := newSegments(100, 1)
	assert.True(t, s.update(10, 20, func(uint32) uint32 { return 2 }))
	assert.False(t, s.update(12, 18, func(uint32) uint32 { return 2 }))
	assert.True(t, s.update(20, 30, func(uint32) uint32 { return 2 }))
	assert.Equal(t, []int{0, 10, 30}, s.start, "adjacent equal segments merge")
	assert.True(t, s.update(0, 100, func(uint32) uint32 { return 1 }))
	assert.Equal(t, []int{0}, s.start)
	var got []piece
	s.update(50, 60, func(uint32) uint32 { return 0 })
	s.each(40, 70, func(lo, hi int, m uint32) { got = append(got, piece{lo, hi, m}) })
	assert.Equal(t, []piece{{40, 50, 1}, {50, 60, 0}, {60, 70, 1}}, got)
}

// TestAtSetDoNotAllocate: element access on the host, which CPU kernels do for every
// thread, allocates nothing, for every rank.
func TestAtSetDoNotAllocate(t *testing.T) {
	for _, ext := range []runtime.Extent{runtime.Ext(8), runtime.Ext(2, 4), runtime.Ext(2, 2, 2)} {
		t.Run(ext.String(), func(t *testing.T) {
			v := MustNew(ext, make([]int32, 8))
			defer v.Close()
			last := ext.Delinearize(ext.Size() - 1)
			allocs := testing.AllocsPerRun(100, func() {
				v.Set(last, v.At(last)+1)
			})
			require.Zero(t, allocs)
			require.Equal(t, int32(101), v.At(last))
		})
	}
}
