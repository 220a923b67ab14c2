#version 450
// Contract test (runtime/contract_test.go): a tiled rank-2 body whose shared array is
// sized by specialization constants: the tile's C++ dimensions, chosen with AMP_RANKS
// (constant 3: the domain's rank in bits 0-1) from gl_WorkGroupSize, times 40 floats, plus
// 2. Each thread writes ampTD0 * 1000 + ampTD1 + the sum of two shared values.
#include "amp.glsl"
AMP_BUFFER(0, writeonly, float, dst);
AMP_PUSH_BEGIN AmpView out_; AMP_PUSH_END
layout(constant_id = 3) const uint AMP_RANKS = 0;
const uint ampRank = AMP_RANKS & 3u;
const uint ampTD0 = ampRank == 1u ? gl_WorkGroupSize.x : (ampRank == 2u ? gl_WorkGroupSize.y : gl_WorkGroupSize.z);
const uint ampTD1 = ampRank == 2u ? gl_WorkGroupSize.x : gl_WorkGroupSize.y;
shared float s[ampTD0 * ampTD1 * 40u + 2u];
void main() {
	ivec2 g = ampGlobal2(), l = ampLocal2();
	uint i = uint(l.x) * ampTD1 + uint(l.y);
	s[i * 40u] = float(i);
	s[ampTD0 * ampTD1 * 40u + 1u] = 7.0;
	ampBarrierWait();
	dst[ampAt2(amp.out_, g)] = float(ampTD0 * 1000u + ampTD1) + s[i * 40u] + s[ampTD0 * ampTD1 * 40u + 1u];
}
