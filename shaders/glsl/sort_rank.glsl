// Hand-written: subgroup ballots and shuffles, which the kernel language cannot express.
// The radix sorts' ranking of a subgroup's keys by digit (warp-level multi-split), shared
// by sort_radix_scatter_sg.comp and sort_local.glsl, which declare the
// per-subgroup digit counters `shared uint wcnt[]` (two 16-bit counters a word) before
// including it, and their scan (scanDigitCounts) for workgroups of several subgroups; the
// subgroup extensions it needs they enable by including sort_sg.glsl first.
// Eight ballots, one per bit of the digit, find the invocations with the same digit.
// NVIDIA's subgroupPartitionNV does it in one operation, but the sorts that used it were
// 7-15% slower on the H100 (2026-11-23, RESULTS.md), so it is not used.
//
// The includers size their per-subgroup counters for the subgroups a workgroup has at the
// device's reported subgroup size (MAXSG; algo chooses the programs by
// accelerator.SubgroupSize). The Vulkan specification fixes SubgroupSize to that size for
// SPIR-V before 1.6 in a pipeline created without
// VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT or a required size: how
// these programs are built (glslc --target-env=vulkan1.1, SPIR-V 1.3; shaders_test checks
// the version) and created. Moving to SPIR-V 1.6 would let a device vary it, and would
// need the size pinned (requiredSubgroupSize) first.

// rankInSubgroup returns the rank of this invocation's key, of digit d, among the keys of
// its subgroup with that digit that come before it: those counted by earlier calls (in
// the 16-bit counter of wcnt[at] at bit sh) and those of lower invocations in this call.
// The lowest invocation of each digit adds the digit's keys of this call to the counter
// and passes the old count to the others by a shuffle, so that the calls need no
// barrier between them. Every invocation of the subgroup calls it; invalid ones (valid
// false) count nothing and get an undefined rank.
uint rankInSubgroup(uint d, bool valid, uint at, uint sh) {
	uvec4 peers = subgroupBallot(valid);
	[[unroll]] for (uint bit = 0u; bit < 8u; bit++) {
		bool on = ((d >> bit) & 1u) != 0u;
		uvec4 v = subgroupBallot(on);
		peers &= on ? v : ~v;
	}
	uint leader = subgroupBallotFindLSB(peers);
	uint old = 0u;
	if (valid && leader == gl_SubgroupInvocationID) old = atomicAdd(wcnt[at], subgroupBallotBitCount(peers) << sh);
	old = subgroupShuffle(old, leader);
	return ((old >> sh) & 0xFFFFu) + subgroupBallotExclusiveBitCount(peers);
}

#ifdef PARTS
// scanDigitCounts replaces the subgroups' digit counts in wcnt (a row of 128 words per
// subgroup, two 16-bit counts a word) by each subgroup's exclusive offsets within its
// digits, and writes the workgroup's count of each digit to tCnt. PARTS invocations take
// a word each (the includer declares PARTS, its workgroup's invocations / 128, and shared
// uint wpart[PARTS * 128u]), each over a run of the subgroups, and add both 16-bit counts
// at once (no carry crosses: the counts stay below 65536), so that the chain is
// subgroups/PARTS long instead of one invocation's walk over every subgroup (on the H200
// the local sort of 2^28 pairs took 4.2 ms with it, 5.7 with the walk). Every invocation
// of the workgroup calls it after the counts are complete; it waits once itself, and
// tCnt and wcnt are ready after the next barrier.
void scanDigitCounts() {
	uint t = gl_LocalInvocationID.x;
	uint cw = t & 127u, q = t >> 7;
	uint per = (gl_NumSubgroups + PARTS - 1u) / PARTS;
	uint x0 = min(q * per, gl_NumSubgroups), x1 = min(x0 + per, gl_NumSubgroups);
	uint sum = 0u;
	for (uint x = x0; x < x1; x++) sum += wcnt[x * 128u + cw];
	wpart[t] = sum;
	ampWaitWithTileStaticMemoryFence();
	uint r = 0u;
	for (uint p = 0u; p < q; p++) r += wpart[p * 128u + cw];
	for (uint x = x0; x < x1; x++) {
		uint v = wcnt[x * 128u + cw];
		wcnt[x * 128u + cw] = r;
		r += v;
	}
	if (q == PARTS - 1u) {
		tCnt[2u * cw] = r & 0xFFFFu;
		tCnt[2u * cw + 1u] = r >> 16;
	}
}
#endif
