package accelerator

import (
	"context"
	"crypto/sha256"
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/vk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if msgs := ValidationMessages(); len(msgs) > 0 {
		for _, s := range msgs {
			os.Stderr.WriteString("validation: " + s + "\n")
		}
		code = 1
	}
	os.Exit(code)
}

func TestVulkanRequired(t *testing.T) {
	if os.Getenv("GOAMP_REQUIRE_VULKAN") == "1" {
		require.NoError(t, NoVulkanReason(), "GOAMP_REQUIRE_VULKAN=1")
		require.Greater(t, len(All()), 1)
		if os.Getenv(EnvValidation) == "1" {
			require.True(t, ValidationEnabled())
		}
	}
}

func TestCPUAlwaysPresent(t *testing.T) {
	all := All()
	require.NotEmpty(t, all)
	cpu := all[len(all)-1]
	assert.Equal(t, CPUPath, cpu.Path())
	assert.Same(t, CPU(), cpu)
	got, err := Get("cpu")
	require.NoError(t, err)
	assert.Same(t, cpu, got)
	strict := StrictCPU()
	assert.NotContains(t, all, strict, "a way of running the CPU for tests, not a device to choose")
	assert.Equal(t, StrictCPUPath, strict.Path())
	got, err = Get("cpu:strict")
	require.NoError(t, err)
	assert.Same(t, strict, got)
	assert.True(t, strict.IsCPU())
	assert.Equal(t, Traits{Strict: true}, strict.Traits())
	t.Setenv(EnvDefault, StrictCPUPath)
	def, err := Default()
	require.NoError(t, err)
	assert.Same(t, strict, def, "the default when asked for by path")
}

// TestPropertiesEveryAccelerator checks every property of every accelerator present.
func TestPropertiesEveryAccelerator(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Path(), func(t *testing.T) {
			p := a.Properties()
			assert.Equal(t, a.Path(), p.Path)
			assert.NotEmpty(t, p.Description)
			assert.NotEmpty(t, p.Version)
			l := a.Limits()
			assert.GreaterOrEqual(t, l.MaxWorkgroupInvocations, uint32(128), "Vulkan guarantees 128")
			assert.GreaterOrEqual(t, l.MaxWorkgroupSize[2], uint32(64))
			assert.GreaterOrEqual(t, l.MaxWorkgroupCount[0], uint32(65535))
			assert.GreaterOrEqual(t, l.MaxSharedMemory, uint32(16384))
			assert.GreaterOrEqual(t, l.MaxPushConstantsSize, uint32(128))
			assert.GreaterOrEqual(t, l.MaxStorageBufferRange, uint32(1<<27))
			assert.GreaterOrEqual(t, a.SubgroupSize(), uint32(1))
			if a.IsCPU() {
				assert.True(t, a.IsEmulated())
				assert.True(t, a.SupportsCPUSharedMemory())
				assert.True(t, a.SupportsDoublePrecision())
				assert.Zero(t, a.DedicatedMemory())
				assert.Equal(t, "", a.DriverVersion())
				return
			}
			info := a.info
			assert.Regexp(t, `^vulkan:\d+$`, p.Path)
			assert.Regexp(t, `^1\.\d+\.\d+$`, p.Version)
			assert.Equal(t, info.Type == vk.TypeCPU, a.IsEmulated())
			assert.Greater(t, a.DedicatedMemory(), uint64(0))
			assert.NotEmpty(t, p.MemoryHeaps)
			assert.NotEmpty(t, p.MemoryTypes)
			assert.True(t, a.SubgroupOps().Has("basic"), "subgroup basic is required in Vulkan 1.1")
			assert.GreaterOrEqual(t, a.SubgroupSize(), uint32(4))
			assert.NotZero(t, l.TimestampPeriodNs)
			assert.Equal(t, info.Float64, a.SupportsDoublePrecision())
			assert.Equal(t, info.UnifiedMemory(), a.SupportsCPUSharedMemory())
			assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, p.UUID)
		})
	}
}

