#version 450
// The window's frame pass (package window): one thread per pixel of the swapchain-sized
// buffer dst. Pixel (x, y) shows the source texel under it: the source (rows x cols,
// element (r, c) at src[base + r*stride + c]) is placed so that the window's corner is at
// source position (x0, y0), sx by sy source pixels per window pixel, nearest texel; outside
// it is black. A float32 field goes through the colormap (present.Color, the same
// arithmetic, `precise` so that no multiply-add is fused); packed RGBA8 is copied. The
// result is packed for the swapchain's format: RGBA8, or BGRA8 when bgra is set.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Push {
	uint rows, cols, stride, base;
	uint width, height, field, bgra;
	float lo, hi, x0, y0;
	float sx, sy;
} p;

const vec3 stops[8] = vec3[8](
	vec3(0, 0, 4), vec3(40, 11, 84), vec3(101, 21, 110), vec3(159, 42, 99),
	vec3(212, 72, 66), vec3(245, 125, 21), vec3(250, 193, 39), vec3(252, 255, 164));

uint color(float v) {
	precise float t;
	if (!(v > p.lo)) {
		t = 0.0;
	} else if (v >= p.hi) {
		t = 1.0;
	} else {
		t = (v - p.lo) / (p.hi - p.lo);
	}
	precise float x = t * 7.0;
	int i = min(int(x), 6);
	precise float f = x - float(i);
	uint c = 0xff000000u;
	for (int k = 0; k < 3; k++) {
		precise float d = stops[i + 1][k] - stops[i][k];
		precise float e = f * d;
		precise float g = stops[i][k] + e;
		precise float h = g + 0.5;
		c |= uint(h) << (8 * k);
	}
	return c;
}

void main() {
	uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
	if (x >= p.width || y >= p.height) {
		return;
	}
	float fx = p.x0 + (float(x) + 0.5) * p.sx;
	float fy = p.y0 + (float(y) + 0.5) * p.sy;
	uint px = 0xff000000u;
	if (fx >= 0.0 && fy >= 0.0 && fx < float(p.cols) && fy < float(p.rows)) {
		uint w = src[p.base + uint(fy) * p.stride + uint(fx)];
		px = p.field != 0u ? color(uintBitsToFloat(w)) : w;
	}
	if (p.bgra != 0u) {
		px = (px & 0xff00ff00u) | ((px & 0xffu) << 16) | ((px >> 16) & 0xffu);
	}
	dst[y * p.width + x] = px;
}
