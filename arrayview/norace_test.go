//go:build !race

package arrayview_test

// raceBuild reports a test binary built with the race detector, whose CPU accelerator
// runs more goroutines per dispatch (runtime's race mode), each allocating.
const raceBuild = false
