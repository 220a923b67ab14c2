package accelerator

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHalfFeatures: the CPU has 16-bit storage and float16 (its kernels are Go) and no
// cooperative matrices; a Vulkan device reports what its driver said, each shape with
// subgroup scope.
func TestHalfFeatures(t *testing.T) {
	for _, a := range All() {
		t.Run(a.Path(), func(t *testing.T) {
			if a.info == nil {
				assert.True(t, a.Supports16BitStorage())
				assert.True(t, a.SupportsFloat16())
				assert.Nil(t, a.CooperativeMatrices())
				return
			}
			assert.Equal(t, a.info.Storage16, a.Supports16BitStorage())
			assert.Equal(t, a.info.Float16, a.SupportsFloat16())
			shapes := a.CooperativeMatrices()
			assert.LessOrEqual(t, len(shapes), len(a.info.CoopMatrixNV))
			for _, s := range shapes {
				assert.Positive(t, s.M*s.N*s.K, s.String())
			}
			t.Logf("%s: 16-bit storage %v, float16 %v, cooperative matrices %v", a, a.Supports16BitStorage(), a.SupportsFloat16(), shapes)
		})
	}
}

func TestCoopMatrixShapeString(t *testing.T) {
	for _, c := range []struct {
		s    CoopMatrixShape
		want string
	}{
		{CoopMatrixShape{M: 16, N: 8, K: 16, A: CoopFloat16, B: CoopFloat16, C: CoopFloat32, D: CoopMatrixType(11)}, "16x8x16 float16*float16+float32->type 11"},
		{CoopMatrixShape{M: 16, N: 16, K: 32, A: CoopInt8, B: CoopInt8, C: CoopInt32, D: CoopInt32}, "16x16x32 int8*int8+int32->int32"},
		{CoopMatrixShape{M: 16, N: 8, K: 32, A: CoopUint8, B: CoopUint8, C: CoopUint32, D: CoopUint32}, "16x8x32 uint8*uint8+uint32->uint32"},
		{CoopMatrixShape{M: 16, N: 16, K: 16, A: CoopBfloat16, B: CoopBfloat16, C: CoopFloat32, D: CoopFloat32}, "16x16x16 bfloat16*bfloat16+float32->float32"},
	} {
		assert.Equal(t, c.want, c.s.String())
	}
}
