package accelerator

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stagingSizes lists the sizes of v's allocated staging buffers.
func stagingSizes(v *View) []int {
	v.mu.Lock()
	defer v.mu.Unlock()
	var s []int
	for _, st := range v.staging {
		if st.buf != nil {
			s = append(s, len(st.buf.Mapped()))
		}
	}
	return s
}

// TestStagingSizes checks that staging buffers are as small as the copies that need them
// allow (a power of two, at least minStaging), that idle ones are reused rather than more
// allocated, and that a copy larger than every idle buffer replaces one by a larger one.
func TestStagingSizes(t *testing.T) {
	saved, savedNo := forceStaging, noPinned
	defer func() { forceStaging, noPinned = saved, savedNo }()
	forceStaging, noPinned = true, true // large copies stay staged, not pinned (pinned.go)
	r := rand.New(rand.NewPCG(rand.Uint64(), 6))
	for _, a := range All() {
		if a.IsCPU() { // no Vulkan device
			continue
		}
		v, err := a.CreateView(Automatic)
		require.NoError(t, err)
		roundTrip := func(size int) {
			t.Helper()
			b, err := v.alloc(uint64(size))
			require.NoError(t, err)
			defer b.Free()
			src, dst := make([]byte, size), make([]byte, size)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			require.NoError(t, b.Upload(0, src))
			require.NoError(t, b.Download(0, dst))
			require.Equal(t, src, dst)
		}
		roundTrip(100 << 10)
		sizes := stagingSizes(v)
		require.NotEmpty(t, sizes)
		for _, s := range sizes {
			assert.Equal(t, 128<<10, s, "a 100 KiB copy's staging buffer")
		}
		for range 6 {
			roundTrip(30 << 10)
		}
		// An upload and the download after it: the download's copy may find the upload's
		// buffer still in use, so two buffers, never more.
		assert.LessOrEqual(t, len(stagingSizes(v)), 2, "small copies allocated more staging buffers instead of reusing idle ones")
		for _, s := range stagingSizes(v) {
			assert.LessOrEqual(t, s, 128<<10)
		}
		for range stagingSlots {
			roundTrip(3 << 20)
		}
		assert.Contains(t, stagingSizes(v), 4<<20, "a 3 MiB copy got no 4 MiB staging buffer")
		assert.LessOrEqual(t, len(stagingSizes(v)), stagingSlots)
		roundTrip(stagingSize + 5) // more than one staging buffer holds
		assert.Contains(t, stagingSizes(v), stagingSize)
		require.NoError(t, v.Close())
	}
}
