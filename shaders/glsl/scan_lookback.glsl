#version 450
#ifdef SUBGROUPS
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
// Hand-written: the decoupled look-back spin-waits on flags that other workgroups publish and reads the raw bits of any element type, which the kernel language cannot express.
// The single-pass scan programs (InclusiveScan and ExclusiveScan of int32, uint32 or
// float32 on a GPU), compiled four times (variants.txt: scan_lookback_u, _f, _sg_u and
// _sg_f, by the macros below): a chained scan with decoupled look-back (Merrill and
// Garland) and a decoupled fallback (Levien), which reads and writes the data once.
//
// Tiled 1-D; each workgroup takes a ticket, g, from an atomic counter (so that a workgroup
// only ever waits for workgroups that started before it) and scans block g, the 16*size
// elements from element g*16*size of in (element i is in[inOff + i], n elements), into out
// (element i is out[outOff + i]). Within the block the layout is scan_sg.comp's: ROWS rows of
// size vec4s, thread l owning the vec4 l of each row (coalesced 16-byte loads and stores
// when in and out are 16-byte aligned, else the same elements one at a time), and the
// workgroup scans the threads' row sums, all rows at once as one vec4.
//
// The state view, from state[stateOff] (zeroed by algo scanClearKernel before the dispatch),
// holds the ticket counter and 4 words per block: its inclusive prefix (the sum of the
// blocks up to it) at 1 + 4g and its aggregate (its own sum) at 3 + 4g, each value split
// into two words of 16 bits with bit 31 set, so that a reader that sees both flags has the
// whole value without relying on the ordering of writes to different words. A workgroup
// publishes its aggregate (block 0: its inclusive prefix), then looks back over the blocks
// before it, adding aggregates until it finds an inclusive prefix; then it publishes its
// own inclusive prefix and writes its block with the prefix added. Vulkan promises no
// forward progress to a workgroup waiting for another, so a block that stays unpublished
// for amp.spinLimit reads is reduced from in by the waiting workgroup itself. That read of
// another block's input is why in and out must not be the same buffer range (in-place
// scans take the multi-pass path, algo scanKernel).
//
// The macros choose the program: FLOAT (float32 sums, else 32-bit integer sums, which wrap
// and are the same bits for int32 and uint32) and SUBGROUPS (the workgroup scan and the
// look-back by subgroup operations: the first subgroup reads the states of gl_SubgroupSize
// blocks at once; else in shared memory and one block at a time by thread 0).
// Go body: algo scanLBKernel.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, src);
AMP_BUFFER(0, readonly, uvec4, src4); // the same buffer, 16 bytes at a time
AMP_BUFFER(1, writeonly, uint, dst);
AMP_BUFFER(1, writeonly, uvec4, dst4);
AMP_BUFFER(2, volatile, uint, state); // volatile implies coherent (glslang decorates both; "coherent volatile" decorated Coherent twice, which newer spirv-val rejects)
AMP_PUSH_BEGIN AmpView in_; AmpView out_; AmpView state_;
	uint n; uint inOff; uint outOff; uint stateOff; int exclusive; uint spinLimit;
AMP_PUSH_END

#ifdef FLOAT
#define T float
#define V vec4
#define CS uintBitsToFloat
#define CV uintBitsToFloat
#define TB floatBitsToUint
#define VB floatBitsToUint
#else
#define T uint
#define V uvec4
#define CS uint
#define CV uvec4
#define TB uint
#define VB uvec4
#endif

#define ROWS 4u // vec4s per thread: 16 elements per thread (algo scanEPT)

shared uvec4 part[gl_WorkGroupSize.x + 1u];
shared uint lbTicket; // the block this workgroup scans
shared uint lbPrefix; // the look-back's sum so far (raw bits)
shared uint lbJ;      // the blocks [lbJ, ticket) are in lbPrefix
shared uint lbDone;   // 1: lbPrefix is the block's prefix; 0: reduce block lbJ-1 from in

// publish stores v in the two state words from index w.
void publish(uint w, T v) {
	uint b = TB(v);
	state[w] = 0x80000000u | (b & 0xffffu);
	state[w + 1u] = 0x80000000u | (b >> 16);
}

// peek reads the value at state index w into v and reports whether it is published.
bool peek(uint w, out T v) {
	uint a = state[w];
	uint b = state[w + 1u];
	v = CS((a & 0xffffu) | (b << 16));
	return (a & b & 0x80000000u) != 0u;
}

