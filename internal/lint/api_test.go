package lint

import (
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiPackages are the packages whose exported names testdata/api lists, one file each:
// what go doc shows a program. A name that only goamp's own packages or generated code
// call belongs in an internal package (internal/device, internal/rtlink) or in
// runtime/ampimpl, not here.
var apiPackages = []string{"accelerator", "runtime"}

// exportedNames returns the exported names of the package in dir that go doc lists for
// this system: constants, variables, functions, types, and methods as Type.Method,
// sorted.
func exportedNames(t *testing.T, dir string) []string {
	bp, err := build.Default.ImportDir(dir, 0)
	require.NoError(t, err, dir)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range append(bp.GoFiles, bp.CgoFiles...) {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	d, err := doc.NewFromFiles(fset, files, module+"/"+bp.Name)
	require.NoError(t, err, dir)
	var names []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			names = append(names, v.Names...)
		}
	}
	values(d.Consts)
	values(d.Vars)
	for _, f := range d.Funcs {
		names = append(names, f.Name)
	}
	for _, ty := range d.Types {
		names = append(names, ty.Name)
		values(ty.Consts)
		values(ty.Vars)
		for _, f := range ty.Funcs {
			names = append(names, f.Name)
		}
		for _, m := range ty.Methods {
			names = append(names, ty.Name+"."+m.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestPublicAPI checks the exported names of apiPackages against testdata/api: a name
// added to or gone from a package's go doc fails it until the list says so, so that
// what programs see changes only on purpose.
func TestPublicAPI(t *testing.T) {
	for _, pkg := range apiPackages {
		b, err := os.ReadFile(filepath.Join("testdata", "api", pkg+".txt"))
		require.NoError(t, err)
		want := strings.Fields(string(b))
		got := exportedNames(t, filepath.Join("..", "..", pkg))
		var added, gone []string
		for _, n := range got {
			if !slices.Contains(want, n) {
				added = append(added, n)
			}
		}
		for _, n := range want {
			if !slices.Contains(got, n) {
				gone = append(gone, n)
			}
		}
		assert.Empty(t, added, "%s exports names that testdata/api/%s.txt does not list: "+
			"list them if programs need them, else move them out of its go doc", pkg, pkg)
		assert.Empty(t, gone, "testdata/api/%s.txt lists names that %s no longer exports", pkg, pkg)
	}
}
