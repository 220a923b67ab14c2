package translate

import (
	"bytes"
	"fmt"
	"go/format"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goamp/goamp/internal/srchash"
)

// GoFile writes the generated Go file of a package: each kernel's Program method,
// returning a runtime.Program of the kernel's SPIR-V. The modules are not in the Go file:
// files[i] names the file beside it that holds Kernels[i]'s module (see SPIRVFile), which
// the generated file embeds with a //go:embed directive so that `go build` needs no shader
// compiler. Generic kernels pick their instance by their type arguments' kinds
// (ampimpl.Instances). Each kernel type also gets the fast CPU body Load generated for it,
// if any (an EachTile or EachRange method; see Package.Notes for those that get none). The
// output is gofmt'ed and deterministic.
func (p *Package) GoFile(files []string) ([]byte, error) {
	b, err := p.fileHead(files, "")
	if err != nil {
		return nil, err
	}
	generic := false
	for _, k := range p.Kernels {
		generic = generic || len(k.TypeArgs) > 0
	}
	imports := []string{`amprt "github.com/goamp/goamp/runtime"`, `"github.com/goamp/goamp/runtime/ampimpl"`}
	cpu := map[string]string{}
	if p.cpu != nil {
		imports = append(imports, p.cpu.importList()...)
		for _, m := range p.cpu.methods {
			cpu[m.typ] = m.code
		}
	}
	p.importBlock(b, generic, imports)
	b.WriteString(versionCheck(genVersion))

	// Group instances by type, in the order of p.Kernels (sorted by type).
	byType := map[string][]int{}
	var typesOrder []string
	for i, k := range p.Kernels {
		if _, ok := byType[k.Type]; !ok {
			typesOrder = append(typesOrder, k.Type)
		}
		byType[k.Type] = append(byType[k.Type], i)
	}
	sort.Strings(typesOrder)
	for _, typ := range typesOrder {
		idx := byType[typ]
		k0 := p.Kernels[idx[0]]
		body := "Each"
		if k0.Tiled {
			body = "Tiled"
		}
		fmt.Fprintf(b, "// Program is %s's GPU body: its %s method, translated to GLSL and SPIR-V by ampgen.\n", typ, body)
		if len(k0.TypeArgs) == 0 {
			fmt.Fprintf(b, "func (%s) Program() *amprt.Program { return %s }\n\n", typ, varName(typ))
		} else {
			p.genericProgram(b, typ, idx)
		}
		if code := cpu[typ]; code != "" {
			b.WriteString(code + "\n")
		}
	}
	b.WriteString("// ampgenSPIRV holds the kernels' SPIR-V modules, written by ampgen beside this file.\n")
	for _, f := range files {
		fmt.Fprintf(b, "//go:embed %s\n", f)
	}
	b.WriteString("var ampgenSPIRV embed.FS\n\n")
	if err := p.programVars(b, files, typesOrder, byType); err != nil {
		return nil, err
	}
	return gofmt(b)
}

// programVars writes the package-level variables of the kernels' programs, one per kernel
// type in typesOrder (an ampimpl.Instances for a generic one, of its instances byType), and
// the ampimpl.Programs that makes them of the modules in files, with the sources
// they were made from.
func (p *Package) programVars(b *bytes.Buffer, files, typesOrder []string, byType map[string][]int) error {
	prefix, err := p.filePrefix(files)
	if err != nil {
		return err
	}
	src, hash, err := p.sources()
	if err != nil {
		return err
	}
	b.WriteString("// ampgenPrograms makes the kernels' programs of their modules in ampgenSPIRV. It records\n" +
		"// what this file was made from: in a test binary, a dispatch of a kernel whose source\n" +
		"// changed since is an error (ampimpl.Sources).\n")
	fmt.Fprintf(b, "var ampgenPrograms = ampimpl.GeneratedFrom(%q, %q).Programs(ampgenSPIRV, %q, %q)\n\n",
		strings.Join(src, " "), hash, prefix, p.Path)
	for _, typ := range typesOrder {
		idx := byType[typ]
		ix := p.indexed(idx)
		if k := p.Kernels[idx[0]]; len(k.TypeArgs) == 0 {
			fmt.Fprintf(b, "var %s = ampgenPrograms.Program(%q%s)\n", varName(typ), typ, ix)
			continue
		}
		args := make([]string, len(idx))
		for a, i := range idx {
			args[a] = fmt.Sprintf("%q", strings.Join(p.Kernels[i].TypeArgs, ","))
		}
		fmt.Fprintf(b, "var %s = ampgenPrograms.Instances(%q, []string{%s}%s)\n", varName(typ), typ,
			strings.Join(args, ", "), ix)
	}
	return nil
}

