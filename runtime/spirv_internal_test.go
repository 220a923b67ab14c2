package runtime

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/internal/spirv"
	govec "github.com/goamp/goamp/vec"
)

// spvAsm assembles small SPIR-V modules for the reader's tests.
type spvAsm struct{ words []uint32 }

func (a *spvAsm) op(op spirv.Op, args ...uint32) *spvAsm {
	a.words = append(a.words, uint32(len(args)+1)<<16|uint32(op))
	a.words = append(a.words, args...)
	return a
}

// str packs a nul-terminated literal string.
func str(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

func (a *spvAsm) bytes(bound uint32) []byte {
	words := append([]uint32{spirv.MagicNumber, 0x00010300, 0, bound, 0}, a.words...)
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// Ids of the test modules' common declarations.
const (
	tVoid  = 1
	tFunc  = 2
	fMain  = 3
	tUint  = 4
	tInt   = 5
	tBool  = 6
	tV3    = 7
	tFloat = 8
	lLabel = 9
	first  = 20 // the first id a test may use
	bound  = 200
)

// module assembles a compute module: the header declarations, decorations, then the
// common types, then globals (constants, types, variables), then an empty main.
func module(decorations, globals func(a *spvAsm)) []byte {
	a := &spvAsm{}
	a.op(spirv.OpCapability, uint32(CapabilityShader))
	a.op(14, 0, 1) // OpMemoryModel Logical GLSL450
	a.op(spirv.OpEntryPoint, append([]uint32{uint32(spirv.ExecutionModelGLCompute), fMain}, str("main")...)...)
	a.op(spirv.OpExecutionMode, fMain, uint32(spirv.ExecutionModeLocalSize), 4, 2, 1)
	if decorations != nil {
		decorations(a)
	}
	a.op(spirv.OpTypeVoid, tVoid).op(33, tFunc, tVoid)
	a.op(spirv.OpTypeInt, tUint, 32, 0).op(spirv.OpTypeInt, tInt, 32, 1).op(spirv.OpTypeBool, tBool)
	a.op(spirv.OpTypeVector, tV3, tUint, 3).op(spirv.OpTypeFloat, tFloat, 32)
	if globals != nil {
		globals(a)
	}
	a.op(spirv.OpFunction, tVoid, fMain, 0, tFunc).op(248, lLabel).op(253).op(56)
	return a.bytes(bound)
}

// sharedOf declares "shared uint s[len]" (ids 190-192) for a length constant.
func sharedOf(a *spvAsm, length uint32) {
	a.op(spirv.OpTypeArray, 190, tUint, length)
	a.op(spirv.OpTypePointer, 191, uint32(spirv.StorageClassWorkgroup), 190)
	a.op(spirv.OpVariable, 191, 192, uint32(spirv.StorageClassWorkgroup))
}

// TestSpecConstantOps evaluates every OpSpecConstantOp opcode the evaluator implements,
// through the length of a shared array: SharedBytes / 4 is the expression's value.
// Spec constants 0 and 1 are a and b (SpecIds 0, 1); 21 is the signed constant -7.
func TestSpecConstantOps(t *testing.T) {
	const (
		a, b, neg, c3, c1, r = 20, 21, 22, 23, 24, 30
	)
	tests := []struct {
		name   string
		op     spirv.Op
		typ    uint32
		args   []uint32
		spec   []uint32
		want   uint32
		wantBl bool // the result is a bool: the array's length is Select(result, 5, 9)
	}{
		{"IAdd", spirv.OpIAdd, tUint, []uint32{a, b}, []uint32{17, 5}, 22, false},
		{"ISub wraps", spirv.OpISub, tUint, []uint32{a, b}, []uint32{5, 17}, 5 - 17 + 1<<32, false},
		{"IMul", spirv.OpIMul, tUint, []uint32{a, b}, []uint32{6, 7}, 42, false},
		{"UDiv", spirv.OpUDiv, tUint, []uint32{a, b}, []uint32{45, 7}, 6, false},
		{"SDiv truncates", spirv.OpSDiv, tInt, []uint32{neg, c3}, nil, 1<<32 - 2, false},
		{"UMod", spirv.OpUMod, tUint, []uint32{a, b}, []uint32{45, 7}, 3, false},
		{"SRem takes the dividend's sign", spirv.OpSRem, tInt, []uint32{neg, c3}, nil, 1<<32 - 1, false},
		{"SMod takes the divisor's sign", spirv.OpSMod, tInt, []uint32{neg, c3}, nil, 2, false},
		{"ShiftLeftLogical", spirv.OpShiftLeftLogical, tUint, []uint32{a, b}, []uint32{3, 4}, 48, false},
		{"ShiftRightLogical", spirv.OpShiftRightLogical, tUint, []uint32{a, b}, []uint32{1 << 31, 4}, 1 << 27, false},
		{"ShiftRightArithmetic", spirv.OpShiftRightArithmetic, tInt, []uint32{neg, c1}, nil, 1<<32 - 4, false},
		{"BitwiseOr", spirv.OpBitwiseOr, tUint, []uint32{a, b}, []uint32{12, 3}, 15, false},
		{"BitwiseXor", spirv.OpBitwiseXor, tUint, []uint32{a, b}, []uint32{12, 10}, 6, false},
		{"BitwiseAnd", spirv.OpBitwiseAnd, tUint, []uint32{a, b}, []uint32{12, 10}, 8, false},
		{"Not", spirv.OpNot, tUint, []uint32{a}, []uint32{5}, ^uint32(5), false},
		{"SNegate", spirv.OpSNegate, tInt, []uint32{neg}, nil, 7, false},
		{"UConvert", spirv.OpUConvert, tUint, []uint32{neg}, nil, 1<<32 - 7, false},
		{"SConvert", spirv.OpSConvert, tInt, []uint32{neg}, nil, 1<<32 - 7, false},
		{"IEqual", spirv.OpIEqual, tBool, []uint32{a, b}, []uint32{4, 4}, 5, true},
		{"INotEqual", spirv.OpINotEqual, tBool, []uint32{a, b}, []uint32{4, 4}, 9, true},
		{"UGreaterThan", spirv.OpUGreaterThan, tBool, []uint32{a, b}, []uint32{1 << 31, 1}, 5, true},
		{"SGreaterThan", spirv.OpSGreaterThan, tBool, []uint32{neg, c1}, nil, 9, true},
		{"UGreaterThanEqual", spirv.OpUGreaterThanEqual, tBool, []uint32{a, b}, []uint32{3, 3}, 5, true},
		{"SGreaterThanEqual", spirv.OpSGreaterThanEqual, tBool, []uint32{neg, c3}, nil, 9, true},
		{"ULessThan", spirv.OpULessThan, tBool, []uint32{a, b}, []uint32{3, 1 << 31}, 5, true},
		{"SLessThan", spirv.OpSLessThan, tBool, []uint32{neg, c1}, nil, 5, true},
		{"ULessThanEqual", spirv.OpULessThanEqual, tBool, []uint32{a, b}, []uint32{4, 3}, 9, true},
		{"SLessThanEqual", spirv.OpSLessThanEqual, tBool, []uint32{neg, neg}, nil, 5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := module(func(as *spvAsm) {
				as.op(spirv.OpDecorate, a, uint32(spirv.DecorationSpecId), 0).op(spirv.OpDecorate, b, uint32(spirv.DecorationSpecId), 1)
			}, func(as *spvAsm) {
				as.op(spirv.OpSpecConstant, tUint, a, 11).op(spirv.OpSpecConstant, tUint, b, 13)
				as.op(spirv.OpConstant, tInt, neg, uint32(0xFFFFFFF9)).op(spirv.OpConstant, tInt, c3, 3).op(spirv.OpConstant, tInt, c1, 1)
				as.op(spirv.OpSpecConstantOp, append([]uint32{tt.typ, r, uint32(tt.op)}, tt.args...)...)
				length := uint32(r)
				if tt.wantBl {
					as.op(spirv.OpConstant, tUint, 31, 5).op(spirv.OpConstant, tUint, 32, 9)
					as.op(spirv.OpSpecConstantOp, tUint, 33, uint32(spirv.OpSelect), r, 31, 32)
					length = 33
				}
				sharedOf(as, length)
			})
			in, err := ReadInterface(m)
			if tt.want > 1<<20 { // too large for a default evaluation to matter: check the value
				require.NoError(t, err)
				e := specEval{consts: in.consts, spec: tt.spec}
				v, err := e.value(r, 0, 0)
				require.NoError(t, err)
				assert.Equal(t, uint64(tt.want), v)
				return
			}
			require.NoError(t, err)
			n, err := in.SharedBytes(tt.spec)
			require.NoError(t, err)
			assert.Equal(t, int(tt.want)*4, n)
		})
	}
}

// TestSpecConstantComposites evaluates composite constants, CompositeExtract,
// CompositeInsert, VectorShuffle and the logical operations, as glslang emits them for
// gl_WorkGroupSize.
func TestSpecConstantComposites(t *testing.T) {
	const x, y, z, ws, tr = 20, 21, 22, 23, 24
	exprs := []struct {
		name string
		emit func(as *spvAsm) uint32 // returns the id of the length
		spec []uint32
		want int
	}{
		{"extract y", func(as *spvAsm) uint32 {
			as.op(spirv.OpSpecConstantOp, tUint, 40, uint32(spirv.OpCompositeExtract), ws, 1)
			return 40
		}, []uint32{3, 5, 7}, 5},
		{"shuffle then extract", func(as *spvAsm) uint32 {
			as.op(spirv.OpSpecConstantOp, tV3, 40, uint32(spirv.OpVectorShuffle), ws, ws, 2, 4, 0)
			as.op(spirv.OpSpecConstantOp, tUint, 41, uint32(spirv.OpCompositeExtract), 40, 0)
			return 41
		}, []uint32{3, 5, 7}, 7},
		{"vector IMul then extract", func(as *spvAsm) uint32 {
			as.op(spirv.OpSpecConstantOp, tV3, 40, uint32(spirv.OpIMul), ws, ws)
			as.op(spirv.OpSpecConstantOp, tUint, 41, uint32(spirv.OpCompositeExtract), 40, 2)
			return 41
		}, []uint32{3, 5, 7}, 49},
		{"insert", func(as *spvAsm) uint32 {
			as.op(spirv.OpConstant, tUint, 39, 11)
			as.op(spirv.OpSpecConstantOp, tV3, 40, uint32(spirv.OpCompositeInsert), 39, ws, 1)
			as.op(spirv.OpSpecConstantOp, tUint, 41, uint32(spirv.OpCompositeExtract), 40, 1)
			as.op(spirv.OpSpecConstantOp, tUint, 42, uint32(spirv.OpCompositeExtract), 40, 0)
			as.op(spirv.OpSpecConstantOp, tUint, 43, uint32(spirv.OpIAdd), 41, 42)
			return 43
		}, []uint32{3, 5, 7}, 14},
		{"logical and, or, not, equal", func(as *spvAsm) uint32 {
			as.op(spirv.OpSpecConstantOp, tBool, 40, uint32(spirv.OpLogicalNot), tr) // false with spec 3 = 1
			as.op(spirv.OpSpecConstantOp, tBool, 41, uint32(spirv.OpLogicalOr), 40, tr)
			as.op(spirv.OpSpecConstantOp, tBool, 42, uint32(spirv.OpLogicalAnd), 41, tr)
			as.op(spirv.OpSpecConstantOp, tBool, 43, uint32(spirv.OpLogicalEqual), 42, 40)    // false
			as.op(spirv.OpSpecConstantOp, tBool, 44, uint32(spirv.OpLogicalNotEqual), 43, 42) // true
			as.op(spirv.OpConstant, tUint, 45, 5).op(spirv.OpConstant, tUint, 46, 9)
			as.op(spirv.OpSpecConstantOp, tUint, 47, uint32(spirv.OpSelect), 44, 45, 46)
			return 47
		}, []uint32{3, 5, 7, 1}, 5},
		{"spec bool false", func(as *spvAsm) uint32 {
			as.op(spirv.OpConstant, tUint, 45, 5).op(spirv.OpConstant, tUint, 46, 9)
			as.op(spirv.OpSpecConstantOp, tUint, 47, uint32(spirv.OpSelect), tr, 45, 46)
			return 47
		}, []uint32{3, 5, 7, 0}, 9},
	}
	for _, tt := range exprs {
		t.Run(tt.name, func(t *testing.T) {
			m := module(func(as *spvAsm) {
				as.op(spirv.OpDecorate, x, uint32(spirv.DecorationSpecId), 0).op(spirv.OpDecorate, y, uint32(spirv.DecorationSpecId), 1).op(spirv.OpDecorate, z, uint32(spirv.DecorationSpecId), 2)
				as.op(spirv.OpDecorate, ws, uint32(spirv.DecorationBuiltIn), uint32(spirv.BuiltInWorkgroupSize)).op(spirv.OpDecorate, tr, uint32(spirv.DecorationSpecId), 3)
			}, func(as *spvAsm) {
				as.op(spirv.OpSpecConstant, tUint, x, 1).op(spirv.OpSpecConstant, tUint, y, 1).op(spirv.OpSpecConstant, tUint, z, 1)
				as.op(spirv.OpSpecConstantComposite, tV3, ws, x, y, z).op(spirv.OpSpecConstantTrue, tBool, tr)
				sharedOf(as, tt.emit(as))
			})
			in, err := ReadInterface(m)
			require.NoError(t, err)
			assert.Equal(t, [3]int{0, 1, 2}, in.LocalSizeSpecIDs)
			assert.False(t, in.FixedLocalSize())
			assert.Equal(t, []int{0, 1, 2, 3}, in.SpecIDs)
			n, err := in.SharedBytes(tt.spec)
			require.NoError(t, err)
			assert.Equal(t, tt.want*4, n)
			ws, err := in.WorkgroupSize(tt.spec)
			require.NoError(t, err)
			assert.Equal(t, [3]uint32(tt.spec[:3]), ws, "the WorkgroupSize built-in overrides LocalSize 4 2 1")
		})
	}
}

// TestReadInterfaceErrors: malformed modules are *SPIRVError with the offset of the
// offending instruction, never a panic.
func TestReadInterfaceErrors(t *testing.T) {
	good := module(nil, nil)
	entryOff := 4 * (5 + 2 + 3) // header, OpCapability, OpMemoryModel
	withWord := func(i int, w uint32) []byte {
		b := append([]byte(nil), good...)
		binary.LittleEndian.PutUint32(b[4*i:], w)
		return b
	}
	a := &spvAsm{}
	a.op(spirv.OpEntryPoint, append([]uint32{uint32(spirv.ExecutionModelGLCompute), fMain}, str("other")...)...)
	noMain := a.bytes(bound)
	tests := []struct {
		name   string
		spirv  []byte
		offset int
		reason string
	}{
		{"empty", nil, 0, "less than the 20-byte header"},
		{"length not a multiple of 4", good[:len(good)-2], len(good) - 4, "not a multiple of 4"},
		{"bad magic", withWord(0, 0xdeadbeef), 0, "bad magic number 0xdeadbeef"},
		{"word count 0", withWord(5, uint32(spirv.OpCapability)), 20, "word count of 0"},
		{"truncated instruction", good[:entryOff+8], entryOff, "is truncated: it has 5 words, 2 remain"},
		{"id at the bound", withWord(3, tFloat), -1, "the module's bound is 8"},
		{"no GLCompute main", noMain, len(noMain), `no GLCompute entry point named "main"`},
		{"descriptor set 1", module(func(a *spvAsm) {
			a.op(spirv.OpDecorate, 30, uint32(spirv.DecorationDescriptorSet), 1).op(spirv.OpDecorate, 30, uint32(spirv.DecorationBinding), 0).op(spirv.OpDecorate, 20, uint32(spirv.DecorationBlock))
		}, func(a *spvAsm) {
			a.op(spirv.OpTypeStruct, 20, tUint).op(spirv.OpTypePointer, 21, uint32(spirv.StorageClassStorageBuffer), 20).op(spirv.OpVariable, 21, 30, uint32(spirv.StorageClassStorageBuffer))
		}), -1, "descriptor set 1"},
		{"undeclared type", module(nil, func(a *spvAsm) { a.op(spirv.OpConstant, 77, 20, 1) }), -1, "id 77 is used as a type"},
		{"self-referring type", module(nil, func(a *spvAsm) {
			a.op(spirv.OpTypeStruct, 20, 21).op(spirv.OpTypeStruct, 21, 20).op(spirv.OpTypePointer, 22, uint32(spirv.StorageClassWorkgroup), 20).op(spirv.OpVariable, 22, 23, uint32(spirv.StorageClassWorkgroup))
		}), -1, "refer to themselves"},
		{"division by zero", module(nil, func(a *spvAsm) {
			a.op(spirv.OpConstant, tUint, 20, 0).op(spirv.OpSpecConstantOp, tUint, 21, uint32(spirv.OpUDiv), 20, 20)
			sharedOf(a, 21)
		}), -1, "divides by zero"},
		{"unsupported spec op", module(nil, func(a *spvAsm) {
			a.op(spirv.OpConstant, tUint, 20, 3).op(spirv.OpSpecConstantOp, tUint, 21, 115, 20) // OpFConvert
			sharedOf(a, 21)
		}), -1, "opcode 115 is not supported"},
		{"operand not declared before", module(nil, func(a *spvAsm) {
			a.op(spirv.OpSpecConstantOp, tUint, 21, uint32(spirv.OpIAdd), 21, 21)
		}), -1, "not a constant declared before it"},
		{"not nul-terminated", func() []byte {
			a := &spvAsm{}
			a.op(spirv.OpEntryPoint, uint32(spirv.ExecutionModelGLCompute), fMain, 0x41414141)
			return a.bytes(bound)
		}(), 20, "not nul-terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := ReadInterface(tt.spirv)
			require.Nil(t, in)
			require.ErrorIs(t, err, ErrInvalidSPIRV)
			var se *SPIRVError
			require.ErrorAs(t, err, &se)
			if tt.offset >= 0 {
				assert.Equal(t, tt.offset, se.Offset)
			}
			assert.Contains(t, se.Reason, tt.reason)
		})
	}
}

