package vk

import (
	"fmt"
	"unsafe"
)

// Buffer is a VkBuffer with its own memory, mapped when host visible.
type Buffer struct {
	dev    *Device
	buf    vkBuffer
	mem    vkDeviceMemory
	size   uint64
	mapped []byte
	kind   MemKind
	pinned []byte // ImportHost: the host memory the buffer is (nil for NewBuffer's)
}

// Memory property bits a buffer's memory type is chosen by.
const (
	deviceLocal  = vkMemoryPropertyDeviceLocalBit
	hostVisible  = vkMemoryPropertyHostVisibleBit
	hostCoherent = vkMemoryPropertyHostCoherentBit
	hostCached   = vkMemoryPropertyHostCachedBit
)

// NewBuffer allocates a storage buffer of size bytes in memory of the given kind. A
// MemDevice buffer is never mapped (Mapped is nil), even in host-visible memory.
func (dev *Device) NewBuffer(size uint64, kind MemKind) (*Buffer, error) {
	if size == 0 {
		size = 4
	}
	var want, avoid uint32
	switch kind {
	case MemDevice:
		want, avoid = deviceLocal, hostVisible
	case MemUpload:
		want, avoid = hostVisible|hostCoherent, deviceLocal
	case MemDownload:
		want, avoid = hostVisible|hostCached, deviceLocal
	case MemShared:
		want = deviceLocal | hostVisible | hostCoherent
	}
	op := fmt.Sprintf("allocating a %d-byte buffer", size)
	if r, ok := fault(FaultAlloc); ok {
		return nil, &Error{Op: op, Result: r}
	}
	b := &Buffer{dev: dev, size: size, kind: kind}
	ptr, r := dev.allocate(b, want, avoid)
	if r == vkErrorFeatureNotPresent && kind == MemDownload {
		// No cached host memory: coherent will do.
		ptr, r = dev.allocate(b, hostVisible|hostCoherent, 0)
	}
	if err := check(op, r); err != nil {
		return nil, err
	}
	// MemDevice memory is never accessed through a mapping, even where it is host visible
	// (lavapipe, resizable BAR): its data moves by staging copies.
	if ptr != nil && kind != MemDevice {
		b.mapped = unsafe.Slice((*byte)(ptr), size)
	}
	dev.inUse.Add(size)
	return b, nil
}

// allocate creates b's buffer and memory, of a memory type with the properties in want and
// preferably none of those in avoid, and maps it when it is host visible.
func (dev *Device) allocate(b *Buffer, want, avoid uint32) (unsafe.Pointer, int32) {
	f := dev.fn
	bci := &vkBufferCreateInfo{sType: vkStructureTypeBufferCreateInfo, size: b.size,
		usage:       vkBufferUsageStorageBufferBit | vkBufferUsageTransferSrcBit | vkBufferUsageTransferDstBit,
		sharingMode: vkSharingModeExclusive}
	if r := f.CreateBuffer(dev.dev, bci, nil, &b.buf); r != vkSuccess {
		return nil, r
	}
	req := new(vkMemoryRequirements)
	f.GetBufferMemoryRequirements(dev.dev, b.buf, req)
	chosen := -1
	// First pass: all wanted properties and none of the avoided ones; second: wanted only.
	for pass := 0; pass < 2 && chosen < 0; pass++ {
		for i, t := range dev.memory.memoryTypes[:dev.memory.memoryTypeCount] {
			fl := t.propertyFlags
			if req.memoryTypeBits&(1<<i) != 0 && fl&want == want && (pass == 1 || fl&avoid == 0) {
				chosen = i
				break
			}
		}
	}
	if chosen < 0 {
		f.DestroyBuffer(dev.dev, b.buf, nil)
		return nil, vkErrorFeatureNotPresent
	}
	mai := &vkMemoryAllocateInfo{sType: vkStructureTypeMemoryAllocateInfo, allocationSize: req.size,
		memoryTypeIndex: uint32(chosen)}
	if r := f.AllocateMemory(dev.dev, mai, nil, &b.mem); r != vkSuccess {
		f.DestroyBuffer(dev.dev, b.buf, nil)
		return nil, r
	}
	r := f.BindBufferMemory(dev.dev, b.buf, b.mem, 0)
	ptr := new(unsafe.Pointer)
	if r == vkSuccess && dev.memory.memoryTypes[chosen].propertyFlags&hostVisible != 0 {
		r = f.MapMemory(dev.dev, b.mem, 0, vkWholeSize, 0, unsafe.Pointer(ptr))
	}
	if r != vkSuccess {
		f.DestroyBuffer(dev.dev, b.buf, nil)
		f.FreeMemory(dev.dev, b.mem, nil)
		return nil, r
	}
	return *ptr, vkSuccess
}

// Mapped is the host mapping of the buffer, or nil when its memory is not host visible.
func (b *Buffer) Mapped() []byte { return b.mapped }

// Free releases the buffer. The caller makes sure no pending work uses it.
func (b *Buffer) Free() {
	if b.buf == 0 {
		return
	}
	if b.pinned == nil {
		b.dev.inUse.Add(^(b.size - 1)) // minus size
	}
	b.dev.fn.DestroyBuffer(b.dev.dev, b.buf, nil)
	b.dev.fn.FreeMemory(b.dev.dev, b.mem, nil)
	b.buf, b.mem, b.mapped, b.pinned = 0, 0, nil, nil
}

