// This file's name sorts after vk_test.go, whose TestOpenMissingLibrary must run before
// any test loads the Vulkan loader (which stays loaded for the process).

package vk

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFaultCounts: a fault lets through the calls it is told to, fires once, and is gone;
// Disarm disarms a fault that has not fired, and a new fault replaces the old.
func TestFaultCounts(t *testing.T) {
	for _, after := range []int{0, 1, 5} {
		f := InjectFault(FaultSubmit, after, ResultDeviceLost)
		for i := 0; i < after; i++ {
			_, ok := fault(FaultSubmit)
			require.False(t, ok, "call %d of %d let through", i, after)
		}
		require.False(t, f.Fired())
		r, ok := fault(FaultSubmit)
		require.True(t, ok)
		assert.Equal(t, ResultDeviceLost, r)
		assert.True(t, f.Fired())
		_, ok = fault(FaultSubmit)
		assert.False(t, ok, "a fault fires once")
	}
	f := InjectFault(FaultAlloc, 0, ResultOutOfDeviceMemory)
	f.Disarm()
	_, ok := fault(FaultAlloc)
	assert.False(t, ok)
	assert.False(t, f.Fired())
	old := InjectFault(FaultWait, 0, ResultDeviceLost)
	f = InjectFault(FaultWait, 1, ResultOutOfHostMemory)
	old.Disarm() // disarms nothing: it was replaced
	_, ok = fault(FaultWait)
	assert.False(t, ok)
	r, ok := fault(FaultWait)
	require.True(t, ok)
	assert.Equal(t, ResultOutOfHostMemory, r)
	assert.False(t, old.Fired())
	assert.True(t, f.Fired())
	assert.Equal(t, "vkQueueSubmit", FaultSubmit.String())
	assert.Equal(t, "after vkQueueSubmit", FaultSubmitted.String())
}

// TestFaultAlloc: NewBuffer with an allocation fault armed fails with the result named,
// matching ErrOutOfDeviceMemory, after the allocations it lets through; the next works.
func TestFaultAlloc(t *testing.T) {
	in := openTest(t)
	for _, info := range in.Devices() {
		dev, err := in.OpenDevice(info.Index, 1)
		require.NoError(t, err)
		f := InjectFault(FaultAlloc, 1, ResultOutOfDeviceMemory)
		b1, err := dev.NewBuffer(4096, MemUpload)
		require.NoError(t, err)
		_, err = dev.NewBuffer(8192, MemUpload)
		require.ErrorIs(t, err, ErrOutOfDeviceMemory)
		assert.EqualError(t, err, "goamp/vk: allocating a 8192-byte buffer: VK_ERROR_OUT_OF_DEVICE_MEMORY")
		assert.True(t, f.Fired())
		b2, err := dev.NewBuffer(8192, MemUpload)
		require.NoError(t, err)
		b1.Free()
		b2.Free()
		dev.Close()
	}
}

// TestFaultStream: a stream whose submit or wait fails is failed for good (Err): every
// later command, submit and wait returns the failure, Destroy still works, and a new
// stream on the same device computes correctly.
func TestFaultStream(t *testing.T) { eachCompletion(t, testFaultStream) }

func testFaultStream(t *testing.T, in *Instance, info DeviceInfo, fences bool) {
	const n = 256
	cases := []struct {
		name   string
		point  FaultPoint
		result int32
		is     error
	}{
		{"submit out of memory", FaultSubmit, ResultOutOfDeviceMemory, ErrOutOfDeviceMemory},
		{"submit device lost", FaultSubmit, ResultDeviceLost, ErrDeviceLost},
		{"wait device lost", FaultWait, ResultDeviceLost, ErrDeviceLost},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newIotaRig(t, in, info, fences, MemUpload, 2, n)
			src, dst := r.bufs[0], r.bufs[1]
			seed := rand.Uint32()
			for i := 0; i < n; i++ {
				binary.LittleEndian.PutUint32(src.Mapped()[4*i:], seed+uint32(i)*2654435761)
			}
			push := make([]byte, 8)
			binary.LittleEndian.PutUint32(push, n)
			binary.LittleEndian.PutUint32(push[4:], 3)
			binds := []Binding{{src, 0, 4 * n}, {dst, 0, 4 * n}}
			dispatch := func(s *Stream) error { return s.Dispatch(r.p, binds, push, [3]uint32{n / 64, 1, 1}, false) }
			// A batch that finishes before the fault, then the one that meets it.
			require.NoError(t, dispatch(r.s))
			first, err := r.s.Submit()
			require.NoError(t, err)
			require.NoError(t, first.Wait(context.Background()))
			f := InjectFault(c.point, 0, c.result)
			defer f.Disarm()
			require.NoError(t, dispatch(r.s))
			b, err := r.s.Submit()
			if c.point == FaultWait && err == nil {
				// (Submit polls the batches in flight: the fault may fire there.)
				err = b.Wait(context.Background())
			}
			require.ErrorIs(t, err, c.is)
			require.True(t, f.Fired())
			var ve *Error
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, c.result, ve.Result)
			assert.Contains(t, err.Error(), ve.ResultName())
			require.ErrorIs(t, r.s.Err(), c.is)
			require.False(t, r.s.Told())
			require.True(t, r.s.Told(), "told once")
			// Everything later fails with the same error.
			require.ErrorIs(t, dispatch(r.s), c.is)
			require.ErrorIs(t, r.s.Barrier(), c.is)
			require.ErrorIs(t, r.s.Copy(src, 0, dst, 0, 4), c.is)
			_, err = r.s.Submit()
			require.ErrorIs(t, err, c.is)
			require.ErrorIs(t, r.s.Last().Wait(context.Background()), c.is)
			require.NoError(t, first.Wait(context.Background()), "a batch seen finished before stays finished")
			r.s.Drain()
			// A new stream on the device works.
			s2, err := r.dev.NewStream(r.dev.Queues()[0])
			require.NoError(t, err)
			defer s2.Destroy()
			clear(dst.Mapped())
			require.NoError(t, dispatch(s2))
			b2, err := s2.Submit()
			require.NoError(t, err)
			require.NoError(t, b2.Wait(context.Background()))
			require.NoError(t, s2.Err())
			for i := 0; i < n; i++ {
				want := (seed+uint32(i)*2654435761)*3 + uint32(i)
				require.Equal(t, want, binary.LittleEndian.Uint32(dst.Mapped()[4*i:]), "element %d", i)
			}
		})
	}
}
