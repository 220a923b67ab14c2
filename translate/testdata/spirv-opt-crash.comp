#version 450
// The kernel fuzzer's seed 6107148 (finite), as ampgen wrote it: Debian bookworm's glslc -O and spirv-opt -O crash (SIGSEGV) on it; glslc without -O compiles it.
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4466], 4461, 32);
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
// AMP_RANKS: bits 0-1 the domain's rank, bits 2+2k the rank of data argument k.
layout(constant_id = 3) const uint AMP_RANKS = 1u;
const uint ampRank = AMP_RANKS & 3u;
layout(std430, binding = 0) readonly buffer AmpBuffer0 { uint16_t ampV_In0[]; };
layout(std430, binding = 1) readonly buffer AmpBuffer1 { int ampV_In1[]; };
layout(std430, binding = 2) buffer AmpBuffer2 { uint ampV_Out[]; };
struct AmpView { uint base; uint s0; uint s1; uint e0; };
layout(push_constant) uniform AmpPush {
	uvec4 domain;
	AmpView In0;
	AmpView In1;
	AmpView Out;
	int R;
} amp;
double ampInf(int s) { return packDouble2x32(uvec2(0u, s >= 0 ? 0x7ff00000u : 0xfff00000u)); }
double ampNaN() { return packDouble2x32(uvec2(1u, 0x7ff80000u)); }
float ampInf32(int s) { return uintBitsToFloat(s >= 0 ? 0x7f800000u : 0xff800000u); }
float ampNaN32() { return uintBitsToFloat(0x7fc00000u); }
bool ampIsInf(double f, int s) { return s >= 0 && f > 1.7976931348623157e308lf || s <= 0 && f < -1.7976931348623157e308lf; }
bool ampSignbit(double x) { return (unpackDouble2x32(x).y & 0x80000000u) != 0u; }
double ampCopysign(double f, double s) {
	uvec2 a = unpackDouble2x32(f);
	return packDouble2x32(uvec2(a.x, (a.y & 0x7fffffffu) | (unpackDouble2x32(s).y & 0x80000000u)));
}
uint ampLinearIndex() {
	return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}
