//go:build cgo

package vk

import (
	"context"
	"encoding/binary"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

func openTest(t *testing.T) *Instance {
	t.Helper()
	in, err := Open(Options{Validation: os.Getenv("GOAMP_VALIDATION") == "1"})
	if err != nil && os.Getenv("GOAMP_REQUIRE_VULKAN") == "1" {
		t.Fatalf("GOAMP_REQUIRE_VULKAN=1 but: %v", err)
	}
	if err != nil {
		t.Skipf("no Vulkan on this machine: %v", err)
	}
	t.Cleanup(func() {
		in.Close()
		require.Empty(t, TakeMessages(), "validation messages")
	})
	return in
}

func TestOpenMissingLibrary(t *testing.T) {
	_, err := Open(Options{Library: "libvulkan-does-not-exist.so.9"})
	require.ErrorIs(t, err, ErrUnavailable)
}

func TestDispatchEveryDevice(t *testing.T) {
	in := openTest(t)
	spv, err := os.ReadFile("testdata/iota.spv")
	require.NoError(t, err)
	for _, info := range in.Devices() {
		t.Run(info.Name, func(t *testing.T) {
			require.NotEmpty(t, info.Name)
			require.GreaterOrEqual(t, info.ComputeFamily, 0)
			require.NotZero(t, info.Limits.MaxWorkgroupInvocations)
			dev, err := in.OpenDevice(info.Index, 1)
			require.NoError(t, err)
			defer dev.Close()
			const n = 1000
			kind := MemUpload
			if info.UnifiedMemory() {
				kind = MemShared
			}
			src, err := dev.NewBuffer(4*n, kind)
			require.NoError(t, err)
			defer src.Free()
			dst, err := dev.NewBuffer(4*n, kind)
			require.NoError(t, err)
			defer dst.Free()
			require.NotNil(t, src.Mapped())
			for i := 0; i < n; i++ {
				binary.LittleEndian.PutUint32(src.Mapped()[4*i:], uint32(2*i))
			}
			p, err := dev.NewPipeline(spv, 2, 8, []uint32{64})
			require.NoError(t, err)
			defer p.Destroy()
			s, err := dev.NewStream(dev.Queues()[0])
			require.NoError(t, err)
			defer s.Destroy()
			push := make([]byte, 8)
			binary.LittleEndian.PutUint32(push, n)
			binary.LittleEndian.PutUint32(push[4:], 3)
			binds := []Binding{{src, 0, 4 * n}, {dst, 0, 4 * n}}
			require.NoError(t, s.Dispatch(p, binds, push, [3]uint32{(n + 63) / 64, 1, 1}, false))
			b, err := s.Submit()
			require.NoError(t, err)
			require.NoError(t, b.Wait(context.Background()))
			require.True(t, b.Done())
			for i := 0; i < n; i++ {
				require.Equal(t, uint32(6*i+i), binary.LittleEndian.Uint32(dst.Mapped()[4*i:]), "element %d", i)
			}
		})
	}
}