func TestDefaultSelection(t *testing.T) {
	defer ResetDefault()
	r := theRegistry()
	want := r.heuristic()
	tests := []struct {
		name    string
		env     string
		set     string
		want    *Accelerator
		wantErr bool
	}{
		{name: "heuristic", want: want},
		{name: "env cpu", env: "cpu", want: CPU()},
		{name: "env first device", env: All()[0].Path(), want: All()[0]},
		{name: "env bad value", env: "vulkan:99", wantErr: true},
		{name: "SetDefault wins over env", env: "vulkan:99", set: "cpu", want: CPU()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ResetDefault()
			t.Setenv(EnvDefault, tc.env)
			if tc.set != "" {
				require.NoError(t, SetDefault(tc.set))
			}
			got, err := Default()
			if tc.wantErr {
				var pe *PathError
				require.ErrorAs(t, err, &pe)
				assert.ErrorIs(t, err, ErrNoSuchAccelerator)
				assert.Equal(t, tc.env, pe.Path)
				assert.Contains(t, err.Error(), tc.env)
				assert.Contains(t, err.Error(), EnvDefault)
				return
			}
			require.NoError(t, err)
			assert.Same(t, tc.want, got)
		})
	}
}

// TestHeuristicOrder: the default (no SetDefault, no AMP_DEFAULT_ACCELERATOR) is the
// non-emulated Vulkan device with the most dedicated memory, else the CPU; never an
// emulated Vulkan device such as lavapipe, which is there when asked for by path.
func TestHeuristicOrder(t *testing.T) {
	r := theRegistry()
	got := r.heuristic()
	require.False(t, got != r.cpu && got.IsEmulated(), "%s is emulated: only the CPU or a real device is the default", got)
	for _, a := range r.all {
		if a.info == nil || a.IsEmulated() {
			continue
		}
		require.NotSame(t, r.cpu, got, "the CPU was chosen over %s", a)
		assert.GreaterOrEqual(t, got.DedicatedMemory(), a.DedicatedMemory(), "%s over %s", got, a)
	}
	for _, a := range r.all {
		if a.IsEmulated() && a != r.cpu {
			t.Setenv(EnvDefault, a.Path())
			d, err := Default()
			require.NoError(t, err)
			assert.Same(t, a, d, "an emulated device runs when asked for")
		}
	}
}

func TestSetDefaultUnknown(t *testing.T) {
	err := SetDefault("gpu:7")
	var pe *PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "gpu:7", pe.Path)
	assert.Contains(t, pe.Known, "cpu")
	_, err = Get("nope")
	assert.ErrorIs(t, err, ErrNoSuchAccelerator)
}

// TestNoVulkanPath runs itself in a child process whose loader cannot be opened (the
// loader is process-wide, so this cannot happen in the parent).
func TestNoVulkanPath(t *testing.T) {
	if os.Getenv("GOAMP_TEST_CHILD") == "1" {
		r := theRegistry()
		require.Len(t, r.all, 1)
		assert.Same(t, r.cpu, r.all[0])
		require.ErrorIs(t, NoVulkanReason(), ErrNoVulkan)
		if vk.Available {
			assert.Contains(t, NoVulkanReason().Error(), "libvulkan-missing.so.1")
		} else {
			assert.Contains(t, NoVulkanReason().Error(), "CGO_ENABLED=0")
		}
		d, err := Default()
		require.NoError(t, err)
		assert.Same(t, CPU(), d)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoVulkanPath$", "-test.v")
	cmd.Env = append(os.Environ(), "GOAMP_TEST_CHILD=1", EnvLibrary+"=libvulkan-missing.so.1", "GOAMP_REQUIRE_VULKAN=0", EnvDefault+"=")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "--- PASS: TestNoVulkanPath")
}

