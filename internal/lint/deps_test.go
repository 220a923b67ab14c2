package lint

import (
	"go/build"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// module is the module's path.
const module = "github.com/goamp/goamp"

// allowedImports lists, for each package of the module (its path below the module),
// what its non-test files may import besides the standard library: packages of the
// module by their path below it, others by their full path. A package that is a
// program (under cmd/ or examples/) may import any package of the module that is not
// internal, and the packages listed for it. docs/layers.md draws the same rules as
// layers; TestDependencies checks both.
var allowedImports = map[string][]string{
	// The ground: nothing of goamp's.
	"half":               nil,
	"fmath":              nil,
	"internal/atom":      nil,
	"internal/hooks":     nil,
	"internal/srchash":   nil,
	"internal/pipecache": nil,
	"internal/asm/gemm":  nil,
	"internal/fuzzin":    nil,
	"internal/hammer":    nil,
	"internal/vecgen":    nil,
	"internal/vkgen":     nil,
	"internal/lint":      nil,
	"shaders/include":    nil,
	"internal/spirv":     nil,
	"internal/spirvgen":  nil,
	"internal/ampabi":    nil,
	"translate/ir":       nil,

	// Reading and writing SPIR-V modules.
	"internal/spvwords": {"internal/spirv"},
	"translate/spvgen":  {"internal/ampabi", "internal/spirv", "translate/ir"},

	"vec":                 {"fmath"},
	"internal/poison":     {"half"},
	"internal/vecgen/gen": {"internal/vecgen"},

	// The one door to Vulkan, and what may open it.
	"internal/vk":      {"github.com/ebitengine/purego"},
	"internal/devlink": {"internal/vk"},
	// The hardware layer of a view, which accelerator implements: goamp's packages only.
	"internal/device": nil,
	"accelerator": {"internal/vk", "internal/devlink", "internal/device", "internal/pipecache", "internal/spvwords",
		"internal/spirv"},

	// The translator knows nothing of Vulkan nor of the runtime.
	"translate": {"internal/spvwords", "internal/srchash", "internal/ampabi", "internal/spirv", "translate/ir",
		"translate/spvgen", "golang.org/x/tools/go/packages"},

	// What runtime gives goamp's packages above it, and not programs.
	"internal/rtlink": {"accelerator"},

	// The core: never arrayview (it implements runtime's kernel-argument interface).
	"runtime": {"accelerator", "internal/device", "internal/rtlink", "half", "vec", "internal/atom", "internal/poison",
		"internal/hooks", "internal/spvwords", "internal/spirv", "internal/ampabi", "runtime/internal/genlink"},
	"arrayview": {"accelerator", "internal/device", "runtime", "half", "vec", "internal/atom", "internal/hooks",
		"internal/poison"},
	"shaders":                  {"runtime"},
	"runtime/internal/genlink": nil,
	// The support of generated code, which runtime reaches through genlink.
	"runtime/ampimpl": {"runtime", "runtime/internal/genlink", "internal/srchash"},

	// Above the core.
	"algo": {"accelerator", "internal/device", "internal/rtlink", "arrayview", "runtime", "runtime/ampimpl", "shaders", "half", "vec",
		"fmath", "internal/asm/gemm"},
	"present": {"accelerator", "arrayview", "runtime"},
	"present/window": {"present", "accelerator", "runtime", "internal/vk", "internal/devlink", "internal/device",
		"github.com/go-gl/glfw/v3.3/glfw"},

	// Test support.
	"amptest":               {"accelerator", "github.com/stretchr/testify/assert", "github.com/stretchr/testify/require"},
	"internal/testprog":     {"runtime"},
	"internal/kernelfuzz":   {"translate"},
	"fmath/internal/fmathk": {"arrayview", "fmath", "runtime", "runtime/ampimpl"},

	// Programs: the packages of the module that are not internal, and these.
	"cmd/ampbench": {"gonum.org/v1/plot", "gonum.org/v1/plot/font", "gonum.org/v1/plot/plotter",
		"gonum.org/v1/plot/vg", "gonum.org/v1/plot/vg/draw"},
	"cmd/ampdemo":       nil,
	"cmd/ampgen":        nil,
	"cmd/ampinfo":       nil,
	"cmd/ampsoak":       nil,
	"cmd/ampview":       nil,
	"cmd/ampview/demos": nil,
	"examples/seeds":    nil,
	"examples/tilesum":  nil,
}

// isProgram reports whether the package at path (below the module) is a program.
func isProgram(path string) bool {
	return strings.HasPrefix(path, "cmd/") || strings.HasPrefix(path, "examples/")
}

// modulePackages returns the directories (below the module's root) that hold Go
// packages, testdata and vendored trees excepted.
func modulePackages(t *testing.T, root string) []string {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if !slices.Contains(dirs, filepath.ToSlash(rel)) {
				dirs = append(dirs, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	require.NoError(t, err)
	return dirs
}

// imports returns what the non-test files of the package in dir import on linux,
// windows and darwin, with and without cgo, each once.
func imports(t *testing.T, dir string) []string {
	var all []string
	for _, goos := range []string{"linux", "windows", "darwin"} {
		for _, cgo := range []bool{true, false} {
			ctx := build.Default
			ctx.GOOS, ctx.CgoEnabled = goos, cgo
			pkg, err := ctx.ImportDir(dir, 0)
			if _, ok := err.(*build.NoGoError); ok {
				continue
			}
			require.NoError(t, err, dir)
			for _, imp := range pkg.Imports {
				if !slices.Contains(all, imp) {
					all = append(all, imp)
				}
			}
		}
	}
	return all
}

// isStd reports whether an import path is the standard library's (or cgo's "C").
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return path == "C" || !strings.Contains(first, ".")
}

// TestDependencies checks each package's imports against allowedImports, and that
// allowedImports lists every package of the module and only them.
func TestDependencies(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	pkgs := modulePackages(t, root)
	for _, pkg := range pkgs {
		allowed, ok := allowedImports[pkg]
		if !assert.True(t, ok, "package %s is not in allowedImports: add it, with what it may import, "+
			"and draw it in docs/layers.md", pkg) {
			continue
		}
		for _, imp := range imports(t, filepath.Join(root, pkg)) {
			if isStd(imp) {
				continue
			}
			own, inModule := strings.CutPrefix(imp, module+"/")
			switch {
			case inModule && slices.Contains(allowed, own):
			case !inModule && slices.Contains(allowed, imp):
			case inModule && isProgram(pkg) && !strings.Contains("/"+own+"/", "/internal/"):
			default:
				t.Errorf("%s imports %s, which allowedImports does not allow", pkg, imp)
			}
		}
	}
	for pkg := range allowedImports {
		assert.True(t, slices.Contains(pkgs, pkg), "allowedImports lists %s, which is not a package", pkg)
	}
}

// layerLine is a line of docs/layers.md's diagram: a layer's name and its packages,
// then the words that describe it.
var layerLine = regexp.MustCompile(`^([a-z0-9]+):\s+(.*)$`)

// TestLayersDiagram checks that docs/layers.md draws allowedImports: every package of
// allowedImports is in one layer (cmd/... and examples/... name the programs), and
// every import allowed goes to a layer below the importer's.
func TestLayersDiagram(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "layers.md"))
	require.NoError(t, err)
	_, diagram, ok := strings.Cut(string(b), "```\n")
	require.True(t, ok, "docs/layers.md has no diagram")
	diagram, _, _ = strings.Cut(diagram, "```")
	layer := map[string]int{} // a package's layer: 0 at the bottom
	lines := strings.Split(strings.TrimSpace(diagram), "\n")
	for i, line := range lines {
		m := layerLine.FindStringSubmatch(line)
		require.NotNil(t, m, "line %q of the diagram", line)
		for _, f := range strings.Fields(m[2]) {
			if _, ok := allowedImports[f]; !ok && f != "cmd/..." && f != "examples/..." {
				break // the description begins
			}
			_, dup := layer[f]
			assert.False(t, dup, "%s is drawn twice", f)
			layer[f] = len(lines) - 1 - i
		}
	}
	layerOf := func(pkg string) (int, bool) {
		if l, ok := layer[pkg]; ok {
			return l, true
		}
		first, _, _ := strings.Cut(pkg, "/")
		l, ok := layer[first+"/..."]
		return l, ok && isProgram(pkg)
	}
	for pkg, allowed := range allowedImports {
		l, ok := layerOf(pkg)
		if !assert.True(t, ok, "docs/layers.md does not draw %s", pkg) {
			continue
		}
		for _, imp := range allowed {
			if il, ok := layerOf(imp); ok {
				assert.Less(t, il, l, "%s may import %s, which docs/layers.md draws on its layer or above", pkg, imp)
			}
		}
	}
}
