//go:build required

package vk

// No build compiles this file (none sets the "required" tag). `go mod vendor`, which ignores
// build tags but copies only the directories of imported packages, follows these imports and so
// copies the C headers that this package's shim and vulkan-go include; without them a vendored
// build would fall back to the system's headers, or fail where there are none.
import (
	_ "github.com/goamp/goamp/internal/vk/third_party/vulkan-headers/vk_video"
	_ "github.com/goamp/goamp/internal/vk/third_party/vulkan-headers/vulkan"
	_ "github.com/vulkan-go/vulkan/vulkan"
)
