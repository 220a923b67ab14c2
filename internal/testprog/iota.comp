#version 450
// Test kernel (runtime tests): dst[i] = i * scale + add + int(fadd), non-tiled rank 1.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, writeonly, int, dst);
AMP_PUSH_BEGIN AmpView out_; int scale; uint add; float fadd; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	dst[ampAt1(amp.out_, i)] = i * amp.scale + int(amp.add) + int(amp.fadd);
}
