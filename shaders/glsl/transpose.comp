#version 450
// Matrix transpose, out[c][r] = in[r][c], for any 32-bit element type. Tiled 8x32 (C++
// order: 8 rows of 32 threads; Vulkan x = 32): each tile moves a 32x32 block through a
// shared-memory tile padded by one column against bank conflicts, so that both the reads
// of in and the writes of out are coalesced along x; each thread moves 4 elements. The
// domain is the padded grid (ceil(rows/32)*8, ceil(cols/32)*32) and the edges are
// bounds-checked against amp.rows, amp.cols (in's shape). Go body: shaders transposeKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, inData);
AMP_BUFFER(1, writeonly, uint, outData);
AMP_PUSH_BEGIN AmpView in_; AmpView out_; int rows; int cols; AMP_PUSH_END

#define TDIM 32
#define TROWS 8
shared uint tile[TDIM][TDIM + 1];

void main() {
	ivec2 l = ampLocal2();   // (row 0..7, col 0..31)
	ivec2 t = ampTile2();
	int r0 = t.x * TDIM;     // the block's first row of in
	int c0 = t.y * TDIM;     // the block's first column of in
	for (int k = 0; k < TDIM; k += TROWS) {
		int r = r0 + l.x + k;
		int c = c0 + l.y;
		if (r < amp.rows && c < amp.cols) {
			tile[l.x + k][l.y] = inData[ampAt2(amp.in_, ivec2(r, c))];
		}
	}
	ampWaitWithTileStaticMemoryFence();
	for (int k = 0; k < TDIM; k += TROWS) {
		int orow = c0 + l.x + k; // a column of in
		int ocol = r0 + l.y;     // a row of in
		if (orow < amp.cols && ocol < amp.rows) {
			outData[ampAt2(amp.out_, ivec2(orow, ocol))] = tile[l.y][l.x + k];
		}
	}
}
