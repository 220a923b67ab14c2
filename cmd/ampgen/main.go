// Command ampgen gives a package's kernels their GPU bodies: it translates each kernel's
// Go body (its Each or Tiled method and what that calls) to GLSL, compiles the GLSL to
// SPIR-V with glslc, validates it with spirv-val where present, and writes one generated
// Go file with each kernel's Program method, and each kernel's SPIR-V beside it in a .spv
// file (amp_gen_TYPE.spv) that the Go file embeds. The file also gives
// each kernel a fast CPU body where it can: an EachTile method (runtime.TileKernel) made
// from the Tiled body by loop fission at its barriers, or an EachRange method
// (runtime.RangeKernel) looping over Each. A kernel with a hand-written one, or whose
// barriers the fission cannot place, gets none, and ampgen prints a note saying why.
//
// Put this line in a file of the package and run go generate:
//
//	//go:generate go run github.com/goamp/goamp/cmd/ampgen
//
// Usage:
//
//	ampgen [-o amp_gen.go] [-glsl] [-check] [-amp-glsl DIR] [package directories]
//
// With no directory it works on the current one (go generate runs it in the package's
// directory). The generated file is deterministic and meant to be committed, so that
// `go build` needs no shader compiler; the .spv files are committed with it. ampgen removes
// the .spv files of kernels that are gone. Constructs outside the kernel language are
// reported as file:line:col: message, one per line, and exit status 1; so is a stale,
// missing or orphaned file under -check. See package translate for the kernel language.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goamp/goamp/shaders/include"
	"github.com/goamp/goamp/translate"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is ampgen with arguments, testable.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("ampgen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("o", "amp_gen.go", "the generated file's name, in each package's directory")
	keep := fl.Bool("glsl", false, "also write each kernel's GLSL beside the generated file (amp_gen_TYPE.comp), for reading")
	check := fl.Bool("check", false, "write nothing; exit 1 when a generated file is missing or differs from what ampgen would write")
	ampGLSL := fl.String("amp-glsl", "", "write amp.glsl, the include file of hand-written GLSL kernels, into this directory")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: ampgen [flags] [package directories]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *ampGLSL != "" {
		if err := os.WriteFile(filepath.Join(*ampGLSL, "amp.glsl"), []byte(include.AmpGLSL), 0o644); err != nil {
			fmt.Fprintln(stderr, "ampgen:", err)
			return 1
		}
		if fl.NArg() == 0 {
			return 0
		}
	}
	dirs := fl.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	status := 0
	for _, dir := range dirs {
		if err := generate(dir, *out, *keep, *check, stdout); err != nil {
			var l translate.ErrorList
			if errors.As(err, &l) {
				for _, e := range l {
					e.Pos.Filename = relative(e.Pos.Filename)
					fmt.Fprintln(stderr, e)
				}
			} else {
				fmt.Fprintln(stderr, "ampgen:", err)
			}
			status = 1
		}
	}
	return status
}

// generate writes (or checks) the generated file of the package in dir.
func generate(dir, out string, keep, check bool, stdout io.Writer) error {
	p, err := translate.Load(dir, translate.Options{Skip: out})
	if err != nil {
		return err
	}
	for _, n := range p.Notes {
		if !check { // under -check only a stale file is news
			n.Pos.Filename = relative(n.Pos.Filename)
			fmt.Fprintf(stdout, "ampgen: %s\n", n)
		}
	}
	if len(p.Kernels) == 0 {
		fmt.Fprintf(stdout, "ampgen: %s has no kernels to translate\n", p.Path)
		return nil
	}
	want := map[string][]byte{} // the .spv files, by name
	files := make([]string, len(p.Kernels))
	for i, k := range p.Kernels {
		files[i] = translate.SPIRVFile(out, k)
		if want[files[i]], err = translate.Compile(k.Program, k.GLSL); err != nil {
			return err
		}
		if keep && !check {
			name := filepath.Join(p.Dir, "amp_gen_"+k.Type+typeArgSuffix(k)+".comp")
			if err := os.WriteFile(name, []byte(k.GLSL), 0o644); err != nil {
				return err
			}
		}
	}
	src, err := p.GoFile(files)
	if err != nil {
		return err
	}
	want[out] = src
	orphans, err := filepath.Glob(filepath.Join(p.Dir, strings.TrimSuffix(out, ".go")+"_*.spv"))
	if err != nil {
		return err
	}
	names := slices.Sorted(maps.Keys(want))
	if check {
		for _, name := range names {
			if old, err := os.ReadFile(filepath.Join(p.Dir, name)); err != nil || !bytes.Equal(old, want[name]) {
				return fmt.Errorf("%s is stale: run go generate in %s", relative(filepath.Join(p.Dir, name)), relative(p.Dir))
			}
		}
		for _, o := range orphans {
			if _, ok := want[filepath.Base(o)]; !ok {
				return fmt.Errorf("%s belongs to no kernel: run go generate in %s", relative(o), relative(p.Dir))
			}
		}
		return nil
	}
	for _, name := range names {
		path := filepath.Join(p.Dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, want[name]) {
			continue
		}
		if err := os.WriteFile(path, want[name], 0o644); err != nil {
			return err
		}
	}
	for _, o := range orphans {
		if _, ok := want[filepath.Base(o)]; !ok {
			if err := os.Remove(o); err != nil {
				return err
			}
		}
	}
	return nil
}

// typeArgSuffix names a generic kernel's instance in file names.
func typeArgSuffix(k *translate.Kernel) string {
	s := ""
	for _, a := range k.TypeArgs {
		s += "_" + a
	}
	return s
}

// relative shortens a path against the working directory for messages.
func relative(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(wd, p); err == nil && len(r) < len(p) {
		return r
	}
	return p
}
