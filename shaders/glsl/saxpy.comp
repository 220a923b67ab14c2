#version 450
// SAXPY, the C++ AMP "transform" sample: y[i] = alpha * x[i] + y[i] (float32) for the
// amp.n elements. Tiled, grid-stride over chunks of 4 elements, vec4 accesses when both
// views start on a 16-byte boundary (see vadd.comp). Go body: shaders saxpyKernel.
#include "amp.glsl"
AMP_BUFFER(0, readonly, float, xData);
AMP_BUFFER(0, readonly, vec4, xData4);
AMP_BUFFER(1, , float, yData);
AMP_BUFFER(1, , vec4, yData4);
AMP_PUSH_BEGIN AmpView x; AmpView y; uint n; float alpha; AMP_PUSH_END

void main() {
	uint n = amp.n;
	uint chunks = (n + 3u) / 4u;
	uint stride = amp.domain.w;
	bool vec = ((amp.x.base | amp.y.base) & 3u) == 0u;
	float alpha = amp.alpha;
	for (uint c = gl_GlobalInvocationID.x; c < chunks; c += stride) {
		uint e = 4u * c;
		if (vec && e + 4u <= n) {
			uint at = (amp.y.base + e) >> 2;
			yData4[at] = alpha * xData4[(amp.x.base + e) >> 2] + yData4[at];
		} else {
			for (uint i = e; i < min(e + 4u, n); i++) {
				uint at = amp.y.base + i;
				yData[at] = alpha * xData[amp.x.base + i] + yData[at];
			}
		}
	}
}
