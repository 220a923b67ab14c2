package vk

import "unsafe"

// describe gathers what goamp needs to know of physical device index.
func (in *Instance) describe(index int) DeviceInfo {
	pd := in.phys[index]
	p := new(vkPhysicalDeviceProperties)
	in.fn.GetPhysicalDeviceProperties(pd, p)
	f := new(vkPhysicalDeviceFeatures)
	in.fn.GetPhysicalDeviceFeatures(pd, f)
	mp := new(vkPhysicalDeviceMemoryProperties)
	in.fn.GetPhysicalDeviceMemoryProperties(pd, mp)
	l := &p.limits
	d := DeviceInfo{
		Index:             index,
		Name:              goString(p.deviceName[:]),
		Type:              DeviceType(p.deviceType),
		VendorID:          p.vendorID,
		DeviceID:          p.deviceID,
		APIVersion:        p.apiVersion,
		DriverVersion:     p.driverVersion,
		PipelineCacheUUID: p.pipelineCacheUUID,
		Limits: Limits{
			MaxWorkgroupInvocations:  l.maxComputeWorkGroupInvocations,
			MaxWorkgroupSize:         l.maxComputeWorkGroupSize,
			MaxWorkgroupCount:        l.maxComputeWorkGroupCount,
			MaxSharedMemory:          l.maxComputeSharedMemorySize,
			MaxStorageBufferRange:    l.maxStorageBufferRange,
			MaxPushConstantsSize:     l.maxPushConstantsSize,
			MinStorageBufferAlign:    l.minStorageBufferOffsetAlignment,
			MaxMemoryAllocationCount: l.maxMemoryAllocationCount,
			TimestampPeriodNs:        l.timestampPeriod,
		},
		Float64:        f.shaderFloat64 == vkTrue,
		Int64:          f.shaderInt64 == vkTrue,
		Int16:          f.shaderInt16 == vkTrue,
		ComputeFamily:  -1,
		PushDescriptor: in.exts[index][vkKHRPushDescriptorExtensionName],
	}
	describeMemory(&d, mp)
	in.describeQueues(&d, pd)
	minor := (p.apiVersion >> 12) & 0x3ff
	if minor >= 1 {
		in.describeGroup(&d, pd)
		in.describeProperties2(&d, pd, minor)
	}
	if minor >= 2 {
		in.describeFeatures2(&d, pd)
	}
	return d
}

// describeMemory adds the device's memory heaps and types to d.
func describeMemory(d *DeviceInfo, mp *vkPhysicalDeviceMemoryProperties) {
	for _, h := range mp.memoryHeaps[:mp.memoryHeapCount] {
		d.Heaps = append(d.Heaps, MemoryHeap{Size: h.size, DeviceLocal: h.flags&vkMemoryHeapDeviceLocalBit != 0})
	}
	for _, t := range mp.memoryTypes[:mp.memoryTypeCount] {
		fl := t.propertyFlags
		d.MemoryTypes = append(d.MemoryTypes, MemoryType{
			Heap:         int(t.heapIndex),
			DeviceLocal:  fl&vkMemoryPropertyDeviceLocalBit != 0,
			HostVisible:  fl&vkMemoryPropertyHostVisibleBit != 0,
			HostCoherent: fl&vkMemoryPropertyHostCoherentBit != 0,
			HostCached:   fl&vkMemoryPropertyHostCachedBit != 0,
		})
	}
}

// describeQueues adds the device's compute queue family to d: one without graphics (a
// dedicated compute queue) where there is one, else any with compute; ComputeFamily stays
// -1 when there is none.
func (in *Instance) describeQueues(d *DeviceInfo, pd vkPhysicalDevice) {
	var n uint32
	in.fn.GetPhysicalDeviceQueueFamilyProperties(pd, &n, nil)
	if n == 0 {
		return
	}
	qf := make([]vkQueueFamilyProperties, n)
	in.fn.GetPhysicalDeviceQueueFamilyProperties(pd, &n, &qf[0])
	best := -1
	for i, q := range qf[:n] {
		if q.queueFlags&vkQueueComputeBit == 0 {
			continue
		}
		if best < 0 || (q.queueFlags&vkQueueGraphicsBit == 0 && qf[best].queueFlags&vkQueueGraphicsBit != 0) {
			best = i
		}
	}
	if best >= 0 {
		d.ComputeFamily = best
		d.ComputeQueues = int(qf[best].queueCount)
		d.Limits.TimestampValidBits = qf[best].timestampValidBits
	}
}

