package vk

import "unsafe"

// featureQuery is the chain of feature structures that vkGetPhysicalDeviceFeatures2 fills
// and vkCreateDevice enables: timeline semaphores, half precision, 8-bit values, the
// memory model and cooperative matrices.
type featureQuery struct {
	f2      vkPhysicalDeviceFeatures2
	tf      vkPhysicalDeviceTimelineSemaphoreFeatures
	s8      vkPhysicalDevice8BitStorageFeatures
	s16     vkPhysicalDevice16BitStorageFeatures
	f16     vkPhysicalDeviceShaderFloat16Int8Features
	mm      vkPhysicalDeviceVulkanMemoryModelFeatures
	coop    vkPhysicalDeviceCooperativeMatrixFeaturesNV
	coopKHR vkPhysicalDeviceCooperativeMatrixFeaturesKHR
}

// chain links q's structures, the cooperative-matrix ones only where asked (their
// extensions are present), and returns the head after f2.
func (q *featureQuery) chain(timeline, half, coopNV, coopKHR bool) unsafe.Pointer {
	var next unsafe.Pointer
	link := func(sType *int32, pNext *unsafe.Pointer, st int32, self unsafe.Pointer) {
		*sType, *pNext = st, next
		next = self
	}
	if coopKHR {
		link(&q.coopKHR.sType, &q.coopKHR.pNext, vkStructureTypePhysicalDeviceCooperativeMatrixFeaturesKHR, unsafe.Pointer(&q.coopKHR))
	}
	if coopNV {
		link(&q.coop.sType, &q.coop.pNext, vkStructureTypePhysicalDeviceCooperativeMatrixFeaturesNV, unsafe.Pointer(&q.coop))
	}
	if half {
		link(&q.mm.sType, &q.mm.pNext, vkStructureTypePhysicalDeviceVulkanMemoryModelFeatures, unsafe.Pointer(&q.mm))
		link(&q.f16.sType, &q.f16.pNext, vkStructureTypePhysicalDeviceShaderFloat16Int8Features, unsafe.Pointer(&q.f16))
		link(&q.s16.sType, &q.s16.pNext, vkStructureTypePhysicalDevice16bitStorageFeatures, unsafe.Pointer(&q.s16))
		link(&q.s8.sType, &q.s8.pNext, vkStructureTypePhysicalDevice8bitStorageFeatures, unsafe.Pointer(&q.s8))
	}
	if timeline {
		link(&q.tf.sType, &q.tf.pNext, vkStructureTypePhysicalDeviceTimelineSemaphoreFeatures, unsafe.Pointer(&q.tf))
	}
	return next
}

// describeFeatures2 adds what vkGetPhysicalDeviceFeatures2 says of pd (Vulkan 1.2), with
// the device's cooperative-matrix shapes where it has the features.
func (in *Instance) describeFeatures2(d *DeviceInfo, pd vkPhysicalDevice) {
	if in.fn.getPhysicalDeviceFeatures2 == 0 {
		return
	}
	exts := in.exts[d.Index]
	hasNV, hasKHR := exts[vkNVCooperativeMatrixExtensionName], exts[vkKHRCooperativeMatrixExtensionName]
	q := new(featureQuery)
	q.f2 = vkPhysicalDeviceFeatures2{sType: vkStructureTypePhysicalDeviceFeatures2, pNext: q.chain(true, true, hasNV, hasKHR)}
	in.fn.GetPhysicalDeviceFeatures2(pd, &q.f2)
	d.TimelineSemaphore = q.tf.timelineSemaphore != 0
	d.Storage16, d.Float16 = q.s16.storageBuffer16BitAccess != 0, q.f16.shaderFloat16 != 0
	d.Storage8, d.Int8 = q.s8.storageBuffer8BitAccess != 0, q.f16.shaderInt8 != 0
	d.MemoryModel = q.mm.vulkanMemoryModel != 0 && q.mm.vulkanMemoryModelDeviceScope != 0
	if !d.MemoryModel {
		return
	}
	if hasNV && q.coop.cooperativeMatrix != 0 {
		d.CoopMatrixNV = in.coopShapesNV(pd)
	}
	if hasKHR && q.coopKHR.cooperativeMatrix != 0 {
		d.CoopMatrixKHR = in.coopShapesKHR(pd)
	}
}

// maxCoopShapes bounds the cooperative-matrix shapes kept of a device.
const maxCoopShapes = 16

func (in *Instance) coopShapesNV(pd vkPhysicalDevice) []CoopMatrix {
	var n uint32
	if in.fn.getPhysicalDeviceCooperativeMatrixPropertiesNV == 0 ||
		in.fn.GetPhysicalDeviceCooperativeMatrixPropertiesNV(pd, &n, nil) != vkSuccess || n == 0 {
		return nil
	}
	p := make([]vkCooperativeMatrixPropertiesNV, n)
	for i := range p {
		p[i].sType = vkStructureTypeCooperativeMatrixPropertiesNV
	}
	if in.fn.GetPhysicalDeviceCooperativeMatrixPropertiesNV(pd, &n, &p[0]) < 0 {
		return nil
	}
	var out []CoopMatrix
	for _, c := range p[:min(n, maxCoopShapes)] {
		out = append(out, CoopMatrix{M: c.MSize, N: c.NSize, K: c.KSize, A: ComponentType(c.AType),
			B: ComponentType(c.BType), C: ComponentType(c.CType), D: ComponentType(c.DType),
			SubgroupScope: c.scope == vkScopeSubgroupNV})
	}
	return out
}

func (in *Instance) coopShapesKHR(pd vkPhysicalDevice) []CoopMatrix {
	var n uint32
	if in.fn.getPhysicalDeviceCooperativeMatrixPropertiesKHR == 0 ||
		in.fn.GetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, nil) != vkSuccess || n == 0 {
		return nil
	}
	p := make([]vkCooperativeMatrixPropertiesKHR, n)
	for i := range p {
		p[i].sType = vkStructureTypeCooperativeMatrixPropertiesKHR
	}
	if in.fn.GetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, &p[0]) < 0 {
		return nil
	}
	var out []CoopMatrix
	for _, c := range p[:min(n, maxCoopShapes)] {
		out = append(out, CoopMatrix{M: c.MSize, N: c.NSize, K: c.KSize, A: ComponentType(c.AType),
			B: ComponentType(c.BType), C: ComponentType(c.CType), D: ComponentType(c.ResultType),
			SubgroupScope: c.scope == vkScopeSubgroupNV})
	}
	return out
}
