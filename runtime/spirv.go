package runtime

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
)

// ErrInvalidSPIRV reports a SPIR-V module that the interface reader cannot read: not
// SPIR-V, truncated, inconsistent, or outside what a goamp program may be (no GLCompute
// entry point "main", a descriptor set other than 0). It is matched by *SPIRVError.
var ErrInvalidSPIRV = errors.New("goamp/runtime: invalid SPIR-V")

// SPIRVError reports a malformed SPIR-V module, with the byte offset of the word or
// instruction at fault. It matches ErrInvalidSPIRV.
type SPIRVError struct {
	// Offset is the byte offset in the module of the offending word or instruction.
	Offset int
	// Reason says what is wrong, with the values involved.
	Reason string
}

// Error implements error.
func (e *SPIRVError) Error() string {
	return fmt.Sprintf("goamp/runtime: invalid SPIR-V at byte %d: %s", e.Offset, e.Reason)
}

// Is reports whether target is ErrInvalidSPIRV.
func (e *SPIRVError) Is(target error) bool { return target == ErrInvalidSPIRV }

func spvErr(off int, format string, args ...any) *SPIRVError {
	return &SPIRVError{Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// Capability is a SPIR-V capability (the Capability enumerant of the SPIR-V
// specification).
type Capability uint32

// The capabilities the contract looks at.
const (
	CapabilityShader  = Capability(spirv.CapabilityShader)
	CapabilityFloat16 = Capability(spirv.CapabilityFloat16)
	CapabilityFloat64 = Capability(spirv.CapabilityFloat64)
	CapabilityInt64   = Capability(spirv.CapabilityInt64)
	CapabilityInt16   = Capability(spirv.CapabilityInt16)
	CapabilityInt8    = Capability(spirv.CapabilityInt8)
	// CapabilityStorageBuffer16BitAccess: 16-bit values in storage buffers.
	CapabilityStorageBuffer16BitAccess = Capability(spirv.CapabilityStorageBuffer16BitAccess)
	// CapabilityStorageBuffer8BitAccess: 8-bit values in storage buffers.
	CapabilityStorageBuffer8BitAccess = Capability(spirv.CapabilityStorageBuffer8BitAccess)
	// CapabilityCooperativeMatrixNV: VK_NV_cooperative_matrix's matrices.
	CapabilityCooperativeMatrixNV = Capability(spirv.CapabilityCooperativeMatrixNV)
	// CapabilityCooperativeMatrixKHR: VK_KHR_cooperative_matrix's matrices.
	CapabilityCooperativeMatrixKHR = Capability(spirv.CapabilityCooperativeMatrixKHR)
)

// TypeKind is the kind of a SPIR-V type.
type TypeKind uint8

// The kinds of Type.
const (
	// TypeOther is a type the contract does not look into (pointers, images, ...).
	TypeOther TypeKind = iota
	TypeBool
	TypeInt  // a signed integer
	TypeUint // an unsigned integer
	TypeFloat
	TypeVector
	TypeMatrix
	TypeArray
	TypeRuntimeArray
	TypeStruct
)

// Type is a SPIR-V data type as the interface reader sees it.
type Type struct {
	// Kind is the kind of type.
	Kind TypeKind
	// Width is the width in bits of a scalar (0 for booleans).
	Width int
	// Len is the number of components of a vector, columns of a matrix or elements of an
	// array; an array sized by specialization constants has the length their default
	// values give (Interface.SharedBytes evaluates it for other values).
	Len int
	// Elem is the component type of a vector, the column type of a matrix and the
	// element type of an array.
	Elem *Type
	// Stride is the ArrayStride decoration of an array (0 when absent).
	Stride int
	// Members are the members of a struct.
	Members []Member
	// Name is the type's name (a struct's GLSL name) when the module keeps names.
	Name string

	lenID uint32 // the id of an array's length
	size  int    // the size in an explicitly laid out block (explicitSize)
	sized bool
}

// Member is a member of a struct type.
type Member struct {
	// Name is the member's name when the module keeps names.
	Name string
	// Offset is the member's Offset decoration in bytes, or -1 when it has none.
	Offset int
	// Type is the member's type.
	Type *Type
	// MatrixStride is the member's MatrixStride decoration (0 when absent).
	MatrixStride int
	// NonWritable and NonReadable are the member's decorations (GLSL readonly and
	// writeonly on a buffer block member).
	NonWritable, NonReadable bool
}

// String formats the type as GLSL spells it: "uint", "vec3", "float[4]", "int[]",
// "struct{int@0, float@4}" (or the struct's name when the module keeps it). Very large
// types are cut short with "...".
func (t *Type) String() string {
	var b strings.Builder
	t.format(&b)
	return b.String()
}

// maxTypeString bounds the length of Type.String.
const maxTypeString = 240

func (t *Type) format(b *strings.Builder) {
	if b.Len() > maxTypeString {
		if !strings.HasSuffix(b.String(), "...") {
			b.WriteString("...")
		}
		return
	}
	if t == nil {
		b.WriteString("<none>")
		return
	}
	switch t.Kind {
	case TypeBool:
		b.WriteString("bool")
	case TypeInt, TypeUint, TypeFloat:
		b.WriteString(scalarName(t.Kind, t.Width))
	case TypeVector:
		b.WriteString(vectorPrefix(t.Elem) + "vec" + strconv.Itoa(t.Len))
	case TypeMatrix:
		rows := t.Elem.Len
		b.WriteString(vectorPrefix(t.Elem.Elem) + "mat" + strconv.Itoa(t.Len))
		if rows != t.Len {
			b.WriteString("x" + strconv.Itoa(rows))
		}
	case TypeArray, TypeRuntimeArray:
		t.Elem.format(b)
		if t.Kind == TypeArray {
			b.WriteString("[" + strconv.Itoa(t.Len) + "]")
		} else {
			b.WriteString("[]")
		}
	case TypeStruct:
		if t.Name != "" {
			b.WriteString(t.Name)
			return
		}
		b.WriteString("struct{")
		for i, m := range t.Members {
			if b.Len() > maxTypeString {
				b.WriteString("...")
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			m.Type.format(b)
			b.WriteString("@" + strconv.Itoa(m.Offset))
		}
		b.WriteString("}")
	default:
		b.WriteString("opaque")
	}
}

func scalarName(k TypeKind, width int) string {
	switch {
	case k == TypeInt && width == 32:
		return "int"
	case k == TypeUint && width == 32:
		return "uint"
	case k == TypeFloat && width == 32:
		return "float"
	case k == TypeFloat && width == 64:
		return "double"
	case k == TypeInt:
		return fmt.Sprintf("int%d_t", width)
	case k == TypeUint:
		return fmt.Sprintf("uint%d_t", width)
	}
	return fmt.Sprintf("float%d_t", width)
}

// vectorPrefix is GLSL's prefix of vectors and matrices of e: "", "d", "i", "u", "b",
// "i64", "f16", ...
func vectorPrefix(e *Type) string {
	switch {
	case e == nil:
		return "?"
	case e.Kind == TypeBool:
		return "b"
	case e.Kind == TypeFloat && e.Width == 32:
		return ""
	case e.Kind == TypeFloat && e.Width == 64:
		return "d"
	case e.Kind == TypeInt && e.Width == 32:
		return "i"
	case e.Kind == TypeUint && e.Width == 32:
		return "u"
	case e.Kind == TypeInt:
		return "i" + strconv.Itoa(e.Width)
	case e.Kind == TypeUint:
		return "u" + strconv.Itoa(e.Width)
	case e.Kind == TypeFloat:
		return "f" + strconv.Itoa(e.Width)
	}
	return "?"
}

// Interface is what a compute module exposes to the dispatcher: its storage buffers,
// push constants, workgroup size, specialization constants, capabilities and shared
// memory. ReadInterface reads it; it is immutable and safe for concurrent use.
type Interface struct {
	// Buffers are the storage-buffer bindings (StorageBuffer variables, and Uniform
	// variables of BufferBlock structs), sorted by binding number.
	Buffers []StorageBuffer
	// OtherBindings are the binding numbers of other descriptors: uniform buffers,
	// images, samplers, arrays of descriptors.
	OtherBindings []int
	// Push is the push-constant block, or nil when the module declares none.
	Push *PushConstants
	// LocalSize is the workgroup size with the specialization constants' default values:
	// the LocalSize execution mode, LocalSizeId, or the WorkgroupSize built-in (which
	// takes precedence, as in Vulkan).
	LocalSize [3]uint32
	// LocalSizeSpecIDs is, for each component of the workgroup size, the SpecId of the
	// specialization constant that is that component, or -1 when it is not one (a
	// literal, or an expression: see FixedLocalSize).
	LocalSizeSpecIDs [3]int
	// SpecIDs are the SpecId decorations of the module, sorted.
	SpecIDs []int
	// Capabilities are the module's OpCapability declarations, in order.
	Capabilities []Capability
	// Shared are the module's Workgroup (GLSL shared) variables.
	Shared []SharedVariable

	consts map[uint32]*spvConst
	ls     localSizeSrc
	fixed  bool
}

// StorageBuffer is one storage-buffer binding of descriptor set 0. Several variables may
// alias one binding (GLSL "uint data[]" and "uvec4 data4[]" over one buffer).
type StorageBuffer struct {
	// Binding is the binding number.
	Binding int
	// Vars are the variables bound there, in module order.
	Vars []BufferVariable
}

// ReadOnly reports whether every variable of the binding is NonWritable: the program
// never writes the buffer.
func (b *StorageBuffer) ReadOnly() bool {
	for i := range b.Vars {
		if !b.Vars[i].NonWritable {
			return false
		}
	}
	return true
}

// BufferVariable is one variable of a storage-buffer binding.
type BufferVariable struct {
	// Name is the variable's (or else its block's) name when the module keeps names.
	Name string
	// Block is the variable's block struct.
	Block *Type
	// Elem is the element type of the block's last member when that member is an array
	// (GLSL "T name[]"), else nil; ArrayStride and ArrayOffset are that array's stride
	// and byte offset in the block.
	Elem        *Type
	ArrayStride int
	ArrayOffset int
	// NonWritable and NonReadable say the variable is never written (readonly) or
	// never read (writeonly): decorated on the variable, or on every member of its block.
	NonWritable, NonReadable bool
	// BufferBlock says the variable is declared the SPIR-V 1.0 way: the Uniform storage
	// class and a BufferBlock struct.
	BufferBlock bool
}

// PushConstants is a module's push-constant block.
type PushConstants struct {
	// Name is the block's variable name (or else its type's) when the module keeps names.
	Name string
	// Block is the block struct: its Members are the top-level members with offsets.
	Block *Type
	// Size is the block's size in bytes: the end of its last member.
	Size int
}

// SharedVariable is a Workgroup variable (GLSL shared, C++ AMP tile_static).
type SharedVariable struct {
	// Name is the variable's name when the module keeps names.
	Name string
	// Type is its type; array lengths may depend on specialization constants.
	Type *Type
}

// HasCapability reports whether the module declares capability c.
func (in *Interface) HasCapability(c Capability) bool { return slices.Contains(in.Capabilities, c) }

// HasSpecID reports whether the module declares a specialization constant with SpecId id.
func (in *Interface) HasSpecID(id int) bool { return slices.Contains(in.SpecIDs, id) }

// FixedLocalSize reports whether the workgroup size depends on no specialization
// constant: the body is written for one tile shape only.
func (in *Interface) FixedLocalSize() bool { return in.fixed }

// localSizeSrc is where the workgroup size comes from.
type localSizeSrc struct {
	builtin uint32    // the constant decorated BuiltIn WorkgroupSize, or 0
	ids     [3]uint32 // LocalSizeId operands, or 0
	lit     [3]uint32 // LocalSize literals
}

// maxTypeDepth bounds the nesting of the types the reader builds.
const maxTypeDepth = 64

// spvDeco holds the decorations of an id or of a struct member; -1 means absent.
type spvDeco struct {
	specID, binding, set, builtin         int
	arrayStride, matrixStride, offset     int
	block, bufferBlock, nonWrite, nonRead bool
}

func newDeco() *spvDeco {
	d := &spvDeco{}
	for _, l := range d.literals() {
		*l.p = -1
	}
	return d
}

// spvLiteral is a decoration with one literal operand and the field of an spvDeco that
// records it; spvFlag is one without operands and the field that records its presence.
type (
	spvLiteral struct {
		dec spirv.Decoration
		p   *int
	}
	spvFlag struct {
		dec spirv.Decoration
		p   *bool
	}
)

// literals are the decorations d records with their literal operand, and where.
func (d *spvDeco) literals() [7]spvLiteral {
	return [7]spvLiteral{
		{spirv.DecorationSpecId, &d.specID},
		{spirv.DecorationBinding, &d.binding},
		{spirv.DecorationDescriptorSet, &d.set},
		{spirv.DecorationBuiltIn, &d.builtin},
		{spirv.DecorationArrayStride, &d.arrayStride},
		{spirv.DecorationMatrixStride, &d.matrixStride},
		{spirv.DecorationOffset, &d.offset},
	}
}

// flags are the decorations d records the presence of, and where.
func (d *spvDeco) flags() [4]spvFlag {
	return [4]spvFlag{
		{spirv.DecorationBlock, &d.block}, {spirv.DecorationBufferBlock, &d.bufferBlock},
		{spirv.DecorationNonWritable, &d.nonWrite}, {spirv.DecorationNonReadable, &d.nonRead},
	}
}

// merge copies the decorations set in g.
func (d *spvDeco) merge(g *spvDeco) {
	gl, gf := g.literals(), g.flags()
	for i, l := range d.literals() {
		if v := *gl[i].p; v >= 0 {
			*l.p = v
		}
	}
	for i, f := range d.flags() {
		*f.p = *f.p || *gf[i].p
	}
}

// spvConst is a constant or specialization constant instruction.
type spvConst struct {
	op     spirv.Op
	typeID uint32
	typ    *Type
	args   []uint32 // value words; constituents; or the OpSpecConstantOp opcode and operands
	specID int
	off    int
}

type memberKey struct{ id, member uint32 }

// rawInst is a recorded type declaration or variable.
type rawInst struct {
	op   spirv.Op
	args []uint32
	off  int
}

// spvReader holds what one pass over a module collects.
type spvReader struct {
	bound    uint32
	names    map[uint32]string
	mnames   map[memberKey]string
	deco     map[uint32]*spvDeco
	mdeco    map[memberKey]*spvDeco
	typeDefs map[uint32]rawInst
	types    map[uint32]*Type
	consts   map[uint32]*spvConst
	vars     []rawInst
	caps     []Capability
	entry    uint32
	modes    []rawInst // execution modes: args[0] is the entry point
	inFunc   bool      // past the first function: the global section is over
	open     int       // the offset of the function being read, or -1
	funcs    map[uint32]bool
	calls    []rawInst // OpFunctionCall: args[2] is the callee
	depth    int
}

// ReadInterface reads the interface of a compute module: see Interface. It needs no
// device and no cgo. A module that is not well-formed SPIR-V as far as the reader goes
// (bad magic number, a length that is not a multiple of 4, a truncated instruction, a
// word count of 0, an id at or past the bound, a reference to an undeclared type), that
// has no GLCompute entry point named "main", or that uses a descriptor set other than 0,
// is a *SPIRVError; ReadInterface never panics.
func ReadInterface(spirv []byte) (*Interface, error) {
	header, insts, err := spvwords.Parse(spirv)
	if err != nil {
		var e *spvwords.Error
		if !errors.As(err, &e) {
			return nil, spvErr(0, "%v", err)
		}
		return nil, spvErr(e.Offset, "%s", e.Reason)
	}
	r := &spvReader{bound: header[3], names: map[uint32]string{}, mnames: map[memberKey]string{},
		deco: map[uint32]*spvDeco{}, mdeco: map[memberKey]*spvDeco{}, typeDefs: map[uint32]rawInst{},
		types: map[uint32]*Type{}, consts: map[uint32]*spvConst{}, open: -1, funcs: map[uint32]bool{}}
	for _, in := range insts {
		if err := r.inst(in.Op, in.Args, in.Off); err != nil {
			return nil, err
		}
	}
	return r.build(len(spirv))
}

// function checks the structure of functions: each OpFunction has its OpFunctionEnd, and
// (in build) every function called and the entry point are defined, so that a module
// truncated at an instruction boundary is an error too.
func (r *spvReader) function(op spirv.Op, args []uint32, off int) error {
	switch op {
	case spirv.OpFunction:
		if err := need(op, args, 4, off); err != nil {
			return err
		}
		if r.open >= 0 {
			return spvErr(off, "OpFunction inside the function at byte %d", r.open)
		}
		r.inFunc, r.open, r.funcs[args[1]] = true, off, true
		return r.ids(off, args[1])
	case spirv.OpFunctionEnd:
		if r.open < 0 {
			return spvErr(off, "OpFunctionEnd outside a function")
		}
		r.open = -1
	default:
		if err := need(op, args, 3, off); err != nil {
			return err
		}
		r.calls = append(r.calls, rawInst{op: op, args: args, off: off})
	}
	return nil
}

// need checks that an instruction has at least n operand words.
func need(op spirv.Op, args []uint32, n, off int) error {
	if len(args) < n {
		return spvErr(off, "instruction with opcode %d has %d operand words, it needs at least %d", op, len(args), n)
	}
	return nil
}

// ids checks that every id is in (0, bound).
func (r *spvReader) ids(off int, ids ...uint32) error {
	for _, id := range ids {
		if id == 0 || id >= r.bound {
			return spvErr(off, "id %d is out of range: the module's bound is %d", id, r.bound)
		}
	}
	return nil
}

// minArgs is the number of operand words of the instructions the reader interprets.
var minArgs = map[spirv.Op]int{
	spirv.OpName: 1, spirv.OpMemberName: 2, spirv.OpEntryPoint: 3, spirv.OpExecutionMode: 2, spirv.OpExecutionModeId: 2, spirv.OpCapability: 1,
	spirv.OpTypeVoid: 1, spirv.OpTypeBool: 1, spirv.OpTypeInt: 3, spirv.OpTypeFloat: 2, spirv.OpTypeVector: 3, spirv.OpTypeMatrix: 3, spirv.OpTypeArray: 3,
	spirv.OpTypeRuntimeArray: 2, spirv.OpTypeStruct: 1, spirv.OpTypePointer: 3, spirv.OpConstantTrue: 2, spirv.OpConstantFalse: 2, spirv.OpConstant: 3,
	spirv.OpConstantComposite: 2, spirv.OpConstantNull: 2, spirv.OpSpecConstantTrue: 2, spirv.OpSpecConstantFalse: 2, spirv.OpSpecConstant: 3,
	spirv.OpSpecConstantComposite: 2, spirv.OpSpecConstantOp: 3, spirv.OpVariable: 3, spirv.OpDecorate: 2, spirv.OpMemberDecorate: 3,
	spirv.OpGroupDecorate: 1, spirv.OpGroupMemberDecorate: 1,
	// Types the reader records as TypeOther: image, sampler, sampled image, opaque,
	// function, event, device event, reserve id, queue, pipe, and the cooperative
	// matrices of SPV_KHR_cooperative_matrix (4456) and SPV_NV_cooperative_matrix (5358).
	spirv.OpTypeImage: 1, spirv.OpTypeSampler: 1, spirv.OpTypeSampledImage: 1, spirv.OpTypeOpaque: 1,
	spirv.OpTypeFunction: 1, spirv.OpTypeEvent: 1, spirv.OpTypeDeviceEvent: 1, spirv.OpTypeReserveId: 1,
	spirv.OpTypeQueue: 1, spirv.OpTypePipe: 1, spirv.OpTypeCooperativeMatrixKHR: 1, spirv.OpTypeCooperativeMatrixNV: 1,
}

// inst records one instruction of the module's global section.
func (r *spvReader) inst(op spirv.Op, args []uint32, off int) error {
	if op == spirv.OpFunction || op == spirv.OpFunctionEnd || op == spirv.OpFunctionCall {
		return r.function(op, args, off)
	}
	n, ok := minArgs[op]
	if r.inFunc || !ok {
		return nil
	}
	if err := need(op, args, n, off); err != nil {
		return err
	}
	switch op {
	case spirv.OpName, spirv.OpMemberName:
		return r.name(op, args, off)
	case spirv.OpEntryPoint:
		s, _, err := spvString(args[2:], off)
		if err != nil {
			return err
		}
		if spirv.ExecutionModel(args[0]) == spirv.ExecutionModelGLCompute && s == "main" {
			r.entry = args[1]
		}
		return r.ids(off, args[1])
	case spirv.OpExecutionMode, spirv.OpExecutionModeId:
		r.modes = append(r.modes, rawInst{op: op, args: args, off: off})
		return r.ids(off, args[0])
	case spirv.OpCapability:
		r.caps = append(r.caps, Capability(args[0]))
	case spirv.OpDecorate, spirv.OpMemberDecorate:
		return r.decorate(op, args, off)
	case spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate:
		return r.groupDecorate(op, args, off)
	case spirv.OpVariable:
		r.vars = append(r.vars, rawInst{op: op, args: args, off: off})
		return r.ids(off, args[0], args[1])
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpConstant, spirv.OpConstantComposite, spirv.OpConstantNull, spirv.OpSpecConstantTrue,
		spirv.OpSpecConstantFalse, spirv.OpSpecConstant, spirv.OpSpecConstantComposite, spirv.OpSpecConstantOp:
		return r.constant(op, args, off)
	default: // types
		if err := r.ids(off, args[0]); err != nil {
			return err
		}
		if _, dup := r.typeDefs[args[0]]; dup {
			return spvErr(off, "type id %d is declared twice", args[0])
		}
		r.typeDefs[args[0]] = rawInst{op: op, args: args, off: off}
	}
	return nil
}

// spvString decodes a nul-terminated literal string and returns the words after it.
func spvString(words []uint32, off int) (string, []uint32, error) {
	var b []byte
	for i, w := range words {
		for k := range 4 {
			c := byte(w >> (8 * k))
			if c == 0 {
				return string(b), words[i+1:], nil
			}
			b = append(b, c)
		}
	}
	return "", nil, spvErr(off, "literal string %q is not nul-terminated", b)
}

func (r *spvReader) name(op spirv.Op, args []uint32, off int) error {
	if op == spirv.OpName {
		s, _, err := spvString(args[1:], off)
		r.names[args[0]] = s
		return errors.Join(err, r.ids(off, args[0]))
	}
	s, _, err := spvString(args[2:], off)
	r.mnames[memberKey{args[0], args[1]}] = s
	return errors.Join(err, r.ids(off, args[0]))
}

// decoOf returns the decorations of id; mdecoOf those of a struct member.
func (r *spvReader) decoOf(id uint32) *spvDeco    { return decoIn(r.deco, id) }
func (r *spvReader) mdecoOf(k memberKey) *spvDeco { return decoIn(r.mdeco, k) }

// decoIn returns m[k], made (every decoration absent) on first use.
func decoIn[K comparable](m map[K]*spvDeco, k K) *spvDeco {
	d := m[k]
	if d == nil {
		d = newDeco()
		m[k] = d
	}
	return d
}

// decorate records an OpDecorate or OpMemberDecorate.
func (r *spvReader) decorate(op spirv.Op, args []uint32, off int) error {
	if err := r.ids(off, args[0]); err != nil {
		return err
	}
	var d *spvDeco
	if op == spirv.OpDecorate {
		d = r.decoOf(args[0])
		args = args[1:]
	} else {
		d = r.mdecoOf(memberKey{args[0], args[1]})
		args = args[2:]
	}
	dec := spirv.Decoration(args[0])
	for _, f := range d.flags() {
		if f.dec == dec {
			*f.p = true
		}
	}
	var p *int
	for _, l := range d.literals() {
		if l.dec == dec {
			p = l.p
		}
	}
	if p == nil {
		return nil
	}
	if len(args) < 2 {
		return spvErr(off, "decoration %d needs a literal operand", args[0])
	}
	if args[1] > 1<<30 {
		return spvErr(off, "decoration %d has the out-of-range operand %d", args[0], args[1])
	}
	*p = int(args[1])
	return nil
}

// groupDecorate applies a decoration group's decorations to its targets.
func (r *spvReader) groupDecorate(op spirv.Op, args []uint32, off int) error {
	if err := r.ids(off, args...); op == spirv.OpGroupDecorate && err != nil {
		return err
	}
	g := r.decoOf(args[0])
	if op == spirv.OpGroupDecorate {
		for _, t := range args[1:] {
			r.decoOf(t).merge(g)
		}
		return nil
	}
	if len(args)%2 != 1 {
		return spvErr(off, "OpGroupMemberDecorate has an odd number of target words")
	}
	for i := 1; i < len(args); i += 2 {
		if err := r.ids(off, args[i]); err != nil {
			return err
		}
		r.mdecoOf(memberKey{args[i], args[i+1]}).merge(g)
	}
	return nil
}

// constant records a constant instruction.
func (r *spvReader) constant(op spirv.Op, args []uint32, off int) error {
	if err := r.ids(off, args[0], args[1]); err != nil {
		return err
	}
	if _, dup := r.consts[args[1]]; dup {
		return spvErr(off, "constant id %d is declared twice", args[1])
	}
	c := &spvConst{op: op, typeID: args[0], args: args[2:], specID: -1, off: off}
	switch op {
	case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
		if err := r.ids(off, c.args...); err != nil {
			return err
		}
	case spirv.OpSpecConstantOp:
		if err := r.checkSpecOp(c); err != nil {
			return err
		}
	}
	r.consts[args[1]] = c
	return nil
}
