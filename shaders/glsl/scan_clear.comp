#version 450
// Zeroes the state of a single-pass scan (scan_lookback_body.glsl): element i of the domain
// sets state[off + i] to 0.
// Go body: shaders scanClearKernel.
#include "amp.glsl"
AMP_BUFFER(0, writeonly, uint, state);
AMP_PUSH_BEGIN AmpView state_; uint off; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) {
		return;
	}
	state[amp.state_.base + amp.off + uint(i)] = 0u;
}
