// Package accelerator is goamp's C++ AMP accelerator and accelerator_view: discovery of the
// machine's compute devices (one Accelerator per Vulkan physical device, plus the CPU, which
// runs kernels on goroutines), the choice of the default one, and Views: command streams on a
// device queue with their device memory and submission.
//
// The CPU accelerator, path "cpu", is always present, and so is the strict CPU accelerator,
// path "cpu:strict" (StrictCPU): the CPU run as a discrete GPU for tests, with device
// copies of the data and poisoned tile_static memory, which All does not list. Vulkan
// devices have paths "vulkan:N"
// (N is the Vulkan enumeration index). The default is chosen as C++ AMP chooses it: the
// AMP_DEFAULT_ACCELERATOR environment variable (a path) first, then the non-emulated device
// with the most dedicated memory, then the CPU. An emulated Vulkan device (lavapipe, Mesa's
// Vulkan on the CPU) is slower than the CPU accelerator and never the default: name it
// (AMP_DEFAULT_ACCELERATOR=vulkan:0, SetDefault, Get) to run on it. No Vulkan loader, no driver or no device is not an error: the CPU remains, and
// NoVulkanReason says why.
//
// GOAMP_VULKAN_LIBRARY names another Vulkan loader to open. Setting GOAMP_VALIDATION=1 turns on the Khronos validation layer: each message
// it reports is logged through log/slog as it happens (or passed to the function
// SetValidationHandler sets), and ValidationMessages drains the queue of them (the test
// suite fails on any). GOAMP_FORCE_STAGING=1 makes views move data as on a discrete GPU
// even where memory is unified (lavapipe): device-local buffers that the host does not
// map, filled and read through staging buffers (make test-staging runs the arrayview and
// algo suites so).
//
// Device failures are typed errors (*DeviceError): out of device memory matches
// ErrOutOfMemory and leaves the view working; a failed submit or a lost device
// (ErrDeviceLost, C++ AMP's accelerator_view_removed) removes the view, whose every later
// operation returns the same error, while a new view works where the device does.
//
// A view's device memory and the kernels it runs are reached through packages arrayview
// (arrays and array views) and runtime (ParallelForEach and its kind), not through this
// package.
package accelerator
