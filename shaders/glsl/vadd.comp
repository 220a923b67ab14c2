#version 450
// Vector add, out[i] = a[i] + b[i], for int32, uint32 and float32 elements: the buffers
// hold the raw 32-bit words and amp.type (shaders typeCode: 0 int32, 1 uint32, 2 float32)
// picks the arithmetic (integer addition wraps, as in Go). Go body: shaders addKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, aData);
AMP_BUFFER(1, readonly, uint, bData);
AMP_BUFFER(2, , uint, outData);
AMP_PUSH_BEGIN AmpView a; AmpView b; AmpView out_; int type; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint x = aData[ampAt1(amp.a, i)];
	uint y = bData[ampAt1(amp.b, i)];
	uint r;
	if (amp.type == 2) {
		r = floatBitsToUint(uintBitsToFloat(x) + uintBitsToFloat(y));
	} else {
		r = x + y;
	}
	outData[ampAt1(amp.out_, i)] = r;
}
