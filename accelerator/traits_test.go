package accelerator

import (
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTraits checks each accelerator's traits against what the accelerator is: the
// goroutine accelerator keeps host memory and runs GOMAXPROCS workers, the strict one is
// Strict and runs as many, every Vulkan device
// (lavapipe included) is wide and keeps device buffers.
func TestTraits(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Path(), func(t *testing.T) {
			got := a.Traits()
			want, workers := Traits{Wide: true}, 0
			switch a.Path() {
			case CPUPath:
				want, workers = Traits{HostMemory: true}, goruntime.GOMAXPROCS(0)
			case StrictCPUPath:
				want, workers = Traits{Strict: true}, goruntime.GOMAXPROCS(0)
			}
			assert.Equal(t, want, got)
			assert.Equal(t, workers, a.Workers())
			n := 0
			for _, b := range []bool{got.HostMemory, got.Wide, got.Strict} {
				if b {
					n++
				}
			}
			assert.Equal(t, 1, n, "every accelerator of today has one of HostMemory, Wide and Strict")
		})
	}
}

// TestTraitsWorkersFollowGOMAXPROCS sets GOMAXPROCS to several values and checks that the
// CPU's Workers follows it at the time of the call.
func TestTraitsWorkersFollowGOMAXPROCS(t *testing.T) {
	old := goruntime.GOMAXPROCS(0)
	defer goruntime.GOMAXPROCS(old)
	for _, n := range []int{1, 3, old + 2} {
		goruntime.GOMAXPROCS(n)
		assert.Equal(t, n, CPU().Workers(), "GOMAXPROCS %d", n)
	}
}
