#version 450
// One pass of Reduce (Sum, Min or Max of int32, uint32 or float32): workgroup g combines
// the elements [g*chunk, min((g+1)*chunk, n)) of in (element i is in[inOff + i]) and writes
// the result to out[outOff + g]. Tiled 1-D, one workgroup per tile (any power-of-two
// size): thread l combines the vec4s at l, l + size, l + 2*size, ... of its group's slice
// (four loads in flight), the <4 trailing elements go to threads 0..2, and the group
// combines its threads' values in shared memory. Vector loads need in's first element
// aligned to 16 bytes; otherwise the same loop reads scalars. chunk is a multiple of 4.
// The data are raw 32-bit words: amp.type says how to read them (0 int32, 1 uint32,
// 2 float32) and amp.op what to do (0 sum, 1 min, 2 max).
//
// reduce_sg.comp is this program with the workgroup step done by subgroup operations;
// the two files differ only between the VARIANT markers (reduce_test.go checks it).
// Go body: shaders reduceKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, src);
AMP_BUFFER(0, readonly, uvec4, src4); // the same buffer, read 16 bytes at a time
AMP_BUFFER(1, writeonly, uint, dst);
AMP_PUSH_BEGIN AmpView in_; AmpView out_; uint n; uint chunk; uint inOff; uint outOff; int op; int type; AMP_PUSH_END

// The combination of op and type: (op*3 + type).
#define SUM_I 0
#define SUM_U 1
#define SUM_F 2
#define MIN_I 3
#define MIN_U 4
#define MIN_F 5
#define MAX_I 6
#define MAX_U 7
#define MAX_F 8

#define ADD(a, b) ((a) + (b))
#define INF uintBitsToFloat(0x7f800000u)

// ACCUMULATE(NAME, T, V, CS, CV, F, ID) defines T NAME(uint b0, uint lo, uint hi): this
// thread's combination by F (identity ID) of the elements [lo, hi) of the view whose
// element 0 is src[b0]; CS and CV convert a word and a uvec4 to T and V.
#define ACCUMULATE(NAME, T, V, CS, CV, F, ID)                                                 \
	T NAME(uint b0, uint lo, uint hi) {                                                       \
		uint step = 4u * gl_WorkGroupSize.x;                                                  \
		uint i = lo + 4u * gl_LocalInvocationID.x;                                            \
		V a = V(ID);                                                                          \
		if ((b0 & 3u) == 0u) {                                                                \
			uint s = gl_WorkGroupSize.x;                                                      \
			for (; i + 3u * step + 3u < hi; i += 4u * step) {                                 \
				uint q = (b0 + i) >> 2;                                                       \
				a = F(a, F(F(CV(src4[q]), CV(src4[q + s])), F(CV(src4[q + 2u * s]), CV(src4[q + 3u * s])))); \
			}                                                                                 \
			for (; i + 3u < hi; i += step) {                                                  \
				a = F(a, CV(src4[(b0 + i) >> 2]));                                            \
			}                                                                                 \
		} else {                                                                              \
			for (; i + 3u < hi; i += step) {                                                  \
				uint j = b0 + i;                                                              \
				a = F(a, V(CS(src[j]), CS(src[j + 1u]), CS(src[j + 2u]), CS(src[j + 3u])));   \
			}                                                                                 \
		}                                                                                     \
		T r = F(F(a.x, a.y), F(a.z, a.w));                                                    \
		uint t = lo + ((hi - lo) & ~3u) + gl_LocalInvocationID.x;                             \
		if (t < hi) {                                                                         \
			r = F(r, CS(src[b0 + t]));                                                        \
		}                                                                                     \
		return r;                                                                             \
	}

ACCUMULATE(sumU, uint, uvec4, uint, uvec4, ADD, 0u)
ACCUMULATE(sumF, float, vec4, uintBitsToFloat, uintBitsToFloat, ADD, 0.0)
ACCUMULATE(minI, int, ivec4, int, ivec4, min, 0x7fffffff)
ACCUMULATE(minU, uint, uvec4, uint, uvec4, min, 0xffffffffu)
ACCUMULATE(minF, float, vec4, uintBitsToFloat, uintBitsToFloat, min, INF)
ACCUMULATE(maxI, int, ivec4, int, ivec4, max, (-0x7fffffff - 1))
ACCUMULATE(maxU, uint, uvec4, uint, uvec4, max, 0u)
ACCUMULATE(maxF, float, vec4, uintBitsToFloat, uintBitsToFloat, max, -INF)

// accumulate is ACCUMULATE for the push constants' op and type, as raw bits.
uint accumulate(int k, uint b0, uint lo, uint hi) {
	switch (k) {
	case MIN_I: return uint(minI(b0, lo, hi));
	case MIN_U: return minU(b0, lo, hi);
	case MIN_F: return floatBitsToUint(minF(b0, lo, hi));
	case MAX_I: return uint(maxI(b0, lo, hi));
	case MAX_U: return maxU(b0, lo, hi);
	case MAX_F: return floatBitsToUint(maxF(b0, lo, hi));
	case SUM_F: return floatBitsToUint(sumF(b0, lo, hi));
	}
	return sumU(b0, lo, hi); // int32 and uint32 sums are the same bits (they wrap)
}

// combine combines two raw values.
uint combine(int k, uint a, uint b) {
	switch (k) {
	case MIN_I: return uint(min(int(a), int(b)));
	case MIN_U: return min(a, b);
	case MIN_F: return floatBitsToUint(min(uintBitsToFloat(a), uintBitsToFloat(b)));
	case MAX_I: return uint(max(int(a), int(b)));
	case MAX_U: return max(a, b);
	case MAX_F: return floatBitsToUint(max(uintBitsToFloat(a), uintBitsToFloat(b)));
	case SUM_F: return floatBitsToUint(uintBitsToFloat(a) + uintBitsToFloat(b));
	}
	return a + b;
}

shared uint part[gl_WorkGroupSize.x];

// BEGIN VARIANT: the workgroup step, in shared memory.
// groupCombine combines every thread's v and returns true on the one thread that holds the
// result in v.
bool groupCombine(int k, inout uint v) {
	uint l = gl_LocalInvocationID.x;
	part[l] = v;
	ampWaitWithTileStaticMemoryFence();
	for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1) {
		if (l < s) {
			part[l] = combine(k, part[l], part[l + s]);
		}
		ampWaitWithTileStaticMemoryFence();
	}
	v = part[0];
	return l == 0u;
}
// END VARIANT

void main() {
	int k = amp.op * 3 + amp.type;
	uint lo = gl_WorkGroupID.x * amp.chunk;
	uint hi = min(lo + amp.chunk, amp.n);
	uint v = accumulate(k, amp.in_.base + amp.inOff, lo, hi);
	if (groupCombine(k, v)) {
		dst[amp.out_.base + amp.outOff + gl_WorkGroupID.x] = v;
	}
}
