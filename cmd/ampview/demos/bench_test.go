package demos

import (
	"flag"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
)

// Benchmark flags, for the sizes of an H100 run:
//
//	go test -run '^$' -bench 'NBody/vulkan' -demos.bodies 65536 ./cmd/ampview/demos
//	go test -run '^$' -bench 'NBody/vulkan' -demos.bodies 65536 -demos.split 4 -demos.tile 64 ./cmd/ampview/demos
var (
	benchRows   = flag.Int("demos.rows", 512, "BenchmarkMandelbrot and BenchmarkHeat: the frame's rows")
	benchCols   = flag.Int("demos.cols", 512, "BenchmarkMandelbrot and BenchmarkHeat: the frame's columns")
	benchBodies = flag.Int("demos.bodies", 4096, "BenchmarkNBody: the number of bodies")
	benchTile   = flag.Int("demos.tile", 256, "BenchmarkNBody: bodies per tile (per row of a split tile)")
	benchSplit  = flag.Int("demos.split", 1, "BenchmarkNBody: rows per tile, each summing a part of the bodies (NBodySplitKernel); 1: NBodyKernel")
)

// BenchmarkMandelbrot runs the zoom's frames on every accelerator: frames/s by wall time
// (each frame waited for), and on Vulkan devices dev-ms/frame by timestamps. The zoom
// deepens with each frame, so later frames cost more: compare runs of the same b.N.
func BenchmarkMandelbrot(b *testing.B) {
	benchDemo(b, func() (Demo, error) { return NewMandelbrot(Config{Rows: *benchRows, Cols: *benchCols}) }, nil)
}

// BenchmarkHeat runs steps of the heat stencil on every accelerator: frames/s by wall
// time, and on Vulkan devices dev-ms/frame and dev-GB/s (8 bytes per cell: a read and a
// write; the halo and the sources are not counted) by timestamps.
func BenchmarkHeat(b *testing.B) {
	cells := float64(*benchRows * *benchCols)
	benchDemo(b, func() (Demo, error) { return NewHeat(Config{Rows: *benchRows, Cols: *benchCols, Seed: 1}) },
		func(b *testing.B, frames, wall, dev float64) {
			if dev > 0 {
				b.ReportMetric(8*cells*frames/dev, "dev-GB/s")
			}
		})
}

// BenchmarkNBody advances -demos.bodies bodies (tiles of -demos.tile, split among
// -demos.split rows) on every
// accelerator, one NBodyKernel dispatch per frame (Advance; the splat into the image is
// left out): frames/s, interactions/s and GFLOP/s (NBodyFlops per interaction) by wall
// time, each frame waited for, and on Vulkan devices dev-GFLOP/s and dev-ms/frame from the
// kernel's own timestamps.
func BenchmarkNBody(b *testing.B) {
	n := float64(*benchBodies)
	benchDemo(b, func() (Demo, error) {
		d, err := NewNBody(Config{Rows: 256, Cols: 256, Bodies: *benchBodies, Tile: *benchTile, Split: *benchSplit, Seed: 1})
		return advanceOnly{d}, err
	}, func(b *testing.B, frames, wall, dev float64) {
		b.ReportMetric(n*n*frames/wall*1e9, "interactions/s")
		b.ReportMetric(NBodyFlops*n*n*frames/wall, "GFLOP/s") // wall in ns: flop/ns = GFLOP/s
		if dev > 0 {
			b.ReportMetric(NBodyFlops*n*n*frames/dev, "dev-GFLOP/s")
		}
	})
}

// advanceOnly is an NBody whose Step only advances the bodies (no splat).
type advanceOnly struct{ *NBody }

// Step advances the bodies.
func (a advanceOnly) Step(av *accelerator.View) error { return a.Advance(av) }

// benchDemo runs b.N frames of a new demo on a fresh view of every accelerator (with
// timestamps on where the device has them) after one frame of warm-up, waiting for each
// frame, and reports frames/s, dev-ms/frame and what extra adds (wall and dev in ns).
func benchDemo(b *testing.B, mk func() (Demo, error), extra func(b *testing.B, frames, wall, dev float64)) {
	for _, v := range amptest.Views(b) {
		b.Run(v.Accelerator().Path(), func(b *testing.B) {
			av, err := v.Accelerator().CreateView(accelerator.Automatic)
			if err != nil {
				b.Fatal(err)
			}
			defer av.Close()
			profiled := av.EnableProfiling(8) == nil
			d, err := mk()
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			if err := frame(av, d, false, nil); err != nil { // warm-up: uploads, pipelines
				b.Fatal(err)
			}
			var dev float64
			b.ResetTimer()
			for range b.N {
				if err := frame(av, d, profiled, &dev); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			wall := float64(b.Elapsed().Nanoseconds())
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
			if profiled {
				b.ReportMetric(dev/float64(b.N)/1e6, "dev-ms/frame")
			}
			if extra != nil {
				extra(b, float64(b.N), wall, dev)
			}
		})
	}
}

// frame runs one Step and waits for it, adding its dispatches' device time to dev when
// profiled.
func frame(av *accelerator.View, d Demo, profiled bool, dev *float64) error {
	if err := d.Step(av); err != nil {
		return err
	}
	if err := av.Wait(); err != nil {
		return err
	}
	if !profiled {
		return nil
	}
	ts, err := av.DispatchTimes()
	for _, t := range ts {
		*dev += t
	}
	return err
}
