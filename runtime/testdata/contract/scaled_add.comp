#version 450
// Contract test (runtime/contract_test.go), non-tiled rank 1: y[i] = alpha * x[i] + y[i] +
// offset. The kernel that matches it: {X *ReadView[float32]; Y *View[float32]; Alpha
// float32; Offset int32}.
#include "amp.glsl"
AMP_BUFFER(0, readonly, float, xs);
AMP_BUFFER(1, , float, ys);
AMP_PUSH_BEGIN AmpView x; AmpView y; float alpha; int offset; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint yi = ampAt1(amp.y, i);
	ys[yi] = amp.alpha * xs[ampAt1(amp.x, i)] + ys[yi] + float(amp.offset);
}