// TestReadInterfaceBuffers: the SPIR-V 1.0 buffer spelling (Uniform + BufferBlock),
// NonWritable on the variable, decoration groups, a uniform buffer, LocalSizeId.
func TestReadInterfaceBuffers(t *testing.T) {
	m := func() []byte {
		a := &spvAsm{}
		a.op(spirv.OpCapability, uint32(CapabilityShader)).op(spirv.OpCapability, uint32(CapabilityFloat64)).op(14, 0, 1)
		a.op(spirv.OpEntryPoint, append([]uint32{uint32(spirv.ExecutionModelGLCompute), fMain}, str("main")...)...)
		a.op(spirv.OpExecutionModeId, fMain, uint32(spirv.ExecutionModeLocalSizeId), 50, 51, 51)
		a.op(spirv.OpName, append([]uint32{30}, str("data")...)...).op(spirv.OpMemberName, append([]uint32{20, 0}, str("x")...)...)
		a.op(spirv.OpDecorate, 60, uint32(spirv.DecorationDescriptorSet), 0).op(spirv.OpDecorate, 60, uint32(spirv.DecorationNonWritable))
		a.op(73, 60) // OpDecorationGroup
		a.op(spirv.OpGroupDecorate, 60, 30, 31)
		a.op(spirv.OpDecorate, 30, uint32(spirv.DecorationBinding), 0).op(spirv.OpDecorate, 31, uint32(spirv.DecorationBinding), 2)
		a.op(spirv.OpDecorate, 20, uint32(spirv.DecorationBufferBlock)).op(spirv.OpDecorate, 22, uint32(spirv.DecorationBlock)).op(spirv.OpDecorate, 23, uint32(spirv.DecorationArrayStride), 8)
		a.op(spirv.OpMemberDecorate, 20, 0, uint32(spirv.DecorationOffset), 0).op(spirv.OpMemberDecorate, 22, 0, uint32(spirv.DecorationOffset), 0)
		a.op(spirv.OpDecorate, 32, uint32(spirv.DecorationBinding), 1).op(spirv.OpDecorate, 32, uint32(spirv.DecorationDescriptorSet), 0)
		a.op(spirv.OpTypeVoid, tVoid).op(33, tFunc, tVoid).op(spirv.OpTypeInt, tUint, 32, 0).op(spirv.OpTypeFloat, tFloat, 64)
		a.op(spirv.OpTypeRuntimeArray, 23, tFloat)
		a.op(spirv.OpTypeStruct, 20, 23).op(spirv.OpTypePointer, 21, uint32(spirv.StorageClassUniform), 20)
		a.op(spirv.OpTypeStruct, 22, tUint).op(spirv.OpTypePointer, 24, uint32(spirv.StorageClassUniform), 22)
		a.op(spirv.OpConstant, tUint, 50, 16).op(spirv.OpConstant, tUint, 51, 1)
		a.op(spirv.OpVariable, 21, 30, uint32(spirv.StorageClassUniform)).op(spirv.OpVariable, 21, 31, uint32(spirv.StorageClassUniform)).op(spirv.OpVariable, 24, 32, uint32(spirv.StorageClassUniform))
		a.op(spirv.OpFunction, tVoid, fMain, 0, tFunc).op(248, lLabel).op(253).op(56)
		return a.bytes(bound)
	}()
	in, err := ReadInterface(m)
	require.NoError(t, err)
	require.Len(t, in.Buffers, 2)
	assert.Equal(t, 0, in.Buffers[0].Binding)
	assert.Equal(t, 2, in.Buffers[1].Binding)
	v := in.Buffers[0].Vars[0]
	assert.Equal(t, "data", v.Name)
	assert.True(t, v.BufferBlock)
	assert.True(t, v.NonWritable, "NonWritable through a decoration group")
	assert.True(t, in.Buffers[0].ReadOnly())
	assert.Equal(t, 8, v.ArrayStride)
	assert.Equal(t, "double", v.Elem.String())
	assert.Equal(t, "struct{double[]@0}", v.Block.String())
	assert.Equal(t, []int{1}, in.OtherBindings, "a Uniform Block is a uniform buffer")
	assert.Equal(t, [3]uint32{16, 1, 1}, in.LocalSize)
	assert.True(t, in.FixedLocalSize())
	assert.Equal(t, [3]int{-1, -1, -1}, in.LocalSizeSpecIDs)
	assert.True(t, in.HasCapability(CapabilityFloat64))
	assert.False(t, in.HasCapability(CapabilityInt64))
}

