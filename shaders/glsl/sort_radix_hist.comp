#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// Radix sort, pass step 1: the digit histogram of each block. Workgroup b of the 256-thread
// workgroups counts the 8-bit digits (key >> amp.shift) & 255 of the keys
// b*blockLen .. min((b+1)*blockLen, n)-1 of src in shared memory and writes the count of
// digit d to hist[d * numWorkGroups + b] (digit-major, so that an exclusive scan of hist
// gives each block's first output position per digit). Thread t counts keys t, t+256, ...
// in runs of equal digits, adding a run's length when its digit changes: sorted or
// repetitive keys then cost few shared atomics on one address. src holds elements mapped to keys
// by amp.type (algo typeCode; 1, uint32, is the identity for keys already mapped); key i
// is word i * amp.stride of src (stride 2: keys interleaved with their values).
// Go body: algo radixHistKernel.
#extension GL_EXT_control_flow_attributes : require
#include "amp.glsl"
#include "sort_keys.glsl"
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, writeonly, uint, histData);
AMP_PUSH_BEGIN AmpView src; AmpView hist; uint n; uint shift; uint blockLen; int type; uint stride; AMP_PUSH_END

shared uint h[256];

void main() {
	uint t = gl_LocalInvocationID.x;
	uint b = gl_WorkGroupID.x;
	h[t] = 0u;
	ampWaitWithTileStaticMemoryFence();
	uint lo = b * amp.blockLen;
	uint hi = min(lo + amp.blockLen, amp.n);
	uint shift = amp.shift;
	uint cur = 0u;
	uint run = 0u;
	for (uint base = lo + t; base < hi; base += 1024u) {
		// Four loads in flight, then their digits in order.
		uint k[4];
		[[unroll]] for (uint j = 0u; j < 4u; j++) {
			uint i = base + 256u * j;
			k[j] = i < hi ? srcData[amp.src.base + i * amp.stride] : 0u;
		}
		[[unroll]] for (uint j = 0u; j < 4u; j++) {
			if (base + 256u * j < hi) {
				uint d = (sortKey(k[j], amp.type) >> shift) & 255u;
				if (d != cur) {
					if (run != 0u) atomicAdd(h[cur], run);
					cur = d;
					run = 0u;
				}
				run++;
			}
		}
	}
	if (run != 0u) atomicAdd(h[cur], run);
	ampWaitWithTileStaticMemoryFence();
	histData[amp.hist.base + t * gl_NumWorkGroups.x + b] = h[t];
}
