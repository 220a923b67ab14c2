#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// One global step (k, j) of the bitonic sorting network over uint32 keys: thread t of the
// n/2 threads compares keys i and i + j, i = the t-th index with bit j clear, and orders
// them ascending when (i & k) == 0, descending otherwise. Go body: algo bitonicStepKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, , uint, keys);
AMP_PUSH_BEGIN AmpView v; uint k; uint j; AMP_PUSH_END

void main() {
	int ti;
	if (!ampIndex1(ti)) return;
	uint t = uint(ti);
	uint j = amp.j;
	uint i = ((t & ~(j - 1u)) << 1) | (t & (j - 1u));
	uint ai = amp.v.base + i;
	uint a = keys[ai];
	uint b = keys[ai + j];
	bool up = (i & amp.k) == 0u;
	if ((a > b) == up) {
		keys[ai] = b;
		keys[ai + j] = a;
	}
}
