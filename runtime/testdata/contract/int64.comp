#version 450
// Contract test (runtime/contract_test.go), non-tiled rank 1: v[i] = v[i] * 3 computed in
// 64-bit integers (in eighths), so that the module declares the Int64 capability.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "amp.glsl"
AMP_BUFFER(0, , float, v);
AMP_PUSH_BEGIN AmpView v_; AMP_PUSH_END
void main() {
	int i;
	if (!ampIndex1(i)) return;
	uint vi = ampAt1(amp.v_, i);
	v[vi] = float(int64_t(v[vi] * 8.0) * 3l) / 8.0;
}
