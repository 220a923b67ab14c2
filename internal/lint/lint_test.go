package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// maxLines is the longest a function may be, from its func keyword to its closing brace.
const maxLines = 80

// goFile is one parsed Go source file of the module.
type goFile struct {
	path string // relative to the module root
	file *ast.File
}

// moduleFiles parses every Go file of the module, generated files and the vendored
// third_party trees excepted, and nested modules (testdata/usermod) included.
func moduleFiles(t *testing.T) (*token.FileSet, []goFile) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	fset := token.NewFileSet()
	var files []goFile
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if !ast.IsGenerated(f) {
			rel, _ := filepath.Rel(root, p)
			files = append(files, goFile{rel, f})
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return fset, files
}

// TestFunctionLength fails for every function or method over maxLines lines, tests
// included: a long function is split where its steps are, and a long test's table
// becomes a package variable.
func TestFunctionLength(t *testing.T) {
	fset, files := moduleFiles(t)
	for _, f := range files {
		for _, d := range f.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			from, to := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
			if n := to - from + 1; n > maxLines {
				t.Errorf("%s:%d: %s is %d lines long; the limit is %d", f.path, from, fd.Name.Name, n, maxLines)
			}
		}
	}
}

// TestNoIsCPU fails for every call of Accelerator.IsCPU outside tests: code that chooses a
// path asks accelerator.Traits (or Workers, SubgroupOps, ...) for the property its choice
// depends on, and runtime's executors are chosen by Traits().HostMemory.
func TestNoIsCPU(t *testing.T) {
	fset, files := moduleFiles(t)
	for _, f := range files {
		if strings.HasSuffix(f.path, "_test.go") {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "IsCPU" {
					t.Errorf("%s: IsCPU is called; ask accelerator.Traits for the property the choice depends on", fset.Position(c.Pos()))
				}
			}
			return true
		})
	}
}
