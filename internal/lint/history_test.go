package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// history matches a comment's citation of the project's history rather than the code:
// an issue's number (the word issue, or #, then digits) or a branch's name (the word
// branch, then a name with a dash or a slash; or on branch, then any name).
var history = regexp.MustCompile(`(?i)\bissues? #?\d+|(^|[\s(])#\d+\b|\bbranch [a-z0-9]+[-/][\w./-]+|\bon branch \S+`)

// TestNoHistoryInComments fails for every comment of the module's Go files (tests
// included) and of its GLSL sources that cites an issue number or a branch: a comment
// says what the code does and why, in words that stay true; where a number was
// measured belongs in RESULTS.md, which may cite them.
func TestNoHistoryInComments(t *testing.T) {
	fset, files := moduleFiles(t)
	for _, f := range files {
		for _, g := range f.file.Comments {
			for _, c := range g.List {
				if m := history.FindString(c.Text); m != "" {
					t.Errorf("%s: the comment cites %q: say what the code does and why "+
						"(measurements go to RESULTS.md)", fset.Position(c.Pos()), strings.TrimSpace(m))
				}
			}
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return skipDir(d, err)
		}
		if ext := filepath.Ext(p); ext != ".glsl" && ext != ".comp" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			_, comment, ok := strings.Cut(line, "//")
			if m := history.FindString(comment); ok && m != "" {
				rel, _ := filepath.Rel(root, p)
				t.Errorf("%s:%d: the comment cites %q", rel, i+1, strings.TrimSpace(m))
			}
		}
		return nil
	})
	require.NoError(t, err)
}

// skipDir is WalkDir's answer for a hidden directory, or err.
func skipDir(d fs.DirEntry, err error) error {
	if err != nil {
		return err
	}
	return filepath.SkipDir
}

// TestHistoryPattern: the pattern finds issue numbers and branches, and only them.
func TestHistoryPattern(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"// longer than one binding (issue 12)", true},
		{"// (RESULTS.md, issues 9 and 13)", true},
		{"// Issue #7 says so", true},
		{"// see #34", true},
		{"// on branch h16-measure, CPU accelerator", true},
		{"// a variant of it (branch exp/mapped-hybrid) took 66", true},
		{"// without a branch per word", false},
		{"// the then branch of an if", false},
		{"// every thread takes the same branch", false},
		{"// a #define of the shader", false},
		{"// 16 issues a cycle", false},
	} {
		assert.Equal(t, c.want, history.MatchString(c.text), c.text)
	}
}
