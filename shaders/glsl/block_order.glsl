// block_order.glsl (included by matmul_tiled.comp and matmul_coop.comp): which block of
// C a workgroup computes. Workgroups start roughly in the order of their linear id (x
// fastest). Taken row by row, the blocks that run at once share A's rows but sweep all of
// B, which from 4096 x 4096 floats on is larger than an H100's 50 MB L2, so B streams from
// memory once per block row. In bands of BAND_ROWS block rows walked column by column,
// the blocks that run at once cover a compact patch of C and find both A's rows and B's
// columns in L2. Every block is still computed exactly once (a permutation of the grid).
#ifndef BAND_ROWS
#define BAND_ROWS 8u
#endif

// ampBandedBlock returns this workgroup's (block row, block column).
uvec2 ampBandedBlock() {
	uint nx = gl_NumWorkGroups.x, ny = gl_NumWorkGroups.y;
	uint pid = gl_WorkGroupID.y * nx + gl_WorkGroupID.x;
	uint per = BAND_ROWS * nx; // workgroups of a full band
	uint first = (pid / per) * BAND_ROWS;
	uint rows = min(ny - first, BAND_ROWS);
	uint r = pid % per;
	return uvec2(first + r % rows, r / rows);
}
