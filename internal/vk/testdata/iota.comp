#version 450
// Test shader for internal/vk: out[i] = in[i] * scale + i, for i < n.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer In { uint src[]; };
layout(std430, binding = 1) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform Push { uint n; uint scale; } pc;
void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i < pc.n) dst[i] = src[i] * pc.scale + i;
}