// loadRows reads this thread's vec4 of each row of the block that starts at element first
// (zeros past n) and returns the row sums.
V loadRows(uint first, out V x[ROWS]) {
	uint l = gl_LocalInvocationID.x;
	uint ib = amp.in_.base + amp.inOff;
	bool vec = ((ib | amp.out_.base + amp.outOff) & 3u) == 0u;
	V total;
	for (uint r = 0u; r < ROWS; r++) {
		uint e = first + 4u * (r * gl_WorkGroupSize.x + l);
		if (vec && e + 3u < amp.n) {
			x[r] = CV(src4[(ib + e) >> 2]);
		} else {
			for (uint c = 0u; c < 4u; c++) {
				x[r][c] = e + c < amp.n ? CS(src[ib + e + c]) : T(0);
			}
		}
		total[r] = (x[r].x + x[r].y) + (x[r].z + x[r].w);
	}
	return total;
}

// blockSum is the sum of a block from its row sums.
T blockSum(V sums) { return ((sums.x + sums.y) + sums.z) + sums.w; }

#ifdef SUBGROUPS
// groupScan returns the sum of the totals of the threads before this one in the workgroup,
// component by component, and in sums the sum of every thread's.
V groupScan(V total, out V sums) {
	V before = subgroupExclusiveAdd(total);
	V sum = subgroupAdd(total);
	if (gl_SubgroupInvocationID == 0u) {
		part[gl_SubgroupID] = VB(sum);
	}
	ampWaitWithTileStaticMemoryFence();
	if (gl_SubgroupID == 0u) {
		V carry = V(0);
		for (uint b = 0u; b < gl_NumSubgroups; b += gl_SubgroupSize) {
			uint j = b + gl_SubgroupInvocationID;
			V v = j < gl_NumSubgroups ? CV(part[j]) : V(0);
			V e = subgroupExclusiveAdd(v);
			if (j < gl_NumSubgroups) {
				part[j] = VB(carry + e);
			}
			carry += subgroupAdd(v);
		}
		if (gl_SubgroupInvocationID == 0u) {
			part[gl_NumSubgroups] = VB(carry);
		}
	}
	ampWaitWithTileStaticMemoryFence();
	sums = CV(part[gl_NumSubgroups]);
	return CV(part[gl_SubgroupID]) + before;
}

// lookThread reports whether this thread takes part in the look-back: the first subgroup,
// lane i reading the state of block j-1-i.
bool lookThread() {
	return gl_SubgroupID == 0u;
}

// lookWriter reports whether this look-back thread stores its result: lane 0.
bool lookWriter() {
	return gl_SubgroupInvocationID == 0u;
}

// lookRound reads the states of the gl_SubgroupSize blocks before block j > 0 at once: it
// adds the aggregates of the published blocks to prefix up to the nearest inclusive prefix
// (then it adds that too and returns true), moving j past them (spins back to 0, or one
// more round when block j-1 is unpublished).
bool lookRound(uint s, inout uint j, inout T prefix, inout uint spins) {
	uint lane = gl_SubgroupInvocationID;
	// st: 2 inclusive prefix, 1 aggregate, 0 unpublished, 3 no such block (past block 0,
	// which publishes its inclusive prefix: such lanes never count).
	uint st = 3u;
	T v = T(0);
	if (lane < j) {
		uint b = j - 1u - lane;
		st = peek(s + 1u + 4u * b, v) ? 2u : peek(s + 3u + 4u * b, v) ? 1u : 0u;
	}
	uint fi = subgroupMin(st == 2u ? lane : gl_SubgroupSize);
	uint fn = subgroupMin(st == 0u ? lane : gl_SubgroupSize);
	if (fn < fi) { // lanes [0, fn) hold aggregates; block j-1-fn is unpublished
		prefix += subgroupAdd(lane < fn ? v : T(0));
		j -= fn;
		spins = fn > 0u ? 0u : spins + 1u;
		return false;
	}
	// Lanes [0, fi] are published (fi < size: lane fi holds an inclusive prefix), or all
	// lanes hold aggregates (fi == fn == size).
	prefix += subgroupAdd(lane <= fi ? v : T(0));
	if (fi < gl_SubgroupSize) {
		return true;
	}
	j -= gl_SubgroupSize;
	return false;
}
#else
// groupScan returns the sum of the totals of the threads before this one in the workgroup,
// component by component, and in sums the sum of every thread's (Hillis-Steele).
V groupScan(V total, out V sums) {
	uint l = gl_LocalInvocationID.x;
	part[l] = VB(total);
	ampWaitWithTileStaticMemoryFence();
	for (uint d = 1u; d < gl_WorkGroupSize.x; d <<= 1) {
		V v = l >= d ? CV(part[l - d]) : V(0);
		ampWaitWithTileStaticMemoryFence();
		part[l] = VB(CV(part[l]) + v);
		ampWaitWithTileStaticMemoryFence();
	}
	sums = CV(part[gl_WorkGroupSize.x - 1u]);
	return l > 0u ? CV(part[l - 1u]) : V(0);
}

