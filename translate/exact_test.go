package translate

import (
	"errors"
	"testing"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExactFloats compiles GLSL through Compile and checks what exactFloats and
// floatControls promise: every float operation and conversion decorated NoContraction but
// the pairs a*b + c that Go lets fuse (a product used by one addition alone, not computed
// precise), and the SignedZeroInfNanPreserve mode for each float width the module uses.
func TestExactFloats(t *testing.T) {
	const head = "#version 450\nlayout(std430, binding = 0) buffer B { float d[]; };\n" +
		"layout(std430, binding = 1) buffer E { int e[]; };\n" + preludeMulR
	cases := []struct {
		name   string
		body   string
		free   int // float operations left undecorated: two per fusable pair
		widths []uint32
	}{
		{"sums and conversions", "d[i] = (d[i] + 1.0) + 2.0 - (0.0 - d[i+1]); e[i] = int(float(e[i]));", 0, []uint32{32}},
		{"a*b + c", "d[i] = d[i] * d[i+1] + d[i+2];", 2, []uint32{32}},
		{"c - a*b, a*b - c*d", "d[i] = d[i+2] - d[i] * d[i+1]; d[i+3] = d[i] * d[i] - d[i+1] * d[i+1];", 4, []uint32{32}},
		{"a product used twice", "float p = d[i] * d[i+1]; d[i] = p + 1.0; d[i+1] = p - 2.0;", 0, []uint32{32}},
		{"float32(a*b) + c", "d[i] = ampMulR(d[i], d[i+1]) + d[i+2];", 0, []uint32{32}},
		{"double", "double x = double(d[i]); d[i] = float(x * x - 1.0lf);", 2, []uint32{32, 64}},
		{"integers only", "e[i] = e[i] * 3 + 1;", 0, []uint32{32}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := head + "layout(local_size_x_id = 0) in;\nvoid main() { uint i = gl_GlobalInvocationID.x; " + c.body + " }\n"
			spv, err := Compile(c.name, floatControls(src))
			if errors.Is(err, ErrNoCompiler) {
				t.Skip(err)
			}
			require.NoError(t, err)
			decorated := map[uint32]bool{}
			var widths []uint32
			var floatOps []uint32
			_, insts, err := spvwords.Parse(spv)
			require.NoError(t, err)
			for _, in := range insts {
				switch {
				case in.Op == spirv.OpDecorate && len(in.Args) == 2 && in.Args[1] == decNoContraction:
					decorated[in.Args[0]] = true
				case in.Op == spirv.OpExecutionMode && len(in.Args) == 3 && in.Args[1] == modeSignedZeroInf:
					widths = append(widths, in.Args[2])
				case exactOps[in.Op]:
					floatOps = append(floatOps, in.Args[1])
				}
			}
			assert.ElementsMatch(t, c.widths, widths)
			free := 0
			for _, id := range floatOps {
				if !decorated[id] {
					free++
				}
			}
			assert.Equal(t, c.free, free, "undecorated float operations of %d", len(floatOps))
			if c.name != "integers only" {
				assert.NotEmpty(t, floatOps)
			}
		})
	}
}

// TestExactFloatsMalformed leaves what is not SPIR-V alone.
func TestExactFloatsMalformed(t *testing.T) {
	for _, b := range [][]byte{nil, {1, 2, 3}, make([]byte, 24), {0x03, 0x02, 0x23, 0x07, 0, 0, 0, 0}} {
		assert.Equal(t, b, exactFloats(b))
	}
}