func TestViewsEveryAccelerator(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Path(), func(t *testing.T) {
			v, err := a.DefaultView()
			require.NoError(t, err)
			v2, err := a.DefaultView()
			require.NoError(t, err)
			assert.Same(t, v, v2)
			assert.Equal(t, Automatic, v.Mode())
			iv, err := a.CreateView(Immediate)
			require.NoError(t, err)
			assert.Equal(t, Immediate, iv.Mode())
			require.NoError(t, iv.Flush())
			require.NoError(t, iv.Wait())
			m, err := iv.CreateMarker()
			require.NoError(t, err)
			require.NoError(t, m.Wait(context.Background()))
			assert.True(t, m.Done())
			require.NoError(t, iv.Close())
			require.NoError(t, iv.Close(), "second Close is a no-op")
			assert.ErrorIs(t, iv.Flush(), ErrViewClosed)
			assert.ErrorIs(t, iv.Wait(), ErrViewClosed)
			_, err = iv.CreateMarker()
			assert.ErrorIs(t, err, ErrViewClosed)
			if a.IsCPU() {
				_, err := iv.alloc(16)
				assert.ErrorIs(t, err, ErrViewClosed)
				b, err := v.alloc(16)
				if a.Traits().Strict { // memory of its own
					require.NoError(t, err)
					assert.Len(t, b.Bytes(), 16)
					require.NoError(t, b.Free())
				} else {
					assert.ErrorIs(t, err, ErrUnsupportedFeature)
				}
			}
		})
	}
}

// eachDeviceView runs f in a subtest for every accelerator but the CPU ones (every Vulkan
// device), on a fresh view of it closed when f returns.
func eachDeviceView(t *testing.T, f func(t *testing.T, v *View)) {
	for _, a := range All() {
		if a.IsCPU() {
			continue
		}
		t.Run(a.Path(), func(t *testing.T) {
			v, err := a.CreateView(Automatic)
			require.NoError(t, err)
			defer v.Close()
			f(t, v)
		})
	}
}

func TestBufferRoundTripEveryDevice(t *testing.T) {
	eachDeviceView(t, func(t *testing.T, v *View) {
		const n = 3<<20 + 12
		b, err := v.alloc(n)
		require.NoError(t, err)
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i * 7)
		}
		require.NoError(t, b.Upload(0, src))
		dst := make([]byte, n-100)
		require.NoError(t, b.Download(100, dst))
		assert.Equal(t, src[100:], dst)
		assert.Error(t, b.Upload(n-1, []byte{1, 2}), "overrun")
		s := v.Stats()
		assert.Equal(t, uint64(n), s.BytesUp)
		assert.Equal(t, uint64(n-100), s.BytesDown)
		require.NoError(t, b.Free())
		assert.ErrorIs(t, b.Upload(0, src[:4]), ErrBufferFreed, "use after free")
	})
}

// TestDispatchFreedBuffer: a dispatch binding a freed buffer (the buffer of an array view
// closed while the dispatch was being made) returns an error matching ErrBufferFreed, and
// one binding a nil buffer says so.
func TestDispatchFreedBuffer(t *testing.T) {
	spirv, err := os.ReadFile("../internal/testprog/iota.spv")
	require.NoError(t, err)
	eachDeviceView(t, func(t *testing.T, v *View) {
		p, err := v.Accelerator().pipeline(device.PipelineKey{Module: sha256.Sum256(spirv), Spec: [4]uint32{64, 1, 1, 1}},
			"iota", spirv, 1, 128)
		require.NoError(t, err)
		b, err := v.alloc(256)
		require.NoError(t, err)
		require.NoError(t, b.Free())
		err = v.dispatch(p, []device.Arg{{Buffer: b, Range: 256, Access: device.Write}}, nil, [3]uint32{1, 1, 1})
		require.ErrorIs(t, err, ErrBufferFreed)
		assert.Contains(t, err.Error(), "binding 0")
		err = v.dispatch(p, []device.Arg{{Range: 256, Access: device.Write}}, nil, [3]uint32{1, 1, 1})
		assert.ErrorContains(t, err, "binding 0 is a nil buffer")
	})
}

