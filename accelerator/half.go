package accelerator

import (
	"fmt"

	"github.com/goamp/goamp/internal/vk"
)

// Supports16BitStorage reports whether kernels may read and write 16-bit values
// (half.Float16 views) in storage buffers: VK_KHR_16bit_storage's
// storageBuffer16BitAccess, which goamp enables where the device has it; always true for
// the CPU.
func (a *Accelerator) Supports16BitStorage() bool { return a.info == nil || a.info.Storage16 }

// SupportsFloat16 reports whether kernels may compute in float16 (shaderFloat16 of
// VK_KHR_shader_float16_int8, enabled where present); always true for the CPU, whose
// kernels convert to float32.
func (a *Accelerator) SupportsFloat16() bool { return a.info == nil || a.info.Float16 }

// Supports8BitStorage reports whether kernels may read and write 8-bit values (int8 and
// uint8 views) in storage buffers: storageBuffer8BitAccess of VK_KHR_8bit_storage (core
// in Vulkan 1.2), which goamp enables where the device has it; always true for the CPU.
func (a *Accelerator) Supports8BitStorage() bool { return a.info == nil || a.info.Storage8 }

// SupportsInt8 reports whether kernels may compute in 8-bit integers (shaderInt8 of
// VK_KHR_shader_float16_int8, enabled where present), as the int8 cooperative matrices
// need; always true for the CPU.
func (a *Accelerator) SupportsInt8() bool { return a.info == nil || a.info.Int8 }

// KeepsSignedZeroInfNaN reports whether the device keeps the sign of zeros, infinities and
// NaNs in floating-point arithmetic of the given width (16, 32 or 64) when a kernel asks
// (Vulkan 1.2's shaderSignedZeroInfNanPreserveFloat16/32/64): ampgen's kernels ask, and
// where the device cannot promise it the kernel runs under the driver's own rules
// (docs/kernel-language.md). Always true for the CPU, false for other widths.
func (a *Accelerator) KeepsSignedZeroInfNaN(bits int) bool {
	i := map[int]int{16: 0, 32: 1, 64: 2}
	k, ok := i[bits]
	return ok && (a.info == nil || a.info.SignedZeroInfNan[k])
}

// CoopMatrixType is an element type of a cooperative matrix.
type CoopMatrixType uint32

// Element types of cooperative matrices: those goamp's kernels use (float16, float32, int8,
// int32) and the unsigned ones devices report beside them.
const (
	CoopFloat16 CoopMatrixType = CoopMatrixType(vk.ComponentFloat16)
	CoopFloat32 CoopMatrixType = CoopMatrixType(vk.ComponentFloat32)
	CoopInt8    CoopMatrixType = CoopMatrixType(vk.ComponentSint8)
	CoopInt32   CoopMatrixType = CoopMatrixType(vk.ComponentSint32)
	CoopUint8   CoopMatrixType = CoopMatrixType(vk.ComponentUint8)
	CoopUint32  CoopMatrixType = CoopMatrixType(vk.ComponentUint32)
	// CoopBfloat16 is reported by drivers with VK_KHR_shader_bfloat16 (the H100's); no
	// goamp kernel uses it (no shader compiler here writes GL_EXT_bfloat16).
	CoopBfloat16 CoopMatrixType = CoopMatrixType(vk.ComponentBfloat16)
)

// String names the type ("float16", "int8", ..., or "type N" for the others).
func (t CoopMatrixType) String() string {
	if name, ok := coopTypeNames[t]; ok {
		return name
	}
	return fmt.Sprintf("type %d", uint32(t))
}

// coopTypeNames are the names of the types goamp uses.
var coopTypeNames = map[CoopMatrixType]string{CoopFloat16: "float16", CoopFloat32: "float32", CoopInt8: "int8", CoopInt32: "int32",
	CoopUint8: "uint8", CoopUint32: "uint32", CoopBfloat16: "bfloat16"}

// CoopMatrixShape is one shape of subgroup-scope cooperative matrix multiply-add that a
// device's tensor cores run: D (M x N, type D) = A (M x K, type A) x B (K x N, type B) +
// C (M x N, type C).
type CoopMatrixShape struct {
	// M, N, K are the dimensions.
	M, N, K int
	// A, B, C, D are the element types of the operands and the result.
	A, B, C, D CoopMatrixType
}

// String is "MxNxK A*B+C->D".
func (s CoopMatrixShape) String() string {
	return fmt.Sprintf("%dx%dx%d %v*%v+%v->%v", s.M, s.N, s.K, s.A, s.B, s.C, s.D)
}

// CooperativeMatrices lists the subgroup-scope cooperative-matrix shapes the device
// reports through VK_NV_cooperative_matrix (vkGetPhysicalDeviceCooperativeMatrix
// PropertiesNV), which goamp enables with the Vulkan memory model where the device has
// both; nil for the CPU and for devices without them (lavapipe).
func (a *Accelerator) CooperativeMatrices() []CoopMatrixShape {
	if a.info == nil {
		return nil
	}
	return subgroupShapes(a.info.CoopMatrixNV)
}

// CooperativeMatricesKHR is CooperativeMatrices for VK_KHR_cooperative_matrix
// (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR): the shapes that programs written
// with GL_KHR_cooperative_matrix may use. Where a device has both extensions (NVIDIA's),
// the KHR matrices, typed by their use, ran faster (RESULTS.md, "Tensor cores through KHR
// cooperative matrices").
func (a *Accelerator) CooperativeMatricesKHR() []CoopMatrixShape {
	if a.info == nil {
		return nil
	}
	return subgroupShapes(a.info.CoopMatrixKHR)
}

// subgroupShapes is the subgroup-scope shapes of list.
func subgroupShapes(list []vk.CoopMatrix) []CoopMatrixShape {
	var out []CoopMatrixShape
	for _, c := range list {
		if c.SubgroupScope {
			out = append(out, CoopMatrixShape{M: int(c.M), N: int(c.N), K: int(c.K), A: CoopMatrixType(c.A),
				B: CoopMatrixType(c.B), C: CoopMatrixType(c.C), D: CoopMatrixType(c.D)})
		}
	}
	return out
}
