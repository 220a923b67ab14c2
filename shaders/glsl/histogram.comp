#version 450
// Histogram of float32 values, like torch.histc: bins equal bins over [lo, hi]; a value x
// with lo <= x <= hi goes to bin min(floor((x - lo) * scale), bins - 1), scale =
// bins / (hi - lo) computed by the host, so hi lands in the last bin; other values (and
// NaN) are ignored. Tiled 1-D: workgroup g counts the elements [g*chunk, min((g+1)*chunk,
// n)) of in (chunk a multiple of 4) into a histogram in shared memory with atomicAdd
// (thread l takes the vec4s at l, l + size, ... of the slice when in is 16-byte aligned,
// else the same elements one by one), then adds its non-zero bins to out[bin] with global
// atomics; out must start zeroed. The shared histogram has 16 bins per thread of the
// workgroup, so the host picks a workgroup of at least bins/16 threads.
// Go body: shaders histogramKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, float, src);
AMP_BUFFER(0, readonly, vec4, src4); // the same buffer, 16 bytes at a time
AMP_BUFFER(1, , uint, counts);
AMP_PUSH_BEGIN AmpView in_; AmpView out_;
	uint n; uint chunk; uint bins; float lo; float hi; float scale;
AMP_PUSH_END

shared uint hist[gl_WorkGroupSize.x * 16u];

// count adds x to the shared histogram.
void count(float x) {
	if (x >= amp.lo && x <= amp.hi) {
		// precise: the host computes the same float32 product, rounded the same way.
		precise float d = (x - amp.lo) * amp.scale;
		uint b = d < float(amp.bins) ? uint(d) : amp.bins - 1u;
		atomicAdd(hist[b], 1u);
	}
}

void count4(vec4 v) {
	count(v.x);
	count(v.y);
	count(v.z);
	count(v.w);
}

void main() {
	uint l = gl_LocalInvocationID.x;
	uint size = gl_WorkGroupSize.x;
	for (uint b = l; b < amp.bins; b += size) {
		hist[b] = 0u;
	}
	ampWaitWithTileStaticMemoryFence();

	uint b0 = amp.in_.base;
	uint lo = gl_WorkGroupID.x * amp.chunk;
	uint hi = min(lo + amp.chunk, amp.n);
	uint step = 4u * size;
	uint i = lo + 4u * l;
	if ((b0 & 3u) == 0u) {
		for (; i + step + 3u < hi; i += 2u * step) {
			uint q = (b0 + i) >> 2;
			vec4 a = src4[q];
			vec4 c = src4[q + size];
			count4(a);
			count4(c);
		}
		for (; i + 3u < hi; i += step) {
			count4(src4[(b0 + i) >> 2]);
		}
	} else {
		for (; i + 3u < hi; i += step) {
			uint j = b0 + i;
			count4(vec4(src[j], src[j + 1u], src[j + 2u], src[j + 3u]));
		}
	}
	uint t = lo + ((hi - lo) & ~3u) + l;
	if (t < hi) {
		count(src[b0 + t]);
	}
	ampWaitWithTileStaticMemoryFence();

	for (uint b = l; b < amp.bins; b += size) {
		uint c = hist[b];
		if (c != 0u) {
			atomicAdd(counts[amp.out_.base + b], c);
		}
	}
}
