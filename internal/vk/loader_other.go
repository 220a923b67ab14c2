//go:build !(((linux || darwin) && (amd64 || arm64)) || (windows && (amd64 || arm64)))

package vk

import (
	"fmt"
	"runtime"
)

// Available reports whether this build can call Vulkan: not on this operating system
// and processor, where Open returns ErrUnavailable and goamp runs on its CPU accelerator.
const Available = false

func defaultLibraries() []string { return []string{"libvulkan.so.1"} }

func openLibrary(string) (uintptr, error) {
	return 0, fmt.Errorf("goamp does not load Vulkan on %s/%s", runtime.GOOS, runtime.GOARCH)
}

func call(_, _, _, _, _, _, _, _, _, _, _ uintptr) uintptr {
	panic("goamp/vk: no Vulkan on this platform")
}

func newCallback(any) uintptr { return 0 }
