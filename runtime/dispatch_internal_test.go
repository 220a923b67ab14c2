package runtime

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/vec"
)

// TestDeviceLimits checks the device-limit rules against limits smaller than C++ AMP's,
// which no device present here has (every Vulkan device allows tiles of 1024 threads).
func TestDeviceLimits(t *testing.T) {
	small := accelerator.Limits{
		MaxWorkgroupInvocations: 256,
		MaxWorkgroupSize:        [3]uint32{128, 64, 16},
		MaxWorkgroupCount:       [3]uint32{100, 10, 5},
		MaxSharedMemory:         16384,
	}
	tests := []struct {
		name              string
		te                TiledExtent
		dim, limit, value int
		msg               string
	}{
		{"x size", Ext(512).Tile(256), 0, 128, 256, "tile 256 has dimension 0 = 256; the device's maxComputeWorkGroupSize[0] is 128"},
		{"y size", Ext(128, 2).Tile(128, 2), 0, 64, 128, "maxComputeWorkGroupSize[1] is 64"},
		{"z size", Ext(32, 1, 1).Tile(32, 1, 1), 0, 16, 32, "maxComputeWorkGroupSize[2] is 16"},
		{"invocations", Ext(16, 32).Tile(16, 32), -1, 256, 512, "tile 16x32 has 512 threads; the device's maxComputeWorkGroupInvocations is 256"},
		{"x count", Ext(101).Tile(1), 0, 100, 101, "has 101 tiles in dimension 0; the device's maxComputeWorkGroupCount[0] is 100"},
		{"y count", Ext(11, 1).Tile(1, 1), 0, 10, 11, "maxComputeWorkGroupCount[1] is 10"},
		{"z count", Ext(6, 1, 1).Tile(1, 1, 1), 0, 5, 6, "maxComputeWorkGroupCount[2] is 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.te.Validate())
			err := checkTileLimits(small, tt.te.Extent, tt.te.Tile, nil, "k", 0)
			require.ErrorIs(t, err, ErrInvalidComputeDomain)
			var ce *ComputeDomainError
			require.True(t, errors.As(err, &ce))
			assert.Equal(t, tt.dim, ce.Dim)
			assert.Equal(t, tt.limit, ce.Limit)
			assert.Equal(t, tt.value, ce.Value)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
	assert.NoError(t, checkTileLimits(small, Ext(100, 64), Ext(10, 16), nil, "k", 0))

	// The shared memory a program declares, tiled or not.
	for _, tile := range []Extent{Ext(16), {}} {
		err := checkLimits(small, Ext(64), tile, nil, "k", 20000)
		var ce *ComputeDomainError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, 16384, ce.Limit)
		assert.Equal(t, 20000, ce.Value)
		assert.Contains(t, err.Error(), "kernel k uses 20000 bytes of shared memory")
		assert.NoError(t, checkLimits(small, Ext(64), tile, nil, "k", 16384))
	}
}

// TestGrid checks the mapping of domains to workgroups.
func TestGrid(t *testing.T) {
	lim := accelerator.Limits{MaxWorkgroupCount: [3]uint32{65535, 65535, 65535}}
	spec, groups, err := grid(lim, Ext(128, 8, 4), Ext(64, 4, 2), 64, 0)
	require.NoError(t, err)
	assert.Equal(t, [4]uint32{2, 4, 64, 0}, spec, "x is the last dimension")
	assert.Equal(t, [3]uint32{2, 2, 2}, groups)
	spec, groups, err = grid(lim, Ext(6, 4), Ext(3, 2), 64, 0)
	require.NoError(t, err)
	assert.Equal(t, [4]uint32{2, 3, 1, 0}, spec)
	assert.Equal(t, [3]uint32{2, 2, 1}, groups)

	spec, groups, err = grid(lim, Ext(64*70000+3), Extent{}, 64, 0)
	require.NoError(t, err)
	assert.Equal(t, [4]uint32{64, 1, 1, 0}, spec)
	assert.Equal(t, [3]uint32{65535, 2, 1}, groups, "70001 groups folded")
	spec, groups, err = grid(lim, Ext(256*70000+3), Extent{}, GroupSize, 0)
	require.NoError(t, err)
	assert.Equal(t, [4]uint32{GroupSize, 1, 1, 0}, spec)
	assert.Equal(t, [3]uint32{65535, 2, 1}, groups, "70001 groups of 256 folded")
	_, groups, err = grid(lim, Ext(3, 5), Extent{}, GroupSize, 0)
	require.NoError(t, err)
	assert.Equal(t, [3]uint32{1, 1, 1}, groups)

	// A body that loops over the domain (SpecId 4) gets at most maxGroups workgroups.
	_, groups, err = grid(lim, Ext(256*70000+3), Extent{}, GroupSize, MaxLoopGroups)
	require.NoError(t, err)
	assert.Equal(t, [3]uint32{MaxLoopGroups, 1, 1}, groups)
	_, groups, err = grid(lim, Ext(1000), Extent{}, GroupSize, MaxLoopGroups)
	require.NoError(t, err)
	assert.Equal(t, [3]uint32{4, 1, 1}, groups, "fewer points than the cap's threads")

	// GPU indices are 32-bit signed ints: 2^31-1 points at most, tiled or not.
	big := accelerator.Limits{MaxWorkgroupCount: [3]uint32{1<<31 - 1, 65535, 65535}}
	_, groups, err = grid(big, Ext(1<<31-1), Extent{}, 64, 0)
	require.NoError(t, err)
	assert.Equal(t, [3]uint32{1 << 25, 1, 1}, groups)
	for _, c := range []struct{ ext, tile Extent }{
		{Ext(1 << 31), Extent{}}, {Ext(1<<31 + 64), Ext(64)}, {Ext(2, 1<<30+32), Ext(1, 32)},
	} {
		_, _, err = grid(big, c.ext, c.tile, GroupSize, 0)
		var ce *ComputeDomainError
		require.ErrorAs(t, err, &ce, "%s tiled %s", c.ext, c.tile)
		assert.Equal(t, math.MaxInt32, ce.Limit)
		assert.Equal(t, c.ext.Size(), ce.Value)
	}

	tiny := accelerator.Limits{MaxWorkgroupCount: [3]uint32{10, 3, 1}}
	_, groups, err = grid(tiny, Ext(64*30), Extent{}, 64, 0)
	require.NoError(t, err)
	assert.Equal(t, [3]uint32{10, 3, 1}, groups)
	_, _, err = grid(tiny, Ext(64*30+1), Extent{}, 64, 0)
	require.ErrorIs(t, err, ErrInvalidComputeDomain)
	assert.ErrorContains(t, err, "needs 31 workgroups of 64; folded into 10 x 4, which exceeds maxComputeWorkGroupCount[1] 3")
}

// TestLayout checks the reflected layout of kernel types.
func TestLayout(t *testing.T) {
	type inner struct {
		B float32
		C Arg
	}
	type k struct {
		A Arg
		x int32
		inner
		D uint32
		E []int `amp:"-"`
	}
	_ = k{}.x // read only through reflection
	l := layoutOf(typeOf[k]())
	require.NoError(t, l.err)
	require.Len(t, l.args, 2)
	assert.Equal(t, "A", l.args[0].name)
	assert.Equal(t, "inner.C", l.args[1].name)
	assert.Len(t, l.scalarFields, 3)
	assert.Equal(t, 16+2*16+3*4+4, l.pushSize)
	assert.Same(t, l, layoutOf(typeOf[*k]().Elem()), "cached")
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// TestGroupSize checks the workgroup size of non-tiled dispatches: GroupSize, or a
// device's smaller limit on the x size or on the invocations.
func TestGroupSize(t *testing.T) {
	for _, c := range []struct {
		lim  accelerator.Limits
		want uint32
	}{
		{accelerator.Limits{MaxWorkgroupSize: [3]uint32{1024, 1024, 64}, MaxWorkgroupInvocations: 1024}, GroupSize},
		{accelerator.Limits{MaxWorkgroupSize: [3]uint32{128, 128, 64}, MaxWorkgroupInvocations: 1024}, 128},
		{accelerator.Limits{MaxWorkgroupSize: [3]uint32{1024, 1024, 64}, MaxWorkgroupInvocations: 192}, 192},
		{accelerator.Limits{}, GroupSize},
	} {
		assert.Equal(t, c.want, groupSize(c.lim), "%+v", c.lim)
	}
}

// TestPushPlaces checks where the scalar fields go in the push constants: each at the
// offset std430 aligns its GLSL type to, after the domain and the views.
func TestPushPlaces(t *testing.T) {
	type window struct {
		Lo, Hi int32
		Scale  [2]float32
	}
	for _, c := range []struct {
		name   string
		typ    reflect.Type
		places []int
		end    int
	}{
		{"words", reflect.TypeFor[struct {
			A    Arg
			N    int32
			W    int
			B    bool
			Taps [3]int32
			Win  window
		}](), []int{32, 36, 40, 44, 56}, 72},
		{"vectors", reflect.TypeFor[struct {
			A, B   Arg
			Bias   float32
			Center vec.Float2
			Color  vec.Float4
			Dir    vec.Float3
			Steps  vec.Int3
			Tail   int32
			Big    float64
			Last   float32
		}](), []int{48, 56, 64, 80, 96, 108, 112, 120}, 124},
		{"a double first", reflect.TypeFor[struct {
			N int32
			D float64
			U vec.Uint2
		}](), []int{16, 24, 32}, 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := layoutOf(c.typ)
			require.NoError(t, l.err)
			var got []int
			for _, f := range l.scalarFields {
				got = append(got, f.push)
			}
			assert.Equal(t, c.places, got)
			assert.Equal(t, c.end, l.scalarEnd)
			assert.Equal(t, (c.end+15)&^15, l.pushSize)
		})
	}
}

// TestAccessIsDevices checks that an argument's Access converts to the device's access of
// the same meaning, as the Vulkan executor converts it for each binding.
func TestAccessIsDevices(t *testing.T) {
	for _, c := range []struct {
		acc  Access
		want device.Access
	}{{Read, device.Read}, {Write, device.Write}, {ReadWrite, device.ReadWrite}} {
		assert.Equal(t, c.want, device.Access(c.acc), "access %d", c.acc)
	}
}
