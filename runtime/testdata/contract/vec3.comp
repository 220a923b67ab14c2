#version 450
// Contract test (runtime/contract_test.go), non-tiled rank 1: p[i] *= 2 over a buffer of
// vec3, whose std430 array stride is 16 bytes: a Go [3]float32 (12 bytes) does not match.
#include "amp.glsl"
AMP_BUFFER(0, , vec3, pts);
AMP_PUSH_BEGIN AmpView p; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint pi = ampAt1(amp.p, i);
	pts[pi] = pts[pi] * 2.0;
}
