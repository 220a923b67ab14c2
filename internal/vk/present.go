package vk

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrOutOfDate reports a swapchain that no longer matches its surface (the window was
// resized or minimized): make a new one (NewSwapchain).
var ErrOutOfDate = errors.New("goamp/vk: the swapchain is out of date")

// Surface is a window's VkSurfaceKHR.
type Surface struct {
	in *Instance
	s  vkSurfaceKHR
}

// Handle is the instance's VkInstance, for a library that makes a window's surface on it
// (GLFW's glfwCreateWindowSurface, which picks the window system's surface extension).
func (in *Instance) Handle() uintptr { return uintptr(in.inst) }

// AdoptSurface takes the VkSurfaceKHR s, which other code made on this instance (see
// Handle): Destroy destroys it. The instance must have been opened with VK_KHR_surface
// (Options.InstanceExtensions).
func (in *Instance) AdoptSurface(s uint64) (*Surface, error) {
	if !in.surface {
		return nil, fmt.Errorf("goamp/vk: the instance was opened without VK_KHR_surface (Options.InstanceExtensions)")
	}
	return &Surface{in: in, s: vkSurfaceKHR(s)}, nil
}

// Destroy destroys the surface; its swapchains must be destroyed first.
func (s *Surface) Destroy() {
	if s.s != 0 && s.in.fn.destroySurfaceKHR != 0 {
		s.in.fn.DestroySurfaceKHR(s.in.inst, s.s, nil)
	}
	s.s = 0
}

// CanPresent reports whether the device's queues (its compute family) can present to s,
// and the device was opened with VK_KHR_swapchain.
func (dev *Device) CanPresent(s *Surface) bool {
	f := &dev.in.fn
	if !dev.swapchain || f.getPhysicalDeviceSurfaceSupportKHR == 0 {
		return false
	}
	ok := new(uint32)
	r := f.GetPhysicalDeviceSurfaceSupportKHR(dev.phys, uint32(dev.info.ComputeFamily), s.s, ok)
	return r == vkSuccess && *ok == vkTrue
}

// Frames in flight: each has a command buffer, a fence and an acquire semaphore.
const framesInFlight = 2

// Swapchain is a swapchain of a surface on a device whose queues can present to it
// (CanPresent). Present copies a buffer into its next image and presents it.
type Swapchain struct {
	dev    *Device
	sc     vkSwapchainKHR
	format int32
	extent vkExtent2D
	images []vkImage
	done   []vkSemaphore // per image: the copy signals it, presentation waits for it
	pool   vkCommandPool
	cb     [framesInFlight]vkCommandBuffer
	fence  [framesInFlight]vkFence
	acq    [framesInFlight]vkSemaphore
	frame  int
}

// NewSwapchain makes a swapchain of s with images of width x height (or the surface's own
// size, when it has one: see Size), in B8G8R8A8 or R8G8B8A8 UNORM (see BGRA). It returns
// ErrOutOfDate when the surface has no area (a minimized window).
func (dev *Device) NewSwapchain(s *Surface, width, height int) (*Swapchain, error) {
	if !dev.CanPresent(s) {
		return nil, fmt.Errorf("goamp/vk: %s cannot present to the window (queue family %d)", dev.info.Name, dev.info.ComputeFamily)
	}
	if width < 1 || height < 1 {
		return nil, fmt.Errorf("goamp/vk: a %dx%d swapchain", width, height)
	}
	f := &dev.in.fn
	c := new(vkSurfaceCapabilitiesKHR)
	if err := check("creating a swapchain", f.GetPhysicalDeviceSurfaceCapabilitiesKHR(dev.phys, s.s, c)); err != nil {
		return nil, err
	}
	if c.supportedUsageFlags&vkImageUsageTransferDstBit == 0 {
		return nil, &Error{Op: "creating a swapchain", Result: vkErrorFeatureNotPresent}
	}
	sc := &Swapchain{dev: dev, format: surfaceFormat(dev, s), extent: c.currentExtent}
	if sc.format == vkFormatUndefined {
		return nil, &Error{Op: "creating a swapchain", Result: vkErrorFormatNotSupported}
	}
	if c.currentExtent.width == 0xFFFFFFFF {
		sc.extent = vkExtent2D{width: clamp(uint32(width), c.minImageExtent.width, c.maxImageExtent.width),
			height: clamp(uint32(height), c.minImageExtent.height, c.maxImageExtent.height)}
	}
	if sc.extent.width == 0 || sc.extent.height == 0 {
		return nil, ErrOutOfDate // minimized
	}
	if err := check("creating a swapchain", sc.create(s, c)); err != nil {
		sc.Destroy()
		return nil, err
	}
	return sc, nil
}

func clamp(v, lo, hi uint32) uint32 { return max(lo, min(v, hi)) }

// surfaceFormat picks B8G8R8A8_UNORM, else R8G8B8A8_UNORM (sRGB non-linear colour
// space), else VK_FORMAT_UNDEFINED.
func surfaceFormat(dev *Device, s *Surface) int32 {
	f := &dev.in.fn
	n := new(uint32)
	if f.GetPhysicalDeviceSurfaceFormatsKHR(dev.phys, s.s, n, nil) != vkSuccess || *n == 0 {
		return vkFormatUndefined
	}
	fs := make([]vkSurfaceFormatKHR, *n)
	f.GetPhysicalDeviceSurfaceFormatsKHR(dev.phys, s.s, n, &fs[0])
	got := int32(vkFormatUndefined)
	for _, sf := range fs[:*n] {
		if sf.colorSpace != vkColorSpaceSrgbNonlinearKHR {
			continue
		}
		if sf.format == vkFormatB8g8r8a8Unorm || sf.format == vkFormatR8g8b8a8Unorm && got == vkFormatUndefined {
			got = sf.format
		}
	}
	return got
}

// create makes the swapchain of images that transfers write (the frame is copied into
// them), and the objects presenting takes.
func (sc *Swapchain) create(s *Surface, c *vkSurfaceCapabilitiesKHR) int32 {
	d := sc.dev
	n := max(c.minImageCount, 2)
	if c.maxImageCount != 0 {
		n = min(n, c.maxImageCount)
	}
	alpha := uint32(vkCompositeAlphaOpaqueBitKHR)
	if c.supportedCompositeAlpha&alpha == 0 {
		alpha = c.supportedCompositeAlpha & -c.supportedCompositeAlpha
	}
	ci := &vkSwapchainCreateInfoKHR{sType: vkStructureTypeSwapchainCreateInfoKHR, surface: s.s,
		minImageCount: n, imageFormat: sc.format, imageColorSpace: vkColorSpaceSrgbNonlinearKHR,
		imageExtent: sc.extent, imageArrayLayers: 1, imageUsage: vkImageUsageTransferDstBit,
		imageSharingMode: vkSharingModeExclusive, preTransform: c.currentTransform,
		compositeAlpha: int32(alpha), presentMode: vkPresentModeFifoKHR, clipped: vkTrue}
	if r := d.fn.CreateSwapchainKHR(d.dev, ci, nil, &sc.sc); r != vkSuccess {
		return r
	}
	cnt := new(uint32)
	if r := d.fn.GetSwapchainImagesKHR(d.dev, sc.sc, cnt, nil); r != vkSuccess {
		return r
	}
	sc.images = make([]vkImage, *cnt)
	if r := d.fn.GetSwapchainImagesKHR(d.dev, sc.sc, cnt, &sc.images[0]); r != vkSuccess {
		return r
	}
	si := &vkSemaphoreCreateInfo{sType: vkStructureTypeSemaphoreCreateInfo}
	sc.done = make([]vkSemaphore, len(sc.images))
	for i := range sc.done {
		if r := d.fn.CreateSemaphore(d.dev, si, nil, &sc.done[i]); r != vkSuccess {
			return r
		}
	}
	return sc.createFrames(si)
}

// createFrames makes each frame in flight's command buffer, fence and semaphore.
func (sc *Swapchain) createFrames(si *vkSemaphoreCreateInfo) int32 {
	d := sc.dev
	pi := &vkCommandPoolCreateInfo{sType: vkStructureTypeCommandPoolCreateInfo,
		flags: vkCommandPoolCreateResetCommandBufferBit, queueFamilyIndex: uint32(d.info.ComputeFamily)}
	if r := d.fn.CreateCommandPool(d.dev, pi, nil, &sc.pool); r != vkSuccess {
		return r
	}
	ai := &vkCommandBufferAllocateInfo{sType: vkStructureTypeCommandBufferAllocateInfo, commandPool: sc.pool,
		level: vkCommandBufferLevelPrimary, commandBufferCount: framesInFlight}
	if r := d.fn.AllocateCommandBuffers(d.dev, ai, &sc.cb[0]); r != vkSuccess {
		return r
	}
	fi := &vkFenceCreateInfo{sType: vkStructureTypeFenceCreateInfo, flags: vkFenceCreateSignaledBit}
	for i := range framesInFlight {
		if r := d.fn.CreateFence(d.dev, fi, nil, &sc.fence[i]); r != vkSuccess {
			return r
		}
		if r := d.fn.CreateSemaphore(d.dev, si, nil, &sc.acq[i]); r != vkSuccess {
			return r
		}
	}
	return vkSuccess
}

// Size returns the images' width and height in pixels.
func (sc *Swapchain) Size() (width, height int) { return int(sc.extent.width), int(sc.extent.height) }

// BGRA reports whether the images are B8G8R8A8 (blue in the lowest byte of a texel);
// otherwise they are R8G8B8A8.
func (sc *Swapchain) BGRA() bool { return sc.format == vkFormatB8g8r8a8Unorm }

// Destroy waits for the device to go idle and destroys the swapchain.
func (sc *Swapchain) Destroy() {
	d := sc.dev
	if d == nil {
		return
	}
	d.fn.DeviceWaitIdle(d.dev)
	for _, s := range sc.done {
		if s != 0 {
			d.fn.DestroySemaphore(d.dev, s, nil)
		}
	}
	for i := range framesInFlight {
		if sc.acq[i] != 0 {
			d.fn.DestroySemaphore(d.dev, sc.acq[i], nil)
		}
		if sc.fence[i] != 0 {
			d.fn.DestroyFence(d.dev, sc.fence[i], nil)
		}
	}
	if sc.pool != 0 {
		d.fn.DestroyCommandPool(d.dev, sc.pool, nil)
	}
	if sc.sc != 0 {
		d.fn.DestroySwapchainKHR(d.dev, sc.sc, nil)
	}
	*sc = Swapchain{}
}

// Present copies Size's width x height texels of 4 bytes from buf (from byte off, row
// after row) into the next image and presents it, on queue q, which must be of the
// device's compute family. The copy waits for what earlier submissions to q wrote (a
// barrier after compute shaders and copies: submit the batch that wrote buf first), and
// later submissions to q that write buf wait for it. It returns ErrOutOfDate when the
// swapchain no longer fits the window.
func (sc *Swapchain) Present(q *Queue, buf *Buffer, off uint64) error {
	w, h := sc.Size()
	if buf == nil || buf.buf == 0 || off+uint64(w*h*4) > buf.size {
		return fmt.Errorf("goamp/vk: presenting %dx%d texels from a buffer that does not hold them", w, h)
	}
	q.mu.Lock()
	r := sc.present(q.q, buf.buf, off)
	q.mu.Unlock()
	switch r {
	case vkSuccess:
		return nil
	case vkSuboptimalKHR, vkErrorOutOfDateKHR:
		return ErrOutOfDate
	}
	return check("presenting a frame", r)
}

// present copies buf into the next image and presents it, on queue q. Acquiring waits
// for the image; the copy waits for the acquire semaphore and signals the image's
// semaphore, which presentation waits for; a fence per frame in flight keeps a command
// buffer from being recorded while the device still runs it.
func (sc *Swapchain) present(q vkQueue, buf vkBuffer, off uint64) int32 {
	d := sc.dev
	f := sc.frame % framesInFlight
	p := new(struct {
		fence vkFence
		idx   uint32
		stage uint32
		cb    vkCommandBuffer
		acq   vkSemaphore
		done  vkSemaphore
		sc    vkSwapchainKHR
		si    vkSubmitInfo
		pi    vkPresentInfoKHR
	})
	p.fence = sc.fence[f]
	if r := d.fn.WaitForFences(d.dev, 1, &p.fence, vkTrue, ^uint64(0)); r != vkSuccess {
		return r
	}
	r := d.fn.AcquireNextImageKHR(d.dev, sc.sc, ^uint64(0), sc.acq[f], 0, &p.idx)
	if r != vkSuccess && r != vkSuboptimalKHR {
		return r
	}
	if r := d.fn.ResetFences(d.dev, 1, &p.fence); r != vkSuccess {
		return r
	}
	if r := d.fn.ResetCommandBuffer(sc.cb[f], 0); r != vkSuccess {
		return r
	}
	if r := sc.record(sc.cb[f], p.idx, buf, off); r != vkSuccess {
		return r
	}
	p.stage, p.cb, p.acq, p.done, p.sc = vkPipelineStageTransferBit, sc.cb[f], sc.acq[f], sc.done[p.idx], sc.sc
	p.si = vkSubmitInfo{sType: vkStructureTypeSubmitInfo, waitSemaphoreCount: 1, pWaitSemaphores: unsafe.Pointer(&p.acq),
		pWaitDstStageMask: unsafe.Pointer(&p.stage), commandBufferCount: 1, pCommandBuffers: unsafe.Pointer(&p.cb),
		signalSemaphoreCount: 1, pSignalSemaphores: unsafe.Pointer(&p.done)}
	if r := d.fn.QueueSubmit(q, 1, &p.si, p.fence); r != vkSuccess {
		return r
	}
	sc.frame++
	p.pi = vkPresentInfoKHR{sType: vkStructureTypePresentInfoKHR, waitSemaphoreCount: 1,
		pWaitSemaphores: unsafe.Pointer(&p.done), swapchainCount: 1, pSwapchains: unsafe.Pointer(&p.sc),
		pImageIndices: unsafe.Pointer(&p.idx)}
	return d.fn.QueuePresentKHR(q, &p.pi)
}

// record records the copy of buf (from offset off, the image's size in texels of 4 bytes)
// into image idx, after what earlier submissions on the queue wrote to buf (compute
// shaders and copies), and before what later ones write to it.
func (sc *Swapchain) record(cb vkCommandBuffer, idx uint32, buf vkBuffer, off uint64) int32 {
	d := sc.dev
	bi := &vkCommandBufferBeginInfo{sType: vkStructureTypeCommandBufferBeginInfo, flags: vkCommandBufferUsageOneTimeSubmitBit}
	if r := d.fn.BeginCommandBuffer(cb, bi); r != vkSuccess {
		return r
	}
	rng := vkImageSubresourceRange{aspectMask: vkImageAspectColorBit, levelCount: 1, layerCount: 1}
	mb := &vkMemoryBarrier{sType: vkStructureTypeMemoryBarrier, srcAccessMask: vkAccessShaderWriteBit | vkAccessTransferWriteBit,
		dstAccessMask: vkAccessTransferReadBit}
	ib := &vkImageMemoryBarrier{sType: vkStructureTypeImageMemoryBarrier, dstAccessMask: vkAccessTransferWriteBit,
		oldLayout: vkImageLayoutUndefined, newLayout: vkImageLayoutTransferDstOptimal,
		srcQueueFamilyIndex: vkQueueFamilyIgnored, dstQueueFamilyIndex: vkQueueFamilyIgnored,
		image: sc.images[idx], subresourceRange: rng}
	d.fn.CmdPipelineBarrier(cb, computeStage|transferStage, transferStage, 0, 1, mb, 0, nil, 1, ib)
	bc := &vkBufferImageCopy{bufferOffset: off, imageSubresource: vkImageSubresourceLayers{aspectMask: vkImageAspectColorBit, layerCount: 1},
		imageExtent: vkExtent3D{width: sc.extent.width, height: sc.extent.height, depth: 1}}
	d.fn.CmdCopyBufferToImage(cb, buf, sc.images[idx], vkImageLayoutTransferDstOptimal, 1, bc)
	// To the presentation engine; and later commands on the queue that write buf wait for
	// the copy's reads (an execution dependency).
	ib.srcAccessMask, ib.dstAccessMask = vkAccessTransferWriteBit, 0
	ib.oldLayout, ib.newLayout = vkImageLayoutTransferDstOptimal, vkImageLayoutPresentSrcKHR
	d.fn.CmdPipelineBarrier(cb, transferStage, computeStage|transferStage|vkPipelineStageBottomOfPipeBit, 0, 0, nil, 0, nil, 1, ib)
	return d.fn.EndCommandBuffer(cb)
}
