//go:build cgo && !nowindow

package window

import (
	"crypto/sha256"
	_ "embed" // frame.spv
	"errors"
	"fmt"
	"os"
	"unsafe"

	"github.com/go-gl/glfw/v3.3/glfw"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/devlink"
	"github.com/goamp/goamp/internal/vk"
	"github.com/goamp/goamp/present"
	"github.com/goamp/goamp/runtime"
)

// frameSPV is frame.comp compiled (make shaders).
//
//go:embed frame.spv
var frameSPV []byte

// Available reports whether this build can open windows (cgo, no nowindow tag).
const Available = true

// link is package accelerator's link to the Vulkan objects of its views and buffers, which
// its init installs before this package's code can run.
func link() devlink.Link[*accelerator.View, device.Buffer] {
	l, ok := devlink.Get[*accelerator.View, device.Buffer]()
	if !ok {
		panic("goamp/window: package accelerator installed no devlink.Link")
	}
	return l
}

// Init starts GLFW and asks for the window's Vulkan instance extensions (VK_KHR_surface and
// the window system's, which GLFW picks). Call it before the first use of package
// accelerator. It fails when there is no display, when the Vulkan loader has no surface
// extension GLFW can use (an *accelerator.FeatureError that names them), or when Vulkan is
// open already.
func Init() error {
	if os.Getenv("DISPLAY") == "" {
		return &Error{Op: "opening a window", Err: errors.New("no display (DISPLAY is not set): run headless with -frames N -png FILE, or under Xvfb")}
	}
	if err := glfw.Init(); err != nil {
		return &Error{Op: "starting GLFW (run headless with -png)", Err: err}
	}
	if !glfw.VulkanSupported() {
		glfw.Terminate()
		return &Error{Op: "starting GLFW", Err: errors.New("GLFW finds no Vulkan loader")}
	}
	exts := surfaceExtensions()
	if len(exts) == 0 {
		glfw.Terminate()
		return &Error{Op: "starting GLFW", Err: &accelerator.FeatureError{Accelerator: "the Vulkan loader",
			Feature: "a window surface (VK_KHR_surface with VK_KHR_xcb_surface or VK_KHR_xlib_surface)"}}
	}
	if err := devlink.SetInstanceExtensions(exts); err != nil {
		glfw.Terminate()
		return &Error{Op: "starting GLFW", Err: err}
	}
	return nil
}

// Terminate stops GLFW; close every window first.
func Terminate() { glfw.Terminate() }

// Window is a GLFW window that shows frames (Show).
type Window struct {
	w        *glfw.Window
	surf     *vk.Surface
	sc       *vk.Swapchain
	scDev    *vk.Device
	keys     []Key
	can      map[*accelerator.View]bool
	fallback *accelerator.View
	passes   map[*accelerator.View]*pass
	via      string
}

// pass is the frame pass on one view: its pipeline, the swapchain-sized buffer it writes,
// and the buffer host pixels are uploaded to (when the frame is not on a presenting device).
type pass struct {
	pipe    device.Pipeline
	dst, up device.Buffer
}

// New opens a window of width x height pixels (not resizable) titled title.
func New(title string, width, height int) (*Window, error) {
	if width < 1 || height < 1 {
		return nil, &Error{Op: "opening a window", Err: fmt.Errorf("a %dx%d window", width, height)}
	}
	inst := link().Instance()
	if inst == nil {
		return nil, &Error{Op: "opening a window", Err: fmt.Errorf("no Vulkan instance: %v", accelerator.NoVulkanReason())}
	}
	glfw.DefaultWindowHints()
	glfw.WindowHint(glfw.ClientAPI, glfw.NoAPI)
	glfw.WindowHint(glfw.Resizable, glfw.False)
	gw, err := glfw.CreateWindow(width, height, title, nil, nil)
	if err != nil {
		return nil, &Error{Op: "opening a window", Err: err}
	}
	gw.SetPos(0, 0)
	surf, err := newSurface(inst, gw)
	if err != nil {
		gw.Destroy()
		return nil, &Error{Op: "making the window's Vulkan surface", Err: err}
	}
	w := &Window{w: gw, surf: surf, can: map[*accelerator.View]bool{}, passes: map[*accelerator.View]*pass{}}
	gw.SetKeyCallback(func(_ *glfw.Window, k glfw.Key, _ int, a glfw.Action, _ glfw.ModifierKey) {
		if name, ok := keyNames[k]; ok && a != glfw.Release {
			w.keys = append(w.keys, name)
		}
	})
	return w, nil
}

