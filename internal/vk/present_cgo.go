//go:build cgo

package vk

/*
#include "shim.h"
#include <stdlib.h>
#include <string.h>

// The Xlib surface's create info, as vulkan_xlib.h has it, with Display* and Window spelled
// void* and unsigned long so that no X11 header is needed.
typedef struct {
	VkStructureType sType;
	const void *pNext;
	VkFlags flags;
	void *dpy;
	unsigned long window;
} AmpXlibSurfaceInfo;
typedef VkResult (VKAPI_PTR *AmpCreateXlibSurface)(VkInstance, const AmpXlibSurfaceInfo *, const VkAllocationCallbacks *, VkSurfaceKHR *);

static PFN_vkVoidFunction amp_iproc(VkInstance inst, const char *name) {
	return ((PFN_vkGetInstanceProcAddr)amp_gipa())(inst, name);
}

static VkResult amp_xlib_surface(VkInstance inst, void *dpy, unsigned long win, VkSurfaceKHR *out) {
	AmpCreateXlibSurface f = (AmpCreateXlibSurface)amp_iproc(inst, "vkCreateXlibSurfaceKHR");
	if (!f) return VK_ERROR_EXTENSION_NOT_PRESENT;
	AmpXlibSurfaceInfo ci = {VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR, NULL, 0, dpy, win};
	return f(inst, &ci, NULL, out);
}

static void amp_surface_destroy(VkInstance inst, VkSurfaceKHR s) {
	PFN_vkDestroySurfaceKHR f = (PFN_vkDestroySurfaceKHR)amp_iproc(inst, "vkDestroySurfaceKHR");
	if (f) f(inst, s, NULL);
}

static int amp_surface_support(VkInstance inst, VkPhysicalDevice phys, uint32_t family, VkSurfaceKHR s) {
	PFN_vkGetPhysicalDeviceSurfaceSupportKHR f =
		(PFN_vkGetPhysicalDeviceSurfaceSupportKHR)amp_iproc(inst, "vkGetPhysicalDeviceSurfaceSupportKHR");
	VkBool32 ok = VK_FALSE;
	if (!f || f(phys, family, s, &ok) != VK_SUCCESS) return 0;
	return ok == VK_TRUE;
}

#define AMP_INFLIGHT 2
#define AMP_MAXIMG 8

// AmpSwapchain is a swapchain with what presenting a buffer into it takes: per frame in
// flight a command buffer, a fence and an acquire semaphore; per image a semaphore that
// the copy signals and the presentation waits for.
typedef struct {
	VkInstance inst;
	AmpDevice *d;
	VkSurfaceKHR surf;
	VkSwapchainKHR sc;
	VkFormat format;
	VkExtent2D extent;
	uint32_t nimg;
	VkImage img[AMP_MAXIMG];
	VkSemaphore done[AMP_MAXIMG];
	VkCommandPool pool;
	VkCommandBuffer cb[AMP_INFLIGHT];
	VkFence fence[AMP_INFLIGHT];
	VkSemaphore acq[AMP_INFLIGHT];
	uint32_t frame;
	PFN_vkCreateSwapchainKHR CreateSwapchainKHR;
	PFN_vkDestroySwapchainKHR DestroySwapchainKHR;
	PFN_vkGetSwapchainImagesKHR GetSwapchainImagesKHR;
	PFN_vkAcquireNextImageKHR AcquireNextImageKHR;
	PFN_vkQueuePresentKHR QueuePresentKHR;
	PFN_vkCmdCopyBufferToImage CmdCopyBufferToImage;
	PFN_vkCreateSemaphore CreateSemaphore;
	PFN_vkDestroySemaphore DestroySemaphore;
} AmpSwapchain;

#define AMP_DPROC(sc, name) sc->name = (PFN_vk##name)gdpa(sc->d->dev, "vk" #name)

static void amp_swapchain_destroy(AmpSwapchain *s) {
	AmpDevice *d = s->d;
	d->DeviceWaitIdle(d->dev);
	for (uint32_t i = 0; i < AMP_MAXIMG; i++)
		if (s->done[i]) s->DestroySemaphore(d->dev, s->done[i], NULL);
	for (int i = 0; i < AMP_INFLIGHT; i++) {
		if (s->acq[i]) s->DestroySemaphore(d->dev, s->acq[i], NULL);
		if (s->fence[i]) d->DestroyFence(d->dev, s->fence[i], NULL);
	}
	if (s->pool) d->DestroyCommandPool(d->dev, s->pool, NULL);
	if (s->sc) s->DestroySwapchainKHR(d->dev, s->sc, NULL);
	free(s);
}

// amp_swapchain_format picks B8G8R8A8_UNORM, else R8G8B8A8_UNORM (sRGB non-linear colour
// space), else VK_FORMAT_UNDEFINED.
static VkFormat amp_swapchain_format(VkInstance inst, VkPhysicalDevice phys, VkSurfaceKHR surf) {
	PFN_vkGetPhysicalDeviceSurfaceFormatsKHR f =
		(PFN_vkGetPhysicalDeviceSurfaceFormatsKHR)amp_iproc(inst, "vkGetPhysicalDeviceSurfaceFormatsKHR");
	uint32_t n = 0;
	if (!f || f(phys, surf, &n, NULL) != VK_SUCCESS || n == 0) return VK_FORMAT_UNDEFINED;
	VkSurfaceFormatKHR *fs = calloc(n, sizeof(*fs));
	f(phys, surf, &n, fs);
	VkFormat got = VK_FORMAT_UNDEFINED;
	for (uint32_t i = 0; i < n; i++) {
		if (fs[i].colorSpace != VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) continue;
		if (fs[i].format == VK_FORMAT_B8G8R8A8_UNORM) got = fs[i].format;
		if (fs[i].format == VK_FORMAT_R8G8B8A8_UNORM && got == VK_FORMAT_UNDEFINED) got = fs[i].format;
	}
	free(fs);
	return got;
}

static VkResult amp_swapchain_objects(AmpSwapchain *s) {
	AmpDevice *d = s->d;
	VkResult r = s->GetSwapchainImagesKHR(d->dev, s->sc, &s->nimg, NULL);
	if (r != VK_SUCCESS) return r;
	if (s->nimg > AMP_MAXIMG) return VK_ERROR_INITIALIZATION_FAILED;
	r = s->GetSwapchainImagesKHR(d->dev, s->sc, &s->nimg, s->img);
	if (r != VK_SUCCESS) return r;
	VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
	for (uint32_t i = 0; i < s->nimg; i++)
		if ((r = s->CreateSemaphore(d->dev, &si, NULL, &s->done[i])) != VK_SUCCESS) return r;
	VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
		.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = d->family};
	if ((r = d->CreateCommandPool(d->dev, &pi, NULL, &s->pool)) != VK_SUCCESS) return r;
	VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = s->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = AMP_INFLIGHT};
	if ((r = d->AllocateCommandBuffers(d->dev, &ai, s->cb)) != VK_SUCCESS) return r;
	VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, .flags = VK_FENCE_CREATE_SIGNALED_BIT};
	for (int i = 0; i < AMP_INFLIGHT; i++) {
		if ((r = d->CreateFence(d->dev, &fi, NULL, &s->fence[i])) != VK_SUCCESS) return r;
		if ((r = s->CreateSemaphore(d->dev, &si, NULL, &s->acq[i])) != VK_SUCCESS) return r;
	}
	return VK_SUCCESS;
}

// amp_swapchain_create makes a swapchain of surf on d, width x height unless the surface
// says its size, of images that transfers write (the frame is copied into them).
static VkResult amp_swapchain_create(VkInstance inst, AmpDevice *d, VkSurfaceKHR surf, uint32_t width,
	uint32_t height, AmpSwapchain **out) {
	PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR caps =
		(PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR)amp_iproc(inst, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
	PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)amp_iproc(inst, "vkGetDeviceProcAddr");
	if (!caps || !gdpa) return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkSurfaceCapabilitiesKHR c;
	VkResult r = caps(d->phys, surf, &c);
	if (r != VK_SUCCESS) return r;
	if (!(c.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) return VK_ERROR_FEATURE_NOT_PRESENT;
	VkFormat format = amp_swapchain_format(inst, d->phys, surf);
	if (format == VK_FORMAT_UNDEFINED) return VK_ERROR_FORMAT_NOT_SUPPORTED;
	AmpSwapchain *s = calloc(1, sizeof(AmpSwapchain));
	s->inst = inst; s->d = d; s->surf = surf; s->format = format;
	AMP_DPROC(s, CreateSwapchainKHR); AMP_DPROC(s, DestroySwapchainKHR); AMP_DPROC(s, GetSwapchainImagesKHR);
	AMP_DPROC(s, AcquireNextImageKHR); AMP_DPROC(s, QueuePresentKHR); AMP_DPROC(s, CmdCopyBufferToImage);
	AMP_DPROC(s, CreateSemaphore); AMP_DPROC(s, DestroySemaphore);
	s->extent = c.currentExtent;
	if (c.currentExtent.width == 0xFFFFFFFFu) {
		s->extent.width = width < c.minImageExtent.width ? c.minImageExtent.width : width > c.maxImageExtent.width ? c.maxImageExtent.width : width;
		s->extent.height = height < c.minImageExtent.height ? c.minImageExtent.height : height > c.maxImageExtent.height ? c.maxImageExtent.height : height;
	}
	uint32_t n = c.minImageCount < 2 ? 2 : c.minImageCount;
	if (c.maxImageCount && n > c.maxImageCount) n = c.maxImageCount;
	VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
	if (!(c.supportedCompositeAlpha & alpha)) alpha = (VkCompositeAlphaFlagBitsKHR)(c.supportedCompositeAlpha & -c.supportedCompositeAlpha);
	VkSwapchainCreateInfoKHR ci = {.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR, .surface = surf,
		.minImageCount = n, .imageFormat = format, .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
		.imageExtent = s->extent, .imageArrayLayers = 1, .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
		.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE, .preTransform = c.currentTransform,
		.compositeAlpha = alpha, .presentMode = VK_PRESENT_MODE_FIFO_KHR, .clipped = VK_TRUE};
	if (s->extent.width == 0 || s->extent.height == 0 || !s->CreateSwapchainKHR) {
		free(s);
		return VK_ERROR_OUT_OF_DATE_KHR; // minimized, or no VK_KHR_swapchain
	}
	if ((r = s->CreateSwapchainKHR(d->dev, &ci, NULL, &s->sc)) == VK_SUCCESS) r = amp_swapchain_objects(s);
	if (r != VK_SUCCESS) {
		amp_swapchain_destroy(s);
		return r;
	}
	*out = s;
	return VK_SUCCESS;
}

// amp_swapchain_record records the copy of buf (from offset off, the image's size in
// texels of 4 bytes) into image idx, after what earlier submissions on the queue wrote to
// buf (compute shaders and copies), and before what later ones write to it.
static VkResult amp_swapchain_record(AmpSwapchain *s, VkCommandBuffer cb, uint32_t idx, VkBuffer buf, VkDeviceSize off) {
	AmpDevice *d = s->d;
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	VkResult r = d->BeginCommandBuffer(cb, &bi);
	if (r != VK_SUCCESS) return r;
	VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
	VkImageMemoryBarrier ib = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = 0,
		.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = s->img[idx], .subresourceRange = range};
	d->CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
		VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 1, &ib);
	VkBufferImageCopy bc = {.bufferOffset = off, .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
		.imageExtent = {s->extent.width, s->extent.height, 1}};
	s->CmdCopyBufferToImage(cb, buf, s->img[idx], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &bc);
	// To the presentation engine; and later commands on the queue that write buf wait for
	// the copy's reads (an execution dependency).
	ib.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
	ib.dstAccessMask = 0;
	ib.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
	ib.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
	d->CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
		VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		0, 0, NULL, 0, NULL, 1, &ib);
	return d->EndCommandBuffer(cb);
}

// amp_swapchain_present copies buf into the next image and presents it, on queue q.
// Acquiring waits for the image; the copy waits for the acquire semaphore and signals
// the image's semaphore, which presentation waits for; a fence per frame in flight keeps
// a command buffer from being recorded while the device still runs it.
static VkResult amp_swapchain_present(AmpSwapchain *s, VkQueue q, VkBuffer buf, VkDeviceSize off) {
	AmpDevice *d = s->d;
	uint32_t f = s->frame % AMP_INFLIGHT, idx;
	VkResult r = d->WaitForFences(d->dev, 1, &s->fence[f], VK_TRUE, UINT64_MAX);
	if (r != VK_SUCCESS) return r;
	r = s->AcquireNextImageKHR(d->dev, s->sc, UINT64_MAX, s->acq[f], VK_NULL_HANDLE, &idx);
	if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) return r;
	if ((r = d->ResetFences(d->dev, 1, &s->fence[f])) != VK_SUCCESS) return r;
	if ((r = d->ResetCommandBuffer(s->cb[f], 0)) != VK_SUCCESS) return r;
	if ((r = amp_swapchain_record(s, s->cb[f], idx, buf, off)) != VK_SUCCESS) return r;
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1, .pWaitSemaphores = &s->acq[f],
		.pWaitDstStageMask = &stage, .commandBufferCount = 1, .pCommandBuffers = &s->cb[f],
		.signalSemaphoreCount = 1, .pSignalSemaphores = &s->done[idx]};
	if ((r = d->QueueSubmit(q, 1, &si, s->fence[f])) != VK_SUCCESS) return r;
	s->frame++;
	VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, .waitSemaphoreCount = 1,
		.pWaitSemaphores = &s->done[idx], .swapchainCount = 1, .pSwapchains = &s->sc, .pImageIndices = &idx};
	return s->QueuePresentKHR(q, &pi);
}

static VkFormat amp_swapchain_fmt(AmpSwapchain *s) { return s->format; }
static uint32_t amp_swapchain_width(AmpSwapchain *s) { return s->extent.width; }
static uint32_t amp_swapchain_height(AmpSwapchain *s) { return s->extent.height; }
*/
import "C"

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
	s  C.VkSurfaceKHR
}