ivec3 ampDelinearize(uint n) {
	if (ampRank == 1u) return ivec3(int(n), 0, 0);
	if (ampRank == 2u) return ivec3(int(n / amp.domain.y), int(n % amp.domain.y), 0);
	uint t = n / amp.domain.z;
	return ivec3(int(t / amp.domain.y), int(t % amp.domain.y), int(n % amp.domain.z));
}
float ampMin(float x, float y) {
	if (isnan(y) || y < x) return y;
	if (isnan(x) || x < y || x != 0.0) return x;
	return (floatBitsToUint(x) & 0x80000000u) != 0u ? x : y;
}
float ampMax(float x, float y) {
	if (isnan(y) || y > x) return y;
	if (isnan(x) || x > y || x != 0.0) return x;
	return (floatBitsToUint(x) & 0x80000000u) == 0u ? x : y;
}
double ampMin(double x, double y) {
	if (isnan(y) || y < x) return y;
	if (isnan(x) || x < y || x != 0.0lf) return x;
	return (unpackDouble2x32(x).y & 0x80000000u) != 0u ? x : y;
}
double ampMax(double x, double y) {
	if (isnan(y) || y > x) return y;
	if (isnan(x) || x > y || x != 0.0lf) return x;
	return (unpackDouble2x32(x).y & 0x80000000u) == 0u ? x : y;
}
int ampMinI(int x, int y) { return y < x ? y : x; }
uint ampMinI(uint x, uint y) { return y < x ? y : x; }
int ampMaxI(int x, int y) { return y > x ? y : x; }
uint ampMaxI(uint x, uint y) { return y > x ? y : x; }
float ampMulR(float a, float b) { precise float p = a * b; return p; }
double ampMulR(double a, double b) { precise double p = a * b; return p; }
int ampDiv(int a, int b) { return b == -1 ? -a : a / b; }
int ampRem(int a, int b) { return b == -1 ? 0 : a - b * (a / b); }
int ampShl(int x, uint s) { return s >= 32u ? 0 : x << s; }
uint ampShl(uint x, uint s) { return s >= 32u ? 0u : x << s; }
int ampShr(int x, uint s) { return x >> (s < 31u ? s : 31u); }
uint ampShr(uint x, uint s) { return s >= 32u ? 0u : x >> s; }
const uint ampR0 = (AMP_RANKS >> 2u) & 3u;
uint ampAt0(ivec3 i) { return amp.In0.base + (ampR0 == 1u ? uint(i.x) : ampR0 == 2u ? uint(i.x) * amp.In0.s0 + uint(i.y) : uint(i.x) * amp.In0.s0 + uint(i.y) * amp.In0.s1 + uint(i.z)); }
const uint ampR1 = (AMP_RANKS >> 4u) & 3u;
uint ampAt1(ivec3 i) { return amp.In1.base + (ampR1 == 1u ? uint(i.x) : ampR1 == 2u ? uint(i.x) * amp.In1.s0 + uint(i.y) : uint(i.x) * amp.In1.s0 + uint(i.y) * amp.In1.s1 + uint(i.z)); }
const uint ampR2 = (AMP_RANKS >> 6u) & 3u;
uint ampAt2(ivec3 i) { return amp.Out.base + (ampR2 == 1u ? uint(i.x) : ampR2 == 2u ? uint(i.x) * amp.Out.s0 + uint(i.y) : uint(i.x) * amp.Out.s0 + uint(i.y) * amp.Out.s1 + uint(i.z)); }
int ampF_nc_int32(int x) {
	return x;
}
int ampF_nc_int8(int x) {
	return x;
}
uint ampF_nc_uint8(uint x) {
	return x;
}
uint ampF_nc_uint32(uint x) {
	return x;
}
int ampF_nz_int32(int x) {
	if ((x == 0)) {
		return 1;
	}
	return x;
}
int ampF_pick_int32(bool c, int a, int b) {
	if (c) {
		return a;
	}
	return b;
}
int ampF_nc_int16(int x) {
	return x;
}
float ampF_ftz_float32(float x) {
	if (((x > (-1.0000000031710769e-30)) && (x < 1.0000000031710769e-30))) {
		return 0.0;
	}
	return x;
}
float ampF_nc_float32(float x) {
	return x;
}
double ampF_f2i_float64_int16(double x) {
	if (((x > (-32769.0lf)) && (x < 32768.0lf))) {
		return x;
	}
	return 0.0lf;
}
bool ampF_pick_bool(bool c, bool a, bool b) {
	if (c) {
		return a;
	}
	return b;
}
bool ampF_k6107148_h0(uint p0, int p1) {
	bool x = false;
	int ampT1 = 0;
	for (int j0 = 0; (j0 < 2); j0 = (j0 + 1)) {
		{
			int ampT2 = -1;
			if (ampT2 == -1 && (((!((x || x)))))) { ampT2 = 0; }
			if (ampT2 == -1 && (((!x)))) { ampT2 = 1; }
			if (ampT2 == -1 && ((((bitfieldExtract((~(ampF_nc_uint8(255u))), 0, 8) >= 6u))))) { ampT2 = 2; }
			if (ampT2 == 0) {
				x = ((x && x));
				for (int j1 = 0; (j1 < 3); j1 = (j1 + 2)) {
					p0 = (ampShr(((p0 | p0)), uint(((bitfieldExtract(((p0 ^ p0)), 0, 8) & 7u)))));
					x = x;
					p1 = (p1 & 4);
				}
				ampT2 = 1;
			}
			if (ampT2 == 1) {
				if (isinf(1.0000000150474662e+30)) {
					break;
				}
				ampT2 = 2;
			}
			if (ampT2 == 2) {
				p0 = (p0 + (ampShl(ampF_nc_uint8(22u), uint(((int(((ampF_nc_uint32(4294967293u) & p0))) & 63))))));
			}
		}
	}
	x = x;
	return ampF_pick_bool(ampIsInf(1.0e+30lf, (-1)), x, true);
}
uint ampF_pick_uint8(bool c, uint a, uint b) {
	if (c) {
		return a;
	}
	return b;
}
uint ampF_nz_uint8(uint x) {
	if ((x == 0u)) {
		return 1u;
	}
	return x;
}
float ampF_fin_float32(float x) {
	if ((!((x > (-1.0000000150474662e+30))))) {
		return (-1.0000000150474662e+30);
	}
	if ((!((x < 1.0000000150474662e+30)))) {
		return 1.0000000150474662e+30;
	}
	return ampF_ftz_float32(x);
}
int ampF_pick_int8(bool c, int a, int b) {
	if (c) {
		return a;
	}
	return b;
}
float ampF_f2i_float32_int8(float x) {
	if (((x > (-129.0)) && (x < 128.0))) {
		return x;
	}
	return 0.0;
}
int ampF_pick_int16(bool c, int a, int b) {
	if (c) {
		return a;
	}
	return b;
}
double ampF_nc_float64(double x) {
	return x;
}
double ampF_pick_float64(bool c, double a, double b) {
	if (c) {
		return a;
	}
	return b;
}
int ampF_nz_int16(int x) {
	if ((x == 0)) {
		return 1;
	}
	return x;
}
uint ampF_nc_uint16(uint x) {
	return x;
}
double ampF_f2i_float64_int32(double x) {
	if (((x > (-2.147483649e+09lf)) && (x < 2.147483648e+09lf))) {
		return x;
	}
	return 0.0lf;
}
void ampEach(ivec3 ampIdx) {
	int lin = (((((ampIdx.x * 1) + ampIdx.y)) * 1) + ampIdx.z);
	int v0 = ((ampF_nc_int32(4) ^ ampV_In1[ampAt1(ampIdx)]));
	float v1 = 100.125;
	int v2 = (((-32768) + (ampMaxI(ampF_nc_int8((-1)), 127) * 2)));
	int v3 = 1633389927;
	uint v4 = (bitfieldExtract((((ampF_nc_uint8(215u) & ~0u)) * bitfieldExtract((~(ampF_nc_uint8(255u))), 0, 8)), 0, 8));
	uint v5 = ((v4 ^ v4));
	int v6 = (((5 * int(v4)) + (25 * int(bitfieldExtract(ampF_nc_uint32(0u), 0, 8)))));
	{
		for (int ampT1 = 0; ampT1 < 4; ampT1++) {
			{
				int ampT2 = ((bitfieldExtract(ampShl((bitfieldExtract((ampF_nc_int8(0) * (-128)), 0, 8)), uint(((int((ampShl(3604931188u, uint(((bitfieldExtract(((ampF_nc_uint32(0u) & 4294967292u)), 0, 8) & 15u)))))) & 63)))), 0, 8)) & 3);
				if ((ampT2 == 0)) {
					v5 = bitfieldExtract(uint(v3), 0, 8);
				} else if ((ampT2 == 2)) {
					{
						int ampT3 = 2;
						if ((ampT3 == 0)) {
							v2 = 69;
							v6 = ((200 - (2 * int(bitfieldExtract((~((ampF_nc_uint8(7u) ^ v5))), 0, 8)))));
						} else if ((ampT3 == 3)) {
							v1 = v1;
							v3 = 1765974041;
						}
					}
				} else if ((ampT2 == 1)) {
					v3 = ampDiv(v3, ampF_nz_int32(ampF_pick_int32(false, ((ampF_nc_int32(3) - v0)), (-1257611058))));
				} else {
					v6 = (v6 - ((v6 + (bitfieldExtract((ampF_nc_int16(3611) + 1), 0, 16)))));
				}
			}
			v6 = (v6 + 74);
			v1 = (v1 + ampF_ftz_float32(float(double(ampF_nc_float32(1.0)))));
		}
	}
	for (int j3 = 0; (j3 < 3); j3 = (j3 + 1)) {
		{
			for (int ampT4 = 0; ampT4 < 2; ampT4++) {
				v1 = v1;
				v2 = (v2 - ((bitfieldExtract(int(ampF_f2i_float64_int16(1.0000000001lf)), 0, 16) + (4 * int(((v4 & ~v4)))))));
			}
		}
		for (int j5 = 0; (j5 < 2); j5 = (j5 + 1)) {
			v2 = (v2 + (((43 * int(v5)) + (ampMaxI(ampF_nc_int8((-7)), (-2)) * 6))));
			{
				for (int j6 = 0; j6 < 3; j6++) {
					v6 = ((j6 + ((bitfieldExtract((ampF_nc_int8(127) * 68), 0, 8)) * 254)));
				}
			}
			v4 = bitfieldExtract((v4 - 1u), 0, 8);
		}
	}
	{
		int ampT6 = 0;
		do {
			if ((ampF_k6107148_h0(4294967295u, 2))) {
				v4 = (ampShr((bitfieldExtract((ampF_nc_uint8(0u) + ampF_pick_uint8(true, v4, 234u)), 0, 8)), uint(((bitfieldExtract(int(ampF_nc_uint32(4294967294u)), 0, 8) & 63)))));
				{
					int ampT7 = amp.R;
					for (int j7 = 0; j7 < ampT7; j7++) {
						if ((false == ((lin != j7)))) {
							v1 = vec4(1.0, 1.0e+06, 1.6777216e+07, 0.0010000000474974513).x;
							v6 = lin;
						} else {
							v4 = bitfieldExtract((~(ampF_nc_uint8(252u))), 0, 8);
							v5 = v5;
						}
						v2 = (-31);
						v5 = (v5 & ((((v4 % ampF_nz_uint8(v4))) ^ v4)));
					}
				}
			} else if (((((ampShl(2147483647, uint(((bitfieldExtract(bitfieldReverse(4294967295u), 0, 8) & 7u))))) == ((v3 * v0)))))) {
				if (true) {
					break;
				}
				{
					int ampT9 = (ampMaxI(bitfieldExtract(ampF_nc_int16((-27802)), 0, 8), bitfieldExtract((~(ampF_nc_int8(60))), 0, 8)) & 3);
					int ampT10 = 0;
					do {
						if ((ampT9 == 2)) {
							v1 = (v1 - ((ampF_fin_float32(ampMulR(v1, v1)) - v1)));
							v1 = 100.125;
						} else if ((ampT9 == 0)) {
							v2 = ((((bitfieldExtract(((bitfieldExtract((ampF_nc_int8(6) - (-6)), 0, 8)) * ampF_pick_int8(false, 7, 127)), 0, 8)) * int((((bitfieldExtract((v5 - v4), 0, 8)) % ampF_nz_uint8(((v4 % ampF_nz_uint8(v4)))))))) - (((bitfieldExtract(int(ampF_f2i_float32_int8(v1)), 0, 8) & (-2))) * int(v5))));
							v2 = ((((-19) * int(v5)) + ampF_pick_int16(true, (-2321), (bitfieldExtract(ampShl(0, uint(((bitfieldExtract(int(ampF_nc_uint32(1955852475u)), 0, 8) & 7)))), 0, 16)))));
						} else if ((ampT9 == 1)) {
							if (ampIsInf(0.001lf, 1)) {
								break;
							}
							v1 = ampF_ftz_float32((v1 / 2.0));
						} else {
							v1 = 100.125;
							if ((((ampF_nc_float64(1.6777217e+07lf) - 3.141592653589793lf)) != ampF_pick_float64(false, 1.6777217e+07lf, 1.6777217e+07lf))) {
								v6 = ((ampIdx.x - 36));
								v1 = (v1 + v1);
								v3 = v3;
							} else {
								v1 = float(v4);
							}
						}
					} while (false);
				}
			} else {
				v4 = bitfieldExtract((v4 / ampF_nz_uint8(ampF_pick_uint8(true, v4, bitfieldExtract((~(v4)), 0, 8)))), 0, 8);
			}
		} while (false);
	}
	v0 = (bitfieldExtract(((ampRem(1, ampF_nz_int16((-4)))) - ampMinI(ampF_nc_int16(0), (-13621))), 0, 16));
	v2 = (((1 * int((bitfieldExtract((bitfieldExtract(ampF_nc_uint16(65535u), 0, 8) / ampF_nz_uint8(ampMinI(v5, 253u))), 0, 8)))) - v2));
	for (int j8 = 2; (j8 >= 0); j8 = (j8 - 1)) {
		{
			uint ampT11 = 0u;
			if ((ampT11 == 0u)) {
				v3 = int(ampF_f2i_float64_int32((-(ampF_nc_float64(1.0lf)))));
				v2 = ((ampIdx.x - (bitfieldExtract(ampShl((-6), uint(((int(ampF_nc_uint32(4294967290u)) & 15)))), 0, 16))));
			} else if ((ampT11 == 2u)) {
				v6 = (v6 - ((v6 - (ampF_pick_int8(true, (-128), 7) * int(v5)))));
			}
		}
		v4 = bitfieldExtract((v4 + 255u), 0, 8);
	}
	{
		if ((ampF_k6107148_h0(((ampF_nc_uint32(3990872821u) * 4294967295u)), ampF_pick_int16(true, (-5003), 0)))) {
			if ((((v3 & (-1866972026))) < v3)) {
				v4 = ((ampF_nc_uint8(255u) & ~229u));
				v1 = ampMin(((v1 + ampF_ftz_float32(float(ampF_nc_float64((-1.0lf)))))), ((v1 + v1)));
			}
		}
	}
	v1 = (v1 - (-((-(ampF_nc_float32((-3.75)))))));
	ampV_Out[ampAt2(ivec3(((lin * 7) + 0), 0, 0))] = uint(v0);
	ampV_Out[ampAt2(ivec3(((lin * 7) + 1), 0, 0))] = floatBitsToUint(v1);
	ampV_Out[ampAt2(ivec3(((lin * 7) + 2), 0, 0))] = uint(v2);
	ampV_Out[ampAt2(ivec3(((lin * 7) + 3), 0, 0))] = uint(v3);
	ampV_Out[ampAt2(ivec3(((lin * 7) + 4), 0, 0))] = v4;
	ampV_Out[ampAt2(ivec3(((lin * 7) + 5), 0, 0))] = v5;
	ampV_Out[ampAt2(ivec3(((lin * 7) + 6), 0, 0))] = uint(v6);
}
layout(constant_id = 4) const uint AMP_GRID_LOOP = 1u;
void main() {
	uint ampStride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
	for (uint ampN = ampLinearIndex(); AMP_GRID_LOOP != 0u && ampN < amp.domain.w; ampN += ampStride) {
		ampEach(ampDelinearize(ampN));
	}
}
