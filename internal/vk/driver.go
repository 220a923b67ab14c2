package vk

import "unsafe"

// cmdDriver is how a Stream calls Vulkan: the calls of the command path, in the stream's
// terms (record a barrier, push descriptors, submit a batch). It keeps the structures
// those calls take in memory of its own (cmdScratch), allocated once on the heap, where
// the collector does not move it, so that no call allocates; the stream (stream.go)
// holds the policy and builds no Vulkan structure. (runtime.Pinner would make the
// collector throw when a stream that was never destroyed is collected.)
// A cmdDriver belongs to one stream and is used by its owner only; waits on a batch,
// which other goroutines make, take their structures from the batch (batchWait).
type cmdDriver struct {
	f   *deviceFuncs
	dev vkDevice
	s   *cmdScratch
}

// cmdScratch holds the structures of the calls a cmdDriver makes.
type cmdScratch struct {
	barrier vkMemoryBarrier
	infos   [32]vkDescriptorBufferInfo
	writes  [32]vkWriteDescriptorSet
	push    [256]byte
	region  vkBufferCopy
	begin   vkCommandBufferBeginInfo
	alloc   vkCommandBufferAllocateInfo
	submit  vkSubmitInfo
	ts      vkTimelineSemaphoreSubmitInfo
	cb      vkCommandBuffer
	sem     vkSemaphore
	value   uint64
	fence   vkFence
	sets    setScratch
}

// batchWait holds what a wait for one batch passes to Vulkan.
type batchWait struct {
	info    vkSemaphoreWaitInfo
	sem     vkSemaphore
	value   uint64
	counter uint64 // vkGetSemaphoreCounterValue's result
	fence   vkFence
}

func newCmdDriver(dev *Device) *cmdDriver {
	d := &cmdDriver{f: dev.fn, dev: dev.dev, s: new(cmdScratch)}
	s := d.s
	for i := range s.writes {
		s.writes[i] = vkWriteDescriptorSet{sType: vkStructureTypeWriteDescriptorSet, dstBinding: uint32(i),
			descriptorCount: 1, descriptorType: vkDescriptorTypeStorageBuffer, pBufferInfo: unsafe.Pointer(&s.infos[i])}
	}
	s.begin.sType = vkStructureTypeCommandBufferBeginInfo
	s.alloc = vkCommandBufferAllocateInfo{sType: vkStructureTypeCommandBufferAllocateInfo,
		level: vkCommandBufferLevelPrimary, commandBufferCount: 1}
	s.barrier.sType = vkStructureTypeMemoryBarrier
	s.ts = vkTimelineSemaphoreSubmitInfo{sType: vkStructureTypeTimelineSemaphoreSubmitInfo,
		signalSemaphoreValueCount: 1, pSignalSemaphoreValues: unsafe.Pointer(&s.value)}
	s.submit = vkSubmitInfo{sType: vkStructureTypeSubmitInfo, commandBufferCount: 1,
		pCommandBuffers: unsafe.Pointer(&s.cb)}
	return d
}

func (d *cmdDriver) createPool(family uint32) (vkCommandPool, int32) {
	ci := &vkCommandPoolCreateInfo{sType: vkStructureTypeCommandPoolCreateInfo,
		flags: vkCommandPoolCreateResetCommandBufferBit, queueFamilyIndex: family}
	var pool vkCommandPool
	r := d.f.CreateCommandPool(d.dev, ci, nil, &pool)
	return pool, r
}

func (d *cmdDriver) destroyPool(p vkCommandPool) { d.f.DestroyCommandPool(d.dev, p, nil) }

func (d *cmdDriver) allocCommandBuffer(pool vkCommandPool) (vkCommandBuffer, int32) {
	d.s.alloc.commandPool = pool
	r := d.f.AllocateCommandBuffers(d.dev, &d.s.alloc, &d.s.cb)
	return d.s.cb, r
}

// begin begins cb, which resets it (its pool lets command buffers be reset one by one).
// Not one-time: a stream may submit a small batch again without recording it (replay).
func (d *cmdDriver) begin(cb vkCommandBuffer) int32 {
	return d.f.BeginCommandBuffer(cb, &d.s.begin)
}

