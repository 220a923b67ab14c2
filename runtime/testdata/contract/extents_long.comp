#version 450
// Contract test (runtime/extent_test.go): an ampExtents array of three arguments' words
// for a kernel of two data arguments, which the contract refuses.
#include "amp.glsl"
AMP_BUFFER(0, readonly, int, a);
AMP_BUFFER(1, writeonly, int, outData);
AMP_PUSH_BEGIN AmpView va; AmpView vout; uint ampExtents[6]; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	outData[ampAt1(amp.vout, i)] = a[ampAt1(amp.va, i)] + int(amp.ampExtents[5]);
}
