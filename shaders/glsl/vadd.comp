#version 450
// Vector add, out[i] = a[i] + b[i] for the amp.n elements, for int32, uint32 and float32
// elements: the buffers hold the raw 32-bit words and amp.type (shaders typeCode: 0 int32,
// 1 uint32, 2 float32) picks the arithmetic (integer addition wraps, as in Go).
// Tiled, grid-stride: thread g of the amp.domain.w threads handles the chunks of 4
// elements c = g, g + amp.domain.w, ...; a whole chunk is one uvec4 load per input and one
// store when every view starts on a 16-byte boundary (base % 4 == 0), else (and for the
// last, partial chunk) 4 scalar accesses. Go body: shaders addKernel.
#include "amp.glsl"
AMP_BUFFER(0, readonly, uint, aData);
AMP_BUFFER(0, readonly, uvec4, aData4);
AMP_BUFFER(1, readonly, uint, bData);
AMP_BUFFER(1, readonly, uvec4, bData4);
AMP_BUFFER(2, , uint, outData);
AMP_BUFFER(2, , uvec4, outData4);
AMP_PUSH_BEGIN AmpView a; AmpView b; AmpView out_; uint n; int type; AMP_PUSH_END

void main() {
	uint n = amp.n;
	uint chunks = (n + 3u) / 4u;
	uint stride = amp.domain.w;
	bool vec = ((amp.a.base | amp.b.base | amp.out_.base) & 3u) == 0u;
	bool isFloat = amp.type == 2;
	for (uint c = gl_GlobalInvocationID.x; c < chunks; c += stride) {
		uint e = 4u * c;
		if (vec && e + 4u <= n) {
			uvec4 x = aData4[(amp.a.base + e) >> 2];
			uvec4 y = bData4[(amp.b.base + e) >> 2];
			outData4[(amp.out_.base + e) >> 2] = isFloat ? floatBitsToUint(uintBitsToFloat(x) + uintBitsToFloat(y)) : x + y;
		} else {
			for (uint i = e; i < min(e + 4u, n); i++) {
				uint x = aData[amp.a.base + i];
				uint y = bData[amp.b.base + i];
				outData[amp.out_.base + i] = isFloat ? floatBitsToUint(uintBitsToFloat(x) + uintBitsToFloat(y)) : x + y;
			}
		}
	}
}