// TestTypeString checks the GLSL spelling of types.
func TestTypeString(t *testing.T) {
	f32 := &Type{Kind: TypeFloat, Width: 32}
	i64 := &Type{Kind: TypeInt, Width: 64}
	v3 := &Type{Kind: TypeVector, Len: 3, Elem: f32}
	tests := []struct {
		t    *Type
		want string
	}{
		{&Type{Kind: TypeUint, Width: 32}, "uint"},
		{&Type{Kind: TypeUint, Width: 16}, "uint16_t"},
		{&Type{Kind: TypeVector, Len: 2, Elem: i64}, "i64vec2"},
		{v3, "vec3"},
		{&Type{Kind: TypeMatrix, Len: 3, Elem: v3}, "mat3"},
		{&Type{Kind: TypeMatrix, Len: 4, Elem: v3}, "mat4x3"},
		{&Type{Kind: TypeArray, Len: 5, Elem: v3}, "vec3[5]"},
		{&Type{Kind: TypeStruct, Members: []Member{{Type: f32, Offset: 0}, {Type: i64, Offset: 8}}}, "struct{float@0, int64_t@8}"},
		{&Type{Kind: TypeStruct, Name: "AmpView"}, "AmpView"},
		{nil, "<none>"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.t.String())
	}
	// A type made of 2^40 scalars formats in bounded space.
	big := f32
	for range 40 {
		big = &Type{Kind: TypeStruct, Members: []Member{{Type: big}, {Type: big, Offset: 4}}}
	}
	assert.Less(t, len(big.String()), 2*maxTypeString)
}