func (d *cmdDriver) createFence() (vkFence, int32) {
	ci := &vkFenceCreateInfo{sType: vkStructureTypeFenceCreateInfo}
	r := d.f.CreateFence(d.dev, ci, nil, &d.s.fence)
	return d.s.fence, r
}

func (d *cmdDriver) destroyFence(f vkFence) { d.f.DestroyFence(d.dev, f, nil) }

func (d *cmdDriver) resetFence(f vkFence) int32 {
	d.s.fence = f
	return d.f.ResetFences(d.dev, 1, &d.s.fence)
}

// createSemaphore creates a timeline semaphore.
func (d *cmdDriver) createSemaphore() (vkSemaphore, int32) {
	ti := &vkSemaphoreTypeCreateInfo{sType: vkStructureTypeSemaphoreTypeCreateInfo, semaphoreType: vkSemaphoreTypeTimeline}
	ci := &vkSemaphoreCreateInfo{sType: vkStructureTypeSemaphoreCreateInfo, pNext: unsafe.Pointer(ti)}
	r := d.f.CreateSemaphore(d.dev, ci, nil, &d.s.sem)
	return d.s.sem, r
}

func (d *cmdDriver) destroySemaphore(s vkSemaphore) { d.f.DestroySemaphore(d.dev, s, nil) }

// Barriers. A full barrier orders shader and transfer accesses both ways; a compute
// barrier (dispatch after dispatch) only shader accesses, which is lighter for the driver
// than one that also drains the transfer stage.
const (
	shaderAccess   = vkAccessShaderReadBit | vkAccessShaderWriteBit
	transferAccess = vkAccessTransferReadBit | vkAccessTransferWriteBit
	computeStage   = vkPipelineStageComputeShaderBit
	transferStage  = vkPipelineStageTransferBit
)

// barrier records a memory barrier: a full one with transfer, else a compute one.
func (d *cmdDriver) barrier(cb vkCommandBuffer, transfer bool) {
	b := &d.s.barrier
	stages := uint32(computeStage)
	b.srcAccessMask, b.dstAccessMask = shaderAccess, shaderAccess
	if transfer {
		b.srcAccessMask, b.dstAccessMask = shaderAccess|transferAccess, shaderAccess|transferAccess
		stages |= transferStage
	}
	d.f.CmdPipelineBarrier(cb, stages, stages, 0, 1, b, 0, nil, 0, nil)
}

func (d *cmdDriver) bindPipeline(cb vkCommandBuffer, p vkPipeline) {
	d.f.CmdBindPipeline(cb, vkPipelineBindPointCompute, p)
}

// pushDescriptors pushes binds as the storage buffers 0, 1, ... of layout's set 0.
func (d *cmdDriver) pushDescriptors(cb vkCommandBuffer, layout vkPipelineLayout, binds []Binding) {
	for i, b := range binds {
		d.s.infos[i] = vkDescriptorBufferInfo{buffer: b.Buffer.buf, offset: b.Offset, range_: b.Range}
	}
	d.f.CmdPushDescriptorSetKHR(cb, vkPipelineBindPointCompute, layout, 0, uint32(len(binds)), &d.s.writes[0])
}

func (d *cmdDriver) pushConstants(cb vkCommandBuffer, layout vkPipelineLayout, push []byte) {
	n := copy(d.s.push[:], push)
	d.f.CmdPushConstants(cb, layout, vkShaderStageComputeBit, 0, uint32(n), unsafe.Pointer(&d.s.push[0]))
}

func (d *cmdDriver) dispatch(cb vkCommandBuffer, groups [3]uint32) {
	d.f.CmdDispatch(cb, groups[0], groups[1], groups[2])
}

func (d *cmdDriver) copyBuffer(cb vkCommandBuffer, src, dst vkBuffer, srcOff, dstOff, size uint64) {
	d.s.region = vkBufferCopy{srcOffset: srcOff, dstOffset: dstOff, size: size}
	d.f.CmdCopyBuffer(cb, src, dst, 1, &d.s.region)
}

