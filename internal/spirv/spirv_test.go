package spirv_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValues(t *testing.T) {
	for _, c := range []struct {
		got  uint32
		want uint32
		name string
		str  string
	}{
		{uint32(spirv.OpLoad), 61, "OpLoad", spirv.OpLoad.String()},
		{uint32(spirv.OpExecutionModeId), 331, "OpExecutionModeId", spirv.OpExecutionModeId.String()},
		{uint32(spirv.DecorationNoContraction), 42, "NoContraction", spirv.DecorationNoContraction.String()},
		{uint32(spirv.ExecutionModeSignedZeroInfNanPreserve), 4461, "SignedZeroInfNanPreserve",
			spirv.ExecutionModeSignedZeroInfNanPreserve.String()},
		{uint32(spirv.CapabilityCooperativeMatrixKHR), 6022, "CooperativeMatrixKHR",
			spirv.CapabilityCooperativeMatrixKHR.String()},
		{uint32(spirv.StorageClassStorageBuffer), 12, "StorageBuffer", spirv.StorageClassStorageBuffer.String()},
		{uint32(spirv.GLSLstd450Fma), 50, "", ""},
		{uint32(spirv.Op(99999)), 99999, "Op99999", spirv.Op(99999).String()},
		{uint32(spirv.MemorySemanticsAcquireRelease | spirv.MemorySemanticsWorkgroupMemory), 0x108,
			"AcquireRelease|WorkgroupMemory",
			(spirv.MemorySemanticsAcquireRelease | spirv.MemorySemanticsWorkgroupMemory).String()},
		{uint32(spirv.LoopControl(1 << 30)), 1 << 30, "0x40000000", spirv.LoopControl(1 << 30).String()},
	} {
		assert.Equal(t, c.want, c.got, c.name)
		assert.Equal(t, c.name, c.str)
	}
}

func TestInfo(t *testing.T) {
	in, ok := spirv.OpDecorate.Info()
	require.True(t, ok)
	assert.Equal(t, "Annotation", in.Class)
	require.Len(t, in.Operands, 2)
	assert.Equal(t, spirv.KindIdRef, in.Operands[0].Kind)
	assert.Equal(t, spirv.KindDecoration, in.Operands[1].Kind)
	assert.Equal(t, spirv.ValueEnum, spirv.KindDecoration.Category())
	assert.Equal(t, spirv.IDKind, spirv.KindIdRef.Category())
	assert.Equal(t, "Decoration", spirv.KindDecoration.String())
	p := spirv.KindDecoration.Params(uint32(spirv.DecorationSpecId))
	require.Len(t, p, 1)
	assert.Equal(t, spirv.KindLiteralInteger, p[0].Kind)
	assert.Len(t, spirv.KindExecutionMode.Params(uint32(spirv.ExecutionModeLocalSize)), 3)
	assert.Nil(t, spirv.KindDecoration.Params(uint32(spirv.DecorationBlock)))
	_, ok = spirv.Op(4000).Info()
	assert.False(t, ok)
}

// TestAgainstDisassembler compiles a compute shader with glslc and checks that
// every instruction's opcode has the name spirv-dis (an independent reading of
// the grammar) prints for it.
func TestAgainstDisassembler(t *testing.T) {
	for _, tool := range []string{"glslc", "spirv-dis"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "k.comp")
	require.NoError(t, os.WriteFile(src, []byte(`#version 450
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) buffer B { float d[]; };
layout(std430, binding = 1) buffer C { uint c[]; };
layout(push_constant) uniform P { uint n; float a; };
shared float s[64];
void main() {
	uint i = gl_GlobalInvocationID.x;
	s[gl_LocalInvocationID.x] = d[i];
	barrier();
	for (uint k = 0; k < n; k++) { if (d[k] > a) { d[i] += sqrt(s[k % 64]); } }
	atomicAdd(c[0], 1u);
}
`), 0o644))
	spv := filepath.Join(dir, "k.spv")
	out, err := exec.Command("glslc", "-fshader-stage=compute", "-o", spv, src).CombinedOutput()
	require.NoError(t, err, string(out))
	dis, err := exec.Command("spirv-dis", "--raw-id", "--no-header", "--no-color", spv).Output()
	require.NoError(t, err)
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(dis)), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && f[1] == "=" {
			f = f[2:]
		}
		want = append(want, f[0])
	}
	data, err := os.ReadFile(spv)
	require.NoError(t, err)
	_, insts, err := spvwords.Parse(data)
	require.NoError(t, err)
	var got []string
	for _, in := range insts {
		got = append(got, spirv.Op(in.Op).String())
	}
	assert.Equal(t, want, got)
	assert.True(t, bytes.Contains(dis, []byte("OpLoopMerge")), "the shader has a loop")
}