// fuzzSeeds are the modules FuzzReadInterface starts from.
func fuzzSeeds(f *testing.F) [][]byte {
	seeds := [][]byte{module(nil, nil), module(nil, func(a *spvAsm) { a.op(spirv.OpConstant, tUint, 20, 64); sharedOf(a, 20) })}
	files, err := filepath.Glob(filepath.Join("testdata", "contract", "*.spv"))
	require.NoError(f, err)
	more, _ := filepath.Glob(filepath.Join("..", "shaders", "spv", "*.spv"))
	for _, p := range append(files, more...) {
		b, err := os.ReadFile(p)
		require.NoError(f, err)
		seeds = append(seeds, b)
	}
	return seeds
}

// FuzzReadInterface: no input makes the reader, the evaluator or the contract check
// panic; errors are *SPIRVError.
func FuzzReadInterface(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	type kernel struct {
		A, B  Arg
		N     int32
		Alpha float32
	}
	l := layoutOf(typeOf[kernel]())
	infos := []ArgInfo{{Rank: 1, ElemSize: 4, Elem: typeOf[float32](), Access: Read},
		{Rank: 2, ElemSize: 16, Elem: typeOf[[4]int32](), Access: ReadWrite}}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := ReadInterface(b)
		if err != nil {
			var se *SPIRVError
			if !errors.As(err, &se) || !errors.Is(err, ErrInvalidSPIRV) {
				t.Fatalf("error %v is not a *SPIRVError", err)
			}
			return
		}
		for _, spec := range [][]uint32{nil, {16, 16, 1, 2}, {0, 0, 0, 0}, {1 << 31, 3, 1 << 30, 7}} {
			_, _ = in.WorkgroupSize(spec)
			_, _ = in.SharedBytes(spec)
		}
		for _, bb := range in.Buffers {
			for _, v := range bb.Vars {
				_ = v.Block.String()
			}
		}
		p := &Program{Name: "fuzz", SPIRV: b}
		p.load()
		if p.err != nil {
			t.Fatalf("ReadInterface succeeded, Program.load failed: %v", p.err)
		}
		c := newContract(l, p, infos, false)
		_ = c.checkArgs(l, infos)
		if c.err == nil {
			_, _ = c.forSpec(l, [4]uint32{8, 8, 1, 0}, true)
		}
	})
}

