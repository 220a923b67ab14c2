// Package hooks holds goamp's test hooks that cross package lines: knobs that goamp's own
// tests set to reach code paths the machine's devices would not (a device allocation
// limit smaller than lavapipe's, for example). Programs cannot import it (it is internal),
// and nothing sets a hook outside tests. It imports nothing of goamp.
package hooks

import "sync/atomic"

// MaxAllocation, when non-zero, caps the bytes of one device allocation that arrayview
// makes for a Go slice's copy on an accelerator view, below the device's
// maxMemoryAllocationSize: a copy larger than the cap is split into several allocations
// (arrayview's chunks), as a copy larger than the device's limit is. Tests set it to reach
// the multi-allocation paths with views of a few MiB.
var MaxAllocation atomic.Uint64

// ProgramSPIRV, when set, maps a program's name to the SPIR-V that GPU
// dispatches of that program run instead of its own (its bounds-checked build
// dropped): the translator's tests set it to run a kernel's build from the
// direct SPIR-V backend where the kernel's generated Program method returns
// its glslc build.
var ProgramSPIRV atomic.Pointer[map[string][]byte]
