package translate

import "strings"

// preludeMulR is a product rounded on its own (float32(a*b) in Go): precise keeps it from
// fusing with the addition it feeds.
const preludeMulR = `float ampMulR(float a, float b) { precise float p = a * b; return p; }
double ampMulR(double a, double b) { precise double p = a * b; return p; }
`

// preludes are the helper functions translated code may call, by key. Unused functions
// cost nothing: glslc -O drops them.
var preludes = map[string]string{
	"index": `uint ampLinearIndex() {
	return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}
ivec3 ampDelinearize(uint n) {
	if (ampRank == 1u) return ivec3(int(n), 0, 0);
	if (ampRank == 2u) return ivec3(int(n / amp.domain.y), int(n % amp.domain.y), 0);
	uint t = n / amp.domain.z;
	return ivec3(int(t / amp.domain.y), int(t % amp.domain.y), int(n % amp.domain.z));
}
`,
	"tile": `ivec3 ampFromXYZ(uvec3 v) {
	return ampRank == 1u ? ivec3(int(v.x), 0, 0) : ampRank == 2u ? ivec3(int(v.y), int(v.x), 0) : ivec3(v.zyx);
}
// The tile's dimensions in C++ order, 0 past the rank (as runtime.Extent.Dim).
const int ampTD0 = int(ampRank == 1u ? gl_WorkGroupSize.x : ampRank == 2u ? gl_WorkGroupSize.y : gl_WorkGroupSize.z);
const int ampTD1 = ampRank == 1u ? 0 : int(ampRank == 2u ? gl_WorkGroupSize.x : gl_WorkGroupSize.y);
const int ampTD2 = ampRank == 3u ? int(gl_WorkGroupSize.x) : 0;
const int ampTileSize = int(gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z);
ivec3 ampGlobal() { return ampFromXYZ(gl_GlobalInvocationID); }
ivec3 ampLocal() { return ampFromXYZ(gl_LocalInvocationID); }
ivec3 ampTile() { return ampFromXYZ(gl_WorkGroupID); }
ivec3 ampTileOrigin() { return ampFromXYZ(gl_WorkGroupID * gl_WorkGroupSize); }
`,
	// Go's signed division and remainder: truncated, and math.MinInt32 / -1 wraps to
	// math.MinInt32 (remainder 0), which GLSL leaves undefined. The division never sees
	// -1: glslc makes the ?: a select, which divides whatever the condition, and a CPU's
	// division of math.MinInt32 by -1 traps (lavapipe's compiler folding a constant one
	// raised SIGFPE in the process).
	"rem": `int ampDiv(int a, int b) { int q = a / (b == -1 ? 1 : b); return b == -1 ? -a : q; }
int ampRem(int a, int b) { return b == -1 ? 0 : a - b * (a / (b == -1 ? 1 : b)); }
`,
	// ampShr's count is a select, not GLSL's min: glslc -O's optimizer mishandles UMin of
	// counts it resolves to constants (as with Go's min and max: translator.builtin).
	"shift": `int ampShl(int x, uint s) { return s >= 32u ? 0 : x << s; }
uint ampShl(uint x, uint s) { return s >= 32u ? 0u : x << s; }
int ampShr(int x, uint s) { return x >> (s < 31u ? s : 31u); }
uint ampShr(uint x, uint s) { return s >= 32u ? 0u : x >> s; }
`,
	"half": halfPrelude,
	// The identity, which the front end does not fold: a constant index into a tile_static
	// array sized by the tile (translator.sharedIndex).
	"dyn": `int ampDyn(int i) { return i; }
uint ampDyn(uint i) { return i; }
`,
	"mulr": preludeMulR,
	// math.Max and math.Min: an infinity of the right sign wins even over a NaN; otherwise
	// as the builtins max and min (ampMax, ampMin of "minmax").
	"minmaxmath": `double ampMathMax(double x, double y) {
	return isinf(x) && x > 0.0lf ? x : isinf(y) && y > 0.0lf ? y : ampMax(x, y);
}
double ampMathMin(double x, double y) {
	return isinf(x) && x < 0.0lf ? x : isinf(y) && y < 0.0lf ? y : ampMin(x, y);
}
`,
	// Go's x + 0, 0 - x and x * 0 of floats (zeroOperand), in integer operations that no
	// compiler folds: the zero's sign, Inf * 0 = NaN (amd64's default NaN), a NaN operand
	// returned as it is.
	"zero": `float ampAdd0(float x) { return floatBitsToUint(x) == 0x80000000u ? 0.0 : x; }
float ampSub0(float x) {
	uint b = floatBitsToUint(x), m = b & 0x7fffffffu;
	return m == 0u ? 0.0 : m > 0x7f800000u ? x : uintBitsToFloat(b ^ 0x80000000u);
}
float ampMul0(float x) {
	uint b = floatBitsToUint(x);
	if ((b & 0x7f800000u) != 0x7f800000u) return uintBitsToFloat(b & 0x80000000u);
	return (b & 0x007fffffu) != 0u ? x : uintBitsToFloat(0xffc00000u);
}
double ampAdd0(double x) { uvec2 b = unpackDouble2x32(x); return b.y == 0x80000000u && b.x == 0u ? 0.0lf : x; }
double ampSub0(double x) {
	uvec2 b = unpackDouble2x32(x);
	uint m = b.y & 0x7fffffffu;
	if (m == 0u && b.x == 0u) return 0.0lf;
	return m > 0x7ff00000u || m == 0x7ff00000u && b.x != 0u ? x : packDouble2x32(uvec2(b.x, b.y ^ 0x80000000u));
}
double ampMul0(double x) {
	uvec2 b = unpackDouble2x32(x);
	if ((b.y & 0x7ff00000u) != 0x7ff00000u) return packDouble2x32(uvec2(0u, b.y & 0x80000000u));
	return (b.y & 0x000fffffu) != 0u || b.x != 0u ? x : packDouble2x32(uvec2(0u, 0xfff80000u));
}
`,
	// An opaque identity (translator.unfolded says why): glslang does not look through a
	// call; spirv-opt inlines it.
	"unfold": `float ampUnfold(float x) { return x; }
vec2 ampUnfold(vec2 x) { return x; }
vec3 ampUnfold(vec3 x) { return x; }
vec4 ampUnfold(vec4 x) { return x; }
`,
	// Go's min and max of integers, as selects (translator.builtin says why not GLSL's).
	"minmaxint": `int ampMinI(int x, int y) { return y < x ? y : x; }
uint ampMinI(uint x, uint y) { return y < x ? y : x; }
int ampMaxI(int x, int y) { return y > x ? y : x; }
uint ampMaxI(uint x, uint y) { return y > x ? y : x; }
`,
	// Go's min and max of floats: NaN if an operand is (here the NaN operand; Go leaves
	// the NaN's bits to the platform), and -0 is below +0. GLSL's min and max may return
	// either operand for a NaN and either zero.
	"minmax": `float ampMin(float x, float y) {
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
`,
	// x - t is precise (NoContraction): a driver may otherwise fuse it with the multiply
	// that made x into one FMA, which skips the product's rounding, and Round(a*b) of a
	// product that rounds to a tie goes the wrong way (the H100's did: RESULTS.md).
	"round": `float ampRound(float x) { float t = trunc(x); precise float d = abs(x - t); return d >= 0.5 ? t + sign(x) : t; }
double ampRound(double x) { double t = trunc(x); precise double d = abs(x - t); return d >= 0.5lf ? t + sign(x) : t; }
`,
	// math/bits's 32-bit functions with Go's results at 0 (GLSL's findMSB and findLSB
	// give -1), and its carry chains as Go writes them.
	"bits": `int ampLeadingZeros32(uint x) { return 31 - findMSB(x); }
int ampTrailingZeros32(uint x) { return x == 0u ? 32 : findLSB(x); }
int ampLen32(uint x) { return findMSB(x) + 1; }
uint ampReverseBytes32(uint x) { return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24); }
uint ampRotateLeft32(uint x, int k) { uint s = uint(k) & 31u; return (x << s) | (x >> ((32u - s) & 31u)); }
void ampAdd32(uint x, uint y, uint c, out uint s, out uint co) { s = x + y + c; co = ((x & y) | ((x | y) & ~s)) >> 31; }
void ampSub32(uint x, uint y, uint b, out uint d, out uint bo) { d = x - y - b; bo = ((~x & y) | (~(x ^ y) & d)) >> 31; }
`,
	// package math's float64 classification with Go's bits (NaN is 0x7FF8000000000001),
	// and float32 forms of Inf and NaN for float32(math.Inf(s)), which need no float64.
	"float64": `double ampInf(int s) { return packDouble2x32(uvec2(0u, s >= 0 ? 0x7ff00000u : 0xfff00000u)); }
double ampNaN() { return packDouble2x32(uvec2(1u, 0x7ff80000u)); }
float ampInf32(int s) { return uintBitsToFloat(s >= 0 ? 0x7f800000u : 0xff800000u); }
float ampNaN32() { return uintBitsToFloat(0x7fc00000u); }
bool ampIsInf(double f, int s) { return s >= 0 && f > 1.7976931348623157e308lf || s <= 0 && f < -1.7976931348623157e308lf; }
bool ampSignbit(double x) { return (unpackDouble2x32(x).y & 0x80000000u) != 0u; }
double ampCopysign(double f, double s) {
	uvec2 a = unpackDouble2x32(f);
	return packDouble2x32(uvec2(a.x, (a.y & 0x7fffffffu) | (unpackDouble2x32(s).y & 0x80000000u)));
}
`,
	// fmath's functions whose GLSL built-ins a conforming driver may compute far less
	// accurately than float32 allows (Vulkan's minimum: atan 4096 ULP, exp 3 + 2|x| ULP,
	// log an absolute 2^-21 near 1, sin and cos an absolute 2^-11 in [-pi, pi]: SwiftShader's
	// err by 1.9e-4, sinh, cosh, tanh, asin and acos inherited from their
	// formulas: lavapipe's tanh has a relative error of 1.7e-4 at 1e-4), written out in
	// float32 after Cephes (Moshier) so that every device has their stated bounds
	// (package fmath's table). Their special values follow Go's math package. The keys
	// sort after the pieces they use (fmathPieces).
	"fm0": `const float ampPiF = 3.14159265358979, ampPiO2F = 1.5707963267948966;
float ampNaNF() { return uintBitsToFloat(0x7fc00000u); }
float ampInfF() { return uintBitsToFloat(0x7f800000u); }
float ampScale2(float p, int n) { int h = n / 2; return ldexp(ldexp(p, h), n - h); }
`,
	"fm1exp": `float ampExp(float x) {
	if (isnan(x)) return x;
	if (x > 88.72284) return ampInfF();
	if (x < -103.97208) return 0.0;
	float n = roundEven(x * 1.4426950408889634);
	float r = x - n * 0.693359375;
	r = r - n * -2.12194440e-4;
	float z = r * r;
	float p = (((((1.9875691500e-4 * r + 1.3981999507e-3) * r + 8.3334519073e-3) * r + 4.1665795894e-2) * r +
		1.6666665459e-1) * r + 5.0000001201e-1) * z + r + 1.0;
	return ampScale2(p, int(n));
}
float ampExp2(float x) {
	if (isnan(x)) return x;
	if (x >= 128.0) return ampInfF();
	if (x < -150.0) return 0.0;
	float n = roundEven(x);
	float r = x - n;
	float p = (((((1.535336188319500e-4 * r + 1.339887440266574e-3) * r + 9.618437357674640e-3) * r +
		5.550332471162809e-2) * r + 2.402264791363012e-1) * r + 6.931472028550421e-1) * r + 1.0;
	return ampScale2(p, int(n));
}
`,
	"fm2log": `// ampLogParts splits finite x > 0 as log(x) = m + y + e*ln2 (y the polynomial's part).
float ampLogParts(float x, out float m, out float e) {
	float bias = 0.0;
	if (x < 1.17549435e-38) { x *= 16777216.0; bias = -24.0; }
	int ei;
	m = frexp(x, ei);
	if (m < 0.70710678118654752) { ei -= 1; m = m + m - 1.0; } else { m = m - 1.0; }
	e = float(ei) + bias;
	float z = m * m;
	float y = ((((((((7.0376836292e-2 * m - 1.1514610310e-1) * m + 1.1676998740e-1) * m - 1.2420140846e-1) * m +
		1.4249322787e-1) * m - 1.6668057665e-1) * m + 2.0000714765e-1) * m - 2.4999993993e-1) * m + 3.3333331174e-1) * m * z;
	return y - 0.5 * z;
}
float ampLogSpecial(float x) { return x == 0.0 ? -ampInfF() : x < 0.0 ? ampNaNF() : x; }
float ampLog(float x) {
	if (!(x > 0.0) || isinf(x)) return ampLogSpecial(x);
	float m, e;
	float y = ampLogParts(x, m, e);
	y += e * -2.12194440e-4;
	return (m + y) + e * 0.693359375;
}
float ampLog2(float x) {
	if (!(x > 0.0) || isinf(x)) return ampLogSpecial(x);
	float m, e;
	float y = ampLogParts(x, m, e);
	float z = y * 0.44269504088896341;
	z += m * 0.44269504088896341;
	z += y;
	z += m;
	return z + e;
}
`,
	"fm3pow": `float ampPow(float x, float y) {
	if (y == 0.0 || x == 1.0) return 1.0;
	if (!(x > 0.0)) return pow(x, y);
	return ampExp2(y * ampLog2(x));
}
`,
	"fm4atan": `float ampAtan(float x) {
	float a = abs(x), y = 0.0;
	if (a > 2.414213562373095) { y = ampPiO2F; a = -1.0 / a; }
	else if (a > 0.4142135623730950) { y = 0.78539816339744831; a = (a - 1.0) / (a + 1.0); }
	float z = a * a;
	y += (((8.05374449538e-2 * z - 1.38776856032e-1) * z + 1.99777106478e-1) * z - 3.33329491539e-1) * z * a + a;
	return x < 0.0 ? -y : x == 0.0 ? x : y;
}
float ampAtan2(float y, float x) {
	if (isnan(x) || isnan(y)) return ampNaNF();
	float s = (floatBitsToUint(y) >> 31) != 0u ? -1.0 : 1.0;
	if (isinf(x)) {
		if (isinf(y)) return s * (x > 0.0 ? 0.78539816339744831 : 2.3561944901923449);
		return x > 0.0 ? s * 0.0 : s * ampPiF;
	}
	if (isinf(y)) return s * ampPiO2F;
	if (y == 0.0) return x < 0.0 || x == 0.0 && (floatBitsToUint(x) >> 31) != 0u ? s * ampPiF : y;
	if (x == 0.0) return s * ampPiO2F;
	float r = ampAtan(y / x);
	return x < 0.0 ? r + s * ampPiF : r;
}
`,
	"fm5asin": `float ampAsin(float x) {
	float a = abs(x);
	if (a > 1.0) return ampNaNF();
	bool big = a > 0.5;
	float z = big ? 0.5 * (1.0 - a) : a * a;
	float w = big ? sqrt(z) : a;
	float r = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z +
		1.6666752422e-1) * z * w + w;
	if (big) r = ampPiO2F - (r + r);
	return x < 0.0 ? -r : x == 0.0 ? x : r;
}
float ampAcos(float x) {
	if (abs(x) > 1.0) return ampNaNF();
	if (x < -0.5) return ampPiF - 2.0 * ampAsin(sqrt(0.5 * (1.0 + x)));
	if (x > 0.5) return 2.0 * ampAsin(sqrt(0.5 * (1.0 - x)));
	return ampPiO2F - ampAsin(x);
}
`,
	"fm6hyp": `float ampSinh(float x) {
	float a = abs(x), r;
	if (a <= 1.0) {
		float z = x * x;
		return ((2.03721912945e-4 * z + 8.33028376239e-3) * z + 1.66667160211e-1) * z * x + x;
	}
	if (a > 9.0) { float e = ampExp(0.5 * a); r = (0.5 * e) * e; }
	else { float e = ampExp(a); r = 0.5 * e - 0.5 / e; }
	return x < 0.0 ? -r : r;
}
float ampCosh(float x) {
	float a = abs(x);
	if (a > 9.0) { float e = ampExp(0.5 * a); return (0.5 * e) * e; }
	float e = ampExp(a);
	return 0.5 * e + 0.5 / e;
}
float ampTanh(float x) {
	float a = abs(x);
	if (a < 0.625) {
		if (x == 0.0) return x;
		float z = x * x;
		return ((((-5.70498872745e-3 * z + 2.06390887954e-2) * z - 5.37397155531e-2) * z + 1.33314422036e-1) * z -
			3.33332819422e-1) * z * x + x;
	}
	float r = a > 9.01 ? 1.0 : 1.0 - 2.0 / (ampExp(a + a) + 1.0);
	return x < 0.0 ? -r : r;
}
`,
	"fm7trig": `// ampTrigParts reduces x to y in [-pi/4, pi/4] with x = y + q*pi/2 (Cody-Waite, pi/2 in
// three parts) and returns sin(y) and cos(y) in s and c, and q mod 4 (NaN for x infinite).
float ampTrigParts(float x, out float s, out float c) {
	float j = roundEven(x * 0.63661977236758134);
	float y = ((x - j * 1.5703125) - j * 4.837512969970703125e-4) - j * 7.54978995489188216e-8;
	float z = y * y;
	s = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * y + y;
	c = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z - 0.5 * z + 1.0;
	return j - 4.0 * floor(j * 0.25);
}
float ampSin(float x) {
	if (x == 0.0) return x;
	float s, c, q = ampTrigParts(x, s, c);
	return q == 1.0 ? c : q == 2.0 ? -s : q == 3.0 ? -c : s;
}
float ampCos(float x) {
	float s, c, q = ampTrigParts(x, s, c);
	return q == 1.0 ? -s : q == 2.0 ? -c : q == 3.0 ? s : c;
}
float ampTan(float x) {
	if (x == 0.0) return x;
	float s, c, q = ampTrigParts(x, s, c);
	return q == 1.0 || q == 3.0 ? -c / s : s / c;
}
`,
	// Fract as its definition: a driver may clamp (SwiftShader's fract(-Inf) is 1 - 2^-24).
	"fract": `float ampFract(float x) { return x - floor(x); }
`,
	"idot": `int ampDot(ivec2 a, ivec2 b) { return a.x * b.x + a.y * b.y; }
int ampDot(ivec3 a, ivec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
int ampDot(ivec4 a, ivec4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
uint ampDot(uvec2 a, uvec2 b) { return a.x * b.x + a.y * b.y; }
uint ampDot(uvec3 a, uvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
uint ampDot(uvec4 a, uvec4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
`,
}

// fmathPieces are the prelude pieces each of goamp's own fmath functions needs.
var fmathPieces = map[string][]string{
	"ampExp": {"fm0", "fm1exp"}, "ampExp2": {"fm0", "fm1exp"}, "ampLog": {"fm0", "fm2log"},
	"ampLog2": {"fm0", "fm2log"}, "ampPow": {"fm0", "fm1exp", "fm2log", "fm3pow"},
	"ampAtan": {"fm0", "fm4atan"}, "ampAtan2": {"fm0", "fm4atan"}, "ampAsin": {"fm0", "fm5asin"},
	"ampAcos": {"fm0", "fm5asin"}, "ampSinh": {"fm0", "fm1exp", "fm6hyp"}, "ampCosh": {"fm0", "fm1exp", "fm6hyp"},
	"ampTanh": {"fm0", "fm1exp", "fm6hyp"}, "ampSin": {"fm7trig"}, "ampCos": {"fm7trig"}, "ampTan": {"fm7trig"},
	"ampFract": {"fract"},
}

// preludeText returns the helpers the translated code uses, in a fixed order.
func preludeText(used map[string]bool) string {
	var b strings.Builder
	for _, k := range sortedKeys(used) {
		b.WriteString(preludes[k])
	}
	return b.String()
}
