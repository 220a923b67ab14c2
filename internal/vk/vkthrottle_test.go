package vk

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThrottle submits many batches without waiting and checks that no more than
// MaxInFlight are ever in flight, and that the stream allocates no more command buffers
// than that, while every batch still runs (the last one's wait covers them all).
func TestThrottle(t *testing.T) {
	in := openTest(t)
	for _, info := range in.Devices() {
		r := newIotaRig(t, in, info, false, MemDevice, 1, 1024)
		buf, p, s := r.bufs[0], r.p, r.s
		binds := []Binding{{buf, 0, 4096}, {buf, 0, 4096}}
		var last *Batch
		for i := range 20 * MaxInFlight {
			push := []byte{byte(i), 0, 0, 0, 1, 0, 0, 0} // no batch repeats the one before: none is replayed
			require.NoError(t, s.Dispatch(p, binds, push, [3]uint32{64, 1, 1}, false))
			bt, err := s.Submit()
			require.NoError(t, err)
			last = bt
			require.LessOrEqual(t, len(s.inflight), MaxInFlight, "batch %d", i)
		}
		require.NoError(t, last.Wait(context.Background()))
		assert.LessOrEqual(t, len(s.free)+len(s.inflight), MaxInFlight+2, "command buffers")
	}
}
