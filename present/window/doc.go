// Package window shows present.Frames live in a GLFW window (github.com/go-gl/glfw),
// presented through a Vulkan swapchain with no OpenGL context (GLFW_CLIENT_API = NoAPI).
// It is cmd/ampview's window, and the only package of goamp that links GLFW: nothing else
// imports it (a test of cmd/ampview checks).
//
// On a Vulkan accelerator whose queue family can present to the window, the frame is made
// on the device from the view's own buffer: a compute pass (frame.comp) dispatched on the
// same view, after the kernels that wrote the frame, turns the field through the colormap
// (or the packed RGBA8) into a buffer of the swapchain's size and format, and a copy on the
// same queue moves it into the swapchain image, which is then presented; semaphores order
// the copy after the image is acquired and the presentation after the copy, and a fence
// per frame in flight paces the host. No pixel crosses to the host. On the CPU accelerator,
// or a device that cannot present, the frame's pixels are read on the host and uploaded to
// a Vulkan device that can (lavapipe on a machine with no GPU), which does the rest.
//
// Init must run before the first use of package accelerator, since the Vulkan instance
// needs the window's extensions (VK_KHR_surface, and VK_KHR_xcb_surface or
// VK_KHR_xlib_surface as GLFW picks); programs that do not call it keep goamp's instance
// as it is. GLFW wants its calls on one thread: call
// Init, New and the Window's methods from one goroutine locked to its thread (in main,
// runtime.LockOSThread in an init function). On Linux the window is an X11 window
// (Wayland through XWayland).
//
// Built without cgo, or with the build tag nowindow (which keeps GLFW and the X11
// libraries out of the binary), the package still compiles: Init returns ErrNeedsCgo.
package window
