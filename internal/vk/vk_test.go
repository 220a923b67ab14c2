package vk

import (
	"context"
	"encoding/binary"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func openTest(t testing.TB) *Instance {
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

// TestOpenMissingLibrary checks that a loader that is not there is ErrUnavailable, whether
// it is the first Open of the process or (under -count=2, or after
// TestOpenOtherLibrary's first Open) a later one.
func TestOpenMissingLibrary(t *testing.T) {
	_, err := Open(Options{Library: "libvulkan-does-not-exist.so.9"})
	require.ErrorIs(t, err, ErrUnavailable)
	require.ErrorContains(t, err, "libvulkan-does-not-exist.so.9")
}

// TestOpenOtherLibrary checks that once a loader is loaded, an Open naming another one
// fails, naming both, instead of silently using the first.
func TestOpenOtherLibrary(t *testing.T) {
	openTest(t)
	_, err := Open(Options{Library: "libvulkan-other.so.1"})
	require.ErrorIs(t, err, ErrUnavailable)
	require.ErrorContains(t, err, "libvulkan-other.so.1")
	require.ErrorContains(t, err, defaultLibraries()[0]+" is loaded already")
}

func TestDispatchEveryDevice(t *testing.T) {
	in := openTest(t)
	spv := iotaSPV(t)
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

// iotaSPV reads the SPIR-V of the iota test program.
func iotaSPV(tb testing.TB) []byte {
	spv, err := os.ReadFile("testdata/iota.spv")
	require.NoError(tb, err)
	return spv
}

// BenchmarkPhases times the phases of one tiny dispatch on every device: recording it,
// submitting the batch, and waiting until it is seen finished, with the batch recorded
// anew or replayed; and recording alone, back to back.
func BenchmarkPhases(b *testing.B) {
	in := openTest(b)
	for _, info := range in.Devices() {
		kind := MemDevice
		if info.UnifiedMemory() {
			kind = MemShared
		}
		r := newIotaRig(b, in, info, false, kind, 1, 1024)
		buf, p, s := r.bufs[0], r.p, r.s
		push := make([]byte, 8)
		binds := []Binding{{buf, 0, 4096}, {buf, 0, 4096}}
		b.Run(info.Name+"/record", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				require.NoError(b, s.Dispatch(p, binds, push, [3]uint32{1, 1, 1}, false))
				if i%512 == 511 {
					bt, err := s.Submit()
					require.NoError(b, err)
					require.NoError(b, bt.Wait(context.Background()))
				}
			}
			bt, _ := s.Submit()
			require.NoError(b, bt.Wait(context.Background()))
		})
		// One dispatch, submitted and waited for: recorded anew each time (the push constant
		// alternates, so no batch repeats the one before it), or the same batch each time,
		// which the stream submits again without recording.
		for _, replay := range []bool{false, true} {
			name := info.Name + "/round-trip-recorded"
			if replay {
				name = info.Name + "/round-trip-replayed"
			}
			b.Run(name, func(b *testing.B) {
				var rec, sub, wait time.Duration
				replays := s.Replays()
				for i := 0; b.Loop(); i++ {
					if !replay {
						push[4] = byte(i & 1)
					}
					t0 := time.Now()
					require.NoError(b, s.Dispatch(p, binds, push, [3]uint32{1, 1, 1}, false))
					t1 := time.Now()
					bt, err := s.Submit()
					require.NoError(b, err)
					t2 := time.Now()
					require.NoError(b, bt.Wait(context.Background()))
					t3 := time.Now()
					rec, sub, wait = rec+t1.Sub(t0), sub+t2.Sub(t1), wait+t3.Sub(t2)
				}
				n := float64(b.N) * 1e3
				b.ReportMetric(float64(rec)/n, "us-record")
				b.ReportMetric(float64(sub)/n, "us-submit")
				b.ReportMetric(float64(wait)/n, "us-wait")
				b.ReportMetric(float64(s.Replays()-replays)/float64(b.N), "replayed/op")
			})
		}
	}
}

// iotaRig is a device with the iota test pipeline, a stream on its first queue, and buffers
// of n uint32 each (of kind; zeroed where host-visible), all released when the test ends.
type iotaRig struct {
	dev  *Device
	p    *Pipeline
	s    *Stream
	bufs []*Buffer
}

func newIotaRig(t testing.TB, in *Instance, info DeviceInfo, fences bool, kind MemKind, nbuf, n int) *iotaRig {
	t.Helper()
	spv := iotaSPV(t)
	r := &iotaRig{}
	var err error
	if fences {
		// As on a device without timeline semaphores: a fence per command buffer.
		in.devices[info.Index].TimelineSemaphore = false
		defer func() { in.devices[info.Index].TimelineSemaphore = info.TimelineSemaphore }()
	}
	r.dev, err = in.OpenDevice(info.Index, 1)
	require.NoError(t, err)
	require.Equal(t, !fences && info.TimelineSemaphore, r.dev.info.TimelineSemaphore)
	t.Cleanup(r.dev.Close)
	for range nbuf {
		b, err := r.dev.NewBuffer(uint64(4*n), kind)
		require.NoError(t, err)
		t.Cleanup(b.Free)
		clear(b.Mapped())
		r.bufs = append(r.bufs, b)
	}
	r.p, err = r.dev.NewPipeline(spv, 2, 8, []uint32{64})
	require.NoError(t, err)
	t.Cleanup(r.p.Destroy)
	r.s, err = r.dev.NewStream(r.dev.Queues()[0])
	require.NoError(t, err)
	t.Cleanup(r.s.Destroy)
	return r
}

// eachCompletion runs test on every device once for each way a stream can learn that a
// batch finished there: its timeline semaphore, where the device has them, and a fence per
// command buffer (fences true).
func eachCompletion(t *testing.T, test func(t *testing.T, in *Instance, info DeviceInfo, fences bool)) {
	in := openTest(t)
	for _, info := range in.Devices() {
		modes := map[string]bool{"fences": true}
		if info.TimelineSemaphore {
			modes["timeline"] = false
		}
		for mode, fences := range modes {
			t.Run(info.Name+"/"+mode, func(t *testing.T) { test(t, in, info, fences) })
		}
	}
}

// TestReplay: a batch that repeats the last small one is submitted again without recording,
// and still computes with the data as it is now; batches that differ from it, in any
// command or in length, are recorded and computed as given.
func TestReplay(t *testing.T) { eachCompletion(t, testReplay) }

func testReplay(t *testing.T, in *Instance, info DeviceInfo, fences bool) {
	const n = 256
	r := newIotaRig(t, in, info, fences, MemUpload, 3, n) // src, dst0, dst1
	bufs, p, s := r.bufs, r.p, r.s

	type op struct {
		dst   int    // 1 or 2: which buffer the dispatch writes
		scale uint32 // push constant
		copy  bool   // instead: copy dst0 into dst1
	}
	steps := []struct {
		name   string
		ops    []op
		replay bool
	}{
		{"first", []op{{dst: 1, scale: 3}}, false},
		{"same", []op{{dst: 1, scale: 3}}, true},
		{"same again", []op{{dst: 1, scale: 3}}, true},
		{"other push constant", []op{{dst: 1, scale: 4}}, false},
		{"other buffer", []op{{dst: 2, scale: 4}}, false},
		{"longer", []op{{dst: 2, scale: 4}, {dst: 1, scale: 5}}, false},
		{"two commands again", []op{{dst: 2, scale: 4}, {dst: 1, scale: 5}}, true},
		{"prefix only", []op{{dst: 2, scale: 4}}, false},
		{"with a copy", []op{{dst: 1, scale: 6}, {copy: true}}, false},
		{"with a copy again", []op{{dst: 1, scale: 6}, {copy: true}}, true},
		{"too long to keep", []op{{dst: 1, scale: 2}, {dst: 2, scale: 2}, {dst: 1, scale: 7}, {dst: 2, scale: 7}, {dst: 1, scale: 8}}, false},
		{"too long again", []op{{dst: 1, scale: 2}, {dst: 2, scale: 2}, {dst: 1, scale: 7}, {dst: 2, scale: 7}, {dst: 1, scale: 8}}, false},
	}
	want := [3][n]uint32{}
	for k, st := range steps {
		// New source data every step: a replayed batch must read it.
		for i := 0; i < n; i++ {
			want[0][i] = uint32(i*7 + k)
			binary.LittleEndian.PutUint32(bufs[0].Mapped()[4*i:], want[0][i])
		}
		before := s.Replays()
		for j, o := range st.ops {
			if o.copy {
				// The copy reads what the dispatch before it wrote: order them.
				require.NoError(t, s.Barrier())
				require.NoError(t, s.Copy(bufs[1], 0, bufs[2], 0, 4*n))
				want[2] = want[1]
				continue
			}
			push := make([]byte, 8)
			binary.LittleEndian.PutUint32(push, n)
			binary.LittleEndian.PutUint32(push[4:], o.scale)
			binds := []Binding{{bufs[0], 0, 4 * n}, {bufs[o.dst], 0, 4 * n}}
			require.NoError(t, s.Dispatch(p, binds, push, [3]uint32{n / 64, 1, 1}, j > 0))
			for i := 0; i < n; i++ {
				want[o.dst][i] = want[0][i]*o.scale + uint32(i)
			}
		}
		b, err := s.Submit()
		require.NoError(t, err)
		require.NoError(t, b.Wait(context.Background()))
		replayed := s.Replays() - before
		require.Equal(t, st.replay, replayed == 1, "step %q replayed %d", st.name, replayed)
		for d := 1; d <= 2; d++ {
			for i := 0; i < n; i++ {
				require.Equal(t, want[d][i], binary.LittleEndian.Uint32(bufs[d].Mapped()[4*i:]), "step %q buffer %d element %d", st.name, d, i)
			}
		}
	}
}

// TestLongBatch: a batch of many dependent dispatches, longer than the stream's command
// arena holds, is recorded in full and in order: each dispatch adds i to element i of the
// buffer the one before it wrote.
func TestLongBatch(t *testing.T) { eachCompletion(t, testLongBatch) }

func testLongBatch(t *testing.T, in *Instance, info DeviceInfo, fences bool) {
	const n, k = 128, 1501
	r := newIotaRig(t, in, info, fences, MemUpload, 2, n)
	ab, p, s := r.bufs, r.p, r.s
	push := make([]byte, 8)
	binary.LittleEndian.PutUint32(push, n)
	binary.LittleEndian.PutUint32(push[4:], 1)
	for j := 0; j < k; j++ {
		binds := []Binding{{ab[j%2], 0, 4 * n}, {ab[(j+1)%2], 0, 4 * n}}
		require.NoError(t, s.Dispatch(p, binds, push, [3]uint32{n / 64, 1, 1}, j > 0))
	}
	require.Equal(t, k, s.Commands())
	b, err := s.Submit()
	require.NoError(t, err)
	require.NoError(t, b.Wait(context.Background()))
	out := ab[k%2].Mapped()
	for i := 0; i < n; i++ {
		require.Equal(t, uint32(k*i), binary.LittleEndian.Uint32(out[4*i:]), "element %d", i)
	}
}
