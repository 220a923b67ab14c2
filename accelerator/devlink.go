package accelerator

import (
	"fmt"

	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/devlink"
	"github.com/goamp/goamp/internal/vk"
)

// The window that presents views (present/window) reaches the Vulkan objects behind them
// through internal/devlink.
func init() {
	devlink.Set(devlink.Link[*View, device.Buffer]{
		Instance: func() *vk.Instance { return theRegistry().inst },
		View:     linkView,
		Buffer: func(db device.Buffer) *vk.Buffer {
			b, _ := db.(*buffer)
			if b == nil {
				return nil
			}
			return b.vb
		},
	})
}

// linkView returns the Vulkan device and queue of v.
func linkView(v *View) (*vk.Device, *vk.Queue, error) {
	if v == nil {
		return nil, nil, fmt.Errorf("goamp/accelerator: a nil view")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkOpen(); err != nil {
		return nil, nil, err
	}
	if v.stream == nil {
		return nil, nil, &FeatureError{Accelerator: v.acc.path, Feature: "Vulkan presentation"}
	}
	dev, err := v.acc.device()
	if err != nil {
		return nil, nil, err
	}
	return dev, v.stream.Queue(), nil
}
