package accelerator

import (
	"fmt"

	"github.com/goamp/goamp/internal/devlink"
	"github.com/goamp/goamp/internal/vk"
)

// The window that presents views (present/window) reaches the Vulkan objects behind them
// through internal/devlink.
func init() {
	devlink.Instance = func() *vk.Instance { return theRegistry().inst }
	devlink.View = func(x any) (*vk.Device, *vk.Queue, error) {
		v, ok := x.(*View)
		if !ok || v == nil {
			return nil, nil, fmt.Errorf("goamp/accelerator: %T is not an accelerator view", x)
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
	devlink.Buffer = func(x any) *vk.Buffer {
		if b, ok := x.(*Buffer); ok && b != nil {
			return b.vb
		}
		return nil
	}
}
