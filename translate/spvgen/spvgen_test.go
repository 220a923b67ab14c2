package spvgen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
	"github.com/goamp/goamp/translate/ir"
	"github.com/goamp/goamp/translate/spvgen"
)

// at reads view v at the thread's index.
func at(v int) ir.Value {
	return &ir.ViewLoad{View: v, T: ir.Float32,
		Index: [3]ir.Value{&ir.ThreadIndex{Comp: 0}, &ir.ThreadIndex{Comp: 1}, &ir.ThreadIndex{Comp: 2}}}
}

func bin(op ir.Op, x, y ir.Value) *ir.Binary {
	b := &ir.Binary{Op: op, X: x, Y: y}
	mul := func(v ir.Value) bool { m, ok := v.(*ir.Binary); return ok && m.Op == ir.Mul }
	b.Fuse = (op == ir.Add || op == ir.Sub) && (mul(x) || mul(y))
	return b
}

// kernel is Out[i] = v over float32 views A, B, C, D.
func kernel(v ir.Value) *ir.Kernel {
	k := &ir.Kernel{Name: "test"}
	for _, n := range []string{"A", "B", "C", "D"} {
		k.Views = append(k.Views, ir.View{Name: n, Elem: ir.Float32})
	}
	k.Views = append(k.Views, ir.View{Name: "Out", Elem: ir.Float32, Written: true})
	k.Body = []ir.Stmt{&ir.ViewStore{View: 4, Value: v,
		Index: [3]ir.Value{&ir.ThreadIndex{Comp: 0}, &ir.ThreadIndex{Comp: 1}, &ir.ThreadIndex{Comp: 2}}}}
	return k
}

// floatOps lists the module's float operations and conversions in order,
// each with whether it is decorated NoContraction.
func floatOps(t *testing.T, spv []byte) (ops []spirv.Op, exact []bool) {
	_, insts, err := spvwords.Parse(spv)
	require.NoError(t, err)
	dec := map[uint32]bool{}
	for _, in := range insts {
		if in.Op == spirv.OpDecorate && spirv.Decoration(in.Args[1]) == spirv.DecorationNoContraction {
			dec[in.Args[0]] = true
		}
	}
	for _, in := range insts {
		switch in.Op {
		case spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul, spirv.OpFDiv, spirv.OpFNegate, spirv.OpConvertSToF,
			spirv.OpConvertFToS:
			ops = append(ops, in.Op)
			exact = append(exact, dec[in.Args[1]])
		}
	}
	return ops, exact
}

// TestFloatRules checks Go's float rules in the written module: a product
// and the add that is its one use are left free to fuse, nothing else.
func TestFloatRules(t *testing.T) {
	a, b, c, d := at(0), at(1), at(2), at(3)
	for _, tc := range []struct {
		name  string
		v     ir.Value
		ops   []spirv.Op
		exact []bool
	}{
		{"a*b+c", bin(ir.Add, bin(ir.Mul, a, b), c),
			[]spirv.Op{spirv.OpFMul, spirv.OpFAdd}, []bool{false, false}},
		{"c-a*b", bin(ir.Sub, c, bin(ir.Mul, a, b)),
			[]spirv.Op{spirv.OpFMul, spirv.OpFSub}, []bool{false, false}},
		{"float32(a*b)+c", bin(ir.Add, &ir.Convert{To: ir.Float32, X: bin(ir.Mul, a, b)}, c),
			[]spirv.Op{spirv.OpFMul, spirv.OpFAdd}, []bool{true, true}},
		{"a*b+c*d: one product fuses", bin(ir.Add, bin(ir.Mul, a, b), bin(ir.Mul, c, d)),
			[]spirv.Op{spirv.OpFMul, spirv.OpFMul, spirv.OpFAdd}, []bool{false, true, false}},
		{"(a+b)*c", bin(ir.Mul, bin(ir.Add, a, b), c),
			[]spirv.Op{spirv.OpFAdd, spirv.OpFMul}, []bool{true, true}},
		{"-a/b", bin(ir.Div, &ir.Unary{Op: ir.Neg, X: a}, b),
			[]spirv.Op{spirv.OpFNegate, spirv.OpFDiv}, []bool{true, true}},
		{"float32(int32(a))", &ir.Convert{To: ir.Float32, X: &ir.Convert{To: ir.Int32, X: a}},
			[]spirv.Op{spirv.OpConvertFToS, spirv.OpConvertSToF}, []bool{true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spv, err := spvgen.Write(kernel(tc.v))
			require.NoError(t, err)
			ops, exact := floatOps(t, spv)
			assert.Equal(t, tc.ops, ops)
			assert.Equal(t, tc.exact, exact)
			validate(t, spv)
		})
	}
}

// validate runs spirv-val on spv where it is installed.
func validate(t *testing.T, spv []byte) {
	t.Helper()
	val, err := exec.LookPath("spirv-val")
	if err != nil {
		t.Log("spirv-val is not installed: not validated")
		return
	}
	f := filepath.Join(t.TempDir(), "k.spv")
	require.NoError(t, os.WriteFile(f, spv, 0o644))
	out, err := exec.Command(val, "--target-env", "vulkan1.1", f).CombinedOutput()
	require.NoError(t, err, string(out))
}

// TestModule checks the module-level contract: SPIR-V 1.3, the float
// controls, the entry point, the SpecIds and bindings.
func TestModule(t *testing.T) {
	spv, err := spvgen.Write(kernel(at(0)))
	require.NoError(t, err)
	header, insts, err := spvwords.Parse(spv)
	require.NoError(t, err)
	assert.Equal(t, uint32(0x00010300), header[1], "SPIR-V 1.3")
	var caps []spirv.Capability
	var modes []spirv.ExecutionMode
	specIDs, bindings := map[uint32]bool{}, map[uint32]bool{}
	for _, in := range insts {
		switch in.Op {
		case spirv.OpCapability:
			caps = append(caps, spirv.Capability(in.Args[0]))
		case spirv.OpExecutionMode:
			modes = append(modes, spirv.ExecutionMode(in.Args[1]))
		case spirv.OpDecorate:
			switch spirv.Decoration(in.Args[1]) {
			case spirv.DecorationSpecId:
				specIDs[in.Args[2]] = true
			case spirv.DecorationBinding:
				bindings[in.Args[2]] = true
			}
		}
	}
	assert.ElementsMatch(t, []spirv.Capability{spirv.CapabilityShader, spirv.CapabilitySignedZeroInfNanPreserve}, caps)
	assert.Contains(t, modes, spirv.ExecutionModeSignedZeroInfNanPreserve)
	assert.Equal(t, map[uint32]bool{0: true, 1: true, 2: true, 3: true, 4: true}, specIDs)
	assert.Equal(t, map[uint32]bool{0: true, 1: true, 2: true, 3: true, 4: true}, bindings)
	validate(t, spv)
}

// TestBadIR checks that IR outside the writer's rules is an *spvgen.Error,
// not a panic or an invalid module.
func TestBadIR(t *testing.T) {
	k := kernel(&ir.Binary{Op: ir.BitAnd, X: at(0), Y: at(1)}) // & of floats
	_, err := spvgen.Write(k)
	var e *spvgen.Error
	require.ErrorAs(t, err, &e)
	assert.Contains(t, err.Error(), "operator & on float32")
}
