package runtime

import (
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/stretchr/testify/assert"
)

// TestExecutorFor checks that every accelerator gets the executor its traits call for:
// the goroutine executor where the storage is host memory, the Vulkan one elsewhere.
func TestExecutorFor(t *testing.T) {
	for _, a := range accelerator.All() {
		t.Run(a.Path(), func(t *testing.T) {
			x := executorFor(a)
			switch {
			case a.Traits().HostMemory:
				assert.IsType(t, hostExecutor{}, x)
			case a.Traits().Strict:
				assert.IsType(t, strictExecutor{}, x)
			default:
				assert.IsType(t, vulkanExecutor{}, x)
			}
			assert.Equal(t, a.Path() == accelerator.CPUPath, x == executor(hostExecutor{}),
				"only the CPU accelerator runs Go bodies over host memory")
			assert.Equal(t, a.Path() == accelerator.StrictCPUPath, x == executor(strictExecutor{}),
				"only the strict CPU accelerator runs Go bodies over device copies")
		})
	}
}

// TestGoBodiesNeedNoTensorCores: both CPU accelerators run a kernel's Go body, so a program
// that declares cooperative matrices does not stop its kernel there.
func TestGoBodiesNeedNoTensorCores(t *testing.T) {
	for _, a := range []*accelerator.Accelerator{accelerator.CPU(), accelerator.StrictCPU()} {
		for _, n := range deviceNeeds {
			if n.cap == CapabilityCooperativeMatrixNV || n.cap == CapabilityCooperativeMatrixKHR {
				assert.True(t, n.has(a), "%s: %s", a.Path(), n.feature)
			}
		}
	}
}
