//go:build !cgo

package vk

import (
	"context"
	"fmt"
	"sync"
)

// Available reports whether this build can use Vulkan at all (it was built with cgo).
const Available = false

func unavailable() error { return fmt.Errorf("%w: built without cgo (CGO_ENABLED=0)", ErrUnavailable) }

// Instance is a Vulkan instance; without cgo none can be created.
type Instance struct{}

// Open always fails without cgo.
func Open(Options) (*Instance, error) { return nil, unavailable() }

// Devices describes the physical devices (none without cgo).
func (*Instance) Devices() []DeviceInfo { return nil }

// Validation reports whether the validation layer is on.
func (*Instance) Validation() bool { return false }

// Close does nothing without cgo.
func (*Instance) Close() {}

// injected holds the messages InjectMessage queued (without cgo no layer reports any).
var injected struct {
	mu   sync.Mutex
	msgs []string
}

// TakeMessages drains the validation messages: without cgo only injected ones.
func TakeMessages() []string {
	injected.mu.Lock()
	defer injected.mu.Unlock()
	out := injected.msgs
	injected.msgs = nil
	return out
}

// setForward does nothing without cgo: InjectMessage delivers directly.
func setForward(bool) {}

// InjectMessage reports msg as the validation layer would (an error when isError, else a
// warning): it is queued for TakeMessages and passed to the handler. A test hook.
func InjectMessage(msg string, isError bool) {
	lvl := "warning: "
	if isError {
		lvl = "error: "
	}
	injected.mu.Lock()
	injected.msgs = append(injected.msgs, lvl+msg)
	injected.mu.Unlock()
	deliver(lvl + msg)
}

// Device is a logical device; without cgo none exists.
type Device struct{}

// Queue is a device queue.
type Queue struct{}

// OpenDevice always fails without cgo.
func (*Instance) OpenDevice(int, int) (*Device, error) { return nil, unavailable() }

// Queues returns the device's compute queues.
func (*Device) Queues() []*Queue { return nil }

// Close does nothing without cgo.
func (*Device) Close() {}

// WaitIdle is unavailable without cgo.
func (*Device) WaitIdle() error { return unavailable() }

// Buffer is a device buffer.
type Buffer struct{}

// NewBuffer always fails without cgo.
func (*Device) NewBuffer(uint64, MemKind) (*Buffer, error) { return nil, unavailable() }

// Mapped is the host mapping of the buffer.
func (*Buffer) Mapped() []byte { return nil }

// Free does nothing without cgo.
func (*Buffer) Free() {}

// Pipeline is a compute pipeline.
type Pipeline struct{}

// NewPipeline always fails without cgo.
func (*Device) NewPipeline([]byte, int, int, []uint32) (*Pipeline, error) { return nil, unavailable() }

// Destroy does nothing without cgo.
func (*Pipeline) Destroy() {}

// Binding is a buffer range bound to one storage-buffer binding.
type Binding struct {
	Buffer *Buffer
	Offset uint64
	Range  uint64
}

// Batch is a submitted command buffer.
type Batch struct{}

// Wait returns at once without cgo.
func (*Batch) Wait(context.Context) error { return nil }

// Done is always true without cgo.
func (*Batch) Done() bool { return true }

// Stream records and submits commands.
type Stream struct{}

// NewStream always fails without cgo.
func (*Device) NewStream(*Queue) (*Stream, error) { return nil, unavailable() }

// Commands is the number of commands recorded since the last submit.
func (*Stream) Commands() int { return 0 }

// Dispatch fails without cgo.
func (*Stream) Dispatch(*Pipeline, []Binding, []byte, [3]uint32, bool) error { return unavailable() }

// Barrier fails without cgo.
func (*Stream) Barrier() error { return unavailable() }

// Copy fails without cgo.
func (*Stream) Copy(*Buffer, uint64, *Buffer, uint64, uint64) error { return unavailable() }

// Submit does nothing without cgo.
func (*Stream) Submit() (*Batch, error) { return nil, nil }

// Last is the most recently submitted batch.
func (*Stream) Last() *Batch { return nil }

// Replays is the number of batches submitted again without recording them.
func (*Stream) Replays() uint64 { return 0 }

// Destroy does nothing without cgo.
func (*Stream) Destroy() {}

// EnableTimestamps fails without cgo.
func (*Stream) EnableTimestamps(int) error { return unavailable() }

// Timestamps returns nothing without cgo.
func (*Stream) Timestamps() ([]uint64, error) { return nil, nil }

// Err is nil without cgo: no stream exists.
func (*Stream) Err() error { return nil }

// Drain does nothing without cgo.
func (*Stream) Drain() {}

// Told is false without cgo: no stream fails.
func (*Stream) Told() bool { return false }
