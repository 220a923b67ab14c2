#version 450
// Hand-written: its Go body shares radixTileScan with the scatter, a function given a tile_static array, which the kernel language does not allow (TileStatic only in the Tiled body).
// Radix sort, pass step 2: the exclusive scan, in place, of each row of the digit-major
// histogram of sort_radix_hist (row d: the amp.blocks counts of digit d). A team of
// amp.team threads (a power of two, at most 256: about a quarter of the blocks, so that
// small histograms take few workgroups) scans a row: thread i of the team sums its run
// of at most ceil(blocks/team) counts, a scan of the sums over the team (Hillis-Steele,
// segmented by team) gives the run's first prefix, and the thread rewrites its run. The
// row's total goes to hist[256 * blocks + d]; the scatter adds the exclusive scan of those
// totals (each digit's first position) to the blocks' prefixes. 256/team rows a
// workgroup of 256 threads. Go body: algo radixScanKernel.
#include "amp.glsl"
AMP_BUFFER(0, , uint, histData);
AMP_PUSH_BEGIN AmpView hist; uint blocks; uint team; AMP_PUSH_END

shared uint sc[512];

void main() {
	uint t = gl_LocalInvocationID.x;
	uint team = amp.team;
	uint G = amp.blocks;
	uint d = gl_WorkGroupID.x * (256u / team) + t / team;
	uint lt = t & (team - 1u);
	uint per = (G + team - 1u) / team;
	uint row = amp.hist.base + d * G;
	uint first = min(lt * per, G);
	uint last = min(first + per, G);
	uint s = 0u;
	for (uint i = first; i < last; i++) s += histData[row + i];
	uint cur = 0u;
	sc[t] = s;
	ampWaitWithTileStaticMemoryFence();
	for (uint off = 1u; off < team; off <<= 1) {
		uint v = sc[cur + t];
		if (lt >= off) v += sc[cur + t - off];
		sc[(cur ^ 256u) + t] = v;
		ampWaitWithTileStaticMemoryFence();
		cur ^= 256u;
	}
	uint incl = sc[cur + t];
	uint run = incl - s;
	for (uint i = first; i < last; i++) {
		uint c = histData[row + i];
		histData[row + i] = run;
		run += c;
	}
	if (lt == team - 1u) histData[amp.hist.base + 256u * G + d] = incl;
}
