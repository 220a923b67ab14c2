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

// Link is what package accelerator gives the window: the Vulkan instance (nil when
// Vulkan is unavailable), the device and queue of a view (an error for the CPU
// accelerator), and the Vulkan buffer of an accelerator buffer (nil when freed). V and B
// are accelerator's *View and *Buffer, which this package cannot name (accelerator
// imports it).
type Link[V, B any] struct {
	Instance func() *vk.Instance
	View     func(V) (*vk.Device, *vk.Queue, error)
	Buffer   func(B) *vk.Buffer
}

// link is the Link that Set installed, of its types.
var link any

// Set installs l; package accelerator calls it in its init.
func Set[V, B any](l Link[V, B]) {
	mu.Lock()
	defer mu.Unlock()
	link = l
}

// Get returns the Link that Set installed, and whether one of these types was.
func Get[V, B any]() (Link[V, B], bool) {
	mu.Lock()
	defer mu.Unlock()
	l, ok := link.(Link[V, B])
	return l, ok
}
