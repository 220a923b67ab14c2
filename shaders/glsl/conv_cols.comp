#version 450
// Separable convolution, second pass: Out(y, x) = sum over j < 2R+1 of
// coef[CoefOff + j] * In(clamp(y + j - R, 0, Rows - 1), x). A tile of WY x WX threads
// loads its columns of In with an apron of R rows above and below (clamped to the edge)
// into shared memory, then each thread computes one element. The domain is padded to
// whole tiles; threads past the edge load (clamped) but store nothing.
// Go body: shaders/convolve.go (convCols.Tiled).
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, float, inData);
AMP_BUFFER(1, writeonly, float, outData);
AMP_BUFFER(2, readonly, float, coef);
AMP_PUSH_BEGIN AmpView in_; AmpView out_; AmpView coef_; int Rows; int Cols; int R; int CoefOff; AMP_PUSH_END

// RMAX is the largest radius (shaders.ConvolveMaxKernel = 2 RMAX + 1).
const uint RMAX = 32;
const uint WX = gl_WorkGroupSize.x;
const uint WY = gl_WorkGroupSize.y;
shared float s[(WY + 2 * RMAX) * WX];

void main() {
	ivec2 g = ampGlobal2();
	ivec2 l = ampLocal2();
	ivec2 o = ampTileOrigin2();
	int x = min(g.y, amp.Cols - 1);
	uint r = uint(amp.R);
	for (uint y = uint(l.x); y < WY + 2 * r; y += WY) {
		int gy = clamp(o.x - amp.R + int(y), 0, amp.Rows - 1);
		s[y * WX + uint(l.y)] = inData[ampAt2(amp.in_, ivec2(gy, x))];
	}
	ampWaitWithTileStaticMemoryFence();
	if (g.x >= amp.Rows || g.y >= amp.Cols) return;
	float sum = 0;
	for (uint j = 0; j <= 2 * r; j++) {
		sum += coef[ampAt1(amp.coef_, amp.CoefOff + int(j))] * s[(uint(l.x) + j) * WX + uint(l.y)];
	}
	outData[ampAt2(amp.out_, g)] = sum;
}
