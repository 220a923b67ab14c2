package main

import (
	"fmt"
	"strings"

	"github.com/goamp/goamp/accelerator"
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

var cases []benchCase

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
