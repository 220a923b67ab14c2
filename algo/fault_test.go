package algo_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/vk"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Fault injection: device failures that a working driver never shows, injected
// through internal/vk's test hook on every Vulkan accelerator present, each with a real
// kernel (Add) running. They must give their typed error, leave the Go slices with their
// old contents or the correct results (never anything else), and leave the runtime
// working: a new accelerator view computes correctly. The tests arm process-wide faults,
// so they do not run in parallel.

// faultN is the length of the test data: not a multiple of a workgroup.
const faultN = 3001

// vulkanAccelerators returns the Vulkan accelerators present; with none, the test fails
// under GOAMP_REQUIRE_VULKAN=1 and is skipped otherwise.
func vulkanAccelerators(t *testing.T) []*accelerator.Accelerator {
	var accs []*accelerator.Accelerator
	for _, a := range accelerator.All() {
		if !a.Traits().HostMemory {
			accs = append(accs, a)
		}
	}
	if len(accs) == 0 {
		if os.Getenv(amptest.EnvRequireVulkan) == "1" {
			t.Fatalf("%s=1 but no Vulkan accelerator: %v", amptest.EnvRequireVulkan, accelerator.NoVulkanReason())
		}
		t.Skipf("no Vulkan accelerator: %v", accelerator.NoVulkanReason())
	}
	return accs
}

func randInt32s(r *rand.Rand, n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = r.Int32N(1<<20) - 1<<19
	}
	return s
}

func plus(a, b []int32) []int32 {
	s := make([]int32, len(a))
	for i := range s {
		s[i] = a[i] + b[i]
	}
	return s
}

// requireDeviceError checks that err is a *DeviceError of view av (through any wrapping)
// that matches is and names result, removed and earlier as given.
func requireDeviceError(t *testing.T, err error, av *accelerator.View, is error, result string, removed, earlier bool) {
	t.Helper()
	require.ErrorIs(t, err, is)
	var de *accelerator.DeviceError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, av.String(), de.View)
	assert.Equal(t, result, de.Result)
	assert.Equal(t, removed, de.Removed, "Removed")
	assert.Equal(t, earlier, de.Earlier, "Earlier")
	assert.Contains(t, err.Error(), result)
	assert.Contains(t, err.Error(), av.String())
	other := accelerator.ErrDeviceLost
	if is == accelerator.ErrDeviceLost {
		other = accelerator.ErrOutOfMemory
	}
	assert.False(t, errors.Is(err, other), "matches %v too", other)
}

// TestFaultOutOfMemoryMidBatch: two dependent Adds recorded in one batch, with the k-th
// device allocation failing (VK_ERROR_OUT_OF_DEVICE_MEMORY), for every k until the batch
// needs no more: the failing Add returns a *DeviceError matching ErrOutOfMemory, the view
// works on, what ran before reaches the host, the outputs of what did not keep their old
// contents, the inputs are unchanged, and the failed Add then runs on the same view and on a
// new one.
func TestFaultOutOfMemoryMidBatch(t *testing.T) {
	for _, acc := range vulkanAccelerators(t) {
		t.Run(acc.Path(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(amptest.Seed(t), 13))
			fired := 0
			for k := 0; k < 64; k++ {
				if !oomStep(t, acc, r, k) {
					break
				}
				fired++
			}
			// At least a, b, the first sum, c and the second sum have buffers of their own.
			assert.GreaterOrEqual(t, fired, 5, "allocations the batch made")
			assert.Less(t, fired, 64, "the batch finished without a fault")
		})
	}
}

// oomStep runs the batch with the k-th allocation (from 0) failing; it reports whether
// the fault fired.
func oomStep(t *testing.T, acc *accelerator.Accelerator, r *rand.Rand, k int) bool {
	av, err := acc.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	defer func() { assert.NoError(t, av.Close()) }()
	a, b, c := randInt32s(r, faultN), randInt32s(r, faultN), randInt32s(r, faultN)
	old1, old2 := randInt32s(r, faultN), randInt32s(r, faultN)
	in := [][]int32{slices.Clone(a), slices.Clone(b), slices.Clone(c)}
	out1, out2 := slices.Clone(old1), slices.Clone(old2)
	sum1 := plus(a, b)
	sum2 := plus(sum1, c)
	ext := runtime.Ext(faultN)
	A, B, C := arrayview.MustNew(ext, a), arrayview.MustNew(ext, b), arrayview.MustNew(ext, c)
	O1, O2 := arrayview.MustNew(ext, out1), arrayview.MustNew(ext, out2)
	defer func() {
		for _, v := range []*arrayview.View[int32]{A, B, C, O1, O2} {
			assert.NoError(t, v.Close())
		}
	}()

	f := vk.InjectFault(vk.FaultAlloc, k, vk.ResultOutOfDeviceMemory)
	err1 := algo.Add(av, A, B, O1)
	var err2 error
	if err1 == nil {
		err2 = algo.Add(av, O1, C, O2)
	}
	f.Disarm()
	if !f.Fired() {
		require.NoError(t, err1)
		require.NoError(t, err2)
		require.NoError(t, O2.Synchronize())
		require.Equal(t, sum2, out2)
		return false
	}
	err = errors.Join(err1, err2)
	require.Error(t, err, "allocation %d failed", k)
	requireDeviceError(t, err, av, accelerator.ErrOutOfMemory, "VK_ERROR_OUT_OF_DEVICE_MEMORY", false, false)

	// The view works on: what ran reaches the host, the rest keeps its old contents.
	require.NoError(t, O1.Synchronize())
	require.NoError(t, O2.Synchronize())
	assert.Equal(t, in, [][]int32{a, b, c}, "inputs")
	if err1 != nil {
		require.Equal(t, old1, out1, "allocation %d: the first sum did not run", k)
	} else {
		require.Equal(t, sum1, out1, "allocation %d: the first sum ran", k)
	}
	require.Equal(t, old2, out2, "allocation %d: the second sum did not run", k)

	// What failed runs now, on the same view and on a new one.
	if err1 != nil {
		require.NoError(t, algo.Add(av, A, B, O1))
	}
	require.NoError(t, algo.Add(av, O1, C, O2))
	require.NoError(t, O2.Synchronize())
	require.Equal(t, sum2, out2)
	copy(out2, old2)
	O2.Refresh()
	av2, err := acc.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	require.NoError(t, algo.Add(av2, O1, C, O2))
	require.NoError(t, O2.Synchronize())
	require.Equal(t, sum2, out2)
	require.NoError(t, av2.Close())
	return true
}

// TestFaultRemovesView: a failed submit (out of device memory, or a lost device) or a lost
// device seen by a wait, with an Add pending, gives a *DeviceError matching its sentinel
// and removes the accelerator view: every later operation on it fails with the same
// sentinel (Earlier) and changes no data. The results that reached the host before stay,
// the pending Add's output keeps them (or holds the correct sum, never anything else), the
// inputs are unchanged, and after the view is closed a new view reads what the host holds
// and runs the Add correctly.
func TestFaultRemovesView(t *testing.T) {
	cases := []struct {
		name    string
		point   vk.FaultPoint
		result  int32
		mode    accelerator.QueuingMode
		is      error
		result_ string
	}{
		{"submit out of memory", vk.FaultSubmit, vk.ResultOutOfDeviceMemory, accelerator.Automatic, accelerator.ErrOutOfMemory, "VK_ERROR_OUT_OF_DEVICE_MEMORY"},
		{"submit device lost", vk.FaultSubmit, vk.ResultDeviceLost, accelerator.Automatic, accelerator.ErrDeviceLost, "VK_ERROR_DEVICE_LOST"},
		{"immediate submit device lost", vk.FaultSubmit, vk.ResultDeviceLost, accelerator.Immediate, accelerator.ErrDeviceLost, "VK_ERROR_DEVICE_LOST"},
		{"wait device lost", vk.FaultWait, vk.ResultDeviceLost, accelerator.Automatic, accelerator.ErrDeviceLost, "VK_ERROR_DEVICE_LOST"},
		{"immediate wait device lost", vk.FaultWait, vk.ResultDeviceLost, accelerator.Immediate, accelerator.ErrDeviceLost, "VK_ERROR_DEVICE_LOST"},
	}
	for _, acc := range vulkanAccelerators(t) {
		for _, c := range cases {
			t.Run(acc.Path()+"/"+c.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(amptest.Seed(t), 17))
				removeStep(t, acc, r, c.point, c.result, c.mode, c.is, c.result_)
			})
		}
	}
}

