package runtime

import "github.com/goamp/goamp/accelerator"

// chooseHomes is rtlink's ChooseView: C++ AMP's rule over the views the data arguments
// live on, homes (nil: on no view), named names.
func chooseHomes(kernel, caller string, view *accelerator.View, names []string, homes []*accelerator.View) (*accelerator.View, error) {
	chosen, from, bad := pickView(view, len(homes), func(i int) *accelerator.View { return homes[i] })
	if bad >= 0 {
		fromField := ""
		if from >= 0 {
			fromField = names[from]
		}
		return nil, mismatchError(kernel, caller, chosen, fromField, names[bad], homes[bad])
	}
	if chosen != nil {
		return chosen, nil
	}
	return defaultView()
}

// chooseView is chooseHomes for run: the arguments' ArgInfo are infos, their names the
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
