#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// The hybrid radix sort's bucket bounds (algo sortBoundsKernel): src holds amp.n keys sorted
// by key >> amp.bits (key i at word i * amp.stride); invocation h writes the first i with
// key_i >> amp.bits >= h (amp.n if none) to bounds[h], by binary search, for h = 0 ..
// the domain's length - 1.
// Go body: algo sortBoundsKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, writeonly, uint, boundsData);
AMP_PUSH_BEGIN AmpView src; AmpView bounds; uint n; uint bits; uint stride; AMP_PUSH_END

void main() {
	int h;
	if (!ampIndex1(h)) return;
	uint lo = 0u, hi = amp.n;
	while (lo < hi) {
		uint mid = lo + ((hi - lo) >> 1);
		if ((srcData[amp.src.base + mid * amp.stride] >> amp.bits) < uint(h)) {
			lo = mid + 1u;
		} else {
			hi = mid;
		}
	}
	boundsData[ampAt1(amp.bounds, h)] = lo;
}