// NewXlibSurface makes the surface of the X11 window window on display (an Xlib
// Display*). The instance must have been opened with VK_KHR_surface and
// VK_KHR_xlib_surface (Options.InstanceExtensions).
func (in *Instance) NewXlibSurface(display unsafe.Pointer, window uintptr) (*Surface, error) {
	if !in.surface {
		return nil, fmt.Errorf("goamp/vk: the instance was opened without VK_KHR_surface (Options.InstanceExtensions)")
	}
	s := &Surface{in: in}
	if !hasInstanceExtension("VK_KHR_xlib_surface") {
		return nil, fmt.Errorf("goamp/vk: the Vulkan loader lacks VK_KHR_xlib_surface")
	}
	if err := check("vkCreateXlibSurfaceKHR", C.amp_xlib_surface(C.VkInstance(unsafe.Pointer(in.inst)), display, C.ulong(window), &s.s)); err != nil {
		return nil, err
	}
	return s, nil
}

// Destroy destroys the surface; its swapchains must be destroyed first.
func (s *Surface) Destroy() {
	if s.s != nil {
		C.amp_surface_destroy(C.VkInstance(unsafe.Pointer(s.in.inst)), s.s)
		s.s = nil
	}
}

// CanPresent reports whether the device's queues (its compute family) can present to s,
// and the device was opened with VK_KHR_swapchain.
func (dev *Device) CanPresent(s *Surface) bool {
	return dev.swapchain && C.amp_surface_support(C.VkInstance(unsafe.Pointer(dev.in.inst)),
		C.VkPhysicalDevice(unsafe.Pointer(dev.phys)), dev.d.family, s.s) != 0
}

