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
	s := CoopMatrixShape{M: 16, N: 8, K: 16, A: CoopFloat16, B: CoopFloat16, C: CoopFloat32, D: CoopMatrixType(9)}
	assert.Equal(t, "16x8x16 float16*float16+float32->type 9", s.String())
}
