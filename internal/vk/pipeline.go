package vk

import (
	"fmt"
	"unsafe"
)

// Pipeline is a compute pipeline with a set layout of storage buffers: a push-descriptor
// one where the device pushes descriptors (Device.PushDescriptors).
type Pipeline struct {
	dev      *Device
	layout   vkPipelineLayout
	dsl      vkDescriptorSetLayout
	pipe     vkPipeline
	bindings int
	pushSize int
	// pushDescriptors: the set layout is a push-descriptor one (dispatches push their
	// buffers); otherwise buffers are bound through descriptor sets (descriptors.go).
	pushDescriptors bool
}

// NewPipeline builds a compute pipeline from SPIR-V with nbind storage-buffer bindings,
// pushSize bytes of push constants and the given specialization constants (IDs 0, 1, ...).
func (dev *Device) NewPipeline(spirv []byte, nbind, pushSize int, spec []uint32) (*Pipeline, error) {
	if len(spirv) == 0 || len(spirv)%4 != 0 {
		return nil, fmt.Errorf("goamp/vk: SPIR-V must be a non-empty multiple of 4 bytes, got %d", len(spirv))
	}
	if nbind > 32 || len(spec) > 16 {
		return nil, fmt.Errorf("goamp/vk: at most 32 bindings and 16 specialization constants (got %d, %d)", nbind, len(spec))
	}
	p := &Pipeline{dev: dev, bindings: nbind, pushSize: pushSize, pushDescriptors: dev.push}
	if err := p.create(spirv, spec); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Pipeline) create(spirv []byte, spec []uint32) error {
	dev, f := p.dev, p.dev.fn
	const op = "creating a compute pipeline"
	code := make([]uint32, len(spirv)/4) // SPIR-V words, aligned as Vulkan wants them
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&code[0])), len(spirv)), spirv)
	smci := &vkShaderModuleCreateInfo{sType: vkStructureTypeShaderModuleCreateInfo, codeSize: uintptr(len(spirv)),
		pCode: unsafe.Pointer(&code[0])}
	var mod vkShaderModule
	if r := f.CreateShaderModule(dev.dev, smci, nil, &mod); r != vkSuccess {
		return &Error{Op: op, Result: r}
	}
	defer f.DestroyShaderModule(dev.dev, mod, nil)
	if r := p.createLayout(); r != vkSuccess {
		return &Error{Op: op, Result: r}
	}
	var me [16]vkSpecializationMapEntry
	for i := range spec {
		me[i] = vkSpecializationMapEntry{constantID: uint32(i), offset: uint32(4 * i), size: 4}
	}
	cpci := &vkComputePipelineCreateInfo{sType: vkStructureTypeComputePipelineCreateInfo,
		stage: vkPipelineShaderStageCreateInfo{sType: vkStructureTypePipelineShaderStageCreateInfo,
			stage: vkShaderStageComputeBit, module: mod, pName: unsafe.Pointer(cString("main"))},
		layout: p.layout}
	if len(spec) > 0 {
		cpci.stage.pSpecializationInfo = unsafe.Pointer(&vkSpecializationInfo{mapEntryCount: uint32(len(spec)),
			pMapEntries: unsafe.Pointer(&me[0]), dataSize: uintptr(4 * len(spec)), pData: unsafe.Pointer(&spec[0])})
	}
	if r := f.CreateComputePipelines(dev.dev, dev.cache, 1, cpci, nil, &p.pipe); r != vkSuccess {
		f.DestroyPipelineLayout(dev.dev, p.layout, nil)
		f.DestroyDescriptorSetLayout(dev.dev, p.dsl, nil)
		return &Error{Op: op, Result: r}
	}
	return nil
}

