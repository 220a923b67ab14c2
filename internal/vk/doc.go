// Package vk is goamp's only door to Vulkan: it loads libvulkan.so.1 itself, hands
// vkGetInstanceProcAddr to vulkan-go, discovers physical devices, and offers the few
// objects the layers above need: devices with queues, buffers, compute pipelines and
// command streams.
//
// vulkan-go (Vulkan 1.1.88 headers, c-for-go bindings) serves the setup path: instance
// creation, enumeration, device properties, features, memory and queue families. A small
// C shim in this package covers what vulkan-go does not wrap (vkGetPhysicalDeviceProperties2
// for subgroup and driver properties, push descriptors, debug utils) and the per-dispatch
// fast path, which records barrier, bind, push descriptors, push constants and dispatch in
// one cgo call without allocating.
//
// Without cgo the package still builds: Open returns ErrUnavailable and goamp runs on its
// CPU accelerator alone.
package vk
