package arrayview_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCloseViewWhileDispatching closes a Vulkan accelerator view while another goroutine
// dispatches on it: every dispatch that returned nil is in the data afterwards (Close brings
// it home), every other one returned ErrViewClosed, and the data stays usable on another
// view. Before, a dispatch in the middle of Close could be lost without an error, or leave
// the data tied to the closed view for good.
func TestCloseViewWhileDispatching(t *testing.T) {
	r := rand.New(rand.NewPCG(91, uint64(os.Getpid())))
	trials := 60
	if testing.Short() {
		trials = 15
	}
	for _, acc := range accelerator.All() {
		if acc.Traits().HostMemory {
			continue // the CPU's views hold no data of their own
		}
		t.Run(acc.Path(), func(t *testing.T) {
			zeros := arrayview.MustNew(runtime.Ext(1, 16), make([]int32, 16))
			for trial := range trials {
				av, err := acc.CreateView(accelerator.Automatic)
				require.NoError(t, err)
				data := make([]int32, 16)
				v := arrayview.MustNew(runtime.Ext(1, 16), data)
				var ok int32
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						err := runtime.ParallelForEach(av, runtime.Ext(1, 16), fzAdd2{A: v.ReadOnly(), B: zeros.ReadOnly(), C: v})
						if err != nil {
							assert.True(t, errors.Is(err, accelerator.ErrViewClosed), "trial %d: %v", trial, err)
							return
						}
						ok++
					}
				}()
				time.Sleep(time.Duration(r.IntN(400)) * time.Microsecond)
				require.NoError(t, av.Close())
				wg.Wait()
				require.NoError(t, v.Synchronize(), "trial %d", trial)
				require.Equal(t, ok, data[1], "trial %d: dispatches that returned nil, and the data's count", trial)
				// The data is not tied to the closed view: another view takes it.
				other, err := acc.CreateView(accelerator.Automatic)
				require.NoError(t, err)
				require.NoError(t, runtime.ParallelForEach(other, runtime.Ext(1, 16), fzAdd2{A: v.ReadOnly(), B: zeros.ReadOnly(), C: v}))
				require.NoError(t, v.Close())
				assert.Equal(t, ok+1, data[1], "trial %d", trial)
				require.NoError(t, other.Close())
			}
			require.NoError(t, zeros.Close())
		})
	}
}

// TestSynchronizeToClosedView: SynchronizeTo a closed accelerator view is ErrViewClosed on
// every accelerator (the CPU's returned nil), and the data stays as it was.
func TestSynchronizeToClosedView(t *testing.T) {
	for _, acc := range accelerator.All() {
		t.Run(acc.Path(), func(t *testing.T) {
			av, err := acc.CreateView(accelerator.Automatic)
			require.NoError(t, err)
			require.NoError(t, av.Close())
			data := []int32{3, 1, 4, 1, 5}
			v := arrayview.MustNew(runtime.Ext(5), data)
			assert.ErrorIs(t, v.SynchronizeTo(av), accelerator.ErrViewClosed)
			require.NoError(t, v.Close())
			assert.Equal(t, []int32{3, 1, 4, 1, 5}, data)
		})
	}
}
