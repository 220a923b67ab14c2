package accelerator_test

import (
	"testing"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultViewConcurrent: goroutines that ask for an accelerator's default view at once,
// when there is none yet, all get the same one; before, the view that lost the race was
// closed with the accelerator's lock held, and Close took it again: a deadlock.
func TestDefaultViewConcurrent(t *testing.T) {
	for _, acc := range accelerator.All() {
		t.Run(acc.Path(), func(t *testing.T) {
			for range 50 {
				d, err := acc.DefaultView()
				require.NoError(t, err)
				require.NoError(t, d.Close()) // the accelerator has no default view now
				const n = 8
				got := make(chan *accelerator.View, n)
				start := make(chan struct{})
				for range n {
					go func() {
						<-start
						v, err := acc.DefaultView()
						assert.NoError(t, err)
						got <- v
					}()
				}
				close(start)
				var first *accelerator.View
				for i := range n {
					select {
					case v := <-got:
						if i == 0 {
							first = v
						}
						assert.Same(t, first, v)
					case <-time.After(20 * time.Second):
						t.Fatal("DefaultView did not return: deadlock")
					}
				}
			}
		})
	}
}
