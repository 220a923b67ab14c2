// Package testprog holds the hand-written GLSL programs of goamp's own tests (iota, scale,
// barriers, add2/add3 and tile1-3: the dispatch contract of amp.glsl exercised rank by
// rank; mma_peak and mma_peak_k: the cooperative-matrix rates of algo's
// BenchmarkCoopPeak; matmul_coop_emu, _emu_h and _emu_i8: algo's cooperative kernels
// with their matrices emulated; sort_local_s and _ps: the hybrid sort's small local
// sorts; variants of programs of package shaders listed in
// variants.txt), compiled to the SPIR-V beside each source by `make shaders` and
// checked for freshness by `make shaders-check`. Being internal, it ships only in test
// binaries.
package testprog

import (
	"embed"
	"sync"

	"github.com/goamp/goamp/runtime"
)

//go:embed *.spv
var spv embed.FS

// programKey identifies a cached program.
type programKey struct {
	name string
	rank int
}

// programs caches each name and rank's *runtime.Program: kernels' Program methods call
// MustProgram on every dispatch, and registering a program reads and hashes its SPIR-V.
var programs sync.Map // programKey -> *runtime.Program

// MustProgram returns the test program NAME (NAME.comp) for domains of the given rank (0:
// any); repeated calls return the same *runtime.Program. It panics when there is no such
// program: a test bug.
func MustProgram(name string, rank int) *runtime.Program {
	key := programKey{name, rank}
	if p, ok := programs.Load(key); ok {
		return p.(*runtime.Program)
	}
	code, err := spv.ReadFile(name + ".spv")
	if err != nil {
		panic(err)
	}
	p, _ := programs.LoadOrStore(key, runtime.MustProgram("testprog/"+name, code, rank))
	return p.(*runtime.Program)
}
