#version 450
// Fill: v[i] = value, for any 32-bit element type (amp.value holds the element's bits).
// Output only: the Go side discards the view's old contents, so nothing is uploaded.
// Go body: shaders fillKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, writeonly, uint, vData);
AMP_PUSH_BEGIN AmpView v; uint value; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) return;
	vData[ampAt1(amp.v, i)] = amp.value;
}
