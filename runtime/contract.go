package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/internal/ampabi"
	"github.com/goamp/goamp/runtime/internal/genlink"
	"github.com/goamp/goamp/vec"
)

// ErrContract reports a kernel whose Go struct, or the tile it is dispatched with, does
// not match its GPU body's interface. It is matched by *ContractError.
var ErrContract = errors.New("goamp/runtime: kernel does not match its GPU body")

// ContractError reports a mismatch between a kernel and its program, found before
// anything is bound or recorded. It names the Go field (or what is checked: "binding 2",
// "domain", "push constants", "local size") and describes both sides. It matches
// ErrContract.
type ContractError struct {
	// Kernel is the kernel's Go type; Program is the program's name.
	Kernel, Program string
	// Field is the Go field concerned, or what is checked when no field is.
	Field string
	// Go and GPU describe the two sides, e.g. "int32 at push offset 48" and "float at
	// offset 48".
	Go, GPU string
	// Reason says what the contract requires.
	Reason string
	// Generated says that ampgen wrote the program (ampimpl.EmbeddedProgram): the kernel's Go
	// type has changed since the package's last go generate.
	Generated bool
}

// Error implements error.
func (e *ContractError) Error() string {
	msg := fmt.Sprintf("goamp/runtime: kernel %s does not match program %s on %s: Go: %s; GPU: %s (%s)",
		e.Kernel, e.Program, e.Field, e.Go, e.GPU, e.Reason)
	if e.Generated {
		msg += "; ampgen made the program from an earlier version of the kernel: run go generate"
	}
	return msg
}

// Is reports whether target is ErrContract.
func (e *ContractError) Is(target error) bool { return target == ErrContract }

// IndexRankError reports a dispatch whose kernel indexes a view with an index of higher
// rank than the view's: the thread's index of a domain of rank 2 on a view of rank 1
// (a 10x10 domain writing a view of 10 elements), or runtime.Idx(a, b) on a view of rank
// 1. Such an index's components past the view's rank are not 0, so the access lies
// outside the view (C++ AMP's index<N> of an array_view<M>, N > M, does not compile).
// The dispatch checks it before anything runs, on every accelerator, for the kernels
// whose indices' ranks ampgen recorded (their Program comes from ampgen); the data is
// left as it was. It matches ErrContract.
type IndexRankError struct {
	// Kernel is the kernel's Go type; Field is the view's field.
	Kernel, Field string
	// ViewRank is the view's rank; IndexRank is the index's.
	ViewRank, IndexRank int
	// Thread says that the index is the thread's (its rank is the domain's).
	Thread bool
}

// Error implements error.
func (e *IndexRankError) Error() string {
	what := fmt.Sprintf("an index of rank %d", e.IndexRank)
	if e.Thread {
		what = fmt.Sprintf("the thread's index, of the domain's rank %d", e.IndexRank)
	}
	return fmt.Sprintf("goamp/runtime: kernel %s indexes view %s, of rank %d, with %s: "+
		"the index's components past the view's rank are not 0, outside the view", e.Kernel, e.Field, e.ViewRank, what)
}

// Is reports whether target is ErrContract.
func (e *IndexRankError) Is(target error) bool { return target == ErrContract }

