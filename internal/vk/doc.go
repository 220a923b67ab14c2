// Package vk is goamp's only door to Vulkan: it loads the Vulkan loader at run time
// (libvulkan.so.1; vulkan-1.dll on Windows; libvulkan.1.dylib, else MoltenVK's
// libMoltenVK.dylib, on macOS), discovers physical devices, and offers the few objects
// the layers above need: devices with queues, buffers, compute pipelines and command
// streams. It needs no cgo and no C compiler: C functions are called through
// github.com/ebitengine/purego (on amd64 through a small trampoline of this package, which
// allocates nothing), and on Windows through package syscall. Every entry point comes
// from vkGetInstanceProcAddr and vkGetDeviceProcAddr.
//
// The Vulkan types, constants and commands the package uses are generated (vkapi_gen.go)
// by internal/vkgen from the Khronos headers vendored in third_party/vulkan-headers
// (1.3.239, Apache-2.0) and vkextra.h (what those headers lack), for the names listed in
// vkapi.txt only: structures laid out as C lays them out, and per command a method that
// calls its entry point.
//
// A Stream is the command path of one accelerator view: its policy (batches, the replay
// of a recorded batch, throttling, timeline semaphores, what a dispatch must bind again)
// is plain Go over cmdDriver, which makes the Vulkan calls with structures of its own,
// allocated once, so that a dispatch allocates nothing. Binds, descriptors and push
// constants are recorded only when they change. A dispatch's buffers are pushed
// (VK_KHR_push_descriptor) or, on a device without it (or with Options.NoPushDescriptors),
// bound as a descriptor set allocated from pools of the batch's command buffer, which are
// reset when the command buffer is reused. A batch of up to four commands is
// kept recorded: when the next batch is the same commands, the stream submits the
// recorded one again (a dispatch-and-wait loop then records nothing), so the commands of
// such a batch are recorded when it is submitted, unless it is replayed. Batches signal
// the stream's timeline semaphore, whose counter the host reads without a system call;
// devices without timeline semaphores use a fence per batch. A batch ends with a
// host-visibility barrier only when it may write host-visible memory.
// scripts/vklatency.c measures, in C, the driver floors these choices are held against.
//
// Where goamp does not load Vulkan (other systems or processors), Open returns
// ErrUnavailable and goamp runs on its CPU accelerator alone.
package vk

//go:generate go run ../vkgen -names vkapi.txt -o vkapi_gen.go -test vkapi_gen_test.go -c testdata/vklayout.c third_party/vulkan-headers/vulkan/vulkan_core.h vkextra.h
