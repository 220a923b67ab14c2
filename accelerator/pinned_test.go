package accelerator

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"

	"github.com/goamp/goamp/internal/vk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPinnedSpan: the imported interior starts and ends on multiples of the alignment,
// lies inside the slice, and is empty when it would be shorter than pinMin or the device
// imports nothing (align 0).
func TestPinnedSpan(t *testing.T) {
	defer func(m int) { pinMin = m }(pinMin)
	pinMin = 3 * 4096
	buf := make([]byte, 64<<10)
	base := uintptr(unsafe.Pointer(&buf[0]))
	for _, c := range []struct {
		name      string
		from, n   int
		align     uint64
		wantEmpty bool
	}{
		{"aligned", 0, 8 * 4096, 4096, false},
		{"ragged both ends", 13, 8*4096 + 100, 4096, false},
		{"ragged, 64 KiB alignment", 5, 60 << 10, 1 << 16, true},
		{"interior shorter than pinMin", 1, 3*4096 + 100, 4096, true},
		{"below pinMin", 0, 2 * 4096, 4096, true},
		{"no import", 0, 8 * 4096, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := buf[c.from : c.from+c.n]
			lo, hi := pinnedSpan(p, c.align)
			if c.wantEmpty {
				assert.Equal(t, lo, hi)
				return
			}
			require.Less(t, lo, hi)
			addr := uint64(base) + uint64(c.from)
			assert.Zero(t, (addr+uint64(lo))%c.align, "start aligned")
			assert.Zero(t, uint64(hi-lo)%c.align, "length aligned")
			assert.Less(t, uint64(lo), c.align, "at most align-1 bytes before")
			assert.Less(t, uint64(c.n-hi), c.align, "at most align-1 bytes after")
			assert.GreaterOrEqual(t, hi-lo, pinMin)
		})
	}
}

// TestPinnedTransfer moves data with staging forced (the discrete-GPU path) on each Vulkan
// device that imports host memory: slices at several misalignments round-trip through a
// buffer, at buffer offsets that are not aligned either, through an import of their
// aligned interior and staging copies of the ragged ends; short transfers, transfers with
// EnvNoPinned's setting, and a transfer whose import fails (an injected allocation fault)
// go through staging alone. Every transfer's data must arrive exactly.
func TestPinnedTransfer(t *testing.T) {
	savedForce, savedMin, savedNo := forceStaging, pinMin, noPinned
	defer func() { forceStaging, pinMin, noPinned = savedForce, savedMin, savedNo }()
	forceStaging, pinMin = true, 64<<10
	r := rand.New(rand.NewPCG(12, uint64(os.Getpid())))
	eachDeviceView(t, func(t *testing.T, v *View) {
		a := v.Accelerator()
		defer func() { require.NoError(t, v.Close()) }()
		dev, err := a.device()
		require.NoError(t, err)
		align := int(dev.HostImportAlign())
		if align == 0 {
			t.Skipf("%s has no VK_EXT_external_memory_host", a.Path())
		}
		size := 4*pinMin + 3*align + 77
		b, err := v.alloc(uint64(size + 4096))
		require.NoError(t, err)
		defer func() { require.NoError(t, b.Free()) }()
		for _, c := range []struct {
			name       string
			skewUp     int
			skewDown   int
			off        uint64
			n          int
			noPin      bool
			fault      bool
			wantImport uint64 // imports expected: up and down
		}{
			{"aligned", 0, 0, 0, size, false, false, 2},
			{"ragged", 1, align - 3, 4, size, false, false, 2},
			{"ragged other", align / 2, 7, 12, size - 5, false, false, 2},
			{"short", 3, 5, 8, pinMin - 1, false, false, 0},
			{"off", 0, 0, 0, size, true, false, 0},
			{"import fails", 9, 0, 0, size, false, true, 1},
		} {
			t.Run(c.name, func(t *testing.T) {
				noPinned = c.noPin
				up := make([]byte, c.n+align)[c.skewUp : c.skewUp+c.n]
				for i := range up {
					up[i] = byte(r.Uint32())
				}
				down := make([]byte, c.n+align)[c.skewDown : c.skewDown+c.n]
				before := v.pinStats
				if c.fault {
					f := vk.InjectFault(vk.FaultAlloc, 0, vk.ResultOutOfHostMemory)
					defer f.Disarm()
				}
				require.NoError(t, b.Upload(c.off, up))
				require.NoError(t, b.Download(c.off, down))
				assert.True(t, bytes.Equal(up, down), "the data round-trips")
				assert.Equal(t, c.wantImport, v.pinStats.imported-before.imported, "transfers through an import")
				if c.fault {
					assert.Equal(t, uint64(1), v.pinStats.fellBack-before.fellBack, "the failed import falls back")
				}
				// The same slices again: the buffer's kept imports serve them.
				mid := v.pinStats
				for i := range up {
					up[i] = byte(r.Uint32())
				}
				require.NoError(t, b.Upload(c.off, up))
				require.NoError(t, b.Download(c.off, down))
				assert.True(t, bytes.Equal(up, down), "new data round-trips through the kept imports")
				if c.wantImport > 0 {
					assert.Equal(t, uint64(2), v.pinStats.imported-mid.imported, "transfers through an import, again")
				}
				wantNew := uint64(0) // the same memory needs no new import...
				if c.fault {
					wantNew = 1 // ...unless the first one failed
				}
				assert.Equal(t, wantNew, v.pinStats.imports-mid.imports, "new imports for the same memory")
			})
		}
	})
}
