#version 450
// Test kernel (runtime tests), tiled rank 3: each thread stores its input in shared memory,
// waits at the tile barrier, then writes the value of the mirror thread of its tile plus
// the tile's first value and a checksum of its indices:
// dst[g] = s[n-1-l] + s[0] + tag(global, local, tile, tile origin).
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, src);
AMP_BUFFER(1, writeonly, int, dst);
AMP_PUSH_BEGIN AmpView a; AmpView b; AMP_PUSH_END
shared int s[gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z];
int tag() {
	ivec3 g = ampGlobal3(), l = ampLocal3(), t = ampTile3(), o = ampTileOrigin3(), e = ampTileExtent3();
	return (g.x * 7 + g.y * 13 + g.z * 31) + (l.x * 3 + l.y * 17 + l.z * 37) + (t.x * 5 + t.y * 19 + t.z * 41)
		+ (o.x * 11 + o.y * 23 + o.z * 43) + e.x * 29 + e.y * 47 + e.z;
}
void main() {
	ivec3 g = ampGlobal3();
	int n = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z);
	int l = ampLocalLinear();
	s[l] = src[ampAt3(amp.a, g)];
	ampBarrierWait();
	int tag = tag();
	dst[ampAt3(amp.b, g)] = s[n - 1 - l] + s[0] + tag;
}