// contract is the tile-independent part of the check of one kernel layout against one
// program, cached in the program per layout.
type contract struct {
	prog  *Program
	iface *Interface
	// err is a mismatch that depends on neither the arguments' dynamic types nor the tile.
	err error
	// buf is, per data argument, its storage buffer, or nil when the module has none
	// (the body does not use the argument: glslc -O removes unused buffers).
	buf []*StorageBuffer
	// readOnly says, per data argument, that the body never writes its buffer.
	readOnly []bool
	// elems is, per data argument, the Go element type found to match, or nil.
	elems   []reflect.Type
	float64 bool // the module declares the Float64 capability
	ranks   bool // the module declares SpecId 3 (AMP_RANKS)
	// gridLoop: the module declares SpecId 4 (AMP_GRID_LOOP): its main loops over the
	// domain with a grid stride, so a non-tiled dispatch may launch fewer workgroups.
	gridLoop bool
	// extents is how many data fields' dimensions 1 and 2 the program reads from its
	// ampExtents push-constant array (0: it declares none); pushSize is the size of its
	// push constants with that array, rounded up to 16.
	extents, pushSize int
	// checked: the program is a Program.Checked, whose binding n (after the n data
	// fields) is the check buffer.
	checked bool
	// indexed is, per data argument, how the kernel's body indexes it, where ampgen
	// recorded it (Program.indexed; the zero value where not): checkRanks.
	indexed []genlink.Indexed
	last    atomic.Pointer[specCheck]
	// able is the last accelerator checkDevice found to have what the program needs.
	able atomic.Pointer[accelerator.Accelerator]
}

// specCheck is the tile-dependent part of the check for one set of specialization values.
type specCheck struct {
	spec   [4]uint32
	ws     [3]uint32
	shared int
	err    error
}

// contractFor returns the cached contract of layout l with program p.
func contractFor(l *kernelLayout, p *Program, infos []ArgInfo, checked bool) *contract {
	if c := l.contract.Load(); c != nil && c.prog == p {
		return c
	}
	if v, ok := p.checks.Load(l); ok {
		c := v.(*contract)
		l.contract.Store(c)
		return c
	}
	v, _ := p.checks.LoadOrStore(l, newContract(l, p, infos, checked))
	c := v.(*contract)
	l.contract.Store(c)
	return c
}

func newContract(l *kernelLayout, p *Program, infos []ArgInfo, checked bool) *contract {
	in := p.iface
	c := &contract{prog: p, iface: in, float64: in.HasCapability(CapabilityFloat64), ranks: in.HasSpecID(ampabi.SpecRanks),
		gridLoop: in.HasSpecID(ampabi.SpecGridLoop), pushSize: l.pushSize, checked: checked}
	if c.err = c.checkBindings(l); c.err == nil {
		c.err = c.checkPush(l)
	}
	if c.err != nil {
		return c
	}
	c.elems = make([]reflect.Type, len(l.args))
	c.readOnly = make([]bool, len(l.args))
	for _, x := range p.indexed {
		for k := range l.args {
			if l.args[k].name == x.Field {
				if c.indexed == nil {
					c.indexed = make([]genlink.Indexed, len(l.args))
				}
				c.indexed[k] = x
			}
		}
	}
	for k, info := range infos {
		if b := c.buf[k]; b != nil {
			c.readOnly[k] = b.ReadOnly()
			if info.Elem != nil && c.elemErr(l, k, info) == nil {
				c.elems[k] = info.Elem
			}
		}
	}
	return c
}

func (c *contract) bad(l *kernelLayout, field, goSide, gpuSide, reason string) *ContractError {
	return &ContractError{Kernel: l.name, Program: c.prog.Name, Field: field, Go: goSide, GPU: gpuSide, Reason: reason,
		Generated: c.prog.generated}
}

// checkBindings checks the storage buffers against the data fields and finds each
// field's buffer.
func (c *contract) checkBindings(l *kernelLayout) error {
	in := c.iface
	if len(in.OtherBindings) > 0 {
		b := in.OtherBindings[0]
		return c.bad(l, fmt.Sprintf("binding %d", b), "storage buffers only",
			fmt.Sprintf("a uniform buffer, image, sampler or descriptor array at binding %d", b),
			"the dispatcher binds storage buffers only")
	}
	c.buf = make([]*StorageBuffer, len(l.args))
	for i := range in.Buffers {
		b := &in.Buffers[i]
		if c.checked && b.Binding == len(l.args) {
			continue // the check buffer
		}
		if b.Binding >= len(l.args) {
			return c.bad(l, fmt.Sprintf("binding %d", b.Binding), fmt.Sprintf("%d data fields", len(l.args)),
				fmt.Sprintf("storage buffer %s at binding %d", varNames(b), b.Binding),
				"binding n is the n-th data field: the GPU body has a buffer that no field fills")
		}
		f := l.args[b.Binding]
		for _, v := range b.Vars {
			if v.Elem == nil || len(v.Block.Members) != 1 || v.ArrayOffset != 0 {
				return c.bad(l, f.name, fmt.Sprintf("data field %d (%s)", b.Binding, f.typ),
					fmt.Sprintf("buffer block %s at binding %d", v.Block, b.Binding),
					"a data field's buffer must be a block of one array, T name[] (AMP_BUFFER)")
			}
		}
		c.buf[b.Binding] = b
	}
	return nil
}

