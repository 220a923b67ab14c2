package kernelfuzz

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/goamp/goamp/translate"
)

//go:embed harness.tmpl
var harnessTemplate string

// Pkg is the package name of generated packages.
const Pkg = "fuzzgen"

// Batch is a package of generated kernels, in a directory of the goamp module.
type Batch struct {
	Dir     string
	Kernels []*Kernel
	// Drop holds, by kernel name, the statements left out (a minimizer's variants).
	Drop map[string]map[int]bool
}

// Write writes the batch's package: a file per kernel, the helpers, and the harness
// (a test, TestGenerated, that runs each kernel on its oracle and on each target).
func (b *Batch) Write() error {
	if err := os.MkdirAll(b.Dir, 0o755); err != nil {
		return err
	}
	for _, k := range b.Kernels {
		src, err := k.Source(Pkg, b.Drop[k.Name])
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(b.Dir, "k_"+k.Name+".go"), src, 0o644); err != nil {
			return err
		}
	}
	files := map[string]string{
		"helpers.go":      helpers(Pkg),
		"cases_test.go":   casesFile(Pkg, b.Kernels),
		"harness_test.go": strings.Replace(harnessTemplate, "package PKG", "package "+Pkg, 1),
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(b.Dir, name), []byte(src), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Rejection is a kernel that ampgen refused: a translation error or a compiler's.
type Rejection struct {
	Kernel string
	Msg    string
}

// Generate translates the batch's kernels as ampgen does (translate.Load, glslc, the
// generated Go file), writing amp_gen.go and the SPIR-V files. A kernel that does not
// translate is removed from the batch (its file deleted) and returned as a rejection;
// the rest are generated.
func (b *Batch) Generate() ([]Rejection, error) {
	var rejected []Rejection
	for len(b.Kernels) > 0 {
		bad, err := b.generateOnce()
		if err != nil {
			return rejected, err
		}
		if len(bad) == 0 {
			return rejected, nil
		}
		rejected = append(rejected, bad...)
		for _, r := range bad {
			b.remove(r.Kernel)
		}
		if err := b.Write(); err != nil {
			return rejected, err
		}
	}
	return rejected, nil
}

// remove drops kernel name from the batch.
func (b *Batch) remove(name string) {
	b.Kernels = slices.DeleteFunc(b.Kernels, func(k *Kernel) bool { return k.Name == name })
	os.Remove(filepath.Join(b.Dir, "k_"+name+".go"))
}

// generateOnce translates and compiles the batch; it returns the kernels that failed.
func (b *Batch) generateOnce() ([]Rejection, error) {
	p, err := translate.Load(b.Dir, translate.Options{Skip: "amp_gen.go", SourceDeps: true})
	var el translate.ErrorList
	if errors.As(err, &el) {
		byKernel := map[string][]string{}
		for _, e := range el {
			name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(e.Pos.Filename), "k_"), ".go")
			byKernel[name] = append(byKernel[name], e.Error())
		}
		var bad []Rejection
		for name, msgs := range byKernel {
			if !slices.ContainsFunc(b.Kernels, func(k *Kernel) bool { return k.Name == name }) {
				return nil, err // not a kernel's file: a harness bug
			}
			bad = append(bad, Rejection{Kernel: name, Msg: "translate: " + strings.Join(msgs, "; ")})
		}
		slices.SortFunc(bad, func(x, y Rejection) int { return strings.Compare(x.Kernel, y.Kernel) })
		return bad, nil
	}
	if err != nil {
		// Go's own errors in a kernel's file (a generator bug): reject those kernels.
		var bad []Rejection
		seen := map[string]bool{}
		for _, m := range goError.FindAllStringSubmatch(err.Error(), -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				bad = append(bad, Rejection{Kernel: m[1], Msg: "go: " + m[0]})
			}
		}
		if len(bad) > 0 {
			return bad, nil
		}
		return nil, err
	}
	files := make([]string, len(p.Kernels))
	names, glsl := make([]string, len(p.Kernels)), make([]string, len(p.Kernels))
	for i, k := range p.Kernels {
		files[i] = translate.SPIRVFile("amp_gen.go", k)
		names[i], glsl[i] = k.Program, k.GLSL
	}
	spv, errs := translate.CompileAll(names, glsl, 2)
	var bad []Rejection
	for i, k := range p.Kernels {
		if errs[i] != nil {
			bad = append(bad, Rejection{Kernel: k.Type, Msg: "compile: " + errs[i].Error()})
		}
	}
	if len(bad) > 0 {
		return bad, nil
	}
	for i := range p.Kernels {
		if err := os.WriteFile(filepath.Join(b.Dir, files[i]), spv[i], 0o644); err != nil {
			return nil, err
		}
	}
	src, err := p.GoFile(files)
	if err != nil {
		return nil, err
	}
	return nil, os.WriteFile(filepath.Join(b.Dir, "amp_gen.go"), src, 0o644)
}

