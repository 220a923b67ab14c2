package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/cmd/ampview/demos"
	"github.com/goamp/goamp/present/window"
)

// windowChildEnv, set to a seed, makes the test binary the child of TestWindow: it runs
// windowChild on its main thread instead of the tests.
const windowChildEnv = "AMPVIEW_WINDOW_CHILD"

// TestWindow runs every demo in a real GLFW window on a fresh Xvfb server, on the default
// Vulkan accelerator (the frame made on the device) and on the CPU accelerator (the frame
// uploaded to a Vulkan device that presents), a few frames each, captures the screen with
// xwd and compares the window's pixels with the headless frame of the same demo after as
// many frames: exactly for mandelbrot and nbody (packed RGBA8 copied), within 1 per
// channel for heat (the colormap's float arithmetic on the device). It runs in a child
// process (windowChild), since the window's instance extensions are chosen before Vulkan
// opens. Without Xvfb or xwd it skips, unless CI is set.
func TestWindow(t *testing.T) {
	if !window.Available {
		t.Skip("this build has no window (built without cgo, or with the nowindow tag)")
	}
	if err := accelerator.NoVulkanReason(); err != nil {
		if os.Getenv(amptest.EnvRequireVulkan) == "1" {
			t.Fatalf("%s=1 but no Vulkan device to present with: %v", amptest.EnvRequireVulkan, err)
		}
		t.Skipf("no Vulkan device to present with: %v", err)
	}
	for _, tool := range []string{"Xvfb", "xwd"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed, and CI must run the window test (make setup installs xvfb and x11-apps)", tool)
			}
			t.Skipf("%s is not installed (Debian: xvfb, x11-apps; make setup installs them)", tool)
		}
	}
	display := startXvfb(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DISPLAY="+display, fmt.Sprintf("%s=%d", windowChildEnv, amptest.Seed(t)))
	out, err := cmd.CombinedOutput()
	t.Logf("window child:\n%s", out)
	require.NoError(t, err, "the window child failed")
	require.Contains(t, string(out), "windows: all frames match")
}

// startXvfb starts an Xvfb server on a free display and returns its name (":N"); the test
// stops it at cleanup.
func startXvfb(t *testing.T) string {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "320x240x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	require.NoError(t, x.Start())
	w.Close()
	t.Cleanup(func() {
		x.Process.Kill()
		x.Wait()
	})
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	require.NoError(t, err, "reading Xvfb's display number")
	n, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err)
	return fmt.Sprintf(":%d", n)
}

// windowChild is TestWindow's child: window.Init, then each demo in a window on the
// default Vulkan accelerator and the CPU, compared with its headless frame (exit status 1
// on a mismatch, an error, or a validation message).
func windowChild() int {
	seed, _ := strconv.ParseUint(os.Getenv(windowChildEnv), 10, 64)
	if err := window.Init(); err != nil {
		fmt.Println("window.Init:", err)
		return 1
	}
	defer window.Terminate()
	def, err := accelerator.Default()
	if err != nil {
		fmt.Println(err)
		return 1
	}
	code := 0
	for _, path := range []string{def.Path(), accelerator.CPUPath} {
		for _, name := range demos.Names() {
			o := options{accelerator: path, demo: name, frames: 3, rows: 48, cols: 64,
				cfg: demos.Config{Bodies: 512, Tile: 16, Seed: seed}}
			if err := checkWindow(o); err != nil {
				fmt.Printf("%s on %s: %v\n", name, path, err)
				code = 1
			}
		}
	}
	for _, m := range accelerator.ValidationMessages() {
		fmt.Println("validation layer:", m)
		code = 1
	}
	if code == 0 {
		fmt.Println("windows: all frames match")
	}
	return code
}

// checkWindow shows o's demo in a window for o.frames frames, then compares the screen
// with the demo's headless frame.
func checkWindow(o options) error {
	want, err := headlessFrame(o)
	if err != nil {
		return err
	}
	tol := 0
	if o.demo == "heat" {
		tol = 1
	}
	return runWindow(os.Stdout, o, func(*window.Window) error {
		var diff string
		// The X server may show the last frame a little after it was presented.
		for range 50 {
			got, err := captureScreen()
			if err != nil {
				return err
			}
			if diff = compare(want, got, tol); diff == "" {
				fmt.Printf("%s on %s: the window shows the headless frame (tolerance %d)\n", o.demo, o.accelerator, tol)
				return nil
			}
			time.Sleep(50 * time.Millisecond)
		}
		return fmt.Errorf("the window differs from the headless frame: %s", diff)
	})
}

// headlessFrame runs o.frames frames of o's demo on a new view of o's accelerator and
// returns the last one.
func headlessFrame(o options) (*image.RGBA, error) {
	cfg := o.cfg
	cfg.Rows, cfg.Cols = o.rows, o.cols
	d, err := demos.New(o.demo, cfg)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	av, _, err := openView(o.accelerator)
	if err != nil {
		return nil, err
	}
	defer av.Close()
	for range o.frames {
		if err := d.Step(av); err != nil {
			return nil, err
		}
	}
	return d.Frame().Image()
}