// describeGroup records the size of the device group pd belongs to (Vulkan 1.1's
// vkEnumeratePhysicalDeviceGroups): more than 1 where the driver links GPUs for peer memory.
func (in *Instance) describeGroup(d *DeviceInfo, pd vkPhysicalDevice) {
	var n uint32
	if in.fn.enumeratePhysicalDeviceGroups == 0 || in.fn.EnumeratePhysicalDeviceGroups(in.inst, &n, nil) != vkSuccess || n == 0 {
		return
	}
	g := make([]vkPhysicalDeviceGroupProperties, n)
	for i := range g {
		g[i].sType = vkStructureTypePhysicalDeviceGroupProperties
	}
	if in.fn.EnumeratePhysicalDeviceGroups(in.inst, &n, &g[0]) < 0 {
		return
	}
	for _, gr := range g[:n] {
		for _, p := range gr.physicalDevices[:gr.physicalDeviceCount] {
			if p == pd {
				d.GroupSize = int(gr.physicalDeviceCount)
			}
		}
	}
}

// describeProperties2 adds what vkGetPhysicalDeviceProperties2 says of pd (Vulkan 1.1;
// the driver's name and float controls from 1.2 on).
func (in *Instance) describeProperties2(d *DeviceInfo, pd vkPhysicalDevice, minor uint32) {
	if in.fn.getPhysicalDeviceProperties2 == 0 {
		return
	}
	q := new(struct {
		p2  vkPhysicalDeviceProperties2
		m3  vkPhysicalDeviceMaintenance3Properties
		sg  vkPhysicalDeviceSubgroupProperties
		id  vkPhysicalDeviceIDProperties
		drv vkPhysicalDeviceDriverProperties
		fc  vkPhysicalDeviceFloatControlsProperties
	})
	q.p2 = vkPhysicalDeviceProperties2{sType: vkStructureTypePhysicalDeviceProperties2, pNext: unsafe.Pointer(&q.m3)}
	q.m3 = vkPhysicalDeviceMaintenance3Properties{sType: vkStructureTypePhysicalDeviceMaintenance3Properties, pNext: unsafe.Pointer(&q.sg)}
	q.sg = vkPhysicalDeviceSubgroupProperties{sType: vkStructureTypePhysicalDeviceSubgroupProperties, pNext: unsafe.Pointer(&q.id)}
	q.id = vkPhysicalDeviceIDProperties{sType: vkStructureTypePhysicalDeviceIdProperties}
	q.drv = vkPhysicalDeviceDriverProperties{sType: vkStructureTypePhysicalDeviceDriverProperties, pNext: unsafe.Pointer(&q.fc)}
	q.fc = vkPhysicalDeviceFloatControlsProperties{sType: vkStructureTypePhysicalDeviceFloatControlsProperties}
	if minor >= 2 {
		q.id.pNext = unsafe.Pointer(&q.drv)
	}
	in.fn.GetPhysicalDeviceProperties2(pd, &q.p2)
	d.SubgroupSize = q.sg.subgroupSize
	d.SubgroupOps = SubgroupOps(q.sg.supportedOperations)
	d.Limits.MaxMemoryAllocationSize = q.m3.maxMemoryAllocationSize
	d.UUID = q.id.deviceUUID
	if minor >= 2 {
		d.DriverName = goString(q.drv.driverName[:])
		d.DriverInfo = goString(q.drv.driverInfo[:])
		d.SignedZeroInfNan = [3]bool{q.fc.shaderSignedZeroInfNanPreserveFloat16 != 0,
			q.fc.shaderSignedZeroInfNanPreserveFloat32 != 0, q.fc.shaderSignedZeroInfNanPreserveFloat64 != 0}
	}
}