// createLayout creates the pipeline's set layout of p.bindings storage buffers (a
// push-descriptor one with p.pushDescriptors) and its pipeline layout with p.pushSize
// bytes of push constants.
func (p *Pipeline) createLayout() int32 {
	dev, f := p.dev, p.dev.fn
	var b [32]vkDescriptorSetLayoutBinding
	for i := range p.bindings {
		b[i] = vkDescriptorSetLayoutBinding{binding: uint32(i), descriptorType: vkDescriptorTypeStorageBuffer,
			descriptorCount: 1, stageFlags: vkShaderStageComputeBit}
	}
	dci := &vkDescriptorSetLayoutCreateInfo{sType: vkStructureTypeDescriptorSetLayoutCreateInfo,
		bindingCount: uint32(p.bindings), pBindings: unsafe.Pointer(&b[0])}
	if p.pushDescriptors {
		dci.flags = vkDescriptorSetLayoutCreatePushDescriptorBitKHR
	}
	if r := f.CreateDescriptorSetLayout(dev.dev, dci, nil, &p.dsl); r != vkSuccess {
		return r
	}
	pcr := &vkPushConstantRange{stageFlags: vkShaderStageComputeBit, size: uint32(p.pushSize)}
	plci := &vkPipelineLayoutCreateInfo{sType: vkStructureTypePipelineLayoutCreateInfo,
		setLayoutCount: 1, pSetLayouts: unsafe.Pointer(&p.dsl)}
	if p.pushSize > 0 {
		plci.pushConstantRangeCount, plci.pPushConstantRanges = 1, unsafe.Pointer(pcr)
	}
	r := f.CreatePipelineLayout(dev.dev, plci, nil, &p.layout)
	if r != vkSuccess {
		f.DestroyDescriptorSetLayout(dev.dev, p.dsl, nil)
	}
	return r
}

// Destroy releases the pipeline.
func (p *Pipeline) Destroy() {
	if p.pipe == 0 {
		return
	}
	f := p.dev.fn
	f.DestroyPipeline(p.dev.dev, p.pipe, nil)
	f.DestroyPipelineLayout(p.dev.dev, p.layout, nil)
	f.DestroyDescriptorSetLayout(p.dev.dev, p.dsl, nil)
	p.pipe = 0
}

// Binding is a buffer range bound to one storage-buffer binding.
type Binding struct {
	Buffer *Buffer
	Offset uint64
	Range  uint64
}

// SetPipelineCache gives the device a pipeline cache filled from data (nil: empty), through
// which every later NewPipeline goes. A driver that refuses data (a cache of another
// device or driver) gets an empty cache instead; data should already have been checked
// (internal/pipecache), as drivers need not check more than the header. Call it before the
// device builds its first pipeline.
func (dev *Device) SetPipelineCache(data []byte) error {
	f := dev.fn
	if dev.cache != 0 {
		f.DestroyPipelineCache(dev.dev, dev.cache, nil)
		dev.cache = 0
	}
	ci := &vkPipelineCacheCreateInfo{sType: vkStructureTypePipelineCacheCreateInfo}
	if len(data) > 0 {
		ci.initialDataSize, ci.pInitialData = uintptr(len(data)), unsafe.Pointer(&data[0])
	}
	r := f.CreatePipelineCache(dev.dev, ci, nil, &dev.cache)
	if r != vkSuccess && len(data) > 0 {
		ci.initialDataSize, ci.pInitialData = 0, nil
		r = f.CreatePipelineCache(dev.dev, ci, nil, &dev.cache)
	}
	if r != vkSuccess {
		dev.cache = 0
	}
	return check("creating a pipeline cache", r)
}

// PipelineCacheData returns the contents of the device's pipeline cache (vkGetPipelineCacheData),
// nil when it has none. The caller serializes it with NewPipeline.
func (dev *Device) PipelineCacheData() ([]byte, error) {
	const op = "reading the pipeline cache"
	if dev.cache == 0 {
		return nil, nil
	}
	for {
		n := new(uintptr)
		if err := check(op, dev.fn.GetPipelineCacheData(dev.dev, dev.cache, n, nil)); err != nil || *n == 0 {
			return nil, err
		}
		data := make([]byte, *n)
		r := dev.fn.GetPipelineCacheData(dev.dev, dev.cache, n, unsafe.Pointer(&data[0]))
		if r == vkIncomplete { // the cache grew between the calls
			continue
		}
		if err := check(op, r); err != nil {
			return nil, err
		}
		return data[:*n], nil
	}
}