// varNames lists the names of a binding's variables, or their element types.
func varNames(b *StorageBuffer) string {
	s := make([]string, len(b.Vars))
	for i, v := range b.Vars {
		s[i] = v.Name
		if s[i] == "" {
			s[i] = v.Elem.String() + "[]"
		}
	}
	return strings.Join(s, ", ")
}

// describeMember describes push-constant member i for messages.
func describeMember(ms []Member, i int) string {
	m := ms[i]
	name := ""
	if m.Name != "" {
		name = " " + m.Name
	}
	return fmt.Sprintf("member %d,%s %s at offset %d", i, name, m.Type, m.Offset)
}

// isInts reports whether t is made of n 32-bit integers at offsets 0, 4, ...
func isInts(t *Type, n int) bool {
	ls := spvLeaves(t, 0, 0, nil)
	if len(ls) != n {
		return false
	}
	for i, x := range ls {
		if x.off != 4*i || x.width != 32 || x.kind != TypeInt && x.kind != TypeUint {
			return false
		}
	}
	return true
}

// checkPush checks the push-constant block: the domain, one AmpView per data field,
// then one member per scalar field, each at its offset and of its type, and optionally
// the ampExtents array (c.extents).
func (c *contract) checkPush(l *kernelLayout) error {
	p := c.iface.Push
	if p == nil {
		return nil // the body reads no push constant (glslc -O removes an unused block)
	}
	ms, n := p.Block.Members, len(l.args)
	if len(ms) == 0 || ms[0].Offset != 0 || ms[0].Type.Kind != TypeVector || !isInts(ms[0].Type, 4) {
		got := "an empty block"
		if len(ms) > 0 {
			got = describeMember(ms, 0)
		}
		return c.bad(l, "domain", "uvec4 domain at push offset 0", got,
			"the push-constant block starts with the uvec4 domain (AMP_PUSH_BEGIN)")
	}
	for k, f := range l.args {
		off := ampabi.ViewOffset(k)
		goSide := fmt.Sprintf("AmpView of data field %d at push offset %d", k, off)
		switch {
		case 1+k >= len(ms):
			return c.bad(l, f.name, goSide, fmt.Sprintf("no member %d: the block has %d", 1+k, len(ms)),
				"the block needs one AmpView per data field, in field order")
		case ms[1+k].Offset != off || ms[1+k].Type.Kind != TypeStruct || !isInts(ms[1+k].Type, 4):
			return c.bad(l, f.name, goSide, describeMember(ms, 1+k),
				"the block needs one AmpView per data field, in field order")
		}
	}
	for j, s := range l.scalarFields {
		i, off := 1+n+j, s.push
		goSide := fmt.Sprintf("%s at push offset %d", s.rt, off)
		if i >= len(ms) {
			return c.bad(l, s.name, goSide, fmt.Sprintf("no member %d: the block has %d", i, len(ms)),
				"the block lacks a member for this scalar field")
		}
		if s.composite() || s.vec > 0 {
			if ms[i].Offset != off || !slices.Equal(goLeaves(s.rt, 0, nil, true), spvLeaves(ms[i].Type, 0, 0, nil)) {
				return c.bad(l, s.name, goSide, describeMember(ms, i),
					"an array, struct or vector field is a member of the same shape: its values at the same places")
			}
		} else if ms[i].Offset != off || !scalarMatches(s.kind, ms[i].Type) {
			return c.bad(l, s.name, goSide, describeMember(ms, i),
				"scalar fields are the members after the AmpViews, in field order, of the same type (int32, int and the narrower signed integers int; uint32, uint, the narrower unsigned integers and bool uint; float32 float)")
		}
	}
	if i := 1 + n + len(l.scalarFields); i < len(ms) && isExtents(ms[i], l.scalarEnd) {
		if c.extents = ms[i].Type.Len / 2; c.extents > n {
			return c.bad(l, "push constants", fmt.Sprintf("the extents of at most %d data fields", n),
				describeMember(ms, i), "ampExtents holds two words per data field, for the first fields only")
		}
		c.pushSize = (ms[i].Offset + 4*ms[i].Type.Len + 15) &^ 15
	}
	if i := 1 + n + len(l.scalarFields) + min(c.extents, 1); i < len(ms) {
		field := fmt.Sprintf("push member %d", i)
		if ms[i].Name != "" {
			field = "push member " + ms[i].Name
		}
		return c.bad(l, field, fmt.Sprintf("%d data fields and %d scalar fields", n, len(l.scalarFields)),
			describeMember(ms, i), "the block has a member that no Go field fills")
	}
	if p.Size > c.pushSize {
		return c.bad(l, "push constants", fmt.Sprintf("%d bytes of push constants", c.pushSize),
			fmt.Sprintf("a %d-byte push-constant block", p.Size), "the block is larger than what the kernel pushes")
	}
	return nil
}

