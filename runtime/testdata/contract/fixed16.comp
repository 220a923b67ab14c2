#version 450
// Contract test (runtime/contract_test.go), tiled rank 2, written for 16x16 tiles only: a
// literal local size (no amp.glsl, whose local size is specialization constants).
// dst[g] = l0 * 16 + l1, the thread's rank in a 16x16 tile.
layout(local_size_x = 16, local_size_y = 16) in;
struct AmpView { uint base; uint s0; uint s1; uint pad; };
layout(std430, binding = 0) writeonly buffer AmpBuffer_dst { int dst[]; };
layout(push_constant) uniform AmpPush { uvec4 domain; AmpView out_; } amp;
void main() {
	ivec2 g = ivec2(gl_GlobalInvocationID.yx), l = ivec2(gl_LocalInvocationID.yx);
	dst[amp.out_.base + uint(g.x) * amp.out_.s0 + uint(g.y)] = l.x * 16 + l.y;
}
