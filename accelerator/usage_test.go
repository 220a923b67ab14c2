package accelerator_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/internal/device"
)

// TestMemoryUsage checks goamp's count of device memory: a buffer's bytes appear in its
// view's MemoryInUse and its accelerator's MemoryUsage while it lives and leave both when
// it is freed; the driver's heaps, where reported, are the device's heaps.
func TestMemoryUsage(t *testing.T) {
	amptest.EachView(t, func(t *testing.T, v *accelerator.View) {
		a := v.Accelerator()
		if a.Traits().HostMemory {
			assert.Equal(t, accelerator.MemoryUsage{}, a.MemoryUsage())
			assert.Zero(t, v.MemoryInUse())
			return
		}
		before := a.MemoryUsage().Allocated
		const size = 3<<20 + 12
		b, err := device.Of(v).Alloc(size)
		require.NoError(t, err)
		assert.EqualValues(t, size, v.MemoryInUse())
		u := a.MemoryUsage()
		assert.EqualValues(t, before+size, u.Allocated)
		t.Logf("%s: driver heaps %+v", a.Path(), u.Heaps)
		if u.Heaps != nil {
			assert.Len(t, u.Heaps, len(a.Properties().MemoryHeaps))
			var used uint64
			for _, h := range u.Heaps {
				used += h.Usage
			}
			assert.GreaterOrEqual(t, used, uint64(size), "the driver counts less than goamp's buffer")
		}
		require.NoError(t, b.Free())
		assert.Zero(t, v.MemoryInUse())
		assert.Equal(t, before, a.MemoryUsage().Allocated)
	})
}
