package runtime

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/goamp/goamp/runtime/internal/genlink"
)

// ErrDuplicateProgram reports a second program registered under a name that a program
// with other SPIR-V already has. It is matched by *ProgramError.
var ErrDuplicateProgram = errors.New("goamp/runtime: duplicate program name")

// Program is a kernel's GPU body: a SPIR-V compute module (entry point "main") that
// follows the dispatch contract of shaders/include/amp.glsl (see the package
// documentation, "The contract").
//
// Make programs with NewProgram (or MustProgram), which reads the module's interface at
// once and registers the name. A Program written as a struct literal works too: its
// interface is read on first use. Either way the dispatcher checks the interface against
// the kernel and the tile before anything runs. Pipelines are cached by the module's
// content, so two programs with one name never share one. A kernel's Program method
// should return the same *Program every time (a package-level variable): the checks are
// cached per program. Do not change a program's fields once it has been used.
type Program struct {
	// Name identifies the program in messages. NewProgram keeps names unique in a process.
	Name string
	// SPIRV is the compiled module, entry point "main". A program that ampgen's code
	// embeds reads it on first use: Interface (or the first dispatch) fills it.
	SPIRV []byte
	// Rank, when not 0, is the rank of the compute domain the GLSL body is written for
	// (ampIndex2, ampGlobal2, ...); ParallelForEach rejects a domain of another rank on
	// every accelerator, like C++ AMP rejects a kernel whose index<N> does not match.
	Rank int
	// Checked, when not nil, is the program's bounds-checked build (ampgen -checked, in
	// builds with -tags goampcheck), which GPU dispatches of the kernel run instead: it
	// checks every view access against the view's extent, which the dispatcher writes into
	// one more storage buffer, at binding n after the n data fields, where the device records
	// the first access outside (translate's checkPrelude lays it out), and every index of a
	// tile_static or local array. The dispatch then waits for the device and returns a
	// *KernelPanicError whose Value is a *BoundsError, as the CPU returns one for the same
	// index; such an access reads or writes the view's (or array's) first element instead,
	// and the dispatch's outputs are undefined, as after a panic on the CPU. It checks
	// integer divisors too: a division by zero is a *KernelPanicError whose Value is a
	// *DivideError. An ordinary
	// build reads and writes outside unchecked, as C++ AMP does.
	Checked *Program

	generated bool              // made for ampgen's generated code (ampimpl.EmbeddedProgram)
	sources   genlink.Checker   // what ampgen made it from, checked at the first dispatch
	indexed   []genlink.Indexed // how its kernel indexes its views, as ampgen found (checkRanks)
	fsys      fs.FS             // an embedded program's files: load reads SPIRV from
	file      string            // file, registering Name then

	once   sync.Once
	iface  *Interface
	err    error    // why the module cannot be read
	hash   [32]byte // sha256 of SPIRV: the pipeline caches' key
	checks sync.Map // *kernelLayout -> *contract
}

// load reads the program's interface and hashes its module, once; an embedded
// program reads its module first.
func (p *Program) load() {
	p.once.Do(func() {
		if p.fsys != nil {
			p.err = p.loadEmbedded()
			if p.err != nil {
				return
			}
		}
		p.hash = sha256.Sum256(p.SPIRV)
		p.iface, p.err = ReadInterface(p.SPIRV)
	})
}

// loadEmbedded reads an embedded program's module and registers its name, as
// NewProgram would have.
func (p *Program) loadEmbedded() error {
	spirv, err := fs.ReadFile(p.fsys, p.file)
	if err != nil {
		return err
	}
	hash := sha256.Sum256(spirv)
	reg := &programRegistry
	reg.mu.Lock()
	defer reg.mu.Unlock()
	r := reg.byName[p.Name]
	if r != nil && (r.hash != hash || !bytes.Equal(r.spirv, spirv)) {
		return &ProgramError{Name: p.Name,
			Reason:     "the name is already registered with different SPIR-V",
			Registered: describeModule(r.spirv, r.hash),
			New:        describeModule(spirv, hash)}
	}
	if r == nil {
		r = &registered{spirv: spirv, hash: hash, byRank: map[int]*Program{}}
		if reg.byName == nil {
			reg.byName = map[string]*registered{}
		}
		reg.byName[p.Name] = r
	}
	p.SPIRV = r.spirv
	return nil
}

