package vecgen_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/internal/vecgen"
)

// TestVecGenUpToDate checks that vec/vec_gen.go is what the template writes now (run
// go generate ./vec after changing the template).
func TestVecGenUpToDate(t *testing.T) {
	want, err := vecgen.Source()
	require.NoError(t, err)
	got, err := os.ReadFile("../../vec/vec_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "vec/vec_gen.go is stale: go generate ./vec")
}

// TestVectors checks the table the template runs over: nine types, each with its
// constructor, component type and GLSL type, and the methods each kind has.
func TestVectors(t *testing.T) {
	vs := vecgen.Vectors()
	require.Len(t, vs, 9)
	names := map[string]bool{}
	for _, v := range vs {
		names[v.Name+" "+v.Ctor+" "+v.Elem+" "+v.GLSL] = true
		var ops []string
		for _, op := range v.Ops() {
			ops = append(ops, op.Name)
		}
		want := []string{"Add", "Sub", "Mul", "Div", "Scale", "Neg", "Min", "Max"}
		if v.Elem == "uint32" {
			want = []string{"Add", "Sub", "Mul", "Div", "Scale", "Min", "Max"}
		}
		assert.Equal(t, want, ops, v.Name)
		assert.Len(t, v.Comps(), v.N, v.Name)
	}
	for _, w := range []string{"Float3 F3 float32 vec3", "Int2 I2 int32 ivec2", "Uint4 U4 uint32 uvec4"} {
		assert.True(t, names[w], w)
	}
}