// indexed writes the ampimpl.Indexed arguments of the kernels idx (one type's instances:
// of each view, the thread's index where any instance has it, and the largest rank), each
// on its line after a comma, or "".
func (p *Package) indexed(idx []int) string {
	var views []string
	by := map[string]*Indexed{}
	for _, i := range idx {
		for _, x := range p.Kernels[i].Indexed {
			y := by[x.Field]
			if y == nil {
				y = &Indexed{Field: x.Field}
				by[x.Field] = y
				views = append(views, x.Field)
			}
			y.Thread = y.Thread || x.Thread
			y.Rank = max(y.Rank, x.Rank)
		}
	}
	var b strings.Builder
	for _, f := range views {
		x := by[f]
		fmt.Fprintf(&b, ",\n\tampimpl.Indexed{Field: %q", f)
		if x.Thread {
			b.WriteString(", Thread: true")
		}
		if x.Rank > 0 {
			fmt.Fprintf(&b, ", Rank: %d", x.Rank)
		}
		b.WriteString("}")
	}
	return b.String()
}

// sources returns the base names of the files of the package's directory that its
// kernels' translations read (Kernel.Files), sorted, and their hash (srchash.Sum).
func (p *Package) sources() ([]string, string, error) {
	seen := map[string]bool{}
	var names []string
	for _, k := range p.Kernels {
		for _, f := range k.Files {
			if filepath.Dir(f) == p.Dir && !seen[f] {
				seen[f] = true
				names = append(names, filepath.Base(f))
			}
		}
	}
	sort.Strings(names)
	hash, err := srchash.Sum(p.Dir, names)
	return names, hash, err
}

// genericProgram writes the Program method of a generic kernel type: it looks the
// instance up by its type arguments' kinds in the type's ampimpl.Instances.
func (p *Package) genericProgram(b *bytes.Buffer, typ string, idx []int) {
	k0 := p.Kernels[idx[0]]
	params := make([]string, len(k0.TypeArgs))
	args := make([]string, len(k0.TypeArgs))
	for i := range params {
		params[i] = fmt.Sprintf("T%d", i)
		args[i] = fmt.Sprintf("reflect.TypeFor[T%d]()", i)
	}
	fmt.Fprintf(b, "func (%s[%s]) Program() *amprt.Program { return %s.Of(%s) }\n\n",
		typ, strings.Join(params, ", "), varName(typ), strings.Join(args, ", "))
}

// varName is the package-level variable of kernel type typ: its program, or the
// ampimpl.Instances of a generic type.
func varName(typ string) string { return "ampgen" + strings.ToUpper(typ[:1]) + typ[1:] }

// filePrefix returns the beginning that files, the kernels' SPIR-V files, share (see
// SPIRVFile): ampimpl.Programs finds each kernel's module by it. It fails when a
// file is not named so.
func (p *Package) filePrefix(files []string) (string, error) {
	var prefix string
	for i, k := range p.Kernels {
		rest := strings.TrimSuffix(SPIRVFile("_.go", k), ".spv")[1:] // _Type_args
		pre, ok := strings.CutSuffix(strings.TrimSuffix(files[i], ".spv"), rest)
		if !ok || i > 0 && pre != prefix {
			return "", fmt.Errorf("goamp/translate: %s: not the SPIR-V file of %s that the runtime finds", files[i], k.Program)
		}
		prefix = pre
	}
	return prefix, nil
}

// SPIRVFile names the file, beside the generated Go file out (such as amp_gen.go), that
// holds kernel k's SPIR-V module: out without .go, then _ and the kernel's type and type
// arguments (amp_gen_Scale.spv, amp_gen_Axpy_float32.spv).
func SPIRVFile(out string, k *Kernel) string {
	n := strings.TrimSuffix(filepath.Base(out), ".go") + "_" + k.Type
	for _, a := range k.TypeArgs {
		n += "_" + mangle(a)
	}
	return n + ".spv"
}

