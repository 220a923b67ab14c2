#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// OneSweep's histogram (sort_onesweep.glsl): the counts of the four 8-bit digits of every
// key of src (elements mapped to keys by amp.type, algo typeCode), added to state words
// 256*digit + value (zeroed before). The workgroups stride over the keys (coalesced) and
// count in shared memory, then add their counts to the state with one atomic each.
// Go body: algo onesweepHistKernel.
#include "amp.glsl"
#include "sort_keys.glsl"
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, , uint, state);
AMP_PUSH_BEGIN AmpView src; AmpView st; uint n; int type; AMP_PUSH_END

shared uint h[1024];

void main() {
	uint t = gl_LocalInvocationID.x;
	for (uint i = t; i < 1024u; i += gl_WorkGroupSize.x) h[i] = 0u;
	ampWaitWithTileStaticMemoryFence();
	uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
	for (uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + t; i < amp.n; i += stride) {
		uint k = sortKey(srcData[amp.src.base + i], amp.type);
		atomicAdd(h[k & 255u], 1u);
		atomicAdd(h[256u + ((k >> 8) & 255u)], 1u);
		atomicAdd(h[512u + ((k >> 16) & 255u)], 1u);
		atomicAdd(h[768u + (k >> 24)], 1u);
	}
	ampWaitWithTileStaticMemoryFence();
	for (uint i = t; i < 1024u; i += gl_WorkGroupSize.x) {
		uint c = h[i];
		if (c != 0u) atomicAdd(state[amp.st.base + i], c);
	}
}