// TestRandomBytes: random modules, and valid headers followed by random words, are
// errors.
func TestRandomBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 3))
	for i := range 2000 {
		b := make([]byte, 4*(1+rng.IntN(64)))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		if i%2 == 1 {
			copy(b, module(nil, nil)[:20])
		}
		_, err := ReadInterface(b)
		require.ErrorIs(t, err, ErrInvalidSPIRV, "input %d", i)
	}
}

// BenchmarkContractCheck measures what the contract check adds to a dispatch once its
// tile-independent part is cached: the lookups, the per-argument checks and the
// tile-dependent part. It allocates nothing.
func BenchmarkContractCheck(b *testing.B) {
	spirv, err := os.ReadFile(filepath.Join("testdata", "contract", "scaled_add.spv"))
	require.NoError(b, err)
	type kernel struct {
		X, Y   Arg
		Alpha  float32
		Offset int32
	}
	l := layoutOf(typeOf[kernel]())
	p := &Program{Name: "bench", SPIRV: spirv}
	s := &dispatch{infos: []ArgInfo{{Rank: 1, ElemSize: 4, Elem: typeOf[float32](), Access: Read},
		{Rank: 1, ElemSize: 4, Elem: typeOf[float32](), Access: ReadWrite}}}
	spec := specFor(Ext(1000), Extent{}, GroupSize)
	acc := accelerator.CPU()
	_, _, err = checkContract(l, p, acc, s, &spec, 1, false)
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		spec := specFor(Ext(1000), Extent{}, GroupSize)
		if _, _, err := checkContract(l, p, acc, s, &spec, 1, false); err != nil {
			b.Fatal(err)
		}
	}
}

