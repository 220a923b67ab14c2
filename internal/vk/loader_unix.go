//go:build (linux || darwin) && (amd64 || arm64)

package vk

import (
	"fmt"
	"runtime"

	"github.com/ebitengine/purego"
)

// Available reports whether this build can call Vulkan: it runs on an operating system
// and processor whose Vulkan loader goamp loads at run time.
const Available = true

// defaultLibraries are the Vulkan loaders Open tries, in order, when Options.Library is
// empty: the loader, and on macOS MoltenVK itself where no loader is installed.
func defaultLibraries() []string {
	if runtime.GOOS == "darwin" {
		return []string{"libvulkan.1.dylib", "libMoltenVK.dylib"}
	}
	return []string{"libvulkan.so.1"}
}

// openLibrary loads a Vulkan loader and returns its vkGetInstanceProcAddr.
func openLibrary(name string) (uintptr, error) {
	h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return 0, err
	}
	gipa, err := purego.Dlsym(h, "vkGetInstanceProcAddr")
	if err != nil || gipa == 0 {
		_ = purego.Dlclose(h)
		return 0, fmt.Errorf("%s has no vkGetInstanceProcAddr", name)
	}
	return gipa, nil
}

// newCallback makes a C function pointer of fn.
func newCallback(fn any) uintptr { return purego.NewCallback(fn) }
