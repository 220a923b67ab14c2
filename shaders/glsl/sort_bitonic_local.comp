#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// Bitonic sort of uint32 keys, in shared memory: each tile of T threads (tile 512, or
// half the padded length when smaller) loads a block of B = 2T keys.
//   amp.k == 0: sorts the block completely (stages k = 2 .. B), ascending or descending
//               as the global network says ((index & k) == 0 is ascending);
//   amp.k > B:  the tail of global stage k: the steps j = B/2 .. 1, after the global
//               steps j >= B (sort_bitonic_step) made the block bitonic.
// Go body: algo bitonicLocalKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, , uint, keys);
AMP_PUSH_BEGIN AmpView v; uint k; AMP_PUSH_END

shared uint s[gl_WorkGroupSize.x * 2u];

void main() {
	uint t = gl_LocalInvocationID.x;
	uint T = gl_WorkGroupSize.x;
	uint B = 2u * T;
	uint base = gl_WorkGroupID.x * B;
	s[t] = keys[amp.v.base + base + t];
	s[t + T] = keys[amp.v.base + base + t + T];
	ampWaitWithTileStaticMemoryFence();
	uint kFirst = amp.k == 0u ? 2u : amp.k;
	uint kLast = amp.k == 0u ? B : amp.k;
	for (uint k = kFirst; k <= kLast; k <<= 1) {
		for (uint j = min(k, B) >> 1; j > 0u; j >>= 1) {
			uint i = ((t & ~(j - 1u)) << 1) | (t & (j - 1u));
			uint a = s[i];
			uint b = s[i + j];
			bool up = ((base + i) & k) == 0u;
			if ((a > b) == up) {
				s[i] = b;
				s[i + j] = a;
			}
			ampWaitWithTileStaticMemoryFence();
		}
	}
	keys[amp.v.base + base + t] = s[t];
	keys[amp.v.base + base + t + T] = s[t + T];
}
