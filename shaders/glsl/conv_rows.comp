#version 450
// Separable convolution, first pass: Out(y, x) = sum over i < 2R+1 of
// coef[CoefOff + i] * In(y, clamp(x + i - R, 0, Cols - 1)). A tile of WY x WX threads
// loads its rows of In with an apron of R elements on each side (clamped to the edge)
// into shared memory, then each thread computes one element. The domain is padded to
// whole tiles; threads past the edge load (clamped) but store nothing.
// Go body: shaders/convolve.go (convRows.Tiled).
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
const uint SROW = WX + 2 * RMAX;
shared float s[WY * SROW];

void main() {
	ivec2 g = ampGlobal2();
	ivec2 l = ampLocal2();
	ivec2 o = ampTileOrigin2();
	int y = min(g.x, amp.Rows - 1);
	uint r = uint(amp.R);
	for (uint x = uint(l.y); x < WX + 2 * r; x += WX) {
		int gx = clamp(o.y - amp.R + int(x), 0, amp.Cols - 1);
		s[uint(l.x) * SROW + x] = inData[ampAt2(amp.in_, ivec2(y, gx))];
	}
	ampWaitWithTileStaticMemoryFence();
	if (g.x >= amp.Rows || g.y >= amp.Cols) return;
	float sum = 0;
	for (uint i = 0; i <= 2 * r; i++) {
		sum += coef[ampAt1(amp.coef_, amp.CoefOff + int(i))] * s[uint(l.x) * SROW + uint(l.y) + i];
	}
	outData[ampAt2(amp.out_, g)] = sum;
}
