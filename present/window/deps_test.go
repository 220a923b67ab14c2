package window_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// glfwPath is GLFW's Go package.
const glfwPath = "github.com/go-gl/glfw/v3.3/glfw"

// TestOnlyAmpviewLinksGLFW lists every package of the module with its dependencies (go
// list -deps) and checks that GLFW is among them only for present/window and cmd/ampview,
// and that present/window, where cgo is on, does import it (so the check can fail).
func TestOnlyAmpviewLinksGLFW(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("the go command is not on PATH")
		}
		t.Skip("the go command is not on PATH")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "github.com/goamp/goamp/...").Output()
	require.NoError(t, err)
	allowed := map[string]bool{"github.com/goamp/goamp/present/window": true, "github.com/goamp/goamp/cmd/ampview": true}
	var linking []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		for _, d := range f[1:] {
			if d == glfwPath {
				linking = append(linking, f[0])
				assert.True(t, allowed[f[0]], "%s links GLFW; only present/window and cmd/ampview may", f[0])
			}
		}
	}
	cgo, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	require.NoError(t, err)
	if strings.TrimSpace(string(cgo)) == "1" {
		assert.ElementsMatch(t, []string{"github.com/goamp/goamp/present/window", "github.com/goamp/goamp/cmd/ampview"}, linking)
	}
}
