#version 450
// SAXPY, the C++ AMP "transform" sample: y[i] = alpha * x[i] + y[i] (float32).
// Go body: shaders saxpyKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, float, xData);
AMP_BUFFER(1, , float, yData);
AMP_PUSH_BEGIN AmpView x; AmpView y; float alpha; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint at = ampAt1(amp.y, i);
	yData[at] = amp.alpha * xData[ampAt1(amp.x, i)] + yData[at];
}
