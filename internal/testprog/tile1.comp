#version 450
// Test kernel (runtime tests), tiled rank 1: each thread stores its input in shared memory,
// waits at the tile barrier, then writes the value of the mirror thread of its tile plus
// the tile's first value and a checksum of its indices:
// dst[g] = s[n-1-l] + s[0] + tag(global, local, tile, tile origin).
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, src);
AMP_BUFFER(1, writeonly, int, dst);
AMP_PUSH_BEGIN AmpView a; AmpView b; AMP_PUSH_END
shared int s[gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z];
int tag() { return ampGlobal1() * 7 + ampLocal1() * 3 + ampTile1() * 5 + ampTileOrigin1() * 11 + ampTileExtent1(); }
void main() {
	int g = ampGlobal1();
	int n = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z);
	int l = ampLocalLinear();
	s[l] = src[ampAt1(amp.a, g)];
	ampBarrierWait();
	int tag = tag();
	dst[ampAt1(amp.b, g)] = s[n - 1 - l] + s[0] + tag;
}
