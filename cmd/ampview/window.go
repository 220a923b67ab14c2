package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/cmd/ampview/demos"
	"github.com/goamp/goamp/present/window"
)

// viewer is the windowed viewer's state: the demo on show and what the keys changed.
type viewer struct {
	o       options
	av      *accelerator.View
	win     *window.Window
	d       demos.Demo
	vp      window.Viewport
	paused  bool
	quit    bool
	profile bool
}

// runWindow shows o's demo in a window until it is closed (Esc or Q), or for o.frames
// frames when o.frames > 0; then it calls last, if not nil, with the window still open.
// window.Init must have run.
func runWindow(w io.Writer, o options, last func(*window.Window) error) error {
	o.cfg.Rows, o.cfg.Cols = o.rows, o.cols
	d, err := demos.New(o.demo, o.cfg)
	if err != nil {
		return err
	}
	av, profiled, err := openView(o.accelerator)
	if err != nil {
		d.Close()
		return err
	}
	defer av.Close()
	win, err := window.New("ampview", o.cols, o.rows)
	if err != nil {
		d.Close()
		return err
	}
	v := &viewer{o: o, av: av, win: win, d: d, vp: window.Viewport{Zoom: 1}, profile: profiled}
	err = v.loop(w, last)
	if cerr := win.Close(); err == nil {
		err = cerr
	}
	if cerr := v.d.Close(); err == nil {
		err = cerr
	}
	return err
}

// loop runs frames until the window closes or o.frames are shown, and updates the title
// twice a second.
func (v *viewer) loop(w io.Writer, last func(*window.Window) error) error {
	start, shown, frames := time.Now(), time.Now(), 0
	since := 0 // frames since the title was last updated
	for !v.win.ShouldClose() && !v.quit {
		for _, k := range v.win.Poll() {
			if err := v.key(k); err != nil {
				return err
			}
		}
		if !v.paused {
			if err := v.d.Step(v.av); err != nil {
				return fmt.Errorf("%s, frame %d on %s: %w", v.d.Name(), frames, v.av.Accelerator().Path(), err)
			}
		}
		if err := v.win.Show(v.av, v.d.Frame(), v.vp); err != nil {
			return err
		}
		frames++
		since++
		if dt := time.Since(shown); dt > 500*time.Millisecond || frames == v.o.frames {
			if err := v.title(float64(since) / dt.Seconds()); err != nil {
				return err
			}
			shown, since = time.Now(), 0
		}
		if frames == v.o.frames {
			break
		}
	}
	el := time.Since(start)
	fmt.Fprintf(w, "%s on %s in a window (%s): %d frames of %dx%d in %.3f s, %.1f frames/s\n", v.d.Name(),
		v.av.Accelerator().Path(), v.win.Via(), frames, v.o.rows, v.o.cols, el.Seconds(), float64(frames)/el.Seconds())
	if last != nil {
		if err := v.av.Wait(); err != nil {
			return err
		}
		return last(v.win)
	}
	return nil
}

// title shows the demo, the accelerator, the frames per second and, where the device has
// timestamps, the last frame's device time: its kernels', then the frame pass's.
func (v *viewer) title(fps float64) error {
	t := fmt.Sprintf("ampview: %s on %s [%s]: %.1f frames/s", v.d.Name(), v.av.Accelerator(), v.win.Via(), fps)
	if v.profile && !v.paused {
		if err := v.av.Wait(); err != nil {
			return err
		}
		ts, err := v.av.DispatchTimes()
		if err != nil {
			return err
		}
		if n := len(ts); n > 1 {
			var k float64
			for _, x := range ts[:n-1] {
				k += x
			}
			t += fmt.Sprintf(", kernels %.3f ms/frame + frame pass %.3f ms (device timestamps)", k/1e6, ts[n-1]/1e6)
		}
	}
	if v.paused {
		t += " (paused)"
	}
	v.win.SetTitle(t)
	return nil
}

// key does what key k asks: Space pauses, arrows pan, = and - zoom, 0 resets the view,
// Tab or N shows the next demo and 1 to 3 a given one, Esc or Q quits.
func (v *viewer) key(k window.Key) error {
	step := 0.1 / max(v.vp.Zoom, 1)
	switch k {
	case window.KeySpace:
		v.paused = !v.paused
	case window.KeyEscape, window.KeyQ:
		v.quit = true
	case window.KeyLeft:
		v.vp.PanX -= step
	case window.KeyRight:
		v.vp.PanX += step
	case window.KeyUp:
		v.vp.PanY -= step
	case window.KeyDown:
		v.vp.PanY += step
	case window.KeyZoomIn:
		v.vp.Zoom *= 1.25
	case window.KeyZoomOut:
		v.vp.Zoom = max(v.vp.Zoom/1.25, 1)
	case window.KeyReset:
		v.vp = window.Viewport{Zoom: 1}
	case window.KeyNext:
		names := demos.Names()
		return v.switchTo(names[(slices.Index(names, v.d.Name())+1)%len(names)])
	case window.Key1, window.Key2, window.Key3:
		names := demos.Names()
		if i := int(k - window.Key1); i < len(names) {
			return v.switchTo(names[i])
		}
	}
	return nil
}

// switchTo replaces the demo on show by a new one called name.
func (v *viewer) switchTo(name string) error {
	if err := v.av.Wait(); err != nil {
		return err
	}
	d, err := demos.New(name, v.o.cfg)
	if err != nil {
		return err
	}
	old := v.d
	v.d = d
	return old.Close()
}
