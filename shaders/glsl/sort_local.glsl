#version 450
// Hand-written: subgroup ballots and arithmetic, and the raw 32-bit words of any element type, which the kernel language cannot express.
// The hybrid radix sort's last step (algo sortLocalKernel): the keys arrive sorted by their
// bits amp.bits..31 (the global passes, sort_radix_scatter_sg.comp) into buckets of equal
// key >> amp.bits, whose first positions amp.bounds lists (sort_bounds.comp); each bucket
// is loaded whole into a workgroup and sorted there, stably, by its low amp.bits bits in
// amp.bits / 8 rounds of 8-bit digits, then written back to the same positions of dst,
// the keys mapped to elements (amp.outType) and their values (amp.vals != 0: src holds
// keys and values interleaved, key i at word 2i) to dstVal. Each global pass of the
// multi-pass sort reads and writes every key once and takes a histogram pass besides; this
// step replaces amp.bits / 8 of them by one read and one coalesced write.
//
// A round ranks the keys of each subgroup by digit with sort_rank.glsl (16-bit counters
// per subgroup and digit), scans the subgroups' counts, and places every key (with its
// value) in shared memory at its place in the digit order; the next round reads them back
// in that order. A bucket longer than CAP keys is not sorted here: the workgroup adds 1 to
// amp.over, and algo sorts the whole input again with the multi-pass sort.
//
// Compiled as variants (variants.txt): sort_local (KPT 20: buckets of up to 5120 keys, 47 KB
// of shared memory, for subgroups of 32 or more), sort_local_p (its PACK16 program for
// amp.bits 16: 512 invocations of KPT 10, 30 KB), sort_local_s and sort_local_ps (KPT 6, up
// to 1536 keys, subgroups of 8 or more; RESULTS.md has the experiments measured against
// them). TPB sets the workgroup's invocations (256 unless defined, a multiple of 128). The
// workgroups stride over the buckets.
// Go body: algo sortLocalKernel.
#include "sort_sg.glsl" // the subgroup extensions, amp.glsl, sort_keys.glsl
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(0, readonly, uvec2, src2); // the same buffer, a key and its value at a time
AMP_BUFFER(1, writeonly, uint, dstData);
AMP_BUFFER(2, writeonly, uint, dstVal);
AMP_BUFFER(3, readonly, uint, boundsData);
AMP_BUFFER(4, , uint, overData);
AMP_PUSH_BEGIN AmpView src; AmpView dst; AmpView dv; AmpView bounds; AmpView over; uint buckets; uint bits;
	int outType; uint vals; AMP_PUSH_END

#ifndef KPT
#define KPT 20u
#endif
#ifndef MAXSG
#define MAXSG 8u
#endif
#ifndef TPB
#define TPB 256u // the workgroup's invocations (its tile); the digits' tables take the first 256
#endif
#define CAP (TPB * KPT)
#ifdef PACK16
// With amp.bits 16 only: an element, in registers and in shared memory, is one word: the
// key's low 16 bits (the bucket's keys share the others) and, in bits 16..31, its index in
// the bucket, by which the last step reads its value from src. Half the registers and
// shared memory of a key and a value: the 5120-key program ran 2.5 times slower than one
// of 2560 with the uvec2 elements on the H100, for want of room for more workgroups.
// sort_local_p compiles to exactly 64 registers a thread on the H200 (scripts/vkstats.c),
// the most that lets an SM hold two of its 512-invocation workgroups. The mapped sort's
// variant of it (an experiment) took 66, one workgroup an SM, and a build with
// the same changes sorted 2^28 pairs in 6.0 ms instead of 4.2 (RESULTS.md, "Registers"):
// check the count after any change here.
#define ELEM uint
#define EKEY(e) (e)
#else
#define ELEM uvec2
#define EKEY(e) ((e).x)
#endif
shared ELEM skv[CAP];           // the bucket's elements, sorted by the round's digit
shared uint wcnt[MAXSG * 128u]; // per subgroup: 256 16-bit digit counts, 2 per word
shared uint wsum[32];           // the subgroups' sums in the digit-count scan
shared uint tCnt[256];          // the bucket's digit counts
shared uint tStart[256];        // their exclusive scan
#define PARTS (TPB / 128u)       // TPB is a multiple of 128
shared uint wpart[TPB];         // the digit-count scan's partial sums: PARTS rows of 128 words

#include "sort_rank.glsl"

// sortRound sorts the len elements in registers, slot j < kpt of this invocation being the
// bucket's element first + j*S + lane, by digit (key >> shift) & 255 into skv.
void sortRound(uint len, uint kpt, uint first, uint shift, ELEM el[KPT]) {
	uint t = gl_LocalInvocationID.x;
	uint w = gl_SubgroupID;
	uint l = gl_SubgroupInvocationID;
	uint S = gl_SubgroupSize;
	uint wbase = w * 128u;
	for (uint i = l; i < 128u; i += S) wcnt[wbase + i] = 0u;
	subgroupMemoryBarrierShared();
	subgroupBarrier();
	uint ranks[KPT];
	[[unroll]] for (uint j = 0u; j < KPT; j++) {
		if (j >= kpt || first + j * S >= len) break; // uniform in the subgroup
		bool valid = first + j * S + l < len;
		uint d = (EKEY(el[j]) >> shift) & 255u;
		ranks[j] = rankInSubgroup(d, valid, wbase + (d >> 1), (d & 1u) * 16u);
	}
	ampWaitWithTileStaticMemoryFence();
	scanDigitCounts();
	ampWaitWithTileStaticMemoryFence();
	uint c = 0u, incl = 0u;
	if (t < 256u) { // whole subgroups
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
		if (j < kpt && first + j * S + l < len) {
			uint d = (EKEY(el[j]) >> shift) & 255u;
			uint off = (wcnt[wbase + (d >> 1)] >> ((d & 1u) * 16u)) & 0xFFFFu;
			skv[ranks[j] + tStart[d] + off] = el[j];
		}
	}
	ampWaitWithTileStaticMemoryFence();
}

