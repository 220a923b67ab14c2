// Package testprog holds the hand-written GLSL programs of goamp's own tests (iota, scale,
// barriers, add2/add3 and tile1-3: the dispatch contract of amp.glsl exercised rank by
// rank; mma_peak and mma_peak_k: the cooperative-matrix rates of algo's
// BenchmarkCoopPeak), compiled to the SPIR-V beside each source by `make shaders` and
// checked for freshness by `make shaders-check`. Being internal, it ships only in test
// binaries.
package testprog

import (
	"embed"

	"github.com/goamp/goamp/runtime"
)

//go:embed *.spv
var spv embed.FS

// MustProgram returns the test program NAME (NAME.comp) for domains of the given rank (0:
// any). It panics when there is no such program: a test bug.
func MustProgram(name string, rank int) *runtime.Program {
	code, err := spv.ReadFile(name + ".spv")
	if err != nil {
		panic(err)
	}
	return runtime.MustProgram("testprog/"+name, code, rank)
}
