#version 450
// Hand-written: subgroup ballots and arithmetic, a spin-wait on flags that other workgroups publish (decoupled look-back) and the raw 32-bit words of any element type, none of which the kernel language can express.
// OneSweep (Adinets and Merrill, 2022): one pass of the single-pass LSD radix sort, the
// stable scatter of the keys by digit (key >> amp.shift) & 255 with no separate
// histogram or scan dispatch. Compiled twice (variants.txt): sort_onesweep (KPT 16: tiles
// of 4096 keys, for subgroups of 16 or more invocations) and sort_onesweep_k8 (KPT 8, tiles
// of 2048 keys, for subgroups of 8).
//
// State (amp.st, from algo onesweepKernel): words 0..1023 hold the four digit histograms
// of the whole input (sort_onesweep_hist.comp), word 1024 the tile counter (zeroed before
// the pass) and word 1025 + 256p + d tile p's count of digit d (zeroed before the pass):
// 0 while unpublished, AGG | count once the tile knows its own count, INC | the count of
// digit d in tiles 0..p once it knows that (30-bit values: n < 2^30).
//
// Each 256-invocation workgroup takes a tile number p from the counter (so that it only
// ever waits for tiles whose workgroups started before it), loads the tile's keys and
// ranks them by digit with subgroup ballots as sort_radix_scatter_sg.comp does (16-bit
// counters per subgroup and digit), publishes its digit counts, and thread d looks back
// over tiles p-1, p-2, ... adding their published counts of digit d until it meets an
// inclusive one: the keys of digit d before this tile. Vulkan does not promise that a
// started workgroup keeps making progress while another spins, so a tile left unpublished
// for amp.spinLimit reads is counted by the waiting thread itself (the decoupled fallback:
// src is the whole previous pass's output): on a device that does promise it (algo
// onesweepOn) that never happens, elsewhere (lavapipe) the sort is slower but still
// right, never stuck. The keys are then placed in shared memory
// sorted by digit and written out: key i of the sorted tile, of digit d, goes to
// start[d] + before[d] + i - tileStart[d]. Values (amp.vals: 1 srcVal's, 2 the keys'
// indices in src, for Argsort) follow through the same shared array.
// Go body: algo onesweepKernel (a definition by the multi-pass kernels' counting scatter).
#include "sort_sg.glsl" // the subgroup extensions, amp.glsl, sort_keys.glsl
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, writeonly, uint, dstData);
AMP_BUFFER(2, readonly, uint, srcVal);
AMP_BUFFER(3, writeonly, uint, dstVal);
AMP_BUFFER(4, volatile, uint, state); // volatile implies coherent (glslang decorates both; see scan_lookback.glsl)
AMP_PUSH_BEGIN AmpView src; AmpView dst; AmpView sv; AmpView dv; AmpView st; uint n; uint shift;
	int inType; int outType; uint vals; uint spinLimit; AMP_PUSH_END

#ifndef KPT
#define KPT 16u
#endif
#define TILE (256u * KPT)
#define AGG 0x40000000u
#define INC 0x80000000u
#define VALUE 0x3FFFFFFFu
const uint MAXSG = 256u / (KPT >= 16u ? 16u : 8u); // subgroups of 16 (KPT 16) or 8 invocations at least

shared uint sk[TILE];           // the tile sorted by digit (keys, then values)
shared uint wcnt[MAXSG * 128u]; // per subgroup: 256 16-bit digit counts, 2 per word
shared uint wsum[2u * 64u];     // the subgroups' sums in the two digit scans
shared uint tCnt[256];          // the tile's digit counts
shared uint tStart[256];        // their exclusive scan
shared uint gOff[256];          // where the tile's first key of each digit goes, less tStart
shared uint tileId;

#include "sort_rank.glsl"

// groupExclusive returns the exclusive prefix of x (thread t's) over the workgroup's 256
// threads in thread order, with the subgroups' sums in wsum[64 slot ..].
uint groupExclusive(uint x, uint slot) {
	uint incl = subgroupInclusiveAdd(x);
	if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) wsum[64u * slot + gl_SubgroupID] = incl;
	ampWaitWithTileStaticMemoryFence();
	uint pre = 0u;
	for (uint x2 = 0u; x2 < gl_SubgroupID; x2++) pre += wsum[64u * slot + x2];
	return pre + incl - x;
}

