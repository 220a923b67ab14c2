#version 450
// Hand-written: the kernel works on the raw 32-bit words of any element type (sort keys), a reinterpretation of a type parameter's bits that the kernel language cannot express.
// Radix sort, pass step 3: the stable scatter by digit (key >> amp.shift) & 255, without
// subgroup operations (sort_radix_scatter_sg.comp is the faster body for devices with
// subgroup ballots). Workgroup b of the 256-thread workgroups moves the keys of its block
// (b*blockLen .. min((b+1)*blockLen, n)-1 of src, blockLen a multiple of SUB) in order,
// SUB = 2048 keys at a time:
//   1. read the sub-tile's keys (coalesced) and put each key's digit d and position p in
//      the sub-tile into shared memory as d<<16 | p (past its end, digit 255), counting
//      the digits (shared atomics, per run of equal digits);
//   2. sort those words stably by digit in shared memory: 8 one-bit splits, thread t
//      owning words 8t .. 8t+7, each split a workgroup scan of the threads' zero counts;
//   3. scan the digit counts; the i-th word of the sorted sub-tile, for the key at p of
//      digit d, moves that key (read again, from the cache) to base[d] + i - start[d],
//      base[d] being the block's next position for digit d (the scanned histogram at
//      first); consecutive threads write consecutive positions. amp.vals says what moves
//      with the key: nothing (0), its value in srcVal (1), its index in src (2, Argsort).
// amp.interleave: bit 0, src holds keys and values interleaved (key i at word 2i, its value at
// 2i+1; srcVal is not read); bit 1, dst gets them so (dstVal is not written).
// src elements are mapped to keys by amp.inType, the keys written back to elements by
// amp.outType (algo typeCode; 1 is the identity). Go body: algo radixScatterKernel.
#extension GL_EXT_control_flow_attributes : require
#include "amp.glsl"
#include "sort_keys.glsl"
AMP_BUFFER(0, readonly, uint, srcData);
AMP_BUFFER(1, writeonly, uint, dstData);
AMP_BUFFER(2, readonly, uint, histData);
AMP_BUFFER(3, readonly, uint, srcVal);
AMP_BUFFER(4, writeonly, uint, dstVal);
AMP_PUSH_BEGIN AmpView src; AmpView dst; AmpView hist; AmpView sv; AmpView dv; uint n; uint shift;
	uint blockLen; int inType; int outType; uint vals; uint interleave; AMP_PUSH_END

#define SUB 2048u
#define KPT 8u

shared uint sk[2u * SUB];  // the sub-tile's digit<<16 | position words, the split's ping-pong halves
shared uint sc[512];       // the workgroup scan's ping-pong buffer
shared uint gBase[256];    // the block's next output position per digit
shared uint tCnt[256];     // the sub-tile's digit counts
shared uint tStart[256];   // their exclusive scan

// scan returns the exclusive prefix of x over the workgroup's threads and sets total.
uint scan(uint t, uint x, out uint total) {
	uint cur = 0u;
	sc[t] = x;
	ampWaitWithTileStaticMemoryFence();
	for (uint off = 1u; off < 256u; off <<= 1) {
		uint v = sc[cur + t];
		if (t >= off) v += sc[cur + t - off];
		sc[(cur ^ 256u) + t] = v;
		ampWaitWithTileStaticMemoryFence();
		cur ^= 256u;
	}
	uint incl = sc[cur + t];
	total = sc[cur + 255u];
	ampWaitWithTileStaticMemoryFence();
	return incl - x;
}

void main() {
	uint t = gl_LocalInvocationID.x;
	uint b = gl_WorkGroupID.x;
	uint shift = amp.shift;
	uint sstr = (amp.interleave & 1u) + 1u; // src words a key
	uint G = gl_NumWorkGroups.x;
	uint all;
	uint start = scan(t, histData[amp.hist.base + 256u * G + t], all);
	gBase[t] = histData[amp.hist.base + t * G + b] + start;
	uint lo = b * amp.blockLen;
	uint hi = min(lo + amp.blockLen, amp.n);
	for (uint sub = lo; sub < hi; sub += SUB) {
		uint len = min(SUB, hi - sub);
		tCnt[t] = 0u;
		ampWaitWithTileStaticMemoryFence();
		uint cur = 0u;
		uint run = 0u;
		[[unroll]] for (uint j = 0u; j < KPT; j++) {
			uint i = t + 256u * j;
			uint e = 0x00FF0000u | i;
			if (i < len) {
				uint d = (sortKey(srcData[amp.src.base + (sub + i) * sstr], amp.inType) >> shift) & 255u;
				e = (d << 16) | i;
				if (d != cur) {
					if (run != 0u) atomicAdd(tCnt[cur], run);
					cur = d;
					run = 0u;
				}
				run++;
			}
			sk[i] = e;
		}
		if (run != 0u) atomicAdd(tCnt[cur], run);
		ampWaitWithTileStaticMemoryFence();
		cur = 0u;
		for (uint bit = 16u; bit < 24u; bit++) {
			uint zeros = 0u;
			[[unroll]] for (uint j = 0u; j < KPT; j++) zeros += 1u - ((sk[cur + t * KPT + j] >> bit) & 1u);
			uint z;
			uint zp = scan(t, zeros, z);
			uint op = z + t * KPT - zp;
			uint other = cur ^ SUB;
			[[unroll]] for (uint j = 0u; j < KPT; j++) {
				uint k = sk[cur + t * KPT + j];
				if (((k >> bit) & 1u) == 0u) {
					sk[other + zp] = k;
					zp++;
				} else {
					sk[other + op] = k;
					op++;
				}
			}
			ampWaitWithTileStaticMemoryFence();
			cur = other;
		}
		tStart[t] = scan(t, tCnt[t], all);
		ampWaitWithTileStaticMemoryFence();
		for (uint i = t; i < len; i += 256u) {
			uint e = sk[i];
			uint d = e >> 16;
			uint p = sub + (e & 0xFFFFu);
			uint o = gBase[d] + i - tStart[d];
			uint k = sortElem(sortKey(srcData[amp.src.base + p * sstr], amp.inType), amp.outType);
			// The value, read only where there is one: without values (amp.vals 0) srcVal
			// is a view of one element, and its word p is outside it.
			uint v = p;
			if (amp.vals == 1u) v = (amp.interleave & 1u) != 0u ? srcData[amp.src.base + 2u * p + 1u] : srcVal[amp.sv.base + p];
			if ((amp.interleave & 2u) != 0u) {
				dstData[amp.dst.base + 2u * o] = k;
				dstData[amp.dst.base + 2u * o + 1u] = v;
			} else {
				dstData[amp.dst.base + o] = k;
				if (amp.vals != 0u) dstVal[amp.dv.base + o] = v;
			}
		}
		ampWaitWithTileStaticMemoryFence();
		gBase[t] += tCnt[t];
	}
}
