#version 450
// Hand-written: subgroup ballots and arithmetic, and the raw 32-bit words of any element type, which the kernel language cannot express.
// Radix sort, pass step 3, with subgroup ballots and arithmetic (at least 8 invocations
// per subgroup): what sort_radix_scatter.comp does, with the stable ranking of step 2
// done by subgroup ballots instead of one-bit splits, on sub-tiles of 3072 keys (the
// other's are 2048). Subgroup w owns the keys w*S*KPT .. (w+1)*S*KPT-1 of the sub-tile
// (S = gl_SubgroupSize), S at a time, ranked by sort_rank.glsl: eight ballots find the
// lanes with the same digit, the lowest of them adds their number to the subgroup's count
// for the digit (16-bit counters, two per word, in shared memory), and each key's rank is
// the count before it plus the lanes of its digit below it. A scan of
// the subgroups' counts per digit then gives each subgroup's offset within a digit, and
// the keys are placed in shared memory sorted by digit, then written out as there. With
// values (amp.vals: 1 srcVal's, 2 the keys' indices in src, for Argsort), the values are
// then placed in the same shared array at their keys' places and written out the same way.
// amp.interleave (with values): bit 0, src holds keys and values interleaved (key i at word 2i,
// its value at 2i+1, loaded as one uvec2; srcVal is not read); bit 1, dst gets them so, as
// one uvec2 store per key (dstVal is not written): one scattered store stream instead of
// two (RESULTS.md, "SortPairs with interleaved temporaries").
// Go body: algo radixScatterKernel (the result is the same).
#include "sort_sg.glsl" // the subgroup extensions, amp.glsl, sort_keys.glsl
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(0, readonly, uvec2, src2); // the same buffers, a key and its value at a time
AMP_BUFFER(1, writeonly, uint, dstData);
AMP_BUFFER(1, writeonly, uvec2, dst2);
AMP_BUFFER(2, readonly, uint, histData);
AMP_BUFFER(3, readonly, uint, srcVal);
AMP_BUFFER(4, writeonly, uint, dstVal);
AMP_PUSH_BEGIN AmpView src; AmpView dst; AmpView hist; AmpView sv; AmpView dv; uint n; uint shift;
	uint blockLen; int inType; int outType; uint vals; uint interleave; AMP_PUSH_END

// Sub-tiles of 12 keys a thread: 8 took 23% longer on the H100, 16 (more registers) longer
// still with values; KEYS_ONLY (the program sort_radix_scatter_k, variants.txt) compiles the
// values' code out, which the 12 keys need to stay fast (RESULTS.md, 2026-11-23).
#ifndef KPT
#define KPT 12u
#endif
#ifndef TPB
#define TPB 256u // the workgroup's invocations; the digit tables take the first 256
#endif
#define SUB (TPB * KPT)
#ifdef KEYS_ONLY
#define VALS 0u
#define ILV 0u
#else
#define VALS amp.vals
#define ILV amp.interleave
#endif
// ONE_ROUND (the program sort_radix_scatter_p, for pairs on devices with subgroups of 32 or
// more and 48 KB of shared memory): keys and values are placed in shared memory together,
// as uvec2s, in one round instead of the keys', then the values'; the digit counts need
// room for 8 subgroups only. It is compiled with sub-tiles of 20 keys a thread (47 KB of
// shared memory), which ran 11% faster than 12 on the H100 (RESULTS.md). Its program
// sort_radix_scatter_p512 (TPB 512, KPT 8, MAXSG 16, PSCAN) ranks 4,096 pairs a sub-tile
// in 16 subgroups, a chain of 8 keys a lane instead of 20, and scans the subgroups' counts
// 4 invocations a word: 2.65 ms a pass of 2^28 pairs on the H200 instead of 3.4.
#ifdef ONE_ROUND
#ifndef MAXSG
#define MAXSG 8u
#endif
shared uvec2 skv[SUB];    // the sub-tile's keys and values, sorted by digit
#else
#define MAXSG 32u
shared uint sk[SUB];      // the sub-tile sorted by digit
#endif
shared uint wcnt[MAXSG * 128u]; // per subgroup: 256 16-bit digit counts, 2 per word
shared uint wsum[32];     // the subgroups' sums in the digit-count scan
shared uint gBase[256];   // the block's next output position per digit
shared uint tCnt[256];    // the sub-tile's digit counts
shared uint tStart[256];  // their exclusive scan
#ifdef PSCAN
#define PARTS (TPB / 128u)
shared uint wpart[TPB];   // the digit-count scan's partial sums: PARTS rows of 128 words
#endif

#include "sort_rank.glsl"

// load sets k and v to key i of src and its value (zeros from hi on).
void load(uint i, uint hi, out uint k, out uint v) {
	k = 0u;
	v = 0u;
	if (i < hi) {
		if ((ILV & 1u) != 0u) {
			uvec2 kv = src2[(amp.src.base >> 1) + i];
			k = kv.x;
			v = kv.y;
		} else {
			k = srcData[amp.src.base + i];
			if (VALS == 1u) v = srcVal[amp.sv.base + i];
		}
	}
}