// countDigit counts the keys of digit d in tile j of src.
uint countDigit(uint j, uint d) {
	uint c = 0u;
	uint hi = min(j * TILE + TILE, amp.n);
	for (uint i = j * TILE; i < hi; i++) {
		c += ((sortKey(srcData[amp.src.base + i], amp.inType) >> amp.shift) & 255u) == d ? 1u : 0u;
	}
	return c;
}

// lookBack returns the count of digit t in the tiles before p, waiting for them to publish
// (or counting a tile itself after amp.spinLimit reads).
uint lookBack(uint t, uint p) {
	uint excl = 0u;
	uint j = p - 1u;
	for (uint spins = 0u;;) {
		uint s = state[amp.st.base + 1025u + j * 256u + t];
		if ((s & (AGG | INC)) == 0u) {
			if (++spins < amp.spinLimit) continue;
			s = AGG | countDigit(j, t);
		}
		excl += s & VALUE;
		if ((s & INC) != 0u || j == 0u) break;
		j--;
		spins = 0u;
	}
	return excl;
}

void main() {
	uint t = gl_LocalInvocationID.x;
	uint shift = amp.shift;
	uint w = gl_SubgroupID;
	uint l = gl_SubgroupInvocationID;
	uint S = gl_SubgroupSize;
	uint wbase = w * 128u;
	if (t == 0u) tileId = atomicAdd(state[amp.st.base + 1024u], 1u);
	for (uint i = l; i < 128u; i += S) wcnt[wbase + i] = 0u;
	ampWaitWithTileStaticMemoryFence();
	uint p = tileId;
	uint sub = p * TILE;
	uint len = min(TILE, amp.n - sub);
	uint first = w * S * KPT;
	uint keys[KPT];
	uint vs[KPT];
	[[unroll]] for (uint j = 0u; j < KPT; j++) {
		uint i = first + j * S + l;
		keys[j] = i < len ? sortKey(srcData[amp.src.base + sub + i], amp.inType) : 0u;
		if (amp.vals == 1u && i < len) vs[j] = srcVal[amp.sv.base + sub + i];
	}
	uint ranks[KPT];
	[[unroll]] for (uint j = 0u; j < KPT; j++) {
		bool valid = first + j * S + l < len;
		uint d = (keys[j] >> shift) & 255u;
		ranks[j] = rankInSubgroup(d, valid, wbase + (d >> 1), (d & 1u) * 16u);
	}
	ampWaitWithTileStaticMemoryFence();
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
	ampWaitWithTileStaticMemoryFence();
	uint c = tCnt[t];
	// Publish the tile's count of digit t, then find the digit's keys before the tile.
	uint slot = amp.st.base + 1025u + p * 256u + t;
	state[slot] = (p == 0u ? INC : AGG) | c;
	tStart[t] = groupExclusive(c, 0u);
	uint start = groupExclusive(state[amp.st.base + (shift >> 3) * 256u + t], 1u);
	if (p > 0u) {
		uint before = lookBack(t, p);
		state[slot] = INC | (before + c);
		start += before;
	}
	gOff[t] = start - tStart[t];
	ampWaitWithTileStaticMemoryFence();
	[[unroll]] for (uint j = 0u; j < KPT; j++) {
		if (first + j * S + l < len) {
			uint d = (keys[j] >> shift) & 255u;
			uint off = (wcnt[wbase + (d >> 1)] >> ((d & 1u) * 16u)) & 0xFFFFu;
			ranks[j] += tStart[d] + off; // now the key's place in sk
			sk[ranks[j]] = keys[j];
		}
	}
	ampWaitWithTileStaticMemoryFence();
	uint outAt[KPT]; // where sk[t + 256j] goes
	[[unroll]] for (uint j = 0u; j < KPT; j++) {
		uint i = t + 256u * j;
		if (i < len) {
			uint k = sk[i];
			outAt[j] = gOff[(k >> shift) & 255u] + i;
			dstData[amp.dst.base + outAt[j]] = sortElem(k, amp.outType);
		}
	}
	if (amp.vals != 0u) {
		ampWaitWithTileStaticMemoryFence();
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			uint i = first + j * S + l;
			if (i < len) sk[ranks[j]] = amp.vals == 1u ? vs[j] : sub + i;
		}
		ampWaitWithTileStaticMemoryFence();
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			uint i = t + 256u * j;
			if (i < len) dstVal[amp.dv.base + outAt[j]] = sk[i];
		}
	}
}
