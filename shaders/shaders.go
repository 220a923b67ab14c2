package shaders

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/goamp/goamp/runtime"
)

//go:embed spv/*.spv
var spv embed.FS

// ErrNoProgram reports a program name with no embedded SPIR-V.
var ErrNoProgram = errors.New("goamp/shaders: no such program")

// programKey identifies a cached program.
type programKey struct {
	name string
	rank int
}

// programs caches the *runtime.Program of each name and rank, so that every kernel using
// a program shares one value.
var programs sync.Map // programKey -> *runtime.Program

// Program returns the embedded program compiled from glsl/NAME.comp. rank, when not 0,
// is the rank of the domain its GLSL body is written for (see runtime.Program.Rank). It
// returns an error matching ErrNoProgram, listing the known names, when there is no
// such program. The program is made with runtime.NewProgram, which reads its interface
// (an error if the module is malformed) and registers its name. Repeated calls return
// the same *runtime.Program.
func Program(name string, rank int) (*runtime.Program, error) {
	key := programKey{name, rank}
	if p, ok := programs.Load(key); ok {
		return p.(*runtime.Program), nil
	}
	code, err := spv.ReadFile("spv/" + name + ".spv")
	if err != nil || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("%w: %q (known: %s)", ErrNoProgram, name, strings.Join(Names(), ", "))
	}
	prog, err := runtime.NewProgram(name, code, rank)
	if err != nil {
		return nil, err
	}
	p, _ := programs.LoadOrStore(key, prog)
	return p.(*runtime.Program), nil
}

// MustProgram is Program for package-level variables and Program methods: it panics
// when the program is missing, which is a build error (a GLSL source not compiled with
// make shaders).
func MustProgram(name string, rank int) *runtime.Program {
	p, err := Program(name, rank)
	if err != nil {
		panic(err)
	}
	return p
}

// Names lists the embedded programs, sorted.
func Names() []string {
	ents, _ := fs.ReadDir(spv, "spv")
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), path.Ext(e.Name())))
	}
	sort.Strings(names)
	return names
}