// TestElemMatches: which GLSL element types hold which Go element types.
func TestElemMatches(t *testing.T) {
	f32 := &Type{Kind: TypeFloat, Width: 32}
	f64 := &Type{Kind: TypeFloat, Width: 64}
	i32 := &Type{Kind: TypeInt, Width: 32}
	u32 := &Type{Kind: TypeUint, Width: 32}
	i8, u8, u16 := &Type{Kind: TypeInt, Width: 8}, &Type{Kind: TypeUint, Width: 8}, &Type{Kind: TypeUint, Width: 16}
	vec := func(e *Type, n int) *Type {
		v := &Type{Kind: TypeVector, Len: n, Elem: e}
		computeSizes(v)
		return v
	}
	for _, s := range []*Type{f32, f64, i32, u32, i8, u8, u16} {
		computeSizes(s)
	}
	type padded struct {
		X, Y, Z float32
		_       float32
	}
	type pair struct {
		A int32
		B float32
	}
	st := &Type{Kind: TypeStruct, Members: []Member{{Type: i32, Offset: 0}, {Type: f32, Offset: 4}}}
	tests := []struct {
		name string
		s    *Type
		g    reflect.Type
		want bool
	}{
		{"float float32", f32, typeOf[float32](), true},
		{"double float64", f64, typeOf[float64](), true},
		{"uint holds float32 bits", u32, typeOf[float32](), true},
		{"uint holds int32 bits", u32, typeOf[int32](), true},
		{"int is not float32", i32, typeOf[float32](), false},
		{"float is not int32", f32, typeOf[int32](), false},
		{"int is not uint32", i32, typeOf[uint32](), false},
		{"vec3 and a padded struct", vec(f32, 3), typeOf[padded](), true},
		{"vec3 and [3]float32", vec(f32, 3), typeOf[[3]float32](), true},
		{"vec4 is not [3]float32", vec(f32, 4), typeOf[[3]float32](), false},
		{"struct", st, typeOf[pair](), true},
		{"struct, members swapped", st, typeOf[struct {
			B float32
			A int32
		}](), false},
		{"uvec2 holds float64 bits", vec(u32, 2), typeOf[float64](), true},
		{"uvec2 holds a struct's bits", vec(u32, 2), typeOf[pair](), true},
		{"uvec4 is not an 8-byte struct", vec(u32, 4), typeOf[pair](), false},
		{"int8_t int8", i8, typeOf[int8](), true},
		{"uint8_t uint8", u8, typeOf[uint8](), true},
		{"uint8_t holds int8 bits", u8, typeOf[int8](), true},
		{"int8_t is not uint8", i8, typeOf[uint8](), false},
		{"uint16_t holds float16 bits", u16, typeOf[half.Float16](), true},
		{"uint16_t is not int32", u16, typeOf[int32](), false},
		{"uint8_t is not float16", u8, typeOf[half.Float16](), false},
		{"u8vec4 holds int32 bits", vec(u8, 4), typeOf[int32](), true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, elemMatches(tt.s, tt.g), tt.name)
	}

	// Vectorized aliases: K components per array element.
	arr4 := &Type{Kind: TypeArray, Len: 4, Elem: f32, Stride: 4}
	computeSizes(arr4)
	assert.Same(t, f32, vectorized(&BufferVariable{Elem: vec(f32, 4), ArrayStride: 16}, 4), "vec4 x4[] over float32")
	assert.Same(t, f32, vectorized(&BufferVariable{Elem: arr4, ArrayStride: 16}, 4), "float[4] x4[] over float32")
	assert.Nil(t, vectorized(&BufferVariable{Elem: vec(f32, 3), ArrayStride: 16}, 4), "vec3's stride is not 3 floats")
	assert.Nil(t, vectorized(&BufferVariable{Elem: vec(f32, 4), ArrayStride: 16}, 8), "8-byte elements")
	assert.Nil(t, vectorized(&BufferVariable{Elem: f32, ArrayStride: 16}, 4), "not a vector")
}