// isExtents reports whether push member m is the ampExtents array at offset off: uint
// words, two per data field (dimensions 1 and 2 of fields 0, 1, ...).
func isExtents(m Member, off int) bool {
	t := m.Type
	return m.Offset == off && t.Kind == TypeArray && t.Len > 0 && t.Len%2 == 0 && t.Stride == 4 &&
		t.Elem != nil && t.Elem.Kind == TypeUint && t.Elem.Width == 32
}

func scalarMatches(k reflect.Kind, t *Type) bool {
	switch k {
	case reflect.Int32, reflect.Int, reflect.Int8, reflect.Int16:
		return t.Kind == TypeInt && t.Width == 32
	case reflect.Uint32, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Bool:
		return t.Kind == TypeUint && t.Width == 32
	case reflect.Float32:
		return t.Kind == TypeFloat && t.Width == 32
	case reflect.Float64:
		return t.Kind == TypeFloat && t.Width == 64
	}
	return false
}

// checkArgs checks one dispatch's arguments: element strides and types, and that no
// read-only argument is bound to a buffer the body writes.
func (c *contract) checkArgs(l *kernelLayout, infos []ArgInfo) error {
	if c.err != nil {
		return c.err
	}
	for k, info := range infos {
		b := c.buf[k]
		if b == nil {
			continue
		}
		if info.Elem == nil || info.Elem != c.elems[k] {
			if err := c.elemErr(l, k, info); err != nil {
				return err
			}
		}
		if info.Access == Read && !c.readOnly[k] {
			w := ""
			for _, v := range b.Vars {
				if !v.NonWritable {
					w = v.Name
					break
				}
			}
			return c.bad(l, l.args[k].name, fmt.Sprintf("a read-only argument (%s)", l.args[k].typ),
				fmt.Sprintf("binding %d is writable (variable %q is not readonly)", k, w),
				"the body may write the buffer of a read-only view: check the order of the view fields, or declare the buffer readonly")
		}
	}
	return nil
}

