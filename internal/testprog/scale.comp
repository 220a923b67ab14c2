#version 450
// Test kernel (runtime tests): dst[i] = src[i] * k, non-tiled rank 1.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, src);
AMP_BUFFER(1, writeonly, int, dst);
AMP_PUSH_BEGIN AmpView a; AmpView b; int k; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	dst[ampAt1(amp.b, i)] = src[ampAt1(amp.a, i)] * amp.k;
}
