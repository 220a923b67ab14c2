package accelerator

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/vk"
)

// pipeline is a compute pipeline on one accelerator.
type pipeline struct {
	p        *vk.Pipeline
	bindings int
	pushSize int
}

// Bindings is the number of storage buffers the pipeline binds.
func (p *pipeline) Bindings() int { return p.bindings }

// pipeline is device.View.Pipeline for the views of a.
func (a *Accelerator) pipeline(key device.PipelineKey, name string, spirv []byte, bindings, pushSize int) (*pipeline, error) {
	if a.info == nil {
		return nil, &FeatureError{Accelerator: a.path, Feature: "SPIR-V pipelines"}
	}
	a.pipeMu.Lock()
	defer a.pipeMu.Unlock()
	if p, ok := a.pipes[key]; ok {
		return p, nil
	}
	dev, err := a.device()
	if err != nil {
		return nil, err
	}
	vp, err := dev.NewPipeline(fitFloatControls(spirv, a.info.SignedZeroInfNan), bindings, pushSize, key.Spec[:])
	if err != nil {
		return nil, fmt.Errorf("goamp/accelerator: %s: program %s: %w", a.path, name, err)
	}
	if a.pipes == nil {
		a.pipes = map[device.PipelineKey]*pipeline{}
	}
	p := &pipeline{p: vp, bindings: bindings, pushSize: pushSize}
	a.pipes[key] = p
	a.savePipelineCache(dev)
	return p, nil
}

// dispatch is device.View.Dispatch.
func (v *View) dispatch(p *pipeline, args []device.Arg, push []byte, groups [3]uint32) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := v.checkTaking(); err != nil {
		return err
	}
	if v.stream == nil {
		return &FeatureError{Accelerator: v.acc.path, Feature: "SPIR-V dispatch"}
	}
	if len(args) != p.bindings {
		return fmt.Errorf("goamp/accelerator: pipeline binds %d buffers, dispatch gives %d", p.bindings, len(args))
	}
	if len(push) > p.pushSize {
		return fmt.Errorf("goamp/accelerator: %d bytes of push constants exceed the pipeline's %d", len(push), p.pushSize)
	}
	barrier := false
	v.binds = v.binds[:0]
	for i, a := range args {
		b, _ := a.Buffer.(*buffer)
		switch {
		case b == nil:
			return fmt.Errorf("goamp/accelerator: dispatch binding %d is a nil buffer", i)
		case b.vb == nil:
			return fmt.Errorf("goamp/accelerator: dispatch binding %d: %w", i, ErrBufferFreed)
		}
		if b.view != v {
			return fmt.Errorf("goamp/accelerator: buffer of %s bound on %s", b.view, v)
		}
		barrier = barrier || v.hazard(b, a.Access)
		v.binds = append(v.binds, vk.Binding{Buffer: b.vb, Offset: a.Offset, Range: a.Range})
	}
	if barrier {
		v.clearHazards()
	}
	for _, a := range args {
		v.track(a.Buffer.(*buffer), a.Access)
	}
	if err := v.stream.Dispatch(p.p, v.binds, push, groups, barrier); err != nil {
		return fmt.Errorf("goamp/accelerator: %s: %w", v.acc.path, err)
	}
	atomic.AddUint64(&v.stats.Dispatches, 1)
	if v.mode == Immediate || v.stream.Commands() >= maxBatch {
		return v.submit()
	}
	return nil
}

// EnableProfiling turns on device timestamps for up to n dispatches per batch; after
// Wait, DispatchTimes reports each dispatch's device time in nanoseconds.
func (v *View) EnableProfiling(n int) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.stream == nil {
		return &FeatureError{Accelerator: v.acc.path, Feature: "device timestamps"}
	}
	if err := v.submit(); err != nil {
		return err
	}
	if v.acc.info.Limits.TimestampValidBits == 0 {
		return &FeatureError{Accelerator: v.acc.path, Feature: "timestamps on its compute queue"}
	}
	if b := v.stream.Last(); b != nil {
		if err := v.waitSeq(context.Background(), v.seq-1); err != nil {
			return err
		}
	}
	return v.stream.EnableTimestamps(n)
}

// DispatchTimes returns the device time of each profiled dispatch of the last batch, in
// nanoseconds. Call it after Wait.
func (v *View) DispatchTimes() ([]float64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.stream == nil {
		return nil, nil
	}
	ts, err := v.stream.Timestamps()
	if err != nil {
		return nil, err
	}
	info := v.acc.info
	mask := ^uint64(0)
	if b := info.Limits.TimestampValidBits; b < 64 {
		mask = 1<<b - 1
	}
	out := make([]float64, 0, len(ts)/2)
	for i := 0; i+1 < len(ts); i += 2 {
		d := (ts[i+1] - ts[i]) & mask
		out = append(out, float64(d)*float64(info.Limits.TimestampPeriodNs))
	}
	return out, nil
}