// TestElemMatchesPadding: blank fields of a Go struct are padding, which the GLSL struct
// may declare as members (ampgen does) or leave out; vec.Float3's blank fourth component
// is never a member.
func TestElemMatchesPadding(t *testing.T) {
	f32 := &Type{Kind: TypeFloat, Width: 32}
	i32 := &Type{Kind: TypeInt, Width: 32}
	vec := func(e *Type, n int) *Type {
		v := &Type{Kind: TypeVector, Len: n, Elem: e}
		computeSizes(v)
		return v
	}
	for _, s := range []*Type{f32, i32} {
		computeSizes(s)
	}
	arr3 := func(e *Type) *Type { return &Type{Kind: TypeArray, Len: 3, Elem: e, Stride: 4} }
	strct := func(m ...Member) *Type { return &Type{Kind: TypeStruct, Members: m} }
	type blank struct {
		A int32
		_ [3]int32
		B float32
	}
	type body struct {
		P govec.Float3
		V govec.Float4
	}
	tests := []struct {
		name string
		s    *Type
		g    reflect.Type
		want bool
	}{
		{"blank member", strct(Member{Type: i32}, Member{Type: arr3(i32), Offset: 4}, Member{Type: f32, Offset: 16}), typeOf[blank](), true},
		{"no blank member", strct(Member{Type: i32}, Member{Type: f32, Offset: 16}), typeOf[blank](), true},
		{"blank member of other types", strct(Member{Type: i32}, Member{Type: arr3(f32), Offset: 4}, Member{Type: f32, Offset: 16}), typeOf[blank](), false},
		{"a vec.Float3 member", strct(Member{Type: vec(f32, 3)}, Member{Type: vec(f32, 4), Offset: 16}), typeOf[body](), true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, elemMatches(tt.s, tt.g), tt.name)
	}
}
