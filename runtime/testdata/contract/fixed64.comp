#version 450
// Contract test (runtime/contract_test.go), not tiled, rank 1, written with a literal local
// size of 64 (goamp's workgroup size of non-tiled dispatches before it became 256): the
// dispatcher runs it with workgroups of 64. dst[g] = g * 1000 + the thread's local index.
layout(local_size_x = 64) in;
struct AmpView { uint base; uint s0; uint s1; uint pad; };
layout(std430, binding = 0) writeonly buffer AmpBuffer_dst { int dst[]; };
layout(push_constant) uniform AmpPush { uvec4 domain; AmpView out_; } amp;
void main() {
	uint g = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u + gl_LocalInvocationID.x;
	if (g >= amp.domain.w) return;
	dst[amp.out_.base + g] = int(g) * 1000 + int(gl_LocalInvocationID.x);
}
