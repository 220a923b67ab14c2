// Hand-written: subgroup ballots and shuffles, which the kernel language cannot express.
// The radix sorts' ranking of a subgroup's keys by digit (warp-level multi-split), shared
// by sort_radix_scatter_sg.comp and sort_onesweep.glsl, which declare the per-subgroup
// digit counters `shared uint wcnt[]` (two 16-bit counters a word) before including it.
// Eight ballots, one per bit of the digit, find the invocations with the same digit.
// NVIDIA's subgroupPartitionNV does it in one operation, but the sorts that used it were
// 7-15% slower on the H100 (2026-11-23, RESULTS.md), so it is not used.

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
