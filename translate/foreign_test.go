package translate

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestForeignNames checks which packages kernels may call into and the prefixes of their
// GLSL names: two packages of one name get different prefixes, each the same every time.
func TestForeignNames(t *testing.T) {
	for _, c := range []struct {
		path string
		user bool
	}{
		{"example.com/m/geom", true},
		{"github.com/someone/mathx", true},
		{"math", false},
		{"encoding/binary", false},
		{"github.com/goamp/goamp", false},
		{"github.com/goamp/goamp/algo", false},
		{"github.com/goamp/goampx/geom", true},
	} {
		assert.Equal(t, c.user, userPath(c.path), c.path)
	}
	home := types.NewPackage("example.com/m/sim", "sim")
	tr := &tr{pkgInfo: &pkgInfo{pkg: home}}
	a, b, c := types.NewPackage("example.com/m/geom", "geom"), types.NewPackage("example.com/m/other/geom", "geom"),
		types.NewPackage("example.com/m/mathx", "mathx")
	assert.Equal(t, "geom_", tr.pkgPrefix(a))
	assert.Equal(t, "geom2_", tr.pkgPrefix(b))
	assert.Equal(t, "mathx_", tr.pkgPrefix(c))
	assert.Equal(t, "geom_", tr.pkgPrefix(a))
	assert.Equal(t, "geom2_", tr.pkgPrefix(b))
	assert.True(t, tr.userPkg(home), "the kernel's own package")
	assert.False(t, tr.userPkg(nil))
}