// importBlock writes the generated file's import declaration.
func (p *Package) importBlock(b *bytes.Buffer, generic bool, imports []string) {
	std := []string{`"embed"`} // the standard library's packages first, as goimports groups them
	var other []string
	if generic {
		std = append(std, `"reflect"`)
	}
	for _, imp := range imports {
		if path := importPath(imp); strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
			other = append(other, imp)
		} else {
			std = append(std, imp)
		}
	}
	b.WriteString("import (\n")
	for _, imp := range std {
		b.WriteString("\t" + imp + "\n")
	}
	if len(std) > 0 {
		b.WriteString("\n")
	}
	for _, imp := range other {
		b.WriteString("\t" + imp + "\n")
	}
	b.WriteString(")\n\n")
}

// CheckedSPIRVFile names the file that holds kernel k's bounds-checked module (Kernel.
// CheckedGLSL): SPIRVFile's name with .check.spv for .spv.
func CheckedSPIRVFile(out string, k *Kernel) string {
	return strings.TrimSuffix(SPIRVFile(out, k), ".spv") + ".check.spv"
}

// CheckedGoFile writes the generated file that gives each kernel's program its
// bounds-checked build (runtime.Program.Checked) in builds with -tags goampcheck: files[i]
// names Kernels[i]'s checked module (CheckedSPIRVFile), which it embeds. GoFile's file
// declares the programs, made by its ampgenPrograms, which finds each checked module by
// its program's file.
func (p *Package) CheckedGoFile(files []string) ([]byte, error) {
	b, err := p.fileHead(files, "goampcheck")
	if err != nil {
		return nil, err
	}
	plain := make([]string, len(files))
	for i, f := range files {
		plain[i] = strings.TrimSuffix(f, ".check.spv") + ".spv"
	}
	if _, err := p.filePrefix(plain); err != nil {
		return nil, err
	}
	b.WriteString("import \"embed\"\n\n")
	b.WriteString("// ampgenCheckedSPIRV holds the kernels' bounds-checked SPIR-V modules, written by ampgen\n" +
		"// -checked beside this file.\n//\n")
	for _, f := range files {
		fmt.Fprintf(b, "//go:embed %s\n", f)
	}
	b.WriteString("var ampgenCheckedSPIRV embed.FS\n\n")
	b.WriteString("// init gives each kernel's program its bounds-checked build, which GPU dispatches run.\n" +
		"func init() { ampgenPrograms.Checked(ampgenCheckedSPIRV) }\n")
	return gofmt(b)
}

// genVersion is the version of the code GoFile writes: runtime/ampimpl's Version,
// which a test of this package compares (the translator imports nothing of goamp's).
const genVersion = 2

// versionCheck is the declaration by which a generated file of version v fails to
// compile against a goamp of another version, saying what to do.
func versionCheck(v int) string {
	return fmt.Sprintf("// This file is ampgen's version %d. Where ampimpl.V%d_RunGoGenerate is undefined,\n"+
		"// goamp is of another version: run go generate in this package.\n"+
		"const _ ampimpl.V%d_RunGoGenerate = 0\n\n", v, v, v)
}

// fileHead begins a generated Go file of the package, for one SPIR-V file per kernel, with
// a //go:build line where tags is not empty.
func (p *Package) fileHead(files []string, tags string) (*bytes.Buffer, error) {
	if len(files) != len(p.Kernels) {
		return nil, fmt.Errorf("goamp/translate: %d SPIR-V files for %d kernels", len(files), len(p.Kernels))
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by ampgen from this package's kernels. DO NOT EDIT.\n\n")
	if tags != "" {
		fmt.Fprintf(&b, "//go:build %s\n\n", tags)
	}
	fmt.Fprintf(&b, "package %s\n\n", p.Name)
	return &b, nil
}

// gofmt formats a generated Go file.
func gofmt(b *bytes.Buffer) ([]byte, error) {
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("goamp/translate: formatting the generated file: %w", err)
	}
	return out, nil
}
