// The body of the mma_peak programs: mma_peak.comp (GL_NV_cooperative_matrix) and
// mma_peak_k.comp (GL_KHR_cooperative_matrix, with AMP_COOP_KHR defined).
//
// The cooperative-matrix multiply-add rate of a device (algo's BenchmarkCoopPeak), with no
// global memory traffic: tiles of subgroups of 32; each subgroup keeps 4 x 4 float32
// 16 x 16 accumulators and multiply-adds float16 16 x 16 fragments of the constant 1/16
// into them iters times (4 + 4 fragments, as a 64 x 64 GEMM warp tile holds). With mode 0
// the fragments stay in registers; with mode 1 they are loaded every iteration from shared
// memory laid out as matmul_coop.comp's A and B blocks (rows of 40 and 136 halves, as
// uvec4s); mode 2 the same without the padding (rows of 32 and 128 halves); mode 3 as 1
// with B stored transposed and loaded column-major. Then each subgroup writes element 0
// of each accumulator, iters * 16 / 256 = iters / 16, to out[s * 16 + i * 4 + j] for its
// global subgroup number s.
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
#include "amp.glsl"
#ifdef AMP_COOP_KHR
#define ACC_T coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>
#define A_T coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>
#define B_T coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>
#define COOP_LOAD(m, buf, off, stride, cm) coopMatLoad(m, buf, off, stride, \
	cm ? gl_CooperativeMatrixLayoutColumnMajor : gl_CooperativeMatrixLayoutRowMajor)
#define COOP_STORE(m, buf, off, stride) coopMatStore(m, buf, off, stride, gl_CooperativeMatrixLayoutRowMajor)
#define COOP_MULADD coopMatMulAdd
#else
#define ACC_T fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>
#define A_T fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define B_T fcoopmatNV<16, gl_ScopeSubgroup, 16, 16>
#define COOP_LOAD(m, buf, off, stride, cm) coopMatLoadNV(m, buf, off, stride, cm)
#define COOP_STORE(m, buf, off, stride) coopMatStoreNV(m, buf, off, stride, false)
#define COOP_MULADD coopMatMulAddNV
#endif
AMP_WORKGROUP
AMP_BUFFER(0, writeonly, float, out_);
AMP_PUSH_BEGIN AmpView o; int iters; int mode; AMP_PUSH_END
shared float Cs[8 * 256]; // at most 8 subgroups
shared uvec4 As[128 * 5];
shared uvec4 Bs[128 * 5];
void main() {
	A_T fa[4];
	B_T fb[4];
	ACC_T acc[4][4];
	[[unroll]] for (uint i = 0; i < 4; i++) {
		fa[i] = A_T(float16_t(0.0625));
		fb[i] = B_T(float16_t(0.0625));
		[[unroll]] for (uint j = 0; j < 4; j++) acc[i][j] = ACC_T(0.0);
	}
	for (uint q = gl_LocalInvocationIndex; q < 128 * 5; q += gl_WorkGroupSize.x * gl_WorkGroupSize.y) {
		As[q] = uvec4(0x2C002C00u); // float16 1/16s
		Bs[q] = uvec4(0x2C002C00u);
	}
	barrier();
	uint w = gl_SubgroupID;
	// Strides in uvec4s.
	uint astr = amp.mode == 2 ? 4 : 5, bstr = amp.mode == 2 ? 16 : amp.mode == 3 ? 5 : 17;
	for (int it = 0; it < amp.iters; it++) {
		if (amp.mode != 0) {
			uint kk = (it & 1) * 2; // K offset 0 or 16 halves
			[[unroll]] for (uint i = 0; i < 4; i++) COOP_LOAD(fa[i], As, ((w / 2) * 64 + i * 16) * astr + kk, astr, false);
			if (amp.mode == 3) {
				[[unroll]] for (uint j = 0; j < 4; j++) COOP_LOAD(fb[j], Bs, ((w % 2) * 64 + j * 16) * bstr + kk, bstr, true);
			} else {
				[[unroll]] for (uint j = 0; j < 4; j++) COOP_LOAD(fb[j], Bs, kk * 8 * bstr + ((w % 2) * 64 + j * 16) / 8, bstr, false);
			}
		}
		[[unroll]] for (uint i = 0; i < 4; i++) {
			[[unroll]] for (uint j = 0; j < 4; j++) acc[i][j] = COOP_MULADD(fa[i], fb[j], acc[i][j]);
		}
	}
	int s = (ampGlobal1() - int(gl_LocalInvocationIndex)) / 32 + int(w);
	[[unroll]] for (uint i = 0; i < 4; i++) {
		[[unroll]] for (uint j = 0; j < 4; j++) {
			COOP_STORE(acc[i][j], Cs, w * 256, 16);
			subgroupMemoryBarrierShared();
			subgroupBarrier();
			if (gl_SubgroupInvocationID == 0) out_[ampAt1(amp.o, s * 16 + int(i * 4 + j))] = Cs[w * 256];
			subgroupBarrier();
		}
	}
}
