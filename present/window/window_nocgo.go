//go:build !cgo || nowindow

package window

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/present"
)

// Available reports whether this build can open windows: not without cgo, nor with the
// nowindow tag.
const Available = false

// Init returns ErrNeedsCgo: this build has no cgo.
func Init() error { return ErrNeedsCgo }

// Terminate does nothing without cgo.
func Terminate() {}

// Window is a window (none without cgo).
type Window struct{}

// New returns ErrNeedsCgo.
func New(string, int, int) (*Window, error) { return nil, ErrNeedsCgo }

// SetTitle does nothing without cgo.
func (*Window) SetTitle(string) {}

// ShouldClose reports true without cgo.
func (*Window) ShouldClose() bool { return true }

// Poll returns no keys without cgo.
func (*Window) Poll() []Key { return nil }

// Via returns "" without cgo.
func (*Window) Via() string { return "" }

// Show returns ErrNeedsCgo.
func (*Window) Show(*accelerator.View, present.Frame, Viewport) error { return ErrNeedsCgo }

// Close does nothing without cgo.
func (*Window) Close() error { return nil }