// Interface returns the interface read from the program's SPIR-V (on first use for a
// program made as a struct literal), or the *SPIRVError that says why it cannot be read.
func (p *Program) Interface() (*Interface, error) {
	p.load()
	return p.iface, p.err
}

// ProgramError reports a program that NewProgram cannot make: a name registered with
// other SPIR-V (it matches ErrDuplicateProgram), an empty name, a bad rank, or malformed
// SPIR-V (it unwraps to the *SPIRVError).
type ProgramError struct {
	// Name is the program's name.
	Name string
	// Registered and New describe, for a duplicate name, the module registered first and
	// the new one ("812 bytes, sha256 1f0c..."); both are empty otherwise.
	Registered, New string
	// Reason says what is wrong.
	Reason string
	// Err is the underlying cause, if any.
	Err error
}

// Error implements error.
func (e *ProgramError) Error() string {
	s := fmt.Sprintf("goamp/runtime: program %q: %s", e.Name, e.Reason)
	if e.Registered != "" {
		s += fmt.Sprintf(" (registered: %s; new: %s)", e.Registered, e.New)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is reports whether target is ErrDuplicateProgram and the error is a duplicate name.
func (e *ProgramError) Is(target error) bool {
	return target == ErrDuplicateProgram && e.Registered != ""
}

// Unwrap returns the underlying cause, if any.
func (e *ProgramError) Unwrap() error { return e.Err }

// registered is a name's entry in the program registry.
type registered struct {
	spirv  []byte
	hash   [32]byte
	byRank map[int]*Program
}

var programRegistry struct {
	mu     sync.Mutex
	byName map[string]*registered
}

func describeModule(spirv []byte, hash [32]byte) string {
	return fmt.Sprintf("%d bytes, sha256 %x", len(spirv), hash[:8])
}

// NewProgram makes the program name from a SPIR-V module (copied) for domains of rank
// rank (0 for any rank; see Program.Rank). It reads the module's interface now and
// returns a *ProgramError unwrapping to the *SPIRVError when the module is malformed.
// Names are unique in a process: a name already registered with other SPIR-V is a
// *ProgramError matching ErrDuplicateProgram that describes both modules; the same name
// with the same SPIR-V and rank returns the *Program made first.
func NewProgram(name string, spirv []byte, rank int) (*Program, error) {
	if name == "" {
		return nil, &ProgramError{Reason: "a program needs a name"}
	}
	if rank < 0 || rank > 3 {
		return nil, &ProgramError{Name: name, Reason: fmt.Sprintf("rank %d is not 0 (any), 1, 2 or 3", rank)}
	}
	hash := sha256.Sum256(spirv)
	reg := &programRegistry
	reg.mu.Lock()
	defer reg.mu.Unlock()
	r := reg.byName[name]
	if r != nil && (r.hash != hash || !bytes.Equal(r.spirv, spirv)) {
		return nil, &ProgramError{Name: name, Reason: "the name is already registered with different SPIR-V",
			Registered: describeModule(r.spirv, r.hash), New: describeModule(spirv, hash)}
	}
	if r != nil && r.byRank[rank] != nil {
		return r.byRank[rank], nil
	}
	iface, err := ReadInterface(spirv)
	if err != nil {
		return nil, &ProgramError{Name: name, Reason: "malformed SPIR-V", Err: err}
	}
	if r == nil {
		r = &registered{spirv: bytes.Clone(spirv), hash: hash, byRank: map[int]*Program{}}
		if reg.byName == nil {
			reg.byName = map[string]*registered{}
		}
		reg.byName[name] = r
	}
	p := &Program{Name: name, SPIRV: r.spirv, Rank: rank, iface: iface, hash: hash}
	p.once.Do(func() {})
	r.byRank[rank] = p
	return p, nil
}

// MustProgram is NewProgram for package-level variables: it panics on error.
func MustProgram(name string, spirv []byte, rank int) *Program {
	p, err := NewProgram(name, spirv, rank)
	if err != nil {
		panic(err)
	}
	return p
}
