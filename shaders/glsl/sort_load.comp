#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// Sort, first pass: dst[i] = sortKey(src[i], amp.type) for i < n and the sentinel 0xFFFFFFFF (larger
// than or equal to every key) for n <= i < the padded length. key maps an int32, uint32
// or float32 (amp.type, algo typeCode) to a uint32 whose unsigned order is the
// element's order (float32: IEEE 754 totalOrder, so -0 < +0 and NaNs sort by sign past
// the infinities). src and dst may be the same view (n a power of two).
// Go body: algo sortLoadKernel.
#include "amp.glsl"
#include "sort_keys.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, , uint, dstData);
AMP_PUSH_BEGIN AmpView src; AmpView dst; uint n; int type; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint v = 0xFFFFFFFFu;
	if (uint(i) < amp.n) v = sortKey(srcData[ampAt1(amp.src, i)], amp.type);
	dstData[ampAt1(amp.dst, i)] = v;
}
