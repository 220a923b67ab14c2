package vk

import "unsafe"

// cmdDriver is how a Stream calls Vulkan: the calls of the command path, in the stream's
// terms (record a barrier, push descriptors, submit a batch). The commands recorded into
// a command buffer are queued (callQueue) with the structures they take and made
// together when the buffer ends (or the queue fills): one call to C a batch. The other
// calls' structures are in memory of its own (cmdScratch). Both are allocated once on
// the heap, where the collector does not move them, so that no call allocates; the
// stream (stream.go) holds the policy and builds no Vulkan structure. (runtime.Pinner
// would make the collector throw when a stream that was never destroyed is collected.)
// A cmdDriver belongs to one stream and is used by its owner only; waits on a batch,
// which other goroutines make, take their structures from the batch (batchWait).
type cmdDriver struct {
	f   *deviceFuncs
	dev vkDevice
	s   *cmdScratch
	q   *callQueue // the commands recorded and not yet made
}

// cmdScratch holds the structures of the calls a cmdDriver makes.
type cmdScratch struct {
	infos  [32]vkDescriptorBufferInfo
	writes [32]vkWriteDescriptorSet
	begin  vkCommandBufferBeginInfo
	alloc  vkCommandBufferAllocateInfo
	submit vkSubmitInfo
	ts     vkTimelineSemaphoreSubmitInfo
	cb     vkCommandBuffer
	sem    vkSemaphore
	value  uint64
	fence  vkFence
	sets   setScratch
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
	d := &cmdDriver{f: dev.fn, dev: dev.dev, s: new(cmdScratch), q: newCallQueue()}
	s := d.s
	for i := range s.writes {
		s.writes[i] = vkWriteDescriptorSet{sType: vkStructureTypeWriteDescriptorSet, dstBinding: uint32(i),
			descriptorCount: 1, descriptorType: vkDescriptorTypeStorageBuffer, pBufferInfo: unsafe.Pointer(&s.infos[i])}
	}
	s.begin.sType = vkStructureTypeCommandBufferBeginInfo
	s.alloc = vkCommandBufferAllocateInfo{sType: vkStructureTypeCommandBufferAllocateInfo,
		level: vkCommandBufferLevelPrimary, commandBufferCount: 1}
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

// begin resets cb (which may still be recording, when its submission failed) and begins
// it, in one call to C. Not one-time: a stream may submit a small batch again without
// recording it (replay).
func (d *cmdDriver) begin(cb vkCommandBuffer) int32 {
	d.q.room(0)
	d.f.queueResetCommandBuffer(d.q, cb, 0)
	reset := d.q.last()
	d.q.room(0)
	d.f.queueBeginCommandBuffer(d.q, cb, &d.s.begin)
	begin := d.q.last()
	d.q.run()
	if r := d.q.result(reset); r != vkSuccess {
		return r
	}
	return d.q.result(begin)
}

// drop forgets the commands queued (a batch that will not be submitted).
func (d *cmdDriver) drop() { d.q.n, d.q.used = 0, 0 }

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

// The commands recorded into a command buffer, queued.

// memoryBarrier queues a memory barrier from the accesses src of the stages srcStages to
// the accesses dst of dstStages.
func (d *cmdDriver) memoryBarrier(cb vkCommandBuffer, srcStages, dstStages, src, dst uint32) {
	b := (*vkMemoryBarrier)(d.q.room(words[vkMemoryBarrier]()))
	*b = vkMemoryBarrier{sType: vkStructureTypeMemoryBarrier, srcAccessMask: src, dstAccessMask: dst}
	d.f.queueCmdPipelineBarrier(d.q, cb, srcStages, dstStages, 0, 1, b, 0, nil, 0, nil)
}

// barrier records a memory barrier: a full one with transfer, else a compute one.
func (d *cmdDriver) barrier(cb vkCommandBuffer, transfer bool) {
	if transfer {
		d.memoryBarrier(cb, computeStage|transferStage, computeStage|transferStage,
			shaderAccess|transferAccess, shaderAccess|transferAccess)
		return
	}
	d.memoryBarrier(cb, computeStage, computeStage, shaderAccess, shaderAccess)
}

func (d *cmdDriver) bindPipeline(cb vkCommandBuffer, p vkPipeline) {
	d.q.room(0)
	d.f.queueCmdBindPipeline(d.q, cb, vkPipelineBindPointCompute, p)
}

// pushDescriptors pushes binds as the storage buffers 0, 1, ... of layout's set 0.
func (d *cmdDriver) pushDescriptors(cb vkCommandBuffer, layout vkPipelineLayout, binds []Binding) {
	n := len(binds)
	wn, in := words[vkWriteDescriptorSet](), words[vkDescriptorBufferInfo]()
	mem := d.q.room(n * (wn + in))
	w := unsafe.Slice((*vkWriteDescriptorSet)(mem), n)
	info := unsafe.Slice((*vkDescriptorBufferInfo)(unsafe.Add(mem, 8*n*wn)), n)
	for i, b := range binds {
		info[i] = vkDescriptorBufferInfo{buffer: b.Buffer.buf, offset: b.Offset, range_: b.Range}
		w[i] = vkWriteDescriptorSet{sType: vkStructureTypeWriteDescriptorSet, dstBinding: uint32(i),
			descriptorCount: 1, descriptorType: vkDescriptorTypeStorageBuffer, pBufferInfo: unsafe.Pointer(&info[i])}
	}
	d.f.queueCmdPushDescriptorSetKHR(d.q, cb, vkPipelineBindPointCompute, layout, 0, uint32(n), &w[0])
}

func (d *cmdDriver) pushConstants(cb vkCommandBuffer, layout vkPipelineLayout, push []byte) {
	mem := d.q.room((len(push) + 7) / 8)
	copy(unsafe.Slice((*byte)(mem), len(push)), push)
	d.f.queueCmdPushConstants(d.q, cb, layout, vkShaderStageComputeBit, 0, uint32(len(push)), mem)
}

func (d *cmdDriver) dispatch(cb vkCommandBuffer, groups [3]uint32) {
	d.q.room(0)
	d.f.queueCmdDispatch(d.q, cb, groups[0], groups[1], groups[2])
}

func (d *cmdDriver) copyBuffer(cb vkCommandBuffer, src, dst vkBuffer, srcOff, dstOff, size uint64) {
	r := (*vkBufferCopy)(d.q.room(words[vkBufferCopy]()))
	*r = vkBufferCopy{srcOffset: srcOff, dstOffset: dstOff, size: size}
	d.f.queueCmdCopyBuffer(d.q, cb, src, dst, 1, r)
}

// timestamp writes query q of qp when the stages before stage (top or bottom of pipe)
// are done.
func (d *cmdDriver) timestamp(cb vkCommandBuffer, bottom bool, qp vkQueryPool, q uint32) {
	stage := int32(vkPipelineStageTopOfPipeBit)
	if bottom {
		stage = vkPipelineStageBottomOfPipeBit
	}
	d.q.room(0)
	d.f.queueCmdWriteTimestamp(d.q, cb, stage, qp, q)
}

// submit submits cb to q, signaling fence f or, when sem is not 0, timeline semaphore sem
// with value; with end it first closes cb (host: with a barrier that makes the batch's
// device writes available to the host, which reads mapped memory once the batch is seen
// finished). The commands queued, the end and the submission are made in one call to C.
// The caller serializes submissions to q.
func (d *cmdDriver) submit(q vkQueue, cb vkCommandBuffer, end, host bool, f vkFence, sem vkSemaphore, value uint64) int32 {
	endAt := -1
	if end {
		if host {
			d.memoryBarrier(cb, computeStage|transferStage, vkPipelineStageHostBit,
				vkAccessShaderWriteBit|vkAccessTransferWriteBit, vkAccessHostReadBit)
		}
		d.q.room(0)
		d.f.queueEndCommandBuffer(d.q, cb)
		endAt = d.q.last()
	}
	s := &d.s.submit
	d.s.cb = cb
	s.pNext, s.signalSemaphoreCount, s.pSignalSemaphores = nil, 0, nil
	if sem != 0 {
		d.s.sem, d.s.value = sem, value
		s.pNext, s.signalSemaphoreCount, s.pSignalSemaphores = unsafe.Pointer(&d.s.ts), 1, unsafe.Pointer(&d.s.sem)
	}
	d.q.room(0)
	d.f.queueQueueSubmit(d.q, q, 1, s, f)
	submitAt := d.q.last()
	d.q.run()
	if endAt >= 0 {
		if r := d.q.result(endAt); r != vkSuccess {
			return r // not submitted: the submission failed on a command buffer not closed
		}
	}
	return d.q.result(submitAt)
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
	d.q.room(0)
	d.f.queueCmdResetQueryPool(d.q, cb, qp, 0, count)
}

// queryResults reads the first len(out) timestamps of qp, waiting for them.
func (d *cmdDriver) queryResults(qp vkQueryPool, out []uint64) int32 {
	return d.f.GetQueryPoolResults(d.dev, qp, 0, uint32(len(out)), uintptr(8*len(out)), unsafe.Pointer(&out[0]), 8,
		vkQueryResult64Bit|vkQueryResultWaitBit)
}
