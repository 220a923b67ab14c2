package runtime

import "github.com/goamp/goamp/accelerator"

// ChooseView applies C++ AMP's rule for the accelerator view a kernel runs on, the rule
// ParallelForEach applies, for code that needs the view before it dispatches (the
// algorithm library takes scratch memory on it, sizes tiles for its device, and reports a
// mismatch before it discards an output): view when it is not nil, else the view the data
// arguments live on (ArgInfo().Home, an arrayview.Array's view; all must agree), else the
// default view of accelerator.Default().
//
// An argument that lives on another view than the one chosen first is an
// *AcceleratorMismatchError: its Kernel is kernel, its Field names[i] for args[i] (names
// must be as long as args), and its WantFrom "the view passed to CALLER" (caller is the
// function view was passed to, e.g. "Sort") or "field NAME" for the argument the view came
// from.
func ChooseView(kernel, caller string, view *accelerator.View, names []string, args ...Arg) (*accelerator.View, error) {
	chosen, from, bad := pickView(view, len(args), func(i int) *accelerator.View { return args[i].ArgInfo().Home })
	if bad >= 0 {
		fromField := ""
		if from >= 0 {
			fromField = names[from]
		}
		return nil, mismatchError(kernel, caller, chosen, fromField, names[bad], args[bad].ArgInfo().Home)
	}
	if chosen != nil {
		return chosen, nil
	}
	return defaultView()
}

// chooseView is ChooseView for run: the arguments' ArgInfo are infos, their names the
// layout's fields.
func chooseView(view *accelerator.View, l *kernelLayout, infos []ArgInfo) (*accelerator.View, error) {
	chosen, from, bad := pickView(view, len(infos), func(i int) *accelerator.View { return infos[i].Home })
	if bad >= 0 {
		fromField := ""
		if from >= 0 {
			fromField = l.args[from].name
		}
		return nil, mismatchError(l.name, "ParallelForEach", chosen, fromField, l.args[bad].name, infos[bad].Home)
	}
	if chosen != nil {
		return chosen, nil
	}
	return defaultView()
}

// pickView is the rule over n arguments, home(i) being where argument i lives (nil: on no
// view): the view chosen so far (view, else the first home), the argument it came from (-1
// for view) and the first argument that lives elsewhere (-1 when none does).
func pickView(view *accelerator.View, n int, home func(int) *accelerator.View) (chosen *accelerator.View, from, bad int) {
	from = -1
	for i := range n {
		h := home(i)
		switch {
		case h == nil:
		case view == nil:
			view, from = h, i
		case h != view:
			return view, from, i
		}
	}
	return view, from, -1
}

// mismatchError reports field, which lives on got, when the view chosen is want: the
// view passed to caller when fromField is "", else the view field fromField lives on.
func mismatchError(kernel, caller string, want *accelerator.View, fromField, field string, got *accelerator.View) error {
	wantFrom := "the view passed to " + caller
	if fromField != "" {
		wantFrom = "field " + fromField
	}
	return &AcceleratorMismatchError{Kernel: kernel, Want: want, WantFrom: wantFrom, Field: field, Got: got}
}

// defaultView is the default view of the default accelerator.
func defaultView() (*accelerator.View, error) {
	acc, err := accelerator.Default()
	if err != nil {
		return nil, err
	}
	return acc.DefaultView()
}
