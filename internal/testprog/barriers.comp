#version 450
// Test kernel (runtime tests), tiled rank 1: the four tile barriers. Each thread writes its
// input to shared memory and to a coherent global scratch buffer, passes the barrier chosen
// by kind (0 wait, 1 all memory, 2 global memory, 3 tile_static memory), then reads its
// mirror thread's values from the memory that barrier fences:
// dst[g] = (shared ? s[n-1-l] : 0) + (global ? scratch[origin+n-1-l] * 1000 : 0).
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, src);
AMP_BUFFER(1, coherent, int, scratch);
AMP_BUFFER(2, writeonly, int, dst);
AMP_PUSH_BEGIN AmpView a; AmpView sc; AmpView b; int kind; AMP_PUSH_END
shared int s[gl_WorkGroupSize.x];
void main() {
	int g = ampGlobal1();
	int l = ampLocal1();
	int n = ampTileExtent1();
	int v = src[ampAt1(amp.a, g)];
	s[l] = v;
	scratch[ampAt1(amp.sc, g)] = v;
	// The free fences order this thread's own accesses; they do not synchronize.
	ampAllMemoryFence();
	ampGlobalMemoryFence();
	ampTileStaticMemoryFence();
	int kind = amp.kind; // dynamically uniform: every thread takes the same branch
	if (kind == 0) {
		ampBarrierWait();
	} else if (kind == 1) {
		ampWaitWithAllMemoryFence();
	} else if (kind == 2) {
		ampWaitWithGlobalMemoryFence();
	} else {
		ampWaitWithTileStaticMemoryFence();
	}
	int r = 0;
	if (kind != 2) r += s[n - 1 - l];
	if (kind != 3) r += scratch[ampAt1(amp.sc, ampTileOrigin1() + n - 1 - l)] * 1000;
	dst[ampAt1(amp.b, g)] = r;
}
