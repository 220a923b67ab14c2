#version 450
// Test kernel (runtime tests): c[i] = a[i] + b[i] * 1000 + i0 * 10000 + i1 * 100 + i2, non-tiled rank 3.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, a);
AMP_BUFFER(1, readonly, int, b);
AMP_BUFFER(2, writeonly, int, c);
AMP_PUSH_BEGIN AmpView va; AmpView vb; AmpView vc; AMP_PUSH_END
void main() {
	ivec3 i;
	if (!ampIndex3(i)) return;
	c[ampAt3(amp.vc, i)] = a[ampAt3(amp.va, i)] + b[ampAt3(amp.vb, i)] * 1000 + i.x * 10000 + i.y * 100 + i.z;
}
