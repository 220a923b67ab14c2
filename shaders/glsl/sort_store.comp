#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// Sort, last pass: dst[i] = sortElem(src[i], amp.type), the inverse of sort_load's key map.
// Go body: algo sortStoreKernel.
#include "amp.glsl"
#include "sort_keys.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, , uint, dstData);
AMP_PUSH_BEGIN AmpView src; AmpView dst; int type; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) return;
	dstData[ampAt1(amp.dst, i)] = sortElem(srcData[ampAt1(amp.src, i)], amp.type);
}