// timestamp writes query q of qp when the stages before stage (top or bottom of pipe)
// are done.
func (d *cmdDriver) timestamp(cb vkCommandBuffer, bottom bool, qp vkQueryPool, q uint32) {
	stage := int32(vkPipelineStageTopOfPipeBit)
	if bottom {
		stage = vkPipelineStageBottomOfPipeBit
	}
	d.f.CmdWriteTimestamp(cb, stage, qp, q)
}

// end closes cb; with host it first makes the batch's device writes available to the
// host, which reads mapped memory once the batch is seen finished.
func (d *cmdDriver) end(cb vkCommandBuffer, host bool) int32 {
	if host {
		b := &d.s.barrier
		b.srcAccessMask, b.dstAccessMask = vkAccessShaderWriteBit|vkAccessTransferWriteBit, vkAccessHostReadBit
		d.f.CmdPipelineBarrier(cb, computeStage|transferStage, vkPipelineStageHostBit, 0, 1, b, 0, nil, 0, nil)
	}
	return d.f.EndCommandBuffer(cb)
}

// submit submits cb to q, signaling fence f or, when sem is not 0, timeline semaphore sem
// with value. The caller serializes submissions to q.
func (d *cmdDriver) submit(q vkQueue, cb vkCommandBuffer, f vkFence, sem vkSemaphore, value uint64) int32 {
	s := &d.s.submit
	d.s.cb = cb
	s.pNext, s.signalSemaphoreCount, s.pSignalSemaphores = nil, 0, nil
	if sem != 0 {
		d.s.sem, d.s.value = sem, value
		s.pNext, s.signalSemaphoreCount, s.pSignalSemaphores = unsafe.Pointer(&d.s.ts), 1, unsafe.Pointer(&d.s.sem)
	}
	return d.f.QueueSubmit(q, 1, s, f)
}

// semaphoreValue reads sem's counter into w.counter.
func (d *cmdDriver) semaphoreValue(sem vkSemaphore, w *batchWait) int32 {
	return d.f.GetSemaphoreCounterValue(d.dev, sem, &w.counter)
}

// waitSemaphore waits up to timeout nanoseconds for sem to reach value.
func (d *cmdDriver) waitSemaphore(sem vkSemaphore, value, timeout uint64, w *batchWait) int32 {
	w.sem, w.value = sem, value
	w.info = vkSemaphoreWaitInfo{sType: vkStructureTypeSemaphoreWaitInfo, semaphoreCount: 1,
		pSemaphores: unsafe.Pointer(&w.sem), pValues: unsafe.Pointer(&w.value)}
	return d.f.WaitSemaphores(d.dev, &w.info, timeout)
}

func (d *cmdDriver) fenceStatus(f vkFence) int32 { return d.f.GetFenceStatus(d.dev, f) }

// waitFence waits up to timeout nanoseconds for f.
func (d *cmdDriver) waitFence(f vkFence, timeout uint64, w *batchWait) int32 {
	w.fence = f
	return d.f.WaitForFences(d.dev, 1, &w.fence, vkTrue, timeout)
}

func (d *cmdDriver) createQueryPool(count uint32) (vkQueryPool, int32) {
	ci := &vkQueryPoolCreateInfo{sType: vkStructureTypeQueryPoolCreateInfo, queryType: vkQueryTypeTimestamp,
		queryCount: count}
	var qp vkQueryPool
	r := d.f.CreateQueryPool(d.dev, ci, nil, &qp)
	return qp, r
}

func (d *cmdDriver) destroyQueryPool(qp vkQueryPool) { d.f.DestroyQueryPool(d.dev, qp, nil) }

func (d *cmdDriver) resetQueries(cb vkCommandBuffer, qp vkQueryPool, count uint32) {
	d.f.CmdResetQueryPool(cb, qp, 0, count)
}

// queryResults reads the first len(out) timestamps of qp, waiting for them.
func (d *cmdDriver) queryResults(qp vkQueryPool, out []uint64) int32 {
	return d.f.GetQueryPoolResults(d.dev, qp, 0, uint32(len(out)), uintptr(8*len(out)), unsafe.Pointer(&out[0]), 8,
		vkQueryResult64Bit|vkQueryResultWaitBit)
}
