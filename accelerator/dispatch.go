package accelerator

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/goamp/goamp/internal/vk"
)

// PipelineKey identifies a compiled pipeline on one device: the module's content (its
// sha256, so that two programs with one name never share a pipeline) and the
// specialization constants (tile sizes, ranks) it was built with.
type PipelineKey struct {
	// Module is the sha256 of the SPIR-V module.
	Module [32]byte
	// Spec are the values of specialization constants 0 to 3: the tile's x, y and z sizes,
	// then amp.glsl's AMP_RANKS.
	Spec [4]uint32
}

// Pipeline is a compute pipeline on one accelerator.
type Pipeline struct {
	p        *vk.Pipeline
	bindings int
	pushSize int
}

// Bindings is the number of storage buffers the pipeline binds.
func (p *Pipeline) Bindings() int { return p.bindings }

// Pipeline returns the pipeline for key, building it from SPIR-V on first use; name is
// the program's, for messages. key.Module must be the sha256 of spirv. Pipelines live as
// long as the accelerator.
func (a *Accelerator) Pipeline(key PipelineKey, name string, spirv []byte, bindings, pushSize int) (*Pipeline, error) {
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
		a.pipes = map[PipelineKey]*Pipeline{}
	}
	p := &Pipeline{p: vp, bindings: bindings, pushSize: pushSize}
	a.pipes[key] = p
	a.savePipelineCache(dev)
	return p, nil
}

// Arg is one storage-buffer binding of a dispatch: a byte range of a buffer and how the
// kernel uses it.
type Arg struct {
	// Buffer is the buffer bound; it must live on the dispatching view.
	Buffer *Buffer
	// Offset is where the binding starts in the buffer, in bytes (a multiple of
	// Limits.MinStorageBufferAlign).
	Offset uint64
	// Range is the binding's length in bytes.
	Range uint64
	// Access says whether the kernel reads the range, writes it, or both; it decides which
	// later dispatches and copies wait for this one.
	Access Access
}

// Dispatch records a dispatch of groups workgroups of pipeline p with the given buffer
// bindings and push constants. A barrier precedes it only when it reads what an earlier
// command of the view wrote or writes what an earlier one used. Automatic views submit when
// the batch is large; immediate views submit at once.
func (v *View) Dispatch(p *Pipeline, args []Arg, push []byte, groups [3]uint32) error {
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
		switch {
		case a.Buffer == nil:
			return fmt.Errorf("goamp/accelerator: dispatch binding %d is a nil buffer", i)
		case a.Buffer.vb == nil:
			return fmt.Errorf("goamp/accelerator: dispatch binding %d: %w", i, ErrBufferFreed)
		}
		if a.Buffer.view != v {
			return fmt.Errorf("goamp/accelerator: buffer of %s bound on %s", a.Buffer.view, v)
		}
		barrier = barrier || v.hazard(a.Buffer, a.Access)
		v.binds = append(v.binds, vk.Binding{Buffer: a.Buffer.vb, Offset: a.Offset, Range: a.Range})
	}
	if barrier {
		v.clearHazards()
	}
	for _, a := range args {
		v.track(a.Buffer, a.Access)
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
