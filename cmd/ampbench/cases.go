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
	size string
	work float64 // bytes or floating-point operations per run
	unit string  // "GB/s" or "GFLOP/s"
	// flops and bytes place the case on the roofline (-plot): its arithmetic intensity is
	// flops/bytes. See the convention at cases.
	flops, bytes float64
	run          func() error
	check        func() error
	// runOn, for the kernels that split over accelerators (MatMulOn, ReduceOn, SortOn), is
	// run over the accelerator views given (-accelerators).
	runOn   func(avs []*accelerator.View) error
	cleanup func()
}

// cases are the kernels, in the order ampbench runs them.
//
// Each counts, per call, the operations and bytes of its definition, not of its
// implementation, so that its place on the roofline is the algorithm's:
//
//   - bytes: each input element read once and each output element written once (4 bytes
//     per float32 or int32): vadd 12 per element, reduce 4, scan 8, matmul 12·n² (A and B
//     read, C written; matmul-f16 8·n², matmul-i8 6·n²), conv2d and transpose 8 per
//     pixel, sort 8 per key, fma-peak 8 per thread, quantize 5 per element. Temporaries, extra passes and caches are not counted.
//   - flops: the arithmetic operations (float or int32) the result needs: vadd 1 per
//     element, saxpy 2, reduce 1 (add, min or max), scan 1, histogram 2 (scale to a bin,
//     count), conv2d 36 per pixel (two 9-tap passes of multiply-add), matmul 2·n³ (int8
//     and int32 operations counted as flops),
//     fma-peak 2 per fused multiply-add, quantize 2 (scale and round), sort n·log2(n) (the comparisons of a comparison
//     sort). Kernels that only move data count one operation per element written (fill
//     and transpose 1 per element), so that they have a place on the chart.
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
	{"matmul-f16", matmulF16},
	{"matmul-i8", matmulI8},
	{"conv2d-f32", conv2d},
	{"reduce-sum-f32", reduceCase[float32](algo.Sum)},
	{"reduce-min-f32", reduceCase[float32](algo.Min)},
	{"reduce-max-f32", reduceCase[float32](algo.Max)},
	{"reduce-sum-i32", reduceCase[int32](algo.Sum)},
	{"scan-inclusive-f32", scanCase},
	{"histogram-f32", histogramCase},
	{"fma-peak-f32", fmaPeak},
	{"quantize-i8", quantize},
	{"quantize-each-i8", quantizeEach},
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
