package arrayview_test

import (
	"context"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNilAndZeroViews: every method of a nil or zero view that returns an error returns an
// *ArgumentError naming it (never a panic, here or on another goroutine), Extent, Rank and
// String answer, and a kernel given the read-only handle of a nil view fails with an error
// on every accelerator, leaving its other data as it was.
func TestNilAndZeroViews(t *testing.T) {
	good := arrayview.MustNew(runtime.Ext(4), []int32{1, 2, 3, 4})
	for _, v := range map[string]*arrayview.View[int32]{"nil": nil, "zero": {}} {
		calls := map[string]error{
			"Data":          func() error { _, err := v.Data(); return err }(),
			"ReadData":      func() error { _, err := v.ReadData(); return err }(),
			"Section":       func() error { _, err := v.Section(runtime.Idx(0), runtime.Ext(1)); return err }(),
			"Project":       func() error { _, err := v.Project(0); return err }(),
			"CopyTo":        v.CopyTo(make([]int32, 4)),
			"CopyFrom":      v.CopyFrom(make([]int32, 4)),
			"SynchronizeTo": v.SynchronizeTo(nil),
			"Synchronize":   v.Synchronize(),
			"Close":         v.Close(),
			"Discard":       v.Discard(),
			"Copy's dst":    arrayview.Copy(v, good),
			"Copy's src":    arrayview.Copy(good, v),
			"CopyAsync":     arrayview.CopyAsync(v, good).Wait(context.Background()),
		}
		for name, err := range calls {
			var ae *arrayview.ArgumentError
			require.ErrorAs(t, err, &ae, name)
			assert.ErrorIs(t, err, arrayview.ErrInvalidArgument, name)
		}
		assert.Equal(t, 0, v.Rank())
		assert.Contains(t, v.String(), "View[int32]")
	}
	vals := []int32{5, 6, 7, 8}
	out := arrayview.MustNew(runtime.Ext(4), vals)
	everyView(t, func(t *testing.T, av *accelerator.View) {
		var nilView *arrayview.View[int32]
		err := runtime.ParallelForEach(av, runtime.Ext(4), fzScale{Src: nilView.ReadOnly(), Dst: out, K: 3})
		require.Error(t, err)
		assert.ErrorIs(t, err, arrayview.ErrInvalidArgument)
		require.NoError(t, out.Synchronize())
		assert.Equal(t, []int32{5, 6, 7, 8}, vals)
	})
}

// TestShapeMessages: a copy between extents and Data of a section whose rows are apart say
// what is wrong (and still match ErrOutOfRange).
func TestShapeMessages(t *testing.T) {
	a := arrayview.MustNew(runtime.Ext(6), make([]int32, 6))
	b := arrayview.MustNew(runtime.Ext(2, 3), make([]int32, 6))
	err := arrayview.Copy(a, b)
	require.ErrorIs(t, err, arrayview.ErrOutOfRange)
	assert.Equal(t, "goamp/arrayview: a copy from extent (2, 3) to extent (6): Copy needs equal extents", err.Error())
	grid := arrayview.MustNew(runtime.Ext(6, 4), make([]int32, 24))
	col, err := grid.Section(runtime.Idx(0, 1), runtime.Ext(6, 2))
	require.NoError(t, err)
	_, err = col.Data()
	require.ErrorIs(t, err, arrayview.ErrOutOfRange)
	assert.Contains(t, err.Error(), "Data of section (6, 2): its rows are apart in its data, not one slice")
	for _, c := range []struct {
		op   func() error
		want string
	}{
		{func() error { _, err := a.Section(runtime.Idx(0, 0), runtime.Ext(2, 2)); return err },
			"section (2, 2) at [0 0]: a rank-2 section of a rank-1 view of extent (6) (a section has its view's rank)"},
		{func() error { _, err := grid.Section(runtime.Idx(1), runtime.Ext(2)); return err },
			"section (2) at [1]: a rank-1 section of a rank-2 view of extent (6, 4) (a section has its view's rank)"},
		{func() error { _, err := a.Project(0); return err },
			"projection at 0: a rank-1 view of extent (6) has no projection (its elements are At(runtime.Idx(0)))"},
	} {
		err := c.op()
		require.ErrorIs(t, err, arrayview.ErrOutOfRange)
		assert.Equal(t, "goamp/arrayview: "+c.want, err.Error())
	}
}
