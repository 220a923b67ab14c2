// Command ampview runs goamp's demos (package demos: mandelbrot, heat, nbody) on an
// accelerator and shows what their kernels compute, live in a window or headless.
//
// In a window (the default; needs cgo and a display, Xvfb will do): a GLFW window with a
// Vulkan swapchain (package present/window). On a Vulkan device that can present, the
// frame is made on the device from the demo's own buffer and nothing reaches the host; on
// the CPU accelerator the frame is uploaded to a Vulkan device that can present. The title
// shows the demo, the accelerator, frames per second and the last frame's device time
// (kernels, then the frame pass). Keys: Space pauses, arrows pan, = and - zoom, 0 resets
// the view, Tab or N shows the next demo (1, 2, 3: mandelbrot... in name order), Esc or Q
// quits. -frames N closes the window after N frames.
//
//	ampview -demo nbody -bodies 16384 -size 768x768
//	ampview -accelerator cpu -demo heat -size 256x256
//
// Headless: -frames N -png FILE runs N frames (default 60) with no window and no display,
// writes the last frame as a PNG, and prints the frames per second and, on a Vulkan
// device, the kernels' device time per frame (timestamps):
//
//	ampview -demo nbody -bodies 16384 -frames 100 -png nbody.png
//	ampview -accelerator cpu -demo heat -size 256x256 -frames 200 -png heat.png
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"strings"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/cmd/ampview/demos"
	"github.com/goamp/goamp/present"
	"github.com/goamp/goamp/present/window"
)

// options are ampview's flags.
type options struct {
	accelerator, demo, png string
	frames                 int
	rows, cols             int
	cfg                    demos.Config
}

// ErrNoPNG is run (headless) called without a PNG file to write.
var ErrNoPNG = errors.New("a headless run writes its last frame to a PNG: give -png FILE")

// The main goroutine stays on the main thread, where GLFW wants its calls.
func init() { goruntime.LockOSThread() }

func main() {
	var o options
	var size string
	flag.StringVar(&o.accelerator, "accelerator", "", "accelerator path (see ampinfo); default: the default accelerator")
	flag.StringVar(&o.demo, "demo", "mandelbrot", "the demo: "+strings.Join(demos.Names(), ", "))
	flag.IntVar(&o.frames, "frames", -1, "frames to run (default: 60 headless, until closed in a window)")
	flag.StringVar(&o.png, "png", "", "run headless and write the last frame to this PNG file (default: show a window)")
	flag.StringVar(&size, "size", "512x512", "the frame's size, ROWSxCOLS (the heat demo's grid: multiples of -tile)")
	flag.IntVar(&o.cfg.Bodies, "bodies", 16384, "nbody: the number of bodies (a multiple of -tile)")
	flag.IntVar(&o.cfg.Split, "split", 1, "nbody: threads per body, each summing a part of the bodies (tiles of split x tile threads)")
	flag.IntVar(&o.cfg.Tile, "tile", 0, "nbody: bodies staged per tile (default 256); heat: the tile's side (default 16)")
	flag.Uint64Var(&o.cfg.Seed, "seed", 1, "the initial state's seed (heat, nbody)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: ampview [-accelerator PATH] [-demo NAME] [-frames N] [-png FILE] [flags]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if _, err := fmt.Sscanf(size, "%dx%d", &o.rows, &o.cols); err != nil {
		fmt.Fprintf(os.Stderr, "ampview: -size %q: want ROWSxCOLS, such as 512x512\n", size)
		os.Exit(2)
	}
	var err error
	if o.png == "" {
		err = windowed(o)
	} else {
		if o.frames == -1 {
			o.frames = 60
		}
		err = run(os.Stdout, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ampview:", err)
		os.Exit(1)
	}
}

// windowed shows o's demo in a window (window.Init first: before any accelerator is used).
func windowed(o options) error {
	if err := window.Init(); err != nil {
		return err
	}
	defer window.Terminate()
	o.frames = max(o.frames, 0)
	return runWindow(os.Stdout, o, nil)
}

// run runs o's demo headless and writes its last frame to o.png.
func run(w io.Writer, o options) error {
	if o.png == "" {
		return ErrNoPNG
	}
	if o.frames < 1 {
		return fmt.Errorf("-frames %d: run at least one frame", o.frames)
	}
	o.cfg.Rows, o.cfg.Cols = o.rows, o.cols
	d, err := demos.New(o.demo, o.cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	av, profiled, err := openView(o.accelerator)
	if err != nil {
		return err
	}
	defer av.Close()
	start := time.Now()
	var device float64 // nanoseconds, summed over the frames
	for f := range o.frames {
		if err := d.Step(av); err != nil {
			return fmt.Errorf("%s, frame %d on %s: %w", o.demo, f, av.Accelerator().Path(), err)
		}
		if !profiled {
			continue
		}
		if err := av.Wait(); err != nil {
			return err
		}
		ts, err := av.DispatchTimes()
		if err != nil {
			return err
		}
		for _, t := range ts {
			device += t
		}
	}
	img, err := d.Frame().Image() // waits for the last frame
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	if err := present.WritePNG(o.png, img); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s on %s (%s): %d frames of %dx%d in %.3f s, %.1f frames/s",
		o.demo, av.Accelerator().Path(), av.Accelerator().Description(), o.frames, o.rows, o.cols,
		elapsed.Seconds(), float64(o.frames)/elapsed.Seconds())
	if profiled {
		fmt.Fprintf(w, ", kernels %.3f ms/frame (device timestamps)", device/float64(o.frames)/1e6)
	}
	fmt.Fprintf(w, "; wrote %s\n", o.png)
	return nil
}

// openView returns a new view of the accelerator at path ("" for the default), with
// device timestamps on where the accelerator has them (profiled).
func openView(path string) (av *accelerator.View, profiled bool, err error) {
	var acc *accelerator.Accelerator
	if path == "" {
		acc, err = accelerator.Default()
	} else {
		acc, err = accelerator.Get(path)
	}
	if err != nil {
		return nil, false, err
	}
	av, err = acc.CreateView(accelerator.Automatic)
	if err != nil {
		return nil, false, err
	}
	// Four dispatches per frame at most (nbody); a few more for room.
	return av, av.EnableProfiling(8) == nil, nil
}