// compare returns "" when got's top-left corner matches want within tol per colour
// channel (alpha is not compared: the screen has none), else what differs.
func compare(want, got *image.RGBA, tol int) string {
	if got.Rect.Dx() < want.Rect.Dx() || got.Rect.Dy() < want.Rect.Dy() {
		return fmt.Sprintf("the screen is %v, smaller than the frame %v", got.Rect, want.Rect)
	}
	bad, first := 0, ""
	for y := range want.Rect.Dy() {
		for x := range want.Rect.Dx() {
			w, g := want.Pix[want.PixOffset(x, y):], got.Pix[got.PixOffset(x, y):]
			for c := range 3 {
				if d := int(w[c]) - int(g[c]); d > tol || -d > tol {
					if bad == 0 {
						first = fmt.Sprintf("(%d,%d) is %v, want %v", x, y, g[:3], w[:3])
					}
					bad++
					break
				}
			}
		}
	}
	if bad == 0 {
		return ""
	}
	return fmt.Sprintf("%d pixels, first %s", bad, first)
}

// captureScreen returns the X server's root window (xwd -root) as an image.
func captureScreen() (*image.RGBA, error) {
	out, err := exec.Command("xwd", "-root", "-silent").Output()
	if err != nil {
		return nil, fmt.Errorf("xwd: %w", err)
	}
	return decodeXWD(out)
}

// decodeXWD decodes an XWD file of a TrueColor ZPixmap of 24 or 32 bits per pixel (what
// xwd makes of Xvfb's 24-bit screen): a header of big-endian 32-bit fields, the window name, the
// colormap, then rows of pixels in the header's byte order, colours under its masks.
func decodeXWD(b []byte) (*image.RGBA, error) {
	if len(b) < 100 {
		return nil, fmt.Errorf("xwd: %d bytes, too short for a header", len(b))
	}
	h := make([]uint32, 25)
	for i := range h {
		h[i] = binary.BigEndian.Uint32(b[4*i:])
	}
	hsize, format, width, height, order, bpp, bpl := h[0], h[2], int(h[4]), int(h[5]), h[7], h[11], int(h[12])
	masks, ncolors := [3]uint32{h[14], h[15], h[16]}, h[19]
	if format != 2 || (bpp != 24 && bpp != 32) || width < 1 || height < 1 {
		return nil, fmt.Errorf("xwd: format %d, %d bits per pixel, %dx%d: want a 24- or 32-bit ZPixmap", format, bpp, width, height)
	}
	bytesPP := int(bpp) / 8
	data := b[min(len(b), int(hsize)+12*int(ncolors)):]
	if len(data) < bpl*height || bpl < bytesPP*width {
		return nil, fmt.Errorf("xwd: %d bytes of pixels for %d rows of %d bytes", len(data), height, bpl)
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	for y := range height {
		for x := range width {
			var p uint32
			for i, c := range data[y*bpl+bytesPP*x:][:bytesPP] {
				if order == 1 { // MSBFirst
					p = p<<8 | uint32(c)
				} else {
					p |= uint32(c) << (8 * i)
				}
			}
			o := img.PixOffset(x, y)
			for c, m := range masks {
				img.Pix[o+c] = uint8((p & m) >> shift(m))
			}
			img.Pix[o+3] = 255
		}
	}
	return img, nil
}

// shift returns the position of mask m's lowest set bit.
func shift(m uint32) uint {
	var s uint
	for m != 0 && m&1 == 0 {
		m >>= 1
		s++
	}
	return s
}

// TestDecodeXWD checks decodeXWD on a made-up LSBFirst file with random pixels.
func TestDecodeXWD(t *testing.T) {
	w, h := 5, 3
	var buf bytes.Buffer
	hdr := make([]uint32, 25)
	name := []byte("root\x00")
	hdr[0], hdr[2], hdr[4], hdr[5], hdr[7], hdr[11], hdr[12] = uint32(100+len(name)), 2, uint32(w), uint32(h), 0, 32, uint32(4*w)
	hdr[14], hdr[15], hdr[16], hdr[19] = 0xff0000, 0xff00, 0xff, 1
	for _, v := range hdr {
		binary.Write(&buf, binary.BigEndian, v)
	}
	buf.Write(name)
	buf.Write(make([]byte, 12)) // one colormap entry
	want := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := amptest.Seed(t)
	for i := range w * h {
		r, g, b := uint8(seed>>(i%56)), uint8(i*37+int(seed)), uint8(i*91)
		binary.Write(&buf, binary.LittleEndian, uint32(r)<<16|uint32(g)<<8|uint32(b))
		copy(want.Pix[4*i:], []byte{r, g, b, 255})
	}
	got, err := decodeXWD(buf.Bytes())
	require.NoError(t, err)
	require.Equal(t, want, got)
	_, err = decodeXWD(buf.Bytes()[:50])
	require.ErrorContains(t, err, "too short")
}