// checkRanks checks that no data argument is indexed with an index of higher rank than
// its own, for a domain of rank rank.
func (c *contract) checkRanks(l *kernelLayout, rank int, infos []ArgInfo) error {
	for k, x := range c.indexed {
		vr := infos[k].Rank
		switch {
		case vr == 0: // not a view: nothing to compare
		case x.Thread && rank > vr:
			return &IndexRankError{Kernel: l.name, Field: l.args[k].name, ViewRank: vr, IndexRank: rank, Thread: true}
		case x.Rank > vr:
			return &IndexRankError{Kernel: l.name, Field: l.args[k].name, ViewRank: vr, IndexRank: x.Rank}
		}
	}
	return nil
}

// elemErr checks data argument k's elements against its buffer's variables: one of them
// must hold the Go elements, either one per array element (the array stride is the Go
// element's size and the types match) or, vectorized, K per array element (a K-vector
// or K-array of components that each match the Go element, "vec4 x4[]" over float32).
func (c *contract) elemErr(l *kernelLayout, k int, info ArgInfo) error {
	b := c.buf[k]
	goSide := fmt.Sprintf("%d-byte elements", info.ElemSize)
	if info.Elem != nil {
		goSide = fmt.Sprintf("%s elements (%d bytes)", info.Elem, info.ElemSize)
	}
	var strided *BufferVariable
	for i := range b.Vars {
		v := &b.Vars[i]
		t := v.Elem
		if v.ArrayStride != info.ElemSize {
			if t = vectorized(v, info.ElemSize); t == nil {
				continue
			}
		}
		if info.Elem == nil || elemMatches(t, info.Elem) {
			return nil
		}
		if strided == nil {
			strided = v
		}
	}
	if strided == nil {
		v := b.Vars[0]
		return c.bad(l, l.args[k].name, goSide,
			fmt.Sprintf("%s[] with ArrayStride %d at binding %d", v.Elem, v.ArrayStride, k),
			"no variable of the binding has the Go element's size as its array stride")
	}
	return c.bad(l, l.args[k].name, goSide, fmt.Sprintf("%s[] at binding %d", strided.Elem, k),
		"the element types differ (a GLSL uint, or uints, accept any Go element of their size as raw bits)")
}

// vectorized returns the component type of v's elements when they are K-vectors or
// K-arrays of size-byte components with an array stride of K*size, else nil.
func vectorized(v *BufferVariable, size int) *Type {
	t := v.Elem
	if t.Kind != TypeVector && t.Kind != TypeArray || t.Len < 2 || v.ArrayStride != t.Len*size {
		return nil
	}
	if explicitSize(t.Elem, 0) != size || t.Kind == TypeArray && t.Stride != size {
		return nil
	}
	return t.Elem
}

// leaf is a scalar inside an element: its byte offset, kind and width in bits.
type leaf struct {
	off   int
	kind  TypeKind
	width int
}

// vecPath is package vec's import path: its 3-vectors' blank fields are Go's padding.
var vecPath = reflect.TypeFor[vec.Float3]().PkgPath()

// maxLeaves bounds the scalars compared per element.
const maxLeaves = 4096

// goLeaves appends the scalars of Go type t at offset base. Blank struct fields are
// padding: with blanks set they are scalars like the others (ampgen declares a struct's
// blank fields as members of its GLSL struct), without it they are left out (a
// hand-written vec3 buffer over a padded Go struct); vec's 3-vectors' blank fourth
// component is always left out, as GLSL's vec3 has none.
func goLeaves(t reflect.Type, base int, out []leaf, blanks bool) []leaf {
	if len(out) >= maxLeaves {
		return out
	}
	switch t.Kind() {
	case reflect.Int32:
		return append(out, leaf{base, TypeInt, 32})
	case reflect.Uint32:
		return append(out, leaf{base, TypeUint, 32})
	case reflect.Float32, reflect.Float64:
		return append(out, leaf{base, TypeFloat, t.Bits()})
	case reflect.Uint16:
		if t == float16Type {
			return append(out, leaf{base, TypeFloat, 16})
		}
	case reflect.Int8:
		return append(out, leaf{base, TypeInt, 8})
	case reflect.Uint8:
		return append(out, leaf{base, TypeUint, 8})
	case reflect.Array:
		for i := 0; i < t.Len() && len(out) < maxLeaves; i++ {
			out = goLeaves(t.Elem(), base+i*int(t.Elem().Size()), out, blanks)
		}
		return out
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.Name != "_" || (blanks && t.PkgPath() != vecPath) {
				out = goLeaves(f.Type, base+int(f.Offset), out, blanks)
			}
		}
		return out
	}
	return append(out, leaf{base, TypeOther, int(t.Size()) * 8})
}