// SetTitle sets the window's title.
func (w *Window) SetTitle(title string) { w.w.SetTitle(title) }

// ShouldClose reports whether the user asked to close the window.
func (w *Window) ShouldClose() bool { return w.w.ShouldClose() }

// Poll processes the window's events and returns the keys pressed since the last Poll.
func (w *Window) Poll() []Key {
	glfw.PollEvents()
	k := w.keys
	w.keys = nil
	return k
}

// Via says how the last frame was presented: on the frame's own device, or uploaded from
// the host to the device that presents.
func (w *Window) Via() string { return w.via }

// Show presents frame f, which the kernels of view av compute, seen through vp. On a
// device that can present, the frame pass is dispatched on av after those kernels and
// nothing reaches the host; otherwise the frame's pixels are read on the host and
// uploaded to a device that can present. A frame that does not fit the window is
// stretched (vp.Zoom 1) to it.
func (w *Window) Show(av *accelerator.View, f present.Frame, vp Viewport) error {
	rows, cols, err := f.Size()
	if err != nil {
		return err
	}
	target, direct, err := w.target(av)
	if err != nil {
		return err
	}
	dev, q, err := link().View(target)
	if err != nil {
		return &Error{Op: "presenting", Err: err}
	}
	if err := w.swapchainOn(dev); err != nil || w.sc == nil {
		return err // nil: minimized, nothing to show
	}
	width, height := w.sc.Size()
	p, err := w.passOn(target, uint64(width*height*4), uint64(rows*cols*4), direct)
	if err != nil {
		return err
	}
	push := framePush{Rows: uint32(rows), Cols: uint32(cols), Stride: uint32(cols), Width: uint32(width), Height: uint32(height),
		Lo: f.Lo, Hi: f.Hi}
	if w.sc.BGRA() {
		push.BGRA = 1
	}
	vp.place(&push, width, height)
	src, err := w.source(target, f, p, direct, &push)
	if err != nil {
		return err
	}
	args := []device.Arg{src, {Buffer: p.dst, Range: p.dst.Size(), Access: device.Write}}
	groups := [3]uint32{uint32(width+15) / 16, uint32(height+15) / 16, 1}
	if err := device.Of(target).Dispatch(p.pipe, args, push.bytes(), groups); err != nil {
		return err
	}
	if err := target.Flush(); err != nil {
		return err
	}
	err = w.sc.Present(q, link().Buffer(p.dst), 0)
	if errors.Is(err, vk.ErrOutOfDate) {
		w.sc.Destroy()
		w.sc = nil // made anew for the next frame
		return nil
	}
	if err != nil {
		return &Error{Op: "presenting", Err: err}
	}
	return nil
}

// source returns the frame pass's source binding: the frame's own buffer on target
// (direct), or its pixels read on the host and uploaded to p.up.
func (w *Window) source(target *accelerator.View, f present.Frame, p *pass, direct bool, push *framePush) (device.Arg, error) {
	if direct {
		var b runtime.Binding
		var err error
		if f.Field != nil {
			push.Field = 1
			b, err = f.Field.BindDevice(target, runtime.Read)
		} else {
			b, err = f.RGBA.BindDevice(target, runtime.Read)
		}
		if err != nil {
			return device.Arg{}, err
		}
		push.Base, push.Stride = b.Base, b.Strides[0]
		w.via = target.Accelerator().Path() + ", on the device"
		return device.Arg{Buffer: b.Buffer, Offset: b.Offset, Range: b.Range, Access: device.Read}, nil
	}
	px, err := f.Pixels()
	if err != nil {
		return device.Arg{}, err
	}
	if err := p.up.Upload(0, unsafe.Slice((*byte)(unsafe.Pointer(&px[0])), 4*len(px))); err != nil {
		return device.Arg{}, err
	}
	w.via = "uploaded to " + target.Accelerator().Path()
	return device.Arg{Buffer: p.up, Range: p.up.Size(), Access: device.Read}, nil
}

