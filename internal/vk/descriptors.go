package vk

import "unsafe"

// Descriptor sets, for devices without push descriptors (VK_KHR_push_descriptor): a pool
// of sets of storage buffers, a set allocated from it for a pipeline's set layout (one
// made without the push-descriptor flag), written with a dispatch's buffers and bound
// before it. Like the rest of cmdDriver's calls they allocate nothing.

// setScratch holds the structures of the descriptor-set calls.
type setScratch struct {
	alloc  vkDescriptorSetAllocateInfo
	layout vkDescriptorSetLayout
	set    vkDescriptorSet
}

// createDescriptorPool creates a pool of maxSets sets holding buffers storage-buffer
// descriptors in all. Its sets are freed only together (resetDescriptorPool).
func (d *cmdDriver) createDescriptorPool(maxSets, buffers uint32) (vkDescriptorPool, int32) {
	size := &vkDescriptorPoolSize{type_: vkDescriptorTypeStorageBuffer, descriptorCount: buffers}
	ci := &vkDescriptorPoolCreateInfo{sType: vkStructureTypeDescriptorPoolCreateInfo, maxSets: maxSets,
		poolSizeCount: 1, pPoolSizes: unsafe.Pointer(size)}
	var p vkDescriptorPool
	r := d.f.CreateDescriptorPool(d.dev, ci, nil, &p)
	return p, r
}

func (d *cmdDriver) destroyDescriptorPool(p vkDescriptorPool) {
	d.f.DestroyDescriptorPool(d.dev, p, nil)
}

// resetDescriptorPool frees every set of p; no batch that uses one may be in flight.
func (d *cmdDriver) resetDescriptorPool(p vkDescriptorPool) int32 {
	d.q.run()
	return d.f.ResetDescriptorPool(d.dev, p, 0)
}

// allocateDescriptorSet allocates a set of layout from p (VK_ERROR_OUT_OF_POOL_MEMORY
// or VK_ERROR_FRAGMENTED_POOL when p is full).
func (d *cmdDriver) allocateDescriptorSet(p vkDescriptorPool, layout vkDescriptorSetLayout) (vkDescriptorSet, int32) {
	d.q.run()
	s := &d.s.sets
	s.layout = layout
	s.alloc = vkDescriptorSetAllocateInfo{sType: vkStructureTypeDescriptorSetAllocateInfo, descriptorPool: p,
		descriptorSetCount: 1, pSetLayouts: unsafe.Pointer(&s.layout)}
	r := d.f.AllocateDescriptorSets(d.dev, &s.alloc, &s.set)
	return s.set, r
}

// writeDescriptorSet writes binds as the storage buffers 0, 1, ... of set, which no batch
// in flight may use.
func (d *cmdDriver) writeDescriptorSet(set vkDescriptorSet, binds []Binding) {
	d.q.run() // the commands recorded before it, which may bind the set, come first
	w := d.s.writes[:len(binds)]
	for i, b := range binds {
		d.s.infos[i] = vkDescriptorBufferInfo{buffer: b.Buffer.buf, offset: b.Offset, range_: b.Range}
		w[i].dstSet = set
	}
	d.f.UpdateDescriptorSets(d.dev, uint32(len(binds)), &w[0], 0, nil)
	for i := range w {
		w[i].dstSet = 0 // as push descriptors want them
	}
}

// bindDescriptorSet binds set as set 0 of layout for the dispatches recorded after it.
func (d *cmdDriver) bindDescriptorSet(cb vkCommandBuffer, layout vkPipelineLayout, set vkDescriptorSet) {
	p := (*vkDescriptorSet)(d.q.room(1))
	*p = set
	d.f.queueCmdBindDescriptorSets(d.q, cb, vkPipelineBindPointCompute, layout, 0, 1, p, 0, nil)
}
