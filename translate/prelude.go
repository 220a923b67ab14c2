package translate

import "strings"

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
	"rem": `int ampRem(int a, int b) { return a - b * (a / b); }
`,
	"shift": `int ampShl(int x, uint s) { return s >= 32u ? 0 : x << s; }
uint ampShl(uint x, uint s) { return s >= 32u ? 0u : x << s; }
int ampShr(int x, uint s) { return x >> min(s, 31u); }
uint ampShr(uint x, uint s) { return s >= 32u ? 0u : x >> s; }
`,
	"half": halfPrelude,
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
	"idot": `int ampDot(ivec2 a, ivec2 b) { return a.x * b.x + a.y * b.y; }
int ampDot(ivec3 a, ivec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
int ampDot(ivec4 a, ivec4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
uint ampDot(uvec2 a, uvec2 b) { return a.x * b.x + a.y * b.y; }
uint ampDot(uvec3 a, uvec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
uint ampDot(uvec4 a, uvec4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
`,
}

// preludeText returns the helpers the translated code uses, in a fixed order.
func preludeText(used map[string]bool) string {
	var b strings.Builder
	for _, k := range sortedKeys(used) {
		b.WriteString(preludes[k])
	}
	return b.String()
}
