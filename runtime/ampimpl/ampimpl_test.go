package ampimpl

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVersionType: the package declares one version type, named after Version, so
// that files of another version cannot compile against it.
func TestVersionType(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "ampimpl.go", nil, 0)
	require.NoError(t, err)
	var types []string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, s := range g.Specs {
				types = append(types, s.(*ast.TypeSpec).Name.Name)
			}
		}
	}
	assert.Equal(t, []string{"V" + strconv.Itoa(Version) + "_RunGoGenerate"}, types)
}
