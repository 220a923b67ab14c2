#version 450
// Contract test (runtime/contract_test.go), tiled rank 1, with 40,000 bytes of shared
// memory (more than lavapipe's 32 KiB): dst[g] = the global index of the mirror thread of
// the tile.
#include "amp.glsl"
AMP_BUFFER(0, writeonly, int, dst);
AMP_PUSH_BEGIN AmpView out_; AMP_PUSH_END
shared int big[10000];
void main() {
	int g = ampGlobal1(), l = ampLocal1(), n = ampTileExtent1();
	big[l * 10] = g;
	ampBarrierWait();
	dst[ampAt1(amp.out_, g)] = big[(n - 1 - l) * 10];
}
