package runtime_test

import (
	"errors"
	"testing"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/internal/rtlink"
	amprt "github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rt is what runtime gives goamp's packages.
var rt = rtlink.Get[amprt.Block]()

// TestBlocks checks Blocks' cuts: contiguous, whole units but the last, every row given,
// shares following the recorded throughput, and typed errors for bad splits.
func TestBlocks(t *testing.T) {
	avs := amptest.Views(t)
	cpu, err := accelerator.CPU().CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer func() { require.NoError(t, cpu.Close()) }()
	two := []*accelerator.View{avs[0], cpu}
	if len(avs) > 1 {
		two = avs[:2]
	}
	const key = "TestBlocks"
	rt.ResetThroughput(key)
	for _, c := range []struct{ rows, unit int }{{1, 1}, {1000, 1}, {1000, 128}, {1025, 64}, {7, 16}} {
		blocks, err := rt.Blocks(key, two, c.rows, c.unit)
		require.NoError(t, err)
		lo := 0
		for i, b := range blocks {
			assert.Equal(t, i, b.Index)
			assert.Equal(t, lo, b.Lo, "contiguous")
			assert.Greater(t, b.Hi, b.Lo)
			if b.Hi != c.rows {
				assert.Zero(t, b.Rows()%c.unit, "whole units: %+v", b)
			}
			lo = b.Hi
		}
		assert.Equal(t, c.rows, lo, "every row given")
		if units := (c.rows + c.unit - 1) / c.unit; units >= 2 && two[0].Accelerator() != two[1].Accelerator() {
			require.Len(t, blocks, 2, "equal shares before anything is measured")
			assert.InDelta(t, blocks[0].Rows(), blocks[1].Rows(), float64(2*c.unit))
		}
	}
	if two[0].Accelerator() != two[1].Accelerator() {
		amprt.RecordThroughputForTest(key, two[0].Accelerator(), 3e6, time.Second)
		amprt.RecordThroughputForTest(key, two[1].Accelerator(), 1e6, time.Second)
		r, ok := rt.Throughput(key, two[0].Accelerator())
		assert.True(t, ok)
		assert.Equal(t, 3e6, r)
		blocks, err := rt.Blocks(key, two, 800, 1)
		require.NoError(t, err)
		assert.Equal(t, []int{600, 200}, []int{blocks[0].Rows(), blocks[1].Rows()}, "3:1")
		rt.ResetThroughput(key)
		_, ok = rt.Throughput(key, two[0].Accelerator())
		assert.False(t, ok)
	}
	for _, c := range []struct {
		views      []*accelerator.View
		rows, unit int
		reason     string
	}{
		{nil, 10, 1, "no accelerator view"},
		{[]*accelerator.View{cpu, nil}, 10, 1, "view 1 is nil"},
		{[]*accelerator.View{cpu, cpu}, 10, 1, "views 0 and 1 are the same view"},
		{[]*accelerator.View{cpu}, 0, 1, "no rows"},
		{[]*accelerator.View{cpu}, 10, 0, "a unit must be at least 1 row"},
	} {
		_, err := rt.Blocks(key, c.views, c.rows, c.unit)
		var se *amprt.SplitError
		require.ErrorAs(t, err, &se)
		assert.ErrorIs(t, err, amprt.ErrInvalidSplit)
		assert.Contains(t, se.Reason, c.reason)
		assert.Equal(t, c.rows, se.Rows)
	}
}

// TestRunBlocks checks that RunBlocks runs every block, joins their errors and records a
// throughput for the blocks that succeed.
func TestRunBlocks(t *testing.T) {
	avs := amptest.Views(t)
	const key = "TestRunBlocks"
	rt.ResetThroughput(key)
	blocks, err := rt.Blocks(key, avs, 100*len(avs), 1)
	require.NoError(t, err)
	ran := make([]bool, len(blocks))
	boom := errors.New("boom")
	err = rt.RunBlocks(key, blocks, 10, func(b amprt.Block) error {
		ran[b.Index] = true
		time.Sleep(time.Millisecond)
		if b.Index == 0 && len(blocks) > 1 {
			return boom
		}
		return nil
	})
	for i := range ran {
		assert.True(t, ran[i], "block %d ran", i)
	}
	if len(blocks) > 1 {
		require.ErrorIs(t, err, boom)
	} else {
		require.NoError(t, err)
	}
	// The last block (a GPU's, where there is one) succeeded: its throughput is recorded,
	// for a GPU when its marker completes, in the background. The failed one's is not.
	last := blocks[len(blocks)-1]
	a := last.View.Accelerator()
	assert.Eventually(t, func() bool { _, ok := rt.Throughput(key, a); return ok }, 10*time.Second, time.Millisecond)
	r, _ := rt.Throughput(key, a)
	assert.LessOrEqual(t, r, 10*float64(last.Rows())/1e-3, "rows*10 units in at least 1 ms")
	if len(blocks) > 1 {
		_, ok := rt.Throughput(key, blocks[0].View.Accelerator())
		assert.False(t, ok, "no throughput for a failed block")
	}
}
