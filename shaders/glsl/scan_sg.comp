#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Hand-written: the kernel language has no subgroup operations. The block pass of
// InclusiveScan and ExclusiveScan (sums of int32, uint32 or float32) for devices with
// subgroup arithmetic. Tiled 1-D: workgroup g scans the block of 16*size elements that
// starts at element g*16*size of in (element i is in[inOff + i], n elements) and writes it
// to out (element i is out[outOff + i]); with usePre != 0 it first adds pre[preOff + g],
// the sum of the blocks before it (the exclusive scan of the block sums, made by earlier
// passes). The block is ROWS rows of size vec4s, and thread l owns the vec4 l of each row,
// so that loads and stores are coalesced 16-byte accesses (when in and out are 16-byte
// aligned; else the same elements one at a time). The workgroup scans the threads' row
// sums, all rows at once as one vec4 (component r: row r), with subgroupExclusiveAdd and
// subgroupAdd: each subgroup scans its threads' totals, the first subgroup scans the
// subgroups' sums in shared memory. Element c of thread l's vec4 in row r gets the block's
// prefix, the sums of the rows before r, the sums of row r's threads before l and its own
// vec4's elements before c. A thread reads only the elements it writes, so in and out may
// be the same buffer range (an in-place scan). The data are raw 32-bit words: amp.type 2
// adds them as float32, 0 and 1 as 32-bit integers (int32 and uint32 sums wrap and are the
// same bits). The kernel struct and its definition (its shared-memory GPU body, generated
// by ampgen, which loads the block through shared memory instead): algo scanKernel, run
// with this program as scanSG.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uint, src);
AMP_BUFFER(0, readonly, uvec4, src4); // the same buffer, 16 bytes at a time
AMP_BUFFER(1, writeonly, uint, dst);
AMP_BUFFER(1, writeonly, uvec4, dst4);
AMP_BUFFER(2, readonly, uint, pre);
AMP_PUSH_BEGIN AmpView in_; AmpView out_; AmpView pre_;
	uint n; uint inOff; uint outOff; uint preOff; int exclusive; int type; int usePre;
AMP_PUSH_END

#define ROWS 4u // vec4s per thread: EPT = 16 elements per thread (algo scanEPT)

shared uvec4 part[gl_WorkGroupSize.x + 1u];

// The workgroup scan, by subgroups.
// GROUP_SCAN(NAME, V, CV, VB) defines V NAME(V total, out V sums): the sum of the totals of
// the threads before this one in the workgroup, component by component, and in sums the
// sum of every thread's. CV and VB convert a uvec4 to V and back.
#define GROUP_SCAN(NAME, V, CV, VB)                                            \
	V NAME(V total, out V sums) {                                               \
		V before = subgroupExclusiveAdd(total);                                \
		V sum = subgroupAdd(total);                                            \
		if (gl_SubgroupInvocationID == 0u) {                                   \
			part[gl_SubgroupID] = VB(sum);                                     \
		}                                                                      \
		ampWaitWithTileStaticMemoryFence();                                    \
		if (gl_SubgroupID == 0u) {                                             \
			V carry = V(0);                                                    \
			for (uint b = 0u; b < gl_NumSubgroups; b += gl_SubgroupSize) {     \
				uint j = b + gl_SubgroupInvocationID;                          \
				V v = j < gl_NumSubgroups ? CV(part[j]) : V(0);                \
				V e = subgroupExclusiveAdd(v);                                 \
				if (j < gl_NumSubgroups) {                                     \
					part[j] = VB(carry + e);                                   \
				}                                                              \
				carry += subgroupAdd(v);                                       \
			}                                                                  \
			if (gl_SubgroupInvocationID == 0u) {                               \
				part[gl_NumSubgroups] = VB(carry);                             \
			}                                                                  \
		}                                                                      \
		ampWaitWithTileStaticMemoryFence();                                    \
		sums = CV(part[gl_NumSubgroups]);                                       \
		return CV(part[gl_SubgroupID]) + before;                               \
	}

GROUP_SCAN(groupScanU, uvec4, uvec4, uvec4)
GROUP_SCAN(groupScanF, vec4, uintBitsToFloat, floatBitsToUint)

// SCAN(NAME, T, V, CS, CV, TB, VB, GS) defines void NAME(): the block pass over type T
// (vector V), CS/CV converting words to T/V, TB/VB back, GS the workgroup scan.
#define SCAN(NAME, T, V, CS, CV, TB, VB, GS)                                                   \
	void NAME() {                                                                              \
		uint l = gl_LocalInvocationID.x;                                                       \
		uint size = gl_WorkGroupSize.x;                                                        \
		uint first = gl_WorkGroupID.x * size * 4u * ROWS;                                      \
		uint ib = amp.in_.base + amp.inOff;                                                    \
		uint ob = amp.out_.base + amp.outOff;                                                  \
		bool vec = ((ib | ob) & 3u) == 0u;                                                     \
		V x[ROWS];                                                                             \
		V total;                                                                               \
		for (uint r = 0u; r < ROWS; r++) {                                                     \
			uint e = first + 4u * (r * size + l);                                              \
			if (vec && e + 3u < amp.n) {                                                       \
				x[r] = CV(src4[(ib + e) >> 2]);                                                \
			} else {                                                                           \
				for (uint c = 0u; c < 4u; c++) {                                               \
					x[r][c] = e + c < amp.n ? CS(src[ib + e + c]) : T(0);                      \
				}                                                                              \
			}                                                                                  \
			total[r] = (x[r].x + x[r].y) + (x[r].z + x[r].w);                                  \
		}                                                                                      \
		V sums;                                                                                \
		V before = GS(total, sums);                                                            \
		T run = T(0);                                                                          \
		if (amp.usePre != 0) {                                                                 \
			run = CS(pre[amp.pre_.base + amp.preOff + gl_WorkGroupID.x]);                      \
		}                                                                                      \
		for (uint r = 0u; r < ROWS; r++) {                                                     \
			T acc = run + before[r];                                                           \
			V y;                                                                               \
			for (uint c = 0u; c < 4u; c++) {                                                   \
				T v = x[r][c];                                                                 \
				if (amp.exclusive != 0) {                                                      \
					y[c] = acc;                                                                \
					acc += v;                                                                  \
				} else {                                                                       \
					acc += v;                                                                  \
					y[c] = acc;                                                                \
				}                                                                              \
			}                                                                                  \
			run += sums[r];                                                                    \
			uint e = first + 4u * (r * size + l);                                              \
			if (vec && e + 3u < amp.n) {                                                       \
				dst4[(ob + e) >> 2] = VB(y);                                                   \
			} else {                                                                           \
				for (uint c = 0u; c < 4u; c++) {                                               \
					if (e + c < amp.n) {                                                       \
						dst[ob + e + c] = TB(y[c]);                                            \
					}                                                                          \
				}                                                                              \
			}                                                                                  \
		}                                                                                      \
	}

SCAN(scanU, uint, uvec4, uint, uvec4, uint, uvec4, groupScanU)
SCAN(scanF, float, vec4, uintBitsToFloat, uintBitsToFloat, floatBitsToUint, floatBitsToUint, groupScanF)

void main() {
	if (amp.type == 2) {
		scanF();
	} else {
		scanU();
	}
}