func removeStep(t *testing.T, acc *accelerator.Accelerator, r *rand.Rand, point vk.FaultPoint, result int32,
	mode accelerator.QueuingMode, is error, resultName string) {
	av, err := acc.CreateView(mode)
	require.NoError(t, err)
	a, b, out := randInt32s(r, faultN), randInt32s(r, faultN), randInt32s(r, faultN)
	ext := runtime.Ext(faultN)
	A, B, O := arrayview.MustNew(ext, a), arrayview.MustNew(ext, b), arrayview.MustNew(ext, out)
	defer func() {
		for _, v := range []*arrayview.View[int32]{A, B, O} {
			assert.NoError(t, v.Close())
		}
	}()
	// A first sum reaches the host before the fault.
	require.NoError(t, algo.Add(av, A, B, O))
	require.NoError(t, O.Synchronize())
	before := plus(a, b)
	require.Equal(t, before, out)
	// New inputs for the sum that meets it.
	copy(a, randInt32s(r, faultN))
	copy(b, randInt32s(r, faultN))
	A.Refresh()
	B.Refresh()
	in := [][]int32{slices.Clone(a), slices.Clone(b)}
	want := plus(a, b)

	f := vk.InjectFault(point, 0, result)
	err = algo.Add(av, A, B, O)
	if err == nil {
		err = O.Synchronize()
	}
	f.Disarm()
	require.True(t, f.Fired())
	requireDeviceError(t, err, av, is, resultName, true, false)
	intact := func(when string) {
		t.Helper()
		require.Equal(t, in, [][]int32{a, b}, "%s: inputs", when)
		if !slices.Equal(out, want) {
			require.Equal(t, before, out, "%s: the output holds the sum before or the new one", when)
		}
	}
	intact("after the fault")

	// Synchronize has nothing to do when the fault came before the output was bound (an
	// upload through the staging buffers submits); else it fails as everything below.
	if err := O.Synchronize(); err != nil {
		requireDeviceError(t, err, av, is, resultName, true, true)
	}
	intact("Synchronize")
	requireRemovedOps(t, av, A, B, O, is, resultName, intact)

	// Closing the view keeps what the host holds; a new view computes.
	require.NoError(t, av.Close())
	require.NoError(t, O.Synchronize())
	intact("after Close")
	av2, err := acc.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	// A kernel on the new view reads what the host holds for the output, never the lost
	// device copy's memory.
	held := slices.Clone(out)
	out2 := randInt32s(r, faultN)
	O2 := arrayview.MustNew(ext, out2)
	require.NoError(t, algo.Add(av2, O, A, O2))
	require.NoError(t, O2.Close())
	require.Equal(t, plus(held, a), out2, "the host's contents stand for the lost ones")
	require.NoError(t, algo.Add(av2, A, B, O))
	require.NoError(t, O.Synchronize())
	require.Equal(t, want, out)
	require.Equal(t, in, [][]int32{a, b})
	require.NoError(t, av2.Close())
}

// requireRemovedOps checks that every later operation on the removed view av fails the
// same way (a device error marked Earlier) and changes nothing (intact).
func requireRemovedOps(t *testing.T, av *accelerator.View, A, B, O *arrayview.View[int32], is error,
	resultName string, intact func(when string)) {
	t.Helper()
	ops := []struct {
		name string
		op   func() error
	}{
		{"Add", func() error { return algo.Add(av, A, B, O) }},
		{"Flush", av.Flush},
		{"Wait", av.Wait},
		{"Alloc", func() error { _, err := device.Of(av).Alloc(64); return err }},
		{"CreateMarker", func() error { _, err := av.CreateMarker(); return err }},
	}
	for _, o := range ops {
		err := o.op()
		require.Error(t, err, o.name)
		requireDeviceError(t, err, av, is, resultName, true, true)
		intact(o.name)
	}

}
