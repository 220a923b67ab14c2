package translate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/goamp/goamp/translate/spvgen"
)

// GlslcFlags are the flags Compile passes to glslc besides the input and output: the
// same as goamp's own hand-written shaders (see the Makefile).
var GlslcFlags = []string{"-O", "--target-env=vulkan1.1", "-fshader-stage=compute"}

// ErrNoCompiler reports that glslc is not installed.
var ErrNoCompiler = errors.New("goamp/translate: glslc not found on PATH: install Debian's glslc package " +
	"(apt-get install glslc) or the Vulkan SDK")

// Compile compiles GLSL compute-shader source to SPIR-V with glslc and, when spirv-val is
// on PATH, validates the result for Vulkan 1.1; where the optimizer crashes, or the
// optimized module fails validation, and the unoptimized one passes, it returns the
// unoptimized one. name labels messages.
func Compile(name, glsl string) ([]byte, error) {
	glslc, err := exec.LookPath("glslc")
	if err != nil {
		return nil, ErrNoCompiler
	}
	dir, err := os.MkdirTemp("", "ampgen")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src, out := filepath.Join(dir, "kernel.comp"), filepath.Join(dir, "kernel.spv")
	if err := os.WriteFile(src, []byte(glsl), 0o644); err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd := exec.Command(glslc, append(append([]string(nil), GlslcFlags...), "-o", out, src)...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil && crashed(err) {
		if err := optimizeApart(glslc, src, out); err != nil {
			// spirv-opt -O crashed too (the same optimizer): the unoptimized module.
			if spv, uerr := unoptimized(name, out+".raw"); uerr == nil {
				return spv, nil
			}
			return nil, fmt.Errorf("goamp/translate: glslc -O crashed on the GLSL of %s and compiling it apart failed (a translator bug: please report it with the kernel): %v",
				name, err)
		}
	} else if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" { // glslc said nothing: say how it ended
			msg = "glslc: " + err.Error()
		}
		return nil, fmt.Errorf("goamp/translate: glslc rejected the GLSL of %s (a translator bug: please report it with the kernel):\n%s\n%s",
			name, msg, numbered(glsl))
	}
	spv, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	spv = exactFloats(spv)
	if err := os.WriteFile(out, spv, 0o644); err != nil {
		return nil, err
	}
	if err := validate(name, out); err != nil {
		// optimizeApart left the unoptimized module beside out where glslc -O crashed.
		raw := out + ".raw"
		if !fileExists(raw) && exec.Command(glslc, append(withoutO(), "-o", raw, src)...).Run() != nil {
			return nil, err
		}
		if spv, uerr := unoptimized(name, raw); uerr == nil {
			return spv, nil
		}
		return nil, err
	}
	return spv, nil
}

// withoutO is GlslcFlags without -O.
func withoutO() []string {
	return slices.DeleteFunc(slices.Clone(GlslcFlags), func(f string) bool { return f == "-O" })
}

// unoptimized is the SPIR-V where the optimized module fails validation (Debian bookworm's
// spirv-opt -O breaks the structured control flow of some valid modules): the unoptimized
// module in the file raw, its float operations marked exact, if it validates.
func unoptimized(name, raw string) ([]byte, error) {
	spv, err := os.ReadFile(raw)
	if err != nil {
		return nil, err
	}
	spv = exactFloats(spv)
	out := raw + ".exact"
	if err := os.WriteFile(out, spv, 0o644); err != nil {
		return nil, err
	}
	if err := validate(name, out); err != nil {
		return nil, err
	}
	return spv, nil
}

// CompileAll compiles many kernels' GLSL (names label messages) as Compile compiles each
// and returns each one's SPIR-V or error, in order. It starts glslc once for all of them,
// without -O, then optimizes each with spirv-opt -O and --strip-debug, which writes what
// glslc -O writes, byte for byte, and validates it as Compile does; parallel kernels at a
// time. glslc's start-up is most of a small kernel's compile time, so a package of many
// kernels compiles several times as fast. A kernel that glslc rejects, or each one where
// spirv-opt is not on PATH, goes through Compile, whose error names it.
func CompileAll(names, glsl []string, parallel int) ([][]byte, []error) {
	spv, errs := make([][]byte, len(glsl)), make([]error, len(glsl))
	raw := make([]string, len(glsl)) // each kernel's unoptimized SPIR-V, "" where Compile must compile it
	glslc, err := exec.LookPath("glslc")
	opt, optErr := exec.LookPath("spirv-opt")
	dir, dirErr := os.MkdirTemp("", "ampgen")
	if err == nil && optErr == nil && dirErr == nil {
		defer os.RemoveAll(dir)
		args := append(withoutO(), "-c")
		for i, src := range glsl {
			f := fmt.Sprintf("k%d.comp", i)
			if err := os.WriteFile(filepath.Join(dir, f), []byte(src), 0o644); err != nil {
				return spv, fill(errs, err)
			}
			args = append(args, f)
		}
		cmd := exec.Command(glslc, args...)
		cmd.Dir = dir
		cmd.Run() // a kernel glslc rejects has no output: Compile says why
		for i := range glsl {
			if f := filepath.Join(dir, fmt.Sprintf("k%d.comp.spv", i)); fileExists(f) {
				raw[i] = f
			}
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(parallel, 1))
	for i := range glsl {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if raw[i] == "" {
				spv[i], errs[i] = Compile(names[i], glsl[i])
				return
			}
			spv[i], errs[i] = optimize(opt, names[i], raw[i])
		}()
	}
	wg.Wait()
	return spv, errs
}