// loadBucket reads bucket h's first position lo and length len (0 from the last bucket
// on) and, where it is sorted here (2 <= len <= CAP), its elements into el: slot j < kpt
// of this invocation holds the bucket's element first + j*S + lane, where each subgroup
// takes kpt elements a lane, as few as the bucket allows (the ranking is a chain of
// dependent steps per lane, so its time follows kpt, not the bucket: a 2048-key bucket
// took 2.5 times as long in 4 subgroups of 16 a lane as in 7 of 10 on the H100).
void loadBucket(uint h, out uint lo, out uint len, out uint kpt, out ELEM el[KPT]) {
	lo = 0u;
	len = 0u;
	kpt = 0u;
	if (h >= amp.buckets) return;
	lo = boundsData[amp.bounds.base + h];
	len = boundsData[amp.bounds.base + h + 1u] - lo;
	kpt = (len + TPB - 1u) / TPB;
	if (len > CAP || len < 2u) return;
	uint first = gl_SubgroupID * gl_SubgroupSize * kpt;
	[[unroll]] for (uint j = 0u; j < KPT; j++) {
		uint i = first + j * gl_SubgroupSize + gl_SubgroupInvocationID;
		if (j < kpt && i < len) {
#ifdef PACK16
			el[j] = (srcData[amp.src.base + (lo + i) * (amp.vals != 0u ? 2u : 1u)] & 0xFFFFu) | (i << 16);
#else
			el[j] = amp.vals != 0u ? src2[(amp.src.base >> 1) + lo + i] : uvec2(srcData[amp.src.base + lo + i], 0u);
#endif
		}
	}
}

// sortBucket sorts bucket h (its elements in el, as loadBucket left them) and writes it out.
void sortBucket(uint h, uint lo, uint len, uint kpt, ELEM el[KPT]) {
	uint t = gl_LocalInvocationID.x;
	uint l = gl_SubgroupInvocationID;
	uint S = gl_SubgroupSize;
	uint first = gl_SubgroupID * S * kpt;
	for (uint r = 0u; r < amp.bits >> 3; r++) {
		if (r > 0u) {
			[[unroll]] for (uint j = 0u; j < KPT; j++) {
				uint i = first + j * S + l;
				if (j < kpt && i < len) el[j] = skv[i];
			}
			ampWaitWithTileStaticMemoryFence(); // skv is read before the round places keys
		}
		sortRound(len, kpt, first, 8u * r, el);
	}
	[[unroll]] for (uint j = 0u; j < KPT; j++) {
		uint i = t + TPB * j;
		if (j < kpt && i < len) {
#ifdef PACK16
			uint e = skv[i];
			dstData[amp.dst.base + lo + i] = sortElem((h << 16) | (e & 0xFFFFu), amp.outType);
			if (amp.vals != 0u) dstVal[amp.dv.base + lo + i] = srcData[amp.src.base + 2u * (lo + (e >> 16)) + 1u];
#else
			uvec2 kv = skv[i];
			dstData[amp.dst.base + lo + i] = sortElem(kv.x, amp.outType);
			if (amp.vals != 0u) dstVal[amp.dv.base + lo + i] = kv.y;
#endif
		}
	}
}

void main() {
	uint t = gl_LocalInvocationID.x;
	uint G = gl_NumWorkGroups.x;
	uint lo, len, kpt;
	ELEM el[KPT];
	loadBucket(gl_WorkGroupID.x, lo, len, kpt, el);
	for (uint h = gl_WorkGroupID.x; h < amp.buckets; h += G) {
		if (len > CAP) {
			if (t == 0u) atomicAdd(overData[amp.over.base], 1u);
		} else if (len == 1u) {
			if (t == 0u) {
				uvec2 kv = amp.vals != 0u ? src2[(amp.src.base >> 1) + lo] : uvec2(srcData[amp.src.base + lo], 0u);
				dstData[amp.dst.base + lo] = sortElem(kv.x, amp.outType);
				if (amp.vals != 0u) dstVal[amp.dv.base + lo] = kv.y;
			}
		} else if (len > 1u) {
			sortBucket(h, lo, len, kpt, el);
			ampWaitWithTileStaticMemoryFence(); // skv is read before the next bucket's round
		}
		// (Loading the next bucket before this one is sorted, to hide the loads' latency,
		// made the sort 13-50% slower on the H200: the registers it holds cost occupancy.)
		loadBucket(h + G, lo, len, kpt, el);
	}
}
