package runtime

import (
	"context"

	"github.com/goamp/goamp/accelerator"
)

// Prepare does, ahead of time, what the first ParallelForEach(view, domain, kernel) would
// do before it can run: it checks the kernel, its program's contract and the domain
// against the device, and builds the program's compute pipeline for the domain's rank,
// the views' ranks and (for PrepareTiled) the tile shape. It binds no argument, moves no
// data and runs nothing; the views in kernel only give their ranks and element types.
//
// Building a pipeline compiles the program for the device: hundreds of milliseconds on a
// GPU the first time (416 ms for a MatMul's on the H100, RESULTS.md). A server that must
// answer its first request fast prepares its kernels at startup; with the on-disk pipeline
// cache (accelerator.EnvPipelineCache) the pipelines one process builds are quick to build
// for the next. On the CPU accelerator, which compiles nothing, Prepare only checks.
//
// Prepare returns the errors ParallelForEach would return for the same arguments before
// running the kernel.
func Prepare(view *accelerator.View, domain Extent, kernel IndexKernel) error {
	if isNil(kernel) {
		return nilKernel(kernel)
	}
	if err := validateDomain(domain); err != nil {
		return err
	}
	return prepare(view, domain, Extent{}, kernel)
}

// PrepareTiled is Prepare for a tiled kernel: what ParallelForEachTiled(view, domain,
// kernel) needs before it runs.
func PrepareTiled(view *accelerator.View, domain TiledExtent, kernel TiledKernel) error {
	if isNil(kernel) {
		return nilKernel(kernel)
	}
	if err := domain.Validate(); err != nil {
		return err
	}
	return prepare(view, domain.Extent, domain.Tile, kernel)
}

// prepare is run's bind and validate steps followed by the executor's prepare.
func prepare(view *accelerator.View, ext, tile Extent, kernel any) error {
	d := dispatchPool.Get().(*dispatch)
	defer d.release()
	if err := d.bind(context.Background(), view, ext, tile, kernel); err != nil {
		return err
	}
	if err := d.validate(); err != nil {
		return err
	}
	return d.x.prepare(d)
}
