package runtime_test

import (
	"testing"

	"github.com/goamp/goamp/accelerator"
	amprt "github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChooseView checks C++ AMP's view rule as rtlink's ChooseView gives it to goamp's
// packages: the view passed,
// else the arguments' home (all agreeing), else the default view, and the mismatch errors
// with the names the caller gave.
func TestChooseView(t *testing.T) {
	cpu := accelerator.CPU()
	v1, err := cpu.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer v1.Close()
	v2, err := cpu.CreateView(accelerator.Immediate)
	require.NoError(t, err)
	defer v2.Close()
	def, err := accelerator.Default()
	require.NoError(t, err)
	defView, err := def.DefaultView()
	require.NoError(t, err)

	for _, c := range []struct {
		name     string
		view     *accelerator.View
		homes    []*accelerator.View // of the arguments "a", "b", "c"
		want     *accelerator.View   // nil: a mismatch
		wantFrom string
		field    string
		got      *accelerator.View
	}{
		{name: "passed, no homes", view: v2, homes: []*accelerator.View{nil, nil}, want: v2},
		{name: "passed, agreeing home", view: v1, homes: []*accelerator.View{nil, v1}, want: v1},
		{name: "home of the second", homes: []*accelerator.View{nil, v2, nil}, want: v2},
		{name: "homes agree", homes: []*accelerator.View{v1, nil, v1}, want: v1},
		{name: "default", homes: []*accelerator.View{nil}, want: defView},
		{name: "no arguments", homes: nil, want: defView},
		{name: "passed, other home", view: v2, homes: []*accelerator.View{nil, v1},
			wantFrom: "the view passed to Op", field: "b", got: v1},
		{name: "homes disagree", homes: []*accelerator.View{nil, v1, v2},
			wantFrom: "field b", field: "c", got: v2},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := []string{"a", "b", "c"}[:len(c.homes)]
			got, err := rt.ChooseView("pkg.Op", "Op", c.view, names, c.homes)
			if c.want != nil {
				require.NoError(t, err)
				assert.Same(t, c.want, got)
				return
			}
			assert.Nil(t, got)
			me := requireErrorAs[*amprt.AcceleratorMismatchError](t, err, amprt.ErrAcceleratorMismatch)
			assert.Equal(t, "pkg.Op", me.Kernel)
			assert.Equal(t, c.wantFrom, me.WantFrom)
			assert.Equal(t, c.field, me.Field)
			assert.Same(t, c.got, me.Got)
			want := c.view
			if want == nil {
				want = c.homes[1]
			}
			assert.Same(t, want, me.Want)
		})
	}
}

// TestChooseViewAgreesWithParallelForEach runs a kernel with no view passed and checks that
// it ran on the view rtlink's ChooseView names for its arguments (counted in the view's Stats).
func TestChooseViewAgreesWithParallelForEach(t *testing.T) {
	eachView(t, func(t *testing.T, v *accelerator.View) {
		out := newArg(amprt.Ext(64), amprt.Write)
		defer out.free()
		out.home = v
		chosen, err := rt.ChooseView("k", "ParallelForEach", nil, []string{"Out"},
			[]*accelerator.View{out.ArgInfo().Home})
		require.NoError(t, err)
		require.Same(t, v, chosen)
		before := chosen.Stats().Dispatches
		require.NoError(t, amprt.ParallelForEach(nil, amprt.Ext(64), iotaK{Out: out, Scale: 3}))
		assert.Equal(t, before+1, chosen.Stats().Dispatches)
	})
}