func spvLeaves(t *Type, base, matrixStride int, out []leaf) []leaf {
	if len(out) >= maxLeaves {
		return out
	}
	switch t.Kind {
	case TypeBool, TypeInt, TypeUint, TypeFloat:
		return append(out, leaf{base, t.Kind, t.Width})
	case TypeVector, TypeMatrix, TypeArray:
		step := explicitSize(t.Elem, 0)
		if t.Kind == TypeMatrix && matrixStride > 0 {
			step = matrixStride
		}
		if t.Kind == TypeArray && t.Stride > 0 {
			step = t.Stride
		}
		for i := range min(t.Len, maxLeaves) {
			out = spvLeaves(t.Elem, base+i*step, 0, out)
		}
		return out
	case TypeStruct:
		for _, m := range t.Members {
			out = spvLeaves(m.Type, base+m.Offset, m.MatrixStride, out)
		}
		return out
	}
	return append(out, leaf{base, TypeOther, 0})
}

// elemMatches reports whether GLSL element type s holds Go element type g: the same
// scalars at the same offsets (blank Go fields are padding), or only unsigned integers of
// one width (8, 16 or 32 bits) covering g's bytes (raw bits: a half.Float16 view bound as
// uint16_t, an int8 one as uint8_t, a float32 one as uint).
func elemMatches(s *Type, g reflect.Type) bool {
	sl := spvLeaves(s, 0, 0, nil)
	if len(sl) > 0 && (sl[0].width == 8 || sl[0].width == 16 || sl[0].width == 32) {
		w := sl[0].width / 8
		raw := int(g.Size()) == w*len(sl)
		for i, x := range sl {
			raw = raw && x.kind == TypeUint && x.width == 8*w && x.off == w*i
		}
		if raw {
			return true
		}
	}
	return slices.Equal(goLeaves(g, 0, nil, true), sl) || slices.Equal(goLeaves(g, 0, nil, false), sl)
}

// forSpec checks the tile-dependent part of the contract for specialization values spec:
// the workgroup size, and returns the bytes of shared memory the body declares.
func (c *contract) forSpec(l *kernelLayout, spec [4]uint32, tiled bool) (int, error) {
	r := c.last.Load()
	if r == nil || r.spec != spec {
		r = &specCheck{spec: spec}
		r.ws, r.err = c.iface.WorkgroupSize(spec[:])
		if r.err == nil {
			r.shared, r.err = c.iface.SharedBytes(spec[:])
		}
		c.last.Store(r)
	}
	if r.err != nil {
		return 0, &KernelError{Kernel: l.name, Reason: fmt.Sprintf("program %s: evaluating its workgroup size and shared memory", c.prog.Name), Err: r.err}
	}
	if want := [3]uint32(spec[:3]); r.ws != want {
		goSide := fmt.Sprintf("a non-tiled dispatch (local size %dx%dx%d)", want[0], want[1], want[2])
		if tiled {
			goSide = fmt.Sprintf("a tile with Vulkan local size %dx%dx%d (x is the last C++ dimension)", want[0], want[1], want[2])
		}
		gpu := fmt.Sprintf("local_size %dx%dx%d", r.ws[0], r.ws[1], r.ws[2])
		if c.iface.FixedLocalSize() {
			gpu += " (fixed)"
		}
		return 0, c.bad(l, "local size", goSide, gpu, "a body written for a fixed workgroup size must be dispatched with that tile")
	}
	return r.shared, nil
}

