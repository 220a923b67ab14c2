#version 450
// Test kernel (runtime tests): c[i] = a[i] + b[i] * 1000 + i0 * 100 + i1, non-tiled rank 2.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, a);
AMP_BUFFER(1, readonly, int, b);
AMP_BUFFER(2, writeonly, int, c);
AMP_PUSH_BEGIN AmpView va; AmpView vb; AmpView vc; AMP_PUSH_END
void main() {
	ivec2 i;
	if (!ampIndex2(i)) return;
	c[ampAt2(amp.vc, i)] = a[ampAt2(amp.va, i)] + b[ampAt2(amp.vb, i)] * 1000 + i.x * 100 + i.y;
}
