//go:build cgo && !nowindow

package window

/*
#include <stdint.h>

// GLFW's, declared without Vulkan's headers: VkInstance and VkSurfaceKHR are a pointer and
// a 64-bit handle, VkResult an int.
int glfwCreateWindowSurface(void *instance, void *window, const void *allocator, uint64_t *surface);

static int ampCreateSurface(uintptr_t instance, void *window, uint64_t *surface) {
	return glfwCreateWindowSurface((void *)instance, window, 0, surface);
}
*/
import "C"

import (
	"fmt"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/goamp/goamp/internal/vk"
)

// surfaceExtensions are the instance extensions GLFW makes its windows' surfaces with
// (VK_KHR_surface and the window system's: VK_KHR_xcb_surface or VK_KHR_xlib_surface on
// X11), nil when the Vulkan loader has none of them.
func surfaceExtensions() []string {
	// GLFW's list belongs to no window; the binding asks for one it does not use.
	return (*glfw.Window)(nil).GetRequiredInstanceExtensions()
}

// newSurface makes gw's Vulkan surface on inst, through GLFW.
func newSurface(inst *vk.Instance, gw *glfw.Window) (*vk.Surface, error) {
	var s C.uint64_t
	if r := C.ampCreateSurface(C.uintptr_t(inst.Handle()), gw.Handle(), &s); r != 0 {
		return nil, fmt.Errorf("glfwCreateWindowSurface: VkResult %d", int(r))
	}
	return inst.AdoptSurface(uint64(s))
}