// HostImportAlign is the device's minImportedHostPointerAlignment where it has
// VK_EXT_external_memory_host (enabled at device creation), else 0: ImportHost takes
// memory whose address and length are multiples of it.
func (dev *Device) HostImportAlign() uint64 { return dev.hostImportAlign }

// ImportHost makes a transfer buffer (a source or destination of Stream.Copy, never bound
// to a kernel) whose memory is p itself, through VK_EXT_external_memory_host: the device
// reads and writes p's pages directly. p's address and length must be multiples of
// HostImportAlign (else an *Error with VK_ERROR_INVALID_EXTERNAL_HANDLE). The caller
// touches p from the host only while no copy uses it, until it frees the buffer; Free
// ends the import (the device no longer refers to p). The buffer keeps p alive, and Go's
// collector does not move heap objects, so p stays at its address until then.
func (dev *Device) ImportHost(p []byte) (*Buffer, error) {
	op := fmt.Sprintf("importing %d bytes of host memory", len(p))
	a := dev.HostImportAlign()
	if a == 0 {
		return nil, &Error{Op: op, Result: vkErrorExtensionNotPresent}
	}
	ptr := unsafe.Pointer(unsafe.SliceData(p))
	if len(p) == 0 || uint64(uintptr(ptr))%a != 0 || uint64(len(p))%a != 0 {
		return nil, &Error{Op: op + fmt.Sprintf(" (address %#x; both must be multiples of %d)", uintptr(ptr), a),
			Result: vkErrorInvalidExternalHandle}
	}
	if r, ok := fault(FaultAlloc); ok {
		return nil, &Error{Op: op, Result: r}
	}
	b := &Buffer{dev: dev, size: uint64(len(p)), kind: MemDownload, pinned: p}
	if err := check(op, dev.importHost(b, ptr)); err != nil {
		return nil, err
	}
	return b, nil
}

// importHost creates b's buffer and memory from the b.size bytes at ptr.
func (dev *Device) importHost(b *Buffer, ptr unsafe.Pointer) int32 {
	const ht = vkExternalMemoryHandleTypeHostAllocationBitEXT
	f := dev.fn
	hp := &vkMemoryHostPointerPropertiesEXT{sType: vkStructureTypeMemoryHostPointerPropertiesEXT}
	if r := f.GetMemoryHostPointerPropertiesEXT(dev.dev, ht, ptr, hp); r != vkSuccess {
		return r
	}
	ext := &vkExternalMemoryBufferCreateInfo{sType: vkStructureTypeExternalMemoryBufferCreateInfo, handleTypes: ht}
	bci := &vkBufferCreateInfo{sType: vkStructureTypeBufferCreateInfo, pNext: unsafe.Pointer(ext), size: b.size,
		usage: vkBufferUsageTransferSrcBit | vkBufferUsageTransferDstBit, sharingMode: vkSharingModeExclusive}
	if r := f.CreateBuffer(dev.dev, bci, nil, &b.buf); r != vkSuccess {
		return r
	}
	req := new(vkMemoryRequirements)
	f.GetBufferMemoryRequirements(dev.dev, b.buf, req)
	bits := req.memoryTypeBits & hp.memoryTypeBits
	if bits == 0 || req.size > b.size {
		f.DestroyBuffer(dev.dev, b.buf, nil)
		return vkErrorFeatureNotPresent
	}
	// Prefer host-coherent memory: the host writes the pages without flushes.
	typ := -1
	for i, t := range dev.memory.memoryTypes[:dev.memory.memoryTypeCount] {
		if bits&(1<<i) == 0 {
			continue
		}
		if typ < 0 {
			typ = i
		}
		if t.propertyFlags&(hostVisible|hostCoherent) == hostVisible|hostCoherent {
			typ = i
			break
		}
	}
	imp := &vkImportMemoryHostPointerInfoEXT{sType: vkStructureTypeImportMemoryHostPointerInfoEXT,
		handleType: ht, pHostPointer: ptr}
	mai := &vkMemoryAllocateInfo{sType: vkStructureTypeMemoryAllocateInfo, pNext: unsafe.Pointer(imp),
		allocationSize: b.size, memoryTypeIndex: uint32(typ)}
	if r := f.AllocateMemory(dev.dev, mai, nil, &b.mem); r != vkSuccess {
		f.DestroyBuffer(dev.dev, b.buf, nil)
		return r
	}
	r := f.BindBufferMemory(dev.dev, b.buf, b.mem, 0)
	if r != vkSuccess {
		f.DestroyBuffer(dev.dev, b.buf, nil)
		f.FreeMemory(dev.dev, b.mem, nil)
	}
	return r
}

// Pins reports whether the buffer is ImportHost's import of exactly the memory of q.
func (b *Buffer) Pins(q []byte) bool {
	return b.pinned != nil && len(q) == len(b.pinned) && unsafe.SliceData(q) == unsafe.SliceData(b.pinned)
}
