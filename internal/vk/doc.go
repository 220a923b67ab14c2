// Package vk is goamp's only door to Vulkan: it loads libvulkan.so.1 itself, hands
// vkGetInstanceProcAddr to vulkan-go, discovers physical devices, and offers the few
// objects the layers above need: devices with queues, buffers, compute pipelines and
// command streams.
//
// vulkan-go (Vulkan 1.1.88 headers, c-for-go bindings) serves the setup path: instance
// creation, enumeration, device properties, features, memory and queue families. A small
// C shim in this package covers what vulkan-go does not wrap (vkGetPhysicalDeviceProperties2
// for subgroup and driver properties, push descriptors, timeline semaphores, debug utils)
// and the command path. The shim compiles against the Khronos headers vendored in
// third_party/vulkan-headers (1.3.239, Apache-2.0), never the system's, so building a
// program that imports goamp needs a C compiler only; at run time it needs libvulkan.so.1
// (`make nohdr-check` proves it with the system headers hidden).
//
// A Stream is the command path of one accelerator view. Its commands (dispatch, barrier,
// copy) are encoded by Go into an arena of C memory and recorded into the command buffer by
// one cgo call when the batch is submitted or the arena fills, so recording costs no cgo
// call per command and binds, push descriptors and push constants are recorded only when
// they change. A batch of up to four commands is kept recorded: when the next batch is the
// same commands, the stream submits the recorded one again (a dispatch-and-wait loop then
// records nothing). Batches signal the stream's timeline semaphore, whose counter the host
// reads without a system call; devices without timeline semaphores use a fence per batch.
// A batch ends with a host-visibility barrier only when it may write host-visible memory.
// scripts/vklatency.c measures, in C, the driver floors these choices are held against.
//
// Without cgo the package still builds: Open returns ErrUnavailable and goamp runs on its
// CPU accelerator alone.
package vk
