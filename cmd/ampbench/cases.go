package main

import (
	"fmt"
	"strings"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
)

// benchCase is one kernel; its size comes from the -n, -mat and -img flags.
type benchCase struct {
	name  string
	setup func(av *accelerator.View, sz sizes) (*instance, error)
}

// instance is a set-up case: run calls the kernel (the wait for its result is added by
// measure), check compares the last result with the Go reference.
type instance struct {
	size  string
	work  float64 // bytes or floating-point operations per run
	unit  string  // "GB/s" or "GFLOP/s"
	run   func() error
	check func() error
	// runOn, for the kernels that split over accelerators (MatMulOn, ReduceOn, SortOn), is
	// run over the accelerator views given (-accelerators).
	runOn   func(avs []*accelerator.View) error
	cleanup func()
}

// cases are the kernels, in the order ampbench runs them.
var cases = []benchCase{
	{"vadd-f32", vadd},
	{"saxpy-f32", saxpy},
	{"fill-f32", fill},
	{"transpose-f32", transpose},
	{"sort-f32", sortCase[float32]},
	{"sort-i32", sortCase[int32]},
	{"matmul-f32", matmul[float32]},
	{"matmul-simple-f32", matmulSimple},
	{"matmul-i32", matmul[int32]},
	{"conv2d-f32", conv2d},
	{"reduce-sum-f32", reduceCase[float32](algo.Sum)},
	{"reduce-min-f32", reduceCase[float32](algo.Min)},
	{"reduce-max-f32", reduceCase[float32](algo.Max)},
	{"reduce-sum-i32", reduceCase[int32](algo.Sum)},
	{"scan-inclusive-f32", scanCase},
	{"histogram-f32", histogramCase},
}

func caseNames() []string {
	var n []string
	for _, c := range cases {
		n = append(n, c.name)
	}
	return n
}

func selectCases(names []string) ([]benchCase, error) {
	if len(names) == 0 {
		return cases, nil
	}
	var out []benchCase
	for _, n := range names {
		found := false
		for _, c := range cases {
			if c.name == n || strings.HasPrefix(c.name, n+"-") {
				out = append(out, c)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("no kernel %q; kernels: %s", n, strings.Join(caseNames(), ", "))
		}
	}
	return out, nil
}
