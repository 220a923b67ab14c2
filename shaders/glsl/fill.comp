#version 450
// Fill: v[i] = value for the amp.n elements, for any 32-bit element type (amp.value holds
// the element's bits). Output only: the Go side discards the view's old contents, so
// nothing is uploaded. Tiled, grid-stride over chunks of 4 elements, one uvec4 store when
// the view starts on a 16-byte boundary (see vadd.comp). Go body: shaders fillKernel.
#include "amp.glsl"
AMP_BUFFER(0, writeonly, uint, vData);
AMP_BUFFER(0, writeonly, uvec4, vData4);
AMP_PUSH_BEGIN AmpView v; uint n; uint value; AMP_PUSH_END

void main() {
	uint n = amp.n;
	uint chunks = (n + 3u) / 4u;
	uint stride = amp.domain.w;
	bool vec = (amp.v.base & 3u) == 0u;
	uint value = amp.value;
	for (uint c = gl_GlobalInvocationID.x; c < chunks; c += stride) {
		uint e = 4u * c;
		if (vec && e + 4u <= n) {
			vData4[(amp.v.base + e) >> 2] = uvec4(value);
		} else {
			for (uint i = e; i < min(e + 4u, n); i++) {
				vData[amp.v.base + i] = value;
			}
		}
	}
}