// target returns the view that presents frames of av: av itself when its device can
// present to the window (direct), else a view of a Vulkan device that can.
func (w *Window) target(av *accelerator.View) (*accelerator.View, bool, error) {
	can, ok := w.can[av]
	if !ok {
		dev, _, err := link().View(av)
		can = err == nil && dev.CanPresent(w.surf)
		w.can[av] = can
	}
	if can {
		return av, true, nil
	}
	if w.fallback != nil {
		return w.fallback, false, nil
	}
	for _, a := range accelerator.All() {
		if a.Path() == accelerator.CPUPath {
			continue
		}
		v, err := a.CreateView(accelerator.Automatic)
		if err != nil {
			continue
		}
		if dev, _, err := link().View(v); err == nil && dev.CanPresent(w.surf) {
			w.fallback = v
			return v, false, nil
		}
		v.Close()
	}
	return nil, false, &Error{Op: "presenting", Err: errors.New("no Vulkan device can present to the window")}
}

// swapchainOn makes sure the window has a swapchain on dev, the size of the window's
// framebuffer; w.sc stays nil while the window has no area.
func (w *Window) swapchainOn(dev *vk.Device) error {
	if w.sc != nil && w.scDev == dev {
		return nil
	}
	if w.sc != nil {
		w.sc.Destroy()
		w.sc = nil
	}
	fw, fh := w.w.GetFramebufferSize()
	if fw < 1 || fh < 1 {
		return nil
	}
	sc, err := dev.NewSwapchain(w.surf, fw, fh)
	if errors.Is(err, vk.ErrOutOfDate) {
		return nil
	}
	if err != nil {
		return &Error{Op: "making the swapchain", Err: err}
	}
	w.sc, w.scDev = sc, dev
	return nil
}

// passOn returns the frame pass on target with a dst buffer of dstSize bytes and, unless
// direct, an upload buffer of upSize bytes.
func (w *Window) passOn(target *accelerator.View, dstSize, upSize uint64, direct bool) (*pass, error) {
	p := w.passes[target]
	if p == nil {
		pipe, err := device.Of(target).Pipeline(device.PipelineKey{Module: sha256.Sum256(frameSPV)}, "present/window frame",
			frameSPV, 2, pushSize)
		if err != nil {
			return nil, err
		}
		p = &pass{pipe: pipe}
		w.passes[target] = p
	}
	var err error
	if p.dst, err = resize(target, p.dst, dstSize); err != nil {
		return nil, err
	}
	if !direct {
		if p.up, err = resize(target, p.up, upSize); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// resize returns b when it has size bytes, else a new buffer of size bytes on v (freeing b).
func resize(v *accelerator.View, b device.Buffer, size uint64) (device.Buffer, error) {
	if b != nil && b.Size() == size {
		return b, nil
	}
	if b != nil {
		if err := b.Free(); err != nil {
			return nil, err
		}
	}
	return device.Of(v).Alloc(size)
}

// Close waits for the frames in flight and closes the window.
func (w *Window) Close() error {
	var first error
	for v := range w.passes {
		if err := v.Wait(); err != nil && first == nil {
			first = err
		}
	}
	if w.sc != nil {
		w.sc.Destroy() // waits for the device: the copies out of the dst buffers are done
		w.sc = nil
	}
	for _, p := range w.passes {
		for _, b := range []device.Buffer{p.dst, p.up} {
			if b != nil {
				if err := b.Free(); err != nil && first == nil {
					first = err
				}
			}
		}
	}
	w.surf.Destroy()
	if w.fallback != nil {
		if err := w.fallback.Close(); err != nil && first == nil {
			first = err
		}
	}
	w.w.Destroy()
	return first
}

// keyNames are the keys Poll reports.
var keyNames = map[glfw.Key]Key{
	glfw.KeySpace: KeySpace, glfw.KeyEscape: KeyEscape, glfw.KeyQ: KeyQ,
	glfw.KeyLeft: KeyLeft, glfw.KeyRight: KeyRight, glfw.KeyUp: KeyUp, glfw.KeyDown: KeyDown,
	glfw.KeyEqual: KeyZoomIn, glfw.KeyKPAdd: KeyZoomIn, glfw.KeyMinus: KeyZoomOut, glfw.KeyKPSubtract: KeyZoomOut,
	glfw.Key0: KeyReset, glfw.KeyTab: KeyNext, glfw.KeyN: KeyNext,
	glfw.Key1: Key1, glfw.Key2: Key2, glfw.Key3: Key3,
}