// TestProfilingAfterUse turns timestamps on for a view that has already run commands.
func TestProfilingAfterUse(t *testing.T) {
	eachDeviceView(t, func(t *testing.T, v *View) {
		b, err := v.alloc(1 << 20)
		require.NoError(t, err)
		defer b.Free()
		require.NoError(t, b.Upload(0, make([]byte, 1<<20)))
		require.NoError(t, v.Wait())
		require.NoError(t, v.EnableProfiling(8))
		times, err := v.DispatchTimes()
		require.NoError(t, err)
		assert.Empty(t, times, "no dispatch profiled yet")
	})
}

func TestAtClose(t *testing.T) {
	for _, a := range All() {
		v, err := a.CreateView(Automatic)
		require.NoError(t, err)
		calls := 0
		v.atClose(func() { calls++ })
		require.NoError(t, v.Close())
		require.NoError(t, v.Close())
		assert.Equal(t, 1, calls, "%s: closers run once", a.Path())

		v, err = a.CreateView(Automatic)
		require.NoError(t, err)
		kept, dropped := 0, 0
		v.atClose(func() { kept++ })
		cancel := v.atClose(func() { dropped++ })
		cancel()
		cancel()
		require.NoError(t, v.Close())
		assert.Equal(t, 1, kept, "%s", a.Path())
		assert.Zero(t, dropped, "%s: a cancelled closer does not run", a.Path())
	}
}

// TestViewNames: two views of one accelerator have different names, so that an error
// naming both tells them apart.
func TestViewNames(t *testing.T) {
	for _, a := range All() {
		v1, err := a.CreateView(Automatic)
		require.NoError(t, err)
		v2, err := a.CreateView(Automatic)
		require.NoError(t, err)
		assert.NotEqual(t, v1.String(), v2.String())
		assert.Regexp(t, `^`+regexp.QuoteMeta(a.Path())+` view \d+ \(automatic\)$`, v1.String())
		require.NoError(t, v1.Close())
		require.NoError(t, v2.Close())
	}
}

// TestAllocPastMaxAllocationSize: an allocation larger than the device's
// maxMemoryAllocationSize is refused with an *AllocError before the driver sees it (the
// validation layer would report VUID-vkAllocateMemory-pAllocateInfo-01713). The CPU has no device buffers and no such limit.
func TestAllocPastMaxAllocationSize(t *testing.T) {
	for _, a := range All() {
		v, err := a.CreateView(Automatic)
		require.NoError(t, err)
		max := a.Limits().MaxMemoryAllocationSize
		if a.IsCPU() {
			assert.Zero(t, max)
			b, err := v.alloc(1 << 20)
			if a.Traits().Strict { // host memory of its own: Go's limits
				require.NoError(t, err)
				require.NoError(t, b.Free())
			} else {
				require.ErrorIs(t, err, ErrUnsupportedFeature)
			}
			require.NoError(t, v.Close())
			continue
		}
		require.NotZero(t, max, "%s reports maxMemoryAllocationSize", a.Path())
		for _, size := range []uint64{max + 1, max + 64<<20 + 4096} {
			_, err = v.alloc(size)
			require.ErrorIs(t, err, ErrOutOfMemory, "%s: %d bytes", a.Path(), size)
			var ae *AllocError
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, AllocError{Accelerator: a.Path(), Bytes: size, Limit: max}, *ae)
		}
		b, err := v.alloc(4096)
		require.NoError(t, err, "the view still allocates")
		require.NoError(t, b.Free())
		require.NoError(t, v.Close())
		if ValidationEnabled() {
			assert.Empty(t, ValidationMessages())
		}
	}
}
