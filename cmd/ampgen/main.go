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
// ampgen also notes on stderr, as file:line:col: Kernel: message, a float32 widened to
// float64 for a math function (math.Sqrt(float64(x))), which makes the kernel need double
// precision, naming the fmath function to call instead; with -strict such a note is an
// error (exit status 1, nothing written).
//
// Put this line in a file of the package and run go generate:
//
//	//go:generate go run github.com/goamp/goamp/cmd/ampgen
//
// Usage:
//
//	ampgen [-o amp_gen.go] [-glsl] [-check] [-checked] [-strict] [-backend glslc|spirv] [-amp-glsl DIR] [package directories]
//
// With -backend=spirv it writes each kernel's SPIR-V itself, from the translator's
// intermediate representation, with no glslc: for elementwise and tiled kernels over
// int32, uint32 and float32 values, structs and arrays of them and package vec's vectors,
// with tile_static memory, barriers, atomics and the package's functions, for now; a
// kernel outside that (8-, 16- or 64-bit values, math/bits, most of fmath) is an error
// naming the construct, and nothing is written. glslc stays the default.
//
// With -checked it also writes each kernel's bounds-checked build (amp_gen_TYPE.check.spv)
// and amp_gen_check.go, which embeds them in builds with -tags goampcheck: there, a GPU
// dispatch checks every view access against the view's extent and returns a
// *runtime.KernelPanicError (Value *runtime.BoundsError) for one outside, as the CPU does,
// where an ordinary build reads or writes outside unchecked (as C++ AMP does).
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
	checked := fl.Bool("checked", false, "also write the bounds-checked build of each kernel (amp_gen_check.go and "+
		"amp_gen_TYPE.check.spv), which builds with -tags goampcheck run on the GPU; under -check, a package has it when its file exists")
	backend := fl.String("backend", "glslc", "how SPIR-V is made: glslc (GLSL compiled by glslc) or spirv "+
		"(written directly from the translator's IR, no tool outside Go; elementwise kernels of 32-bit scalars for now)")
	strict := fl.Bool("strict", false, "refuse (exit 1, write nothing) what ampgen otherwise notes on stderr: "+
		"a float32 widened to float64 for a math function")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: ampgen [flags] [package directories]")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *backend != "glslc" && *backend != "spirv" {
		fmt.Fprintf(stderr, "ampgen: -backend=%s: want glslc or spirv\n", *backend)
		return 2
	}
	if *backend == "spirv" && *checked {
		fmt.Fprintln(stderr, "ampgen: -checked needs -backend=glslc: the direct backend writes no bounds-checked builds yet")
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
		if err := generate(dir, options{out: *out, keep: *keep, check: *check, checked: *checked, strict: *strict,
			direct: *backend == "spirv"}, stdout, stderr); err != nil {
			var l translate.ErrorList
			var u *translate.UnsupportedError
			switch {
			case errors.As(err, &l):
				for _, e := range l {
					e.Pos.Filename = relative(e.Pos.Filename)
					fmt.Fprintln(stderr, e)
				}
			case errors.As(err, &u):
				u.Pos.Filename = relative(u.Pos.Filename)
				fmt.Fprintln(stderr, u)
			default:
				fmt.Fprintln(stderr, "ampgen:", err)
			}
			status = 1
		}
	}
	return status
}

// kernelNotes prints the notes of p's kernels on stderr, each once (a generic kernel's
// instances share them), or, under -strict, returns them as errors.
func kernelNotes(p *translate.Package, o options, stderr io.Writer) error {
	var errs translate.ErrorList
	seen := map[string]bool{}
	for _, k := range p.Kernels {
		for _, n := range k.Notes {
			n.Pos.Filename = relative(n.Pos.Filename)
			if s := n.String(); !seen[s] {
				seen[s] = true
				if o.strict {
					errs = append(errs, &translate.Error{Pos: n.Pos, Msg: n.Kernel + ": " + n.Msg + " (ampgen -strict)"})
				} else if !o.check {
					fmt.Fprintf(stderr, "ampgen: %s\n", n)
				}
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// options are the flags that shape what generate writes.
type options struct {
	out                          string
	keep, check, checked, strict bool
	direct                       bool // -backend=spirv
}

// generate writes (or checks) the generated files of the package in dir.
func generate(dir string, o options, stdout, stderr io.Writer) error {
	checkedGo := strings.TrimSuffix(o.out, ".go") + "_check.go"
	if o.check { // the package has checked builds when its file exists
		_, err := os.Stat(filepath.Join(dir, checkedGo))
		o.checked = err == nil
	}
	p, err := translate.Load(dir, translate.Options{Skip: o.out, Checked: o.checked, Direct: o.direct})
	if err != nil {
		return err
	}
	for _, n := range p.Notes {
		if !o.check { // under -check only a stale file is news
			n.Pos.Filename = relative(n.Pos.Filename)
			fmt.Fprintf(stdout, "ampgen: %s\n", n)
		}
	}
	if err := kernelNotes(p, o, stderr); err != nil {
		return err
	}
	if len(p.Kernels) == 0 {
		fmt.Fprintf(stdout, "ampgen: %s has no kernels to translate\n", p.Path)
		return nil
	}
	want, err := compile(p, o, checkedGo)
	if err != nil {
		return err
	}
	orphans, err := filepath.Glob(filepath.Join(p.Dir, strings.TrimSuffix(o.out, ".go")+"_*.spv"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(p.Dir, checkedGo)); err == nil {
		orphans = append(orphans, filepath.Join(p.Dir, checkedGo))
	}
	names := slices.Sorted(maps.Keys(want))
	if o.check {
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
	return write(p.Dir, want, orphans)
}

// compile compiles the package's kernels (and their bounds-checked builds where
// o.checked) and returns the files to write, by name: the modules and the Go files.
func compile(p *translate.Package, o options, checkedGo string) (map[string][]byte, error) {
	want := map[string][]byte{} // the .spv files, by name
	files := make([]string, len(p.Kernels))
	checkedFiles := make([]string, len(p.Kernels))
	var err error
	for i, k := range p.Kernels {
		files[i] = translate.SPIRVFile(o.out, k)
		if o.direct {
			want[files[i]], err = translate.CompileDirect(k)
		} else {
			want[files[i]], err = translate.Compile(k.Program, k.GLSL)
		}
		if err != nil {
			return nil, err
		}
		if o.checked {
			checkedFiles[i] = translate.CheckedSPIRVFile(o.out, k)
			if want[checkedFiles[i]], err = translate.Compile(k.Program+" (bounds-checked)", k.CheckedGLSL); err != nil {
				return nil, err
			}
		}
		if o.keep && !o.check {
			name := filepath.Join(p.Dir, "amp_gen_"+k.Type+typeArgSuffix(k)+".comp")
			if err := os.WriteFile(name, []byte(k.GLSL), 0o644); err != nil {
				return nil, err
			}
		}
	}
	if want[o.out], err = p.GoFile(files); err != nil {
		return nil, err
	}
	if o.checked {
		if want[checkedGo], err = p.CheckedGoFile(checkedFiles); err != nil {
			return nil, err
		}
	}
	return want, nil
}

// write writes the files of want that differ from those in dir and removes the orphans,
// the generated files want no longer has.
func write(dir string, want map[string][]byte, orphans []string) error {
	for _, name := range slices.Sorted(maps.Keys(want)) {
		path := filepath.Join(dir, name)
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
