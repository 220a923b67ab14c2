//go:build required

// Package vulkan holds vendored Khronos C headers (../README.md) and no Go code. It exists so that
// `go mod vendor`, which copies only the directories of imported packages, copies the headers:
// internal/vk's cgo_vendor.go imports it under a build tag that no build sets.
package vulkan
