package algo

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/rtlink"
	"github.com/goamp/goamp/runtime"
)

// rt is what runtime gives goamp's packages and not programs: C++ AMP's view rule ahead
// of a dispatch, the split of a job over several views, per-thread kernels for tests.
var rt = rtlink.Get[runtime.Block]()

// chooseView applies C++ AMP's rule for the accelerator view a built-in over args runs
// on, the rule ParallelForEach applies, before the built-in dispatches (it takes scratch
// memory on the view, sizes tiles for its device, and reports a mismatch before it
// discards an output): av when it is not nil, else the view the arguments live on, else
// the default view. An argument on another view is a *runtime.AcceleratorMismatchError
// naming kernel, caller (the function av was passed to) and names[i] for args[i].
func chooseView(kernel, caller string, av *accelerator.View, names []string, args ...runtime.Arg) (*accelerator.View, error) {
	homes := make([]*accelerator.View, len(args))
	for i, a := range args {
		homes[i] = a.ArgInfo().Home
	}
	return rt.ChooseView(kernel, caller, av, names, homes)
}
