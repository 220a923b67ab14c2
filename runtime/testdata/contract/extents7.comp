#version 450
// Contract test (runtime/extent_test.go), non-tiled rank 1: seven data arguments whose
// extents the body reads from the AmpViews' fourth words and the ampExtents array, a
// 192-byte push-constant block (past lavapipe's 128). out[i] = sum over arguments k of
// (k+1) * (e0 + 3*e1 + 7*e2) + i. The kernel that matches it: {A..F *ReadView[int32];
// Out *View[int32]}.
#include "amp.glsl"
AMP_BUFFER(0, readonly, int, a);
AMP_BUFFER(1, readonly, int, b);
AMP_BUFFER(2, readonly, int, c);
AMP_BUFFER(3, readonly, int, d);
AMP_BUFFER(4, readonly, int, e);
AMP_BUFFER(5, readonly, int, f);
AMP_BUFFER(6, writeonly, int, outData);
AMP_PUSH_BEGIN AmpView va; AmpView vb; AmpView vc; AmpView vd; AmpView ve; AmpView vf; AmpView vout;
	uint ampExtents[14]; AMP_PUSH_END
uint dims(AmpView v, uint k) { return v.pad + 3u * amp.ampExtents[2u * k] + 7u * amp.ampExtents[2u * k + 1u]; }
void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint s = dims(amp.va, 0u) + 2u * dims(amp.vb, 1u) + 3u * dims(amp.vc, 2u) + 4u * dims(amp.vd, 3u) +
		5u * dims(amp.ve, 4u) + 6u * dims(amp.vf, 5u) + 7u * dims(amp.vout, 6u);
	outData[ampAt1(amp.vout, i)] = int(s) + i;
}
