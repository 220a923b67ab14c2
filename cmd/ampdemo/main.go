// Command ampdemo runs the C++ AMP seed samples on an accelerator and prints their output in
// the seeds' own format:
//
//	tile-average        seed 000: the 4x6 sample averaged in 2x2 tiles
//	tiling-description  seed 004: the 8x9 matrix of Description structs in 2x3 tiles
//	sampling-average    seed 004: 8x8 averages with tile_static and barriers, SAMPLESIZE 2 and 4
//	reduce-row          seed 003: ReduceRow with discard_data on both guidelines
//
// Usage: ampdemo [-accelerator PATH] [sample ...]. With no sample named it runs them all; the
// accelerator defaults to the default accelerator (see ampinfo).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goamp/goamp/accelerator"
)

// sample is one seed sample: its name, title and body.
type sample struct {
	name, title string
	run         func(w io.Writer, av *accelerator.View, color bool) error
}

var samples = []sample{
	{"tile-average", "seed 000: the 4x6 sample averaged in 2x2 tiles (tile_static, barrier.Wait)", tileAverage},
	{"tiling-description", "seed 004: the 8x9 matrix of Description structs in 2x3 tiles", tilingDescription},
	{"sampling-average", "seed 004: 8x8 averages with tile_static and barriers", samplingAverage},
	{"reduce-row", "seed 003: ReduceRow with discard_data (guidelines A and B)", reduceRow},
}

func main() {
	path := flag.String("accelerator", "", "accelerator path (see ampinfo); default: the default accelerator")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: ampdemo [-accelerator PATH] [sample ...]\nsamples: %s\n", strings.Join(names(), " "))
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(os.Stdout, *path, flag.Args(), isTerminal(os.Stdout)); err != nil {
		fmt.Fprintln(os.Stderr, "ampdemo:", err)
		os.Exit(1)
	}
}

func names() []string {
	var n []string
	for _, s := range samples {
		n = append(n, s.name)
	}
	return n
}

// run prints the chosen samples on the accelerator at path ("" for the default).
func run(w io.Writer, path string, chosen []string, color bool) error {
	var acc *accelerator.Accelerator
	var err error
	if path == "" {
		acc, err = accelerator.Default()
	} else {
		acc, err = accelerator.Get(path)
	}
	if err != nil {
		return err
	}
	av, err := acc.DefaultView()
	if err != nil {
		return err
	}
	todo := samples
	if len(chosen) > 0 {
		todo = nil
		for _, c := range chosen {
			found := false
			for _, s := range samples {
				if s.name == c {
					todo = append(todo, s)
					found = true
				}
			}
			if !found {
				return fmt.Errorf("no sample %q; samples: %s", c, strings.Join(names(), " "))
			}
		}
	}
	for i, s := range todo {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "== %s: %s\n", s.name, s.title)
		if err := s.run(w, av, color); err != nil {
			return fmt.Errorf("%s on %s: %w", s.name, acc.Path(), err)
		}
	}
	return nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