// optimize optimizes the unoptimized SPIR-V file raw as glslc -O does, marks its float
// operations exact and validates it (Compile's steps after glslc).
func optimize(opt, name, raw string) ([]byte, error) {
	out := strings.TrimSuffix(raw, ".comp.spv") + ".spv"
	var stderr bytes.Buffer
	cmd := exec.Command(opt, "-O", "--strip-debug", "--target-env=vulkan1.1", raw, "-o", out)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if crashed(err) { // as glslc -O crashes on some modules: the unoptimized one
			if spv, uerr := unoptimized(name, raw); uerr == nil {
				return spv, nil
			}
		}
		return nil, fmt.Errorf("goamp/translate: spirv-opt failed on the SPIR-V of %s (a translator bug: please report it with the kernel): %v\n%s",
			name, err, strings.TrimSpace(stderr.String()))
	}
	spv, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	spv = exactFloats(spv)
	if err := os.WriteFile(out, spv, 0o644); err != nil {
		return nil, err
	}
	if err := validate(name, out); err != nil {
		if spv, uerr := unoptimized(name, raw); uerr == nil {
			return spv, nil
		}
		return nil, err
	}
	return spv, nil
}

// validate runs spirv-val, when it is on PATH, on the SPIR-V file out.
func validate(name, out string) error {
	val, err := exec.LookPath("spirv-val")
	if err != nil {
		return nil
	}
	var stderr bytes.Buffer
	cmd := exec.Command(val, "--target-env", "vulkan1.1", out)
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("goamp/translate: spirv-val rejected the SPIR-V of %s: %s", name, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// fill sets every element of errs to err and returns errs.
func fill(errs []error, err error) []error {
	for i := range errs {
		errs[i] = err
	}
	return errs
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// crashed reports whether err is a command's that a signal ended.
func crashed(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == -1
}

// optimizeApart compiles src to out as glslc -O does, in two steps: glslc without -O,
// then spirv-opt -O. Debian bookworm's glslc -O crashes (SIGSEGV) on some kernels that its
// spirv-opt optimizes.
func optimizeApart(glslc, src, out string) error {
	opt, err := exec.LookPath("spirv-opt")
	if err != nil {
		return err
	}
	raw := out + ".raw"
	if err := exec.Command(glslc, append(withoutO(), "-o", raw, src)...).Run(); err != nil {
		return err
	}
	return exec.Command(opt, "-O", "--target-env=vulkan1.1", raw, "-o", out).Run()
}

// numbered prefixes each line of s with its number, for compiler messages.
func numbered(s string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

// CompileDirect writes kernel k's SPIR-V from its IR (Load with Options.Direct),
// without glslc, and, when spirv-val is on PATH, validates it for Vulkan 1.1.
// A kernel outside what the direct backend covers is its *UnsupportedError.
func CompileDirect(k *Kernel) ([]byte, error) {
	if k.IR == nil {
		if k.Unsupported != nil {
			return nil, k.Unsupported
		}
		return nil, fmt.Errorf("goamp/translate: kernel %s has no IR: load it with Options.Direct", k.Program)
	}
	spv, err := spvgen.Write(k.IR)
	if err != nil {
		return nil, err
	}
	if err := Validate(k.Program, spv); err != nil {
		return nil, err
	}
	return spv, nil
}

// Validate runs spirv-val on spv for Vulkan 1.1 where spirv-val is on PATH
// (and does nothing where it is not). name labels the message.
func Validate(name string, spv []byte) error {
	val, err := exec.LookPath("spirv-val")
	if err != nil {
		return nil
	}
	f, err := os.CreateTemp("", "ampgen-*.spv")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(spv); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	out, err := exec.Command(val, "--target-env", "vulkan1.1", f.Name()).CombinedOutput()
	if err != nil {
		return fmt.Errorf("goamp/translate: spirv-val rejected the SPIR-V of %s: %s", name, strings.TrimSpace(string(out)))
	}
	return nil
}
