#version 450
// Seed 004: average each SAMPLESIZE x SAMPLESIZE tile of a matrix into one element of
// averages; the tile size comes from the specialization constants. fence selects the
// barrier: 0 tile_barrier::wait, 1 wait_with_tile_static_memory_fence.
// Go body: cmd/ampdemo SamplingAverage.Tiled.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, float, matrixData);
AMP_BUFFER(1, , float, averagesData);
AMP_PUSH_BEGIN AmpView matrix; AmpView averages; int fence; AMP_PUSH_END

shared float tileValues[gl_WorkGroupSize.y][gl_WorkGroupSize.x];

void main() {
	ivec2 l = ampLocal2();
	ivec2 t = ampTile2();
	// The tile size as unsigned spec constants: converting them to ivec2 in a
	// specialization-constant expression gives SPIR-V that is invalid once specialized.
	uint rows = gl_WorkGroupSize.y, cols = gl_WorkGroupSize.x;
	tileValues[l.x][l.y] = matrixData[ampAt2(amp.matrix, ampGlobal2())];
	if (amp.fence == 1) {
		ampWaitWithTileStaticMemoryFence();
	} else {
		ampBarrierWait();
	}
	if (l.x == 0 && l.y == 0) {
		uint at = ampAt2(amp.averages, t);
		for (uint r = 0; r < rows; r++) {
			for (uint c = 0; c < cols; c++) {
				averagesData[at] += tileValues[r][c];
			}
		}
		averagesData[at] /= float(rows * cols);
	}
}
