package demos

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/present"
)

// Demo is one of ampview's demos: its state lives in array views (on the host and on the
// accelerator views that Step runs on), Step advances it by one frame, and Frame is the
// picture of the last step.
type Demo interface {
	// Name is the demo's name, as -demo takes it.
	Name() string
	// Step runs one frame's kernels on av. It does not wait for them.
	Step(av *accelerator.View) error
	// Frame is the picture after the last Step (a rank-2 view): reading its data waits
	// for the kernels that wrote it.
	Frame() present.Frame
	// Close frees the demo's device memory.
	Close() error
}

// Config sizes a demo.
type Config struct {
	// Rows and Cols are the frame's size in pixels (the heat demo's grid).
	Rows, Cols int
	// Bodies is the n-body demo's number of bodies.
	Bodies int
	// Tile is the n-body demo's tile size (bodies staged at once), and the heat demo's
	// square tile side; 0 for the default (256 and 16).
	Tile int
	// Split is the n-body demo's rows per tile (NBodySplitKernel): each body's pulls are
	// summed by Split threads; 0 or 1 for NBodyKernel, one thread per body.
	Split int
	// Seed makes the initial state (the heat sources, the bodies).
	Seed uint64
}

// ConfigError is a Config a demo cannot run with.
type ConfigError struct {
	// Demo is the demo's name.
	Demo string
	// Reason says what is wrong, naming the values.
	Reason string
}

func (e *ConfigError) Error() string { return "goamp/ampview/demos: " + e.Demo + ": " + e.Reason }

// UnknownError is a demo name that no demo has.
type UnknownError struct {
	// Name is the name asked for.
	Name string
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("goamp/ampview/demos: no demo %q; demos: %s", e.Name, strings.Join(Names(), ", "))
}

// makers maps each demo's name to its constructor.
var makers = map[string]func(Config) (Demo, error){
	"mandelbrot": func(c Config) (Demo, error) { return NewMandelbrot(c) },
	"heat":       func(c Config) (Demo, error) { return NewHeat(c) },
	"nbody":      func(c Config) (Demo, error) { return NewNBody(c) },
}

// Names returns the demos' names, sorted.
func Names() []string {
	var n []string
	for k := range makers {
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

// New returns the demo called name, sized by c.
func New(name string, c Config) (Demo, error) {
	m, ok := makers[name]
	if !ok {
		return nil, &UnknownError{Name: name}
	}
	return m(c)
}

// checkSize returns a *ConfigError unless rows and cols are positive multiples of the
// tile sides th and tw.
func checkSize(demo string, rows, cols, th, tw int) error {
	if rows < 1 || cols < 1 || rows%th != 0 || cols%tw != 0 {
		return &ConfigError{Demo: demo, Reason: fmt.Sprintf("a %dx%d frame: rows and columns must be positive multiples of the tile (%dx%d)", rows, cols, th, tw)}
	}
	return nil
}

// closeAll closes each closer and returns the first error.
func closeAll(cs ...interface{ Close() error }) error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
