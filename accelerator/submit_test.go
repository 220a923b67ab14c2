package accelerator

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/internal/vk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSubmitFoundFailed: a batch that reaches the queue in the submit that finds the
// stream failed (Submit polls the batches in flight after queuing the new one, and a poll
// may find the device lost) is still the view's batch: freeing a buffer it copies into
// waits for it. Before, the view dropped it, and Free destroyed a buffer the device was
// still writing (with the validation layer on, VUID-vkDestroyBuffer-buffer-00922; a
// forced-staging CI run met it by chance). vk.FaultSubmitted makes that submit happen on
// demand.
func TestSubmitFoundFailed(t *testing.T) {
	const n = 1 << 20
	r := rand.New(rand.NewPCG(rand.Uint64(), 9))
	eachDeviceView(t, func(t *testing.T, v *View) {
		src, err := v.alloc(n)
		require.NoError(t, err)
		dst, err := v.alloc(n)
		require.NoError(t, err)
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		require.NoError(t, src.Upload(0, data))

		f := vk.InjectFault(vk.FaultSubmitted, 0, vk.ResultDeviceLost)
		defer f.Disarm()
		v.mu.Lock()
		seq := v.seq
		err = v.recordCopy(src.vb, 0, dst.vb, 0, n, src, dst)
		if err == nil {
			err = v.submit()
		}
		v.mu.Unlock()
		require.True(t, f.Fired())
		require.ErrorIs(t, err, ErrDeviceLost)
		v.mu.Lock()
		assert.Equal(t, seq+1, v.seq, "the batch submitted with the failure has its sequence number")
		assert.NotNil(t, v.batchOf(seq), "and is the view's to wait for")
		v.mu.Unlock()
		// Free waits for the copy into dst before destroying it (the validation layer
		// reports the destroy otherwise); the view is removed, so it reports the loss.
		assert.ErrorIs(t, dst.Free(), ErrDeviceLost)
		assert.ErrorIs(t, src.Free(), ErrDeviceLost)
	})
}

// TestCloseRemovedWithOpenBatch: a view removed while a command waits in its open batch
// (here a copy recorded after a submitted one, then a wait on the submitted one that finds
// the device lost) reports the loss once; closing it then succeeds, dropping the batch that
// can never run. Before, Close tried to submit that batch and returned the earlier
// failure again (a forced-staging CI run of algo's TestFaultRemovesView met it by chance).
func TestCloseRemovedWithOpenBatch(t *testing.T) {
	// The first copy is long enough to be still running when the wait starts (a wait on a
	// batch already seen finished does not reach the fault point): 64 MiB takes lavapipe
	// milliseconds.
	const n = 64 << 20
	eachDeviceView(t, func(t *testing.T, v *View) {
		a, err := v.alloc(n)
		require.NoError(t, err)
		b, err := v.alloc(n)
		require.NoError(t, err)
		v.mu.Lock()
		err = v.recordCopy(a.vb, 0, b.vb, 0, n, a, b) // what a holds does not matter
		if err == nil {
			err = v.submit()
		}
		first := v.seq - 1
		if err == nil {
			err = v.recordCopy(b.vb, 0, a.vb, 0, n, b, a) // left in the open batch
		}
		open := v.stream.Commands()
		var f *vk.Fault
		if err == nil {
			f = vk.InjectFault(vk.FaultWait, 0, vk.ResultDeviceLost)
			err = v.waitSeq(context.Background(), first)
			f.Disarm()
		}
		v.mu.Unlock()
		require.NotNil(t, f, "recording: %v", err)
		require.Positive(t, open, "a command waits in the open batch")
		require.True(t, f.Fired())
		var de *DeviceError
		require.ErrorAs(t, err, &de)
		assert.True(t, de.Removed && !de.Earlier, "the loss is reported once: %v", err)
		require.NoError(t, v.Close(), "closing a removed view the caller was told of")
	})
}
