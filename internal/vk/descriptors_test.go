package vk

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDescriptorSets runs the iota program on every device with its buffers bound through
// a descriptor set instead of push descriptors (cmdDriver's calls for devices without
// VK_KHR_push_descriptor), twice from one pool reset in between, each time with other
// buffers and push constants, and checks every element.
func TestDescriptorSets(t *testing.T) {
	in := openTest(t)
	spv := iotaSPV(t)
	for _, info := range in.Devices() {
		t.Run(info.Name, func(t *testing.T) {
			dev, err := in.OpenDevice(info.Index, 1)
			require.NoError(t, err)
			defer dev.Close()
			p := &Pipeline{dev: dev, bindings: 2, pushSize: 8}
			require.NoError(t, p.create(spv, []uint32{64}))
			defer p.Destroy()
			d := newCmdDriver(dev)
			pool, r := d.createPool(uint32(info.ComputeFamily))
			require.NoError(t, check("vkCreateCommandPool", r))
			defer d.destroyPool(pool)
			sets, r := d.createDescriptorPool(1, 2)
			require.NoError(t, check("vkCreateDescriptorPool", r))
			defer d.destroyDescriptorPool(sets)
			for round := range 2 {
				if round > 0 {
					require.NoError(t, check("vkResetDescriptorPool", d.resetDescriptorPool(sets)))
				}
				runThroughSet(t, dev, d, pool, sets, p)
			}
		})
	}
}

// runThroughSet dispatches p once over fresh buffers of random data, bound through a set
// allocated from sets, and checks the result.
func runThroughSet(t *testing.T, dev *Device, d *cmdDriver, pool vkCommandPool, sets vkDescriptorPool, p *Pipeline) {
	const n = 777
	kind := MemUpload
	if dev.info.UnifiedMemory() {
		kind = MemShared
	}
	src, err := dev.NewBuffer(4*n, kind)
	require.NoError(t, err)
	defer src.Free()
	dst, err := dev.NewBuffer(4*n, kind)
	require.NoError(t, err)
	defer dst.Free()
	in := make([]uint32, n)
	for i := range in {
		in[i] = rand.Uint32N(1 << 20)
		binary.LittleEndian.PutUint32(src.Mapped()[4*i:], in[i])
	}
	scale := 2 + rand.Uint32N(5)
	push := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, n), scale)
	set, r := d.allocateDescriptorSet(sets, p.dsl)
	require.NoError(t, check("vkAllocateDescriptorSets", r))
	d.writeDescriptorSet(set, []Binding{{src, 0, 4 * n}, {dst, 0, 4 * n}})
	cb, r := d.allocCommandBuffer(pool)
	require.NoError(t, check("vkAllocateCommandBuffers", r))
	require.NoError(t, check("vkBeginCommandBuffer", d.begin(cb)))
	d.bindPipeline(cb, p.pipe)
	d.bindDescriptorSet(cb, p.layout, set)
	d.pushConstants(cb, p.layout, push)
	d.dispatch(cb, [3]uint32{(n + 63) / 64, 1, 1})
	fence, r := d.createFence()
	require.NoError(t, check("vkCreateFence", r))
	defer d.destroyFence(fence)
	q := dev.Queues()[0]
	q.mu.Lock()
	r = d.submit(q.q, cb, true, true, fence, 0, 0)
	q.mu.Unlock()
	require.NoError(t, check("vkQueueSubmit", r))
	require.NoError(t, check("vkWaitForFences", d.waitFence(fence, 5e9, new(batchWait))))
	for i := range n {
		require.Equal(t, in[i]*scale+uint32(i), binary.LittleEndian.Uint32(dst.Mapped()[4*i:]), "element %d", i)
	}
}