// goError matches a Go compiler error in a kernel's file.
var goError = regexp.MustCompile(`k_(K\w+)\.go:\d+:\d+: [^\n]*`)

// Outcome is one run of one kernel in one mode, as the harness prints it.
type Outcome struct {
	Status string // ok, nofast, diff, error, validation, oracle-error, missing
	Kernel string
	Seed   uint64
	Mode   string
	Detail string
}

// Run runs the batch's harness with go test (env added to the environment) and returns
// the outcomes it printed, and go test's output when it printed none. The package is
// compiled without inlining (-gcflags=-l), which halves its compile time and changes
// no result (Go's float semantics do not depend on it).
func (b *Batch) Run(env ...string) ([]Outcome, string, error) {
	cmd := exec.Command("go", "test", "-count=1", "-vet=off", "-gcflags=-l", "-v", "-run", "^TestGenerated$", ".")
	cmd.Dir = b.Dir
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.CombinedOutput() // failures are outcomes
	return b.missing(parseOutcomes(out), string(out)), string(out), nil
}

// missing adds a "missing" outcome for each kernel of the batch without one on a mode
// that the harness reported for another kernel: a harness that crashed (a driver's
// signal), was killed or did not build leaves its remaining kernels unreported, which
// would otherwise go uncounted. The detail is the end of the log.
func (b *Batch) missing(outs []Outcome, log string) []Outcome {
	var modes []string
	have := map[[2]string]bool{}
	for _, o := range outs {
		if !slices.Contains(modes, o.Mode) {
			modes = append(modes, o.Mode)
		}
		have[[2]string{o.Kernel, o.Mode}] = true
	}
	if len(modes) == 0 {
		modes = []string{"run"} // nothing ran at all
	}
	tail := strings.TrimSpace(log)
	if i := len(tail) - 2000; i > 0 {
		tail = "..." + tail[i:]
	}
	first := ""
	for _, k := range b.Kernels {
		for _, m := range modes {
			if have[[2]string{k.Name, m}] {
				continue
			}
			detail := "the harness reported nothing for it, as for " + first
			if first == "" {
				first, detail = k.Name, "the harness reported nothing for it; its log ends:\n"+tail
			}
			outs = append(outs, Outcome{Status: "missing", Kernel: k.Name, Seed: k.Seed, Mode: m, Detail: detail})
		}
	}
	return outs
}

// parseOutcomes reads the harness's KERNELFUZZ lines.
func parseOutcomes(out []byte) []Outcome {
	var os []Outcome
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), " ", 6)
		if len(f) < 5 || f[0] != "KERNELFUZZ" {
			continue
		}
		seed, _ := strconv.ParseUint(f[3], 10, 64)
		o := Outcome{Status: f[1], Kernel: f[2], Seed: seed, Mode: f[4]}
		if len(f) == 6 {
			o.Detail = f[5]
		}
		os = append(os, o)
	}
	return os
}

// Build compiles the batch's harness into a test binary at out (go test -c), for a
// machine without Go: run it as out -test.run TestGenerated, with KERNELFUZZ_TARGETS.
// The binary is built small, to be carried: without inlining, paths, symbols or DWARF.
func (b *Batch) Build(out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "test", "-vet=off", "-tags", "nowindow", "-gcflags=-l", "-trimpath", "-ldflags=-s -w", "-c", "-o", abs, ".")
	cmd.Dir = b.Dir
	if o, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("kernelfuzz: go test -c: %v\n%s", err, o)
	}
	return nil
}