void main() {
	uint t = gl_LocalInvocationID.x;
	uint b = gl_WorkGroupID.x;
	uint shift = amp.shift;
	uint w = gl_SubgroupID;
	uint l = gl_SubgroupInvocationID;
	uint S = gl_SubgroupSize;
	uint wbase = w * 128u;
	// The block's first position per digit: its scanned row entry plus the digit's first
	// position, the exclusive scan of the row totals.
	uint G = gl_NumWorkGroups.x;
	uint c0 = 0u, inc0 = 0u;
	if (t < 256u) { // whole subgroups
		c0 = histData[amp.hist.base + 256u * G + t];
		inc0 = subgroupInclusiveAdd(c0);
		if (l == S - 1u) wsum[w] = inc0;
	}
	ampWaitWithTileStaticMemoryFence();
	if (t < 256u) {
		uint pre0 = 0u;
		for (uint x = 0u; x < w; x++) pre0 += wsum[x];
		gBase[t] = histData[amp.hist.base + t * G + b] + pre0 + inc0 - c0;
	}
	uint lo = b * amp.blockLen;
	uint hi = min(lo + amp.blockLen, amp.n);
	uint first = w * S * KPT;
	// Each sub-tile's words (and values) are loaded while the one before is ranked and
	// scattered: without it the loads' latency is exposed after every sub-tile (the
	// scatter took 5.3 ms per pass of 2^28 keys on the H100 instead of 2.9).
	uint nxt[KPT];
	uint nxtV[KPT];
	[[unroll]] for (uint j = 0u; j < KPT; j++) load(lo + first + j * S + l, hi, nxt[j], nxtV[j]);
	for (uint sub = lo; sub < hi; sub += SUB) {
		uint len = min(SUB, hi - sub);
		for (uint i = l; i < 128u; i += S) wcnt[wbase + i] = 0u;
		subgroupMemoryBarrierShared();
		subgroupBarrier();
		uint keys[KPT];
		uint vs[KPT];
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			keys[j] = sortKey(nxt[j], amp.inType);
			vs[j] = nxtV[j];
			load(sub + SUB + first + j * S + l, hi, nxt[j], nxtV[j]);
		}
		uint ranks[KPT];
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			bool valid = first + j * S + l < len;
			uint d = (keys[j] >> shift) & 255u;
			ranks[j] = rankInSubgroup(d, valid, wbase + (d >> 1), (d & 1u) * 16u);
		}
		ampWaitWithTileStaticMemoryFence();
#ifdef PSCAN
		scanDigitCounts();
#else
		if (t < 128u) {
			// Digits 2t and 2t+1: the subgroups' exclusive offsets, and the totals.
			uint r0 = 0u, r1 = 0u;
			for (uint x = 0u; x < gl_NumSubgroups; x++) {
				uint v = wcnt[x * 128u + t];
				wcnt[x * 128u + t] = r0 | (r1 << 16);
				r0 += v & 0xFFFFu;
				r1 += v >> 16;
			}
			tCnt[2u * t] = r0;
			tCnt[2u * t + 1u] = r1;
		}
#endif
		ampWaitWithTileStaticMemoryFence();
		uint c = 0u, incl = 0u;
		if (t < 256u) {
			c = tCnt[t];
			incl = subgroupInclusiveAdd(c);
			if (l == S - 1u) wsum[w] = incl;
		}
		ampWaitWithTileStaticMemoryFence();
		if (t < 256u) {
			uint pre = 0u;
			for (uint x = 0u; x < w; x++) pre += wsum[x];
			tStart[t] = pre + incl - c;
		}
		ampWaitWithTileStaticMemoryFence();
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			if (first + j * S + l < len) {
				uint d = (keys[j] >> shift) & 255u;
				uint off = (wcnt[wbase + (d >> 1)] >> ((d & 1u) * 16u)) & 0xFFFFu;
				ranks[j] += tStart[d] + off; // now the key's place in sk
#ifdef ONE_ROUND
				skv[ranks[j]] = uvec2(keys[j], VALS == 1u ? vs[j] : sub + first + j * S + l);
#else
				sk[ranks[j]] = keys[j];
#endif
			}
		}
		ampWaitWithTileStaticMemoryFence();
#ifdef ONE_ROUND
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			uint i = t + TPB * j;
			if (i < len) {
				uvec2 kv = skv[i];
				uint d = (kv.x >> shift) & 255u;
				uint at = gBase[d] + i - tStart[d];
				uint k = sortElem(kv.x, amp.outType);
				if ((ILV & 2u) != 0u) {
					dst2[(amp.dst.base >> 1) + at] = uvec2(k, kv.y);
				} else {
					dstData[amp.dst.base + at] = k;
					dstVal[amp.dv.base + at] = kv.y;
				}
			}
		}
#else
		uint outAt[KPT]; // where sk[t + 256j] goes
		uint kOut[KPT];  // and that key, as an element (kept for interleaved stores)
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			uint i = t + TPB * j;
			if (i < len) {
				uint k = sk[i];
				uint d = (k >> shift) & 255u;
				outAt[j] = gBase[d] + i - tStart[d];
				kOut[j] = sortElem(k, amp.outType);
				if ((ILV & 2u) == 0u) dstData[amp.dst.base + outAt[j]] = kOut[j];
			}
		}
		if (VALS != 0u) {
			ampWaitWithTileStaticMemoryFence();
			[[unroll]] for (uint j = 0u; j < KPT; j++) {
				uint i = first + j * S + l;
				if (i < len) sk[ranks[j]] = VALS == 1u ? vs[j] : sub + i;
			}
			ampWaitWithTileStaticMemoryFence();
			[[unroll]] for (uint j = 0u; j < KPT; j++) {
				uint i = t + TPB * j;
				if (i < len) {
					if ((ILV & 2u) != 0u) {
						dst2[(amp.dst.base >> 1) + outAt[j]] = uvec2(kOut[j], sk[i]);
					} else {
						dstVal[amp.dv.base + outAt[j]] = sk[i];
					}
				}
			}
		}
#endif
		ampWaitWithTileStaticMemoryFence();
		if (t < 256u) gBase[t] += tCnt[t];
	}
}
