package accelerator

import (
	"fmt"

	"github.com/goamp/goamp/internal/device"
)

// hw is a view's hardware side, device.View, which goamp's packages reach through
// device.Of: the view itself, as a type whose methods the package's users do not see.
type hw View

func init() {
	device.Set(func(view any) device.View {
		v, _ := view.(*View)
		if v == nil {
			return nil
		}
		return (*hw)(v)
	})
}

func (h *hw) view() *View { return (*View)(h) }

func (h *hw) Alloc(size uint64) (device.Buffer, error) {
	b, err := h.view().alloc(size)
	if err != nil {
		return nil, err
	}
	return b, nil
}

func (h *hw) Pipeline(key device.PipelineKey, name string, spirv []byte, bindings, pushSize int) (device.Pipeline, error) {
	p, err := h.acc.pipeline(key, name, spirv, bindings, pushSize)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (h *hw) Dispatch(p device.Pipeline, args []device.Arg, push []byte, groups [3]uint32) error {
	pp, _ := p.(*pipeline)
	if pp == nil {
		return fmt.Errorf("goamp/accelerator: dispatch of a pipeline that is not the accelerator's: %v", p)
	}
	return h.view().dispatch(pp, args, push, groups)
}

func (h *hw) CountDispatch()                          { h.view().countDispatch() }
func (h *hw) StartHostWork() (done func(), err error) { return h.view().startHostWork() }
func (h *hw) CheckOpen() error                        { return h.view().openErr() }
func (h *hw) AtClose(f func()) (cancel func())        { return h.view().atClose(f) }

func (h *hw) AtCloseOpen(f func()) (cancel func(), err error) { return h.view().atCloseOpen(f) }