// Swapchain is a swapchain of a surface on a device whose queues can present to it
// (CanPresent). Present copies a buffer into its next image and presents it.
type Swapchain struct {
	dev *Device
	sc  *C.AmpSwapchain
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
	sc := &Swapchain{dev: dev}
	r := C.amp_swapchain_create(C.VkInstance(unsafe.Pointer(dev.in.inst)), dev.d, s.s, C.uint32_t(width), C.uint32_t(height), &sc.sc)
	if r == C.VK_ERROR_OUT_OF_DATE_KHR {
		return nil, ErrOutOfDate
	}
	if err := check("creating a swapchain", r); err != nil {
		return nil, err
	}
	return sc, nil
}

// Size returns the images' width and height in pixels.
func (sc *Swapchain) Size() (width, height int) {
	return int(C.amp_swapchain_width(sc.sc)), int(C.amp_swapchain_height(sc.sc))
}

// BGRA reports whether the images are B8G8R8A8 (blue in the lowest byte of a texel);
// otherwise they are R8G8B8A8.
func (sc *Swapchain) BGRA() bool { return C.amp_swapchain_fmt(sc.sc) == C.VK_FORMAT_B8G8R8A8_UNORM }

// Present copies Size's width x height texels of 4 bytes from buf (from byte off, row
// after row) into the next image and presents it, on queue q, which must be of the
// device's compute family. The copy waits for what earlier submissions to q wrote (a
// barrier after compute shaders and copies: submit the batch that wrote buf first), and
// later submissions to q that write buf wait for it. It returns ErrOutOfDate when the
// swapchain no longer fits the window.
func (sc *Swapchain) Present(q *Queue, buf *Buffer, off uint64) error {
	w, h := sc.Size()
	if buf == nil || buf.buf == nil || off+uint64(w*h*4) > buf.size {
		return fmt.Errorf("goamp/vk: presenting %dx%d texels from a buffer that does not hold them", w, h)
	}
	q.mu.Lock()
	r := C.amp_swapchain_present(sc.sc, q.q, buf.buf, C.VkDeviceSize(off))
	q.mu.Unlock()
	switch r {
	case C.VK_SUCCESS:
		return nil
	case C.VK_SUBOPTIMAL_KHR, C.VK_ERROR_OUT_OF_DATE_KHR:
		return ErrOutOfDate
	}
	return check("presenting a frame", r)
}

// Destroy waits for the device to go idle and destroys the swapchain.
func (sc *Swapchain) Destroy() {
	if sc.sc != nil {
		C.amp_swapchain_destroy(sc.sc)
		sc.sc = nil
	}
}

// Queue returns the queue the stream submits to.
func (s *Stream) Queue() *Queue { return s.queue }
