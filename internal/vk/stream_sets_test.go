package vk

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStreamBindings runs the iota program through a stream on every device, with its
// buffers pushed (where the device has push descriptors) and bound through descriptor
// sets (NoPushDescriptors, as on devices without them): batches of more dispatches than
// one descriptor pool has sets, more batches than may be in flight (so that command
// buffers and their pools are reused), and small batches that the stream replays while
// the source changes between them; every destination is checked.
func TestStreamBindings(t *testing.T) {
	for _, noPush := range []bool{false, true} {
		in, err := Open(Options{Validation: os.Getenv("GOAMP_VALIDATION") == "1", NoPushDescriptors: noPush})
		if err != nil && os.Getenv("GOAMP_REQUIRE_VULKAN") != "1" {
			t.Skipf("no Vulkan on this machine: %v", err)
		}
		require.NoError(t, err)
		for _, info := range in.Devices() {
			t.Run(fmt.Sprintf("%s/noPush=%v", info.Name, noPush), func(t *testing.T) {
				dev, err := in.OpenDevice(info.Index, 1)
				require.NoError(t, err)
				defer dev.Close()
				require.Equal(t, info.PushDescriptor && !noPush, dev.PushDescriptors())
				streamBindings(t, dev)
			})
		}
		in.Close()
		require.Empty(t, TakeMessages(), "validation messages")
	}
}

// streamBindings is TestStreamBindings on one device.
func streamBindings(t *testing.T, dev *Device) {
	const n, ndst = 300, 3
	p, err := dev.NewPipeline(iotaSPV(t), 2, 8, []uint32{64})
	require.NoError(t, err)
	defer p.Destroy()
	var bufs []*Buffer
	defer func() { // after the stream has drained
		for _, b := range bufs {
			b.Free()
		}
	}()
	s, err := dev.NewStream(dev.Queues()[0])
	require.NoError(t, err)
	defer s.Destroy()
	kind := MemUpload
	if dev.info.UnifiedMemory() {
		kind = MemShared
	}
	newBuf := func() *Buffer {
		b, err := dev.NewBuffer(4*n, kind)
		require.NoError(t, err)
		bufs = append(bufs, b)
		return b
	}
	src := newBuf()
	var dst [ndst]*Buffer
	for i := range dst {
		dst[i] = newBuf()
	}
	in := make([]uint32, n)
	fill := func() {
		for i := range in {
			in[i] = rand.Uint32N(1 << 20)
			binary.LittleEndian.PutUint32(src.Mapped()[4*i:], in[i])
		}
	}
	var scale [ndst]uint32
	dispatch := func(d int, sc uint32) {
		scale[d] = sc
		push := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, n), scale[d])
		binds := []Binding{{src, 0, 4 * n}, {dst[d], 0, 4 * n}}
		require.NoError(t, s.Dispatch(p, binds, push, [3]uint32{(n + 63) / 64, 1, 1}, true))
	}
	check := func(b *Batch, d int) {
		t.Helper()
		require.NoError(t, b.Wait(context.Background()))
		for i := range n {
			require.Equal(t, in[i]*scale[d]+uint32(i), binary.LittleEndian.Uint32(dst[d].Mapped()[4*i:]),
				"dst %d element %d", d, i)
		}
	}
	fill()
	// 150 dispatches a batch, each with other bindings than the one before: three pools'
	// worth of sets; 2*MaxInFlight batches.
	for batch := range 2 * MaxInFlight {
		for i := range 150 {
			dispatch((batch+i)%ndst, 2+rand.Uint32N(100))
		}
		b, err := s.Submit()
		require.NoError(t, err)
		if batch%5 == 4 {
			for d := range ndst {
				check(b, d)
			}
		}
	}
	// Batches of one dispatch with the same bindings and push constants: replayed after
	// the first, each reading the source as changed since.
	sc, replays := 2+rand.Uint32N(100), s.Replays()
	for range 6 {
		fill()
		dispatch(0, sc)
		b, err := s.Submit()
		require.NoError(t, err)
		check(b, 0)
	}
	require.Greater(t, s.Replays(), replays, "replayed batches")
}
