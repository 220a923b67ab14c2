package devlink

import (
	"errors"
	"slices"
	"sync"

	"github.com/goamp/goamp/internal/vk"
)

// ErrOpened is SetInstanceExtensions called after Vulkan was opened.
var ErrOpened = errors.New("goamp/devlink: Vulkan is open already: set the window's instance extensions before the first use of an accelerator")

var (
	mu     sync.Mutex
	exts   []string
	opened bool
)

// SetInstanceExtensions makes the instance that package accelerator opens enable exts
// besides its own. It returns ErrOpened once the instance is open.
func SetInstanceExtensions(e []string) error {
	mu.Lock()
	defer mu.Unlock()
	if opened {
		return ErrOpened
	}
	exts = slices.Clone(e)
	return nil
}

// Open is what package accelerator calls as it opens the instance: it returns the
// extensions set by SetInstanceExtensions, and refuses later ones.
func Open() []string {
	mu.Lock()
	defer mu.Unlock()
	opened = true
	return slices.Clone(exts)
}

// Set by package accelerator (its init): Instance returns the Vulkan instance (nil when
// Vulkan is unavailable); View returns the device and queue of an *accelerator.View (an
// error for the CPU accelerator); Buffer returns the Vulkan buffer of an
// *accelerator.Buffer (nil when freed).
var (
	Instance func() *vk.Instance
	View     func(v any) (*vk.Device, *vk.Queue, error)
	Buffer   func(b any) *vk.Buffer
)