// float16Type is half.Float16, which a GLSL float16_t holds.
var float16Type = reflect.TypeFor[half.Float16]()

// checkDevice checks what the program needs of the device: the capabilities it declares
// that some devices lack. A device found able is remembered, so that the next dispatch on
// it checks nothing.
func (c *contract) checkDevice(l *kernelLayout, acc *accelerator.Accelerator) error {
	if c.able.Load() == acc {
		return nil
	}
	for _, n := range deviceNeeds {
		declares := c.iface.HasCapability(n.cap)
		if n.cap == CapabilityFloat64 {
			declares = c.float64
		}
		if declares && !n.has(acc) {
			return &accelerator.FeatureError{Accelerator: acc.Path(), Feature: fmt.Sprintf(
				"%s (program %s of kernel %s declares the %s capability)", n.feature, c.prog.Name, l.name, capName(n.cap))}
		}
	}
	c.able.Store(acc)
	return nil
}

// deviceNeeds are the capabilities checkDevice checks, each with the accelerator's
// answer and the feature's name for the error.
var deviceNeeds = [...]struct {
	cap     Capability
	has     func(*accelerator.Accelerator) bool
	feature string
}{
	{CapabilityFloat64, (*accelerator.Accelerator).SupportsDoublePrecision, "double precision"},
	{CapabilityInt64, (*accelerator.Accelerator).SupportsInt64, "64-bit integers"},
	{CapabilityInt16, (*accelerator.Accelerator).SupportsInt16, "16-bit integer arithmetic"},
	{CapabilityStorageBuffer16BitAccess, (*accelerator.Accelerator).Supports16BitStorage, "16-bit storage"},
	{CapabilityFloat16, (*accelerator.Accelerator).SupportsFloat16, "float16 arithmetic"},
	{CapabilityStorageBuffer8BitAccess, (*accelerator.Accelerator).Supports8BitStorage, "8-bit storage"},
	{CapabilityInt8, (*accelerator.Accelerator).SupportsInt8, "8-bit integer arithmetic"},
	// The CPUs run a kernel's Go body, which needs no tensor cores.
	{CapabilityCooperativeMatrixNV, func(a *accelerator.Accelerator) bool {
		return runsGo(a) || len(a.CooperativeMatrices()) > 0
	}, "cooperative matrices"},
	{CapabilityCooperativeMatrixKHR, func(a *accelerator.Accelerator) bool {
		return runsGo(a) || len(a.CooperativeMatricesKHR()) > 0
	}, "cooperative matrices (VK_KHR_cooperative_matrix)"},
}

// runsGo reports whether acc runs kernels' Go bodies (the CPU accelerators), not their
// SPIR-V.
func runsGo(acc *accelerator.Accelerator) bool {
	t := acc.Traits()
	return t.HostMemory || t.Strict
}

// capName names the capabilities checkDevice checks.
func capName(c Capability) string {
	switch c {
	case CapabilityFloat64:
		return "Float64"
	case CapabilityInt64:
		return "Int64"
	case CapabilityInt16:
		return "Int16"
	case CapabilityFloat16:
		return "Float16"
	case CapabilityStorageBuffer16BitAccess:
		return "StorageBuffer16BitAccess"
	case CapabilityInt8:
		return "Int8"
	case CapabilityStorageBuffer8BitAccess:
		return "StorageBuffer8BitAccess"
	case CapabilityCooperativeMatrixNV:
		return "CooperativeMatrixNV"
	case CapabilityCooperativeMatrixKHR:
		return "CooperativeMatrixKHR"
	}
	return fmt.Sprint(uint32(c))
}

// rankSpec is specialization constant 3 (AMP_RANKS): the domain's rank in bits 0-1 and
// data argument k's in bits 2+2k and 3+2k.
func rankSpec(rank int, infos []ArgInfo) uint32 {
	v := uint32(rank) & 3
	for k, info := range infos {
		v |= (uint32(info.Rank) & 3) << (2 + 2*k)
	}
	return v
}
