#version 450
// Hand-written: 8- and 16-bit elements (half.Float16, int8), which the kernel language has
// no types for, moved as raw bits.
// Out[c][r] = In[r][c] for the Rows x Cols elements of In, by 32 x 32 blocks through shared
// memory, as algo.Transpose's generated kernel moves 4-byte elements: a tile of 8 x 32
// threads, each moving 4 elements of a block; the shared block is padded by one column
// against bank conflicts. Compiled per element width (variants.txt): transpose_16 (ELEM
// uint16_t) and transpose_8 (ELEM uint8_t). Go side: algo/matmul_trans.go
// (transposeNarrow), used by MatMulF16With and MatMulI8With for transposed operands.
#ifdef BITS8
#extension GL_EXT_shader_8bit_storage : require
#define ELEM uint8_t
#else
#extension GL_EXT_shader_16bit_storage : require
#define ELEM uint16_t
#endif
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, ELEM, In);
AMP_BUFFER(1, writeonly, ELEM, Out);
AMP_PUSH_BEGIN AmpView a; AmpView b; int Rows; int Cols; AMP_PUSH_END

shared uint blk[32][33];

void main() {
	uint r0 = gl_WorkGroupID.y * 32u, c0 = gl_WorkGroupID.x * 32u;
	uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
	for (uint i = ly; i < 32u; i += 8u) {
		uint r = r0 + i, c = c0 + lx;
		if (r < uint(amp.Rows) && c < uint(amp.Cols)) blk[i][lx] = uint(In[amp.a.base + r * amp.a.s0 + c]);
	}
	ampWaitWithTileStaticMemoryFence();
	for (uint i = ly; i < 32u; i += 8u) {
		uint r = c0 + i, c = r0 + lx; // Out's row r is In's column
		if (r < uint(amp.Cols) && c < uint(amp.Rows)) Out[amp.b.base + r * amp.b.s0 + c] = ELEM(blk[lx][i]);
	}
}
