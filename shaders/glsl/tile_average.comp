#version 450
// Seed 000: average the 4x6 sample in 2x2 tiles through tile_static memory and a barrier.
// Go body: cmd/ampdemo TileAverage.Tiled.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, sampleData);
AMP_BUFFER(1, writeonly, int, averageData);
AMP_PUSH_BEGIN AmpView sample_; AmpView average; AMP_PUSH_END

shared int nums[2][2]; // tile_static int nums[2][2]

void main() {
	ivec2 g = ampGlobal2();
	ivec2 l = ampLocal2();
	nums[l.y][l.x] = sampleData[ampAt2(amp.sample_, g)];
	ampBarrierWait();
	int sum = nums[0][0] + nums[0][1] + nums[1][0] + nums[1][1];
	averageData[ampAt2(amp.average, g)] = sum / 4;
}