// lookThread reports whether this thread takes part in the look-back: thread 0 alone.
bool lookThread() {
	return gl_LocalInvocationID.x == 0u;
}

// lookWriter reports whether this look-back thread stores its result: thread 0 is the only one.
bool lookWriter() {
	return true;
}

// lookRound reads the state of block j-1 (j > 0): an inclusive prefix is added to prefix
// (it returns true), an aggregate too, moving j to j-1 (spins back to 0); an unpublished
// block counts one more spin.
bool lookRound(uint s, inout uint j, inout T prefix, inout uint spins) {
	T v;
	uint b = j - 1u;
	if (peek(s + 1u + 4u * b, v)) {
		prefix += v;
		return true;
	}
	if (peek(s + 3u + 4u * b, v)) {
		prefix += v;
		j = b;
		spins = 0u;
	} else {
		spins++;
	}
	return false;
}
#endif

// lookStep continues the look-back from lbJ in the look-back threads (lookThread), one
// lookRound at a time: it adds the aggregates of the published blocks to lbPrefix up to the
// nearest inclusive prefix (lbDone = 1), or stops at a block left unpublished for
// amp.spinLimit rounds (lbDone = 0).
void lookStep(uint s) {
	if (!lookThread()) {
		return;
	}
	uint j = lbJ;
	T prefix = CS(lbPrefix);
	uint done = 0u;
	for (uint spins = 0u;;) {
		if (j == 0u) { // after the fallback reduced block 0
			done = 1u;
			break;
		}
		if (spins >= amp.spinLimit) {
			break;
		}
		if (lookRound(s, j, prefix, spins)) {
			done = 1u;
			break;
		}
	}
	if (lookWriter()) {
		lbPrefix = TB(prefix);
		lbJ = j;
		lbDone = done;
	}
}

// lookBack returns the sum of the blocks before block g > 0 (every thread calls it).
T lookBack(uint s, uint g) {
	if (gl_LocalInvocationID.x == 0u) {
		lbPrefix = TB(T(0));
		lbJ = g;
	}
	ampWaitWithTileStaticMemoryFence();
	for (;;) {
		lookStep(s);
		ampWaitWithTileStaticMemoryFence();
		if (lbDone != 0u) {
			break;
		}
		// The fallback: block lbJ-1's sum from in.
		uint b = lbJ - 1u;
		V x[ROWS];
		V sums;
		groupScan(loadRows(b * gl_WorkGroupSize.x * 4u * ROWS, x), sums);
		if (gl_LocalInvocationID.x == 0u) {
			lbPrefix = TB(CS(lbPrefix) + blockSum(sums));
			lbJ = b;
		}
		ampWaitWithTileStaticMemoryFence();
	}
	return CS(lbPrefix);
}

void main() {
	uint l = gl_LocalInvocationID.x;
	uint s = amp.state_.base + amp.stateOff;
	if (l == 0u) {
		lbTicket = atomicAdd(state[s], 1u);
	}
	ampWaitWithTileStaticMemoryFence();
	uint g = lbTicket;
	uint first = g * gl_WorkGroupSize.x * 4u * ROWS;
	V x[ROWS];
	V sums;
	V before = groupScan(loadRows(first, x), sums);
	T agg = blockSum(sums);
	if (l == 0u) {
		publish(s + (g == 0u ? 1u : 3u) + 4u * g, agg);
	}
	T run = T(0);
	if (g > 0u) {
		run = lookBack(s, g);
		if (l == 0u) {
			publish(s + 1u + 4u * g, run + agg);
		}
	}
	uint ob = amp.out_.base + amp.outOff;
	bool vec = ((amp.in_.base + amp.inOff | ob) & 3u) == 0u;
	for (uint r = 0u; r < ROWS; r++) {
		T acc = run + before[r];
		V y;
		for (uint c = 0u; c < 4u; c++) {
			T v = x[r][c];
			if (amp.exclusive != 0) {
				y[c] = acc;
				acc += v;
			} else {
				acc += v;
				y[c] = acc;
			}
		}
		run += sums[r];
		uint e = first + 4u * (r * gl_WorkGroupSize.x + l);
		if (vec && e + 3u < amp.n) {
			dst4[(ob + e) >> 2] = VB(y);
		} else {
			for (uint c = 0u; c < 4u; c++) {
				if (e + c < amp.n) {
					dst[ob + e + c] = TB(y[c]);
				}
			}
		}
	}
}
