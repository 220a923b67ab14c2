#version 450
// Contract test (runtime/contract_test.go), non-tiled rank 1: v[i] = v[i] * 3 computed in
// double precision, so that the module declares the Float64 capability.
#include "amp.glsl"
AMP_BUFFER(0, , float, v);
AMP_PUSH_BEGIN AmpView v_; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint vi = ampAt1(amp.v_, i);
	v[vi] = float(double(v[vi]) * 3.0lf);
}
