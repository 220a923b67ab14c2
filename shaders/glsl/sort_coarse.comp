#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// The hybrid radix sort's check of the key distribution (algo sortCoarseKernel): the count
// of every coarse bucket sortKey(src[i], amp.type) >> amp.bits (at most 1024 of them) over
// a sample of the amp.n keys, every amp.step-th, added to counts (zeroed before). The workgroups stride over the keys and
// count in shared memory, then add their counts with one atomic each.
// Go body: algo sortCoarseKernel.
#include "amp.glsl"
#include "sort_keys.glsl"
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, , uint, countsData);
AMP_PUSH_BEGIN AmpView src; AmpView counts; uint n; uint bits; int type; uint step; AMP_PUSH_END

shared uint c[1024];

void main() {
	uint t = gl_LocalInvocationID.x;
	for (uint i = t; i < 1024u; i += gl_WorkGroupSize.x) c[i] = 0u;
	ampWaitWithTileStaticMemoryFence();
	uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
	uint samples = (amp.n + amp.step - 1u) / amp.step;
	for (uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + t; i < samples; i += stride) {
		atomicAdd(c[sortKey(srcData[amp.src.base + i * amp.step], amp.type) >> amp.bits], 1u);
	}
	ampWaitWithTileStaticMemoryFence();
	for (uint i = t; i < 1024u; i += gl_WorkGroupSize.x) {
		uint x = c[i];
		if (x != 0u) atomicAdd(countsData[amp.counts.base + i], x);
	}
}
