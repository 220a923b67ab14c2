#version 450
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4466], 4461, 32);
layout(constant_id = 3) const uint AMP_RANKS = 1u;
const uint ampRank = AMP_RANKS & 3u;
layout(std430, binding = 2) coherent buffer AmpBuffer2 { float ampV_W[]; };
struct AmpView { uint base; uint s0; uint s1; uint e0; };
layout(push_constant) uniform AmpPush {
	AmpView In1;
	AmpView W;
	AmpView Out;
	int R;
} amp;
float ampHalfToFloat(uint h) {
	uint s = (h & 0x8000u) << 16;
	uint m = h & 0x3ffu;
	int p = findMSB(m); // a subnormal, m * 2^-24: normalize
	return uintBitsToFloat(s | (uint(p + 103) << 23) | ((m << uint(23 - p)) & 0x7fffffu));
}
uint ampFloatToHalf(float f) {
	uint b = floatBitsToUint(f);
	uint s = (b >> 16) & 0x8000u;
	int e = int((b >> 23) & 0xffu);
	if (e >= 113) {
	} else {
		return s;
	}
}
float ampMin(float x, float y) {
	return (floatBitsToUint(x) & 0x80000000u) != 0u ? x : y;
}
double ampMin(double x, double y) {
	return (unpackDouble2x32(x).y & 0x80000000u) != 0u ? x : y;
}
double ampMathMin(double x, double y) {
	return isinf(x) && x < 0.0lf ? x : isinf(y) && y < 0.0lf ? y : ampMin(x, y);
}
int ampRem(int a, int b) { return b == -1 ? 0 : a - b * (a / b); }
ivec3 ampFromXYZ(uvec3 v) {
	return ampRank == 1u ? ivec3(int(v.x), 0, 0) : ampRank == 2u ? ivec3(int(v.y), int(v.x), 0) : ivec3(v.zyx);
}
ivec3 ampGlobal() { return ampFromXYZ(gl_GlobalInvocationID); }
ivec3 ampLocal() { return ampFromXYZ(gl_LocalInvocationID); }
const uint ampR2 = (AMP_RANKS >> 6u) & 3u;
uint ampAt2(ivec3 i) { return amp.W.base + (ampR2 == 1u ? uint(i.x) : ampR2 == 2u ? uint(i.x) * amp.W.s0 + uint(i.y) : uint(i.x) * amp.W.s0 + uint(i.y) * amp.W.s1 + uint(i.z)); }
int ampF_pick_int32(bool c, int a, int b) {
	return b;
}
float ampF_ftz_float32(float x) {
	return x;
}
float ampF_f2i_float32_uint32(float x) {
	return 0.0;
}
double ampF_nc_float64(double x) {
	return x;
}
float ampF_nc_float32(float x) {
	return x;
}
int ampF_nz_int32(int x) {
	return x;
}
int ampF_nc_int8(int x) {
	return x;
}
void ampF_k640870657179_h0(uint p0, out int ampRes0, out double ampRes1) {
}
void main() {
	ivec3 i = ampGlobal();
	int v0 = amp.R;
	float v1 = trunc(floor(ampV_W[ampAt2(i)]));
	if (false) {
		{
			uint ampT1 = (uint(ampF_f2i_float32_uint32(ampF_ftz_float32(float(ampF_nc_float64(1.6777217e+07lf))))) & 3u);
			do {
			} while (false);
		}
	} else {
		{
			if ((((ampMathMin(1.0e+300lf, 0.5lf) < 2.5lf)))) {
				{
					int ampT6 = (((v0 & ~(ampRem(amp.R, ampF_nz_int32((-2147483647 - 1)))))) & 3);
					if ((ampT6 == 1)) {
						v1 = ampHalfToFloat(ampFloatToHalf(((ampF_nc_float32(2.5) - ampV_W[ampAt2(i)]))));
					}
				}
			}
		}
	}
	int ampT7;
	double ampT8;
	ampF_k640870657179_h0(ampFloatToHalf(3.0e+38), ampT7, ampT8);
}