#version 450
// Hand-written: cooperative matrices (the tensor cores, GL_KHR_cooperative_matrix or
// GL_NV_cooperative_matrix) and
// subgroup-scoped stores have no spelling in the kernel language.
// C = A x B with A (M x K) and B (K x N) float16, accumulated in float32 cooperative
// matrices; C float32, or float16 with AMP_HALF_OUT (matmul_coop_h, a variant in
// variants.txt). Go side: algo/matmul16.go (matMulCoop).
//
// The classic shared-memory scheme, double-buffered: a workgroup of NW = WGM x WGN
// subgroups of 32 invocations (the tile NW x 32: algo dispatches it only on devices whose
// subgroups are 32 wide) computes a BM x BN block of C, each subgroup a WM x WN part of
// it as TM x TN accumulators of MS x NS (the device's 16 x 16 x 16 shape; MS, NS, KS,
// WGM, WGN, TM, TN and BK may be redefined with -D). The default, 2 x 2 subgroups of
// 4 x 4 accumulators (a 128 x 128 block, 64 x 64 a subgroup), loads 4 + 4 fragments for
// 16 products a K slice; the first version's 8 subgroups of 4 x 2 loaded 4 + 2 for 8
// (RESULTS.md, "Tensor cores"). K is walked in steps of BK = 32: every invocation loads
// its share of the next step's A block (BM x BK) and B block (BK x BN) from global memory
// into registers, 8 halves (a uvec4) at a time, zero past M, N or K (vector loads where a
// row's 8 halves are inside the matrix and 16-byte aligned, else element by element),
// while the subgroups multiply the current step's fragments from one of two shared
// buffers; then the registers go to the other buffer, and one barrier a step separates
// the buffers' uses. Shared rows are padded by 8 halves, so that each row starts 16-byte
// aligned, as cooperative loads need, and the 8 rows of a fragment's load fall on
// different banks. At the end each subgroup stores its accumulators one at a time into
// its own MS x NS float area of shared memory, from which its invocations copy the
// elements inside C (so edges need no other care).
// With AMP_COOP_EMULATE (the variants matmul_coop_emu and matmul_coop_emu_h) the
// cooperative matrices are emulated in plain GLSL: each logical subgroup (32 consecutive
// invocations, whatever the device's subgroups) keeps an accumulator as 8 floats per
// invocation and multiplies fragments straight from shared memory, and the subgroup
// barriers become workgroup barriers. Everything else (the blocks, loads, padding,
// edges and the stores through Cs) is the same code, so that devices without
// cooperative matrices (lavapipe) test it.
// With AMP_COOP_KHR (the variants matmul_coop_k and matmul_coop_k_h, compiled by a newer
// glslc than Debian bookworm's: Makefile GLSLC_KHR) the matrices are KHR's, typed by their
// use (A, B or accumulator), else NV's, which have no use: on the H100 the KHR ones
// multiply-add 1.6x and load from shared memory 1.4x as fast (BenchmarkCoopPeak,
// RESULTS.md "Tensor cores through KHR cooperative matrices").
// With AMP_INT8 (the variants matmul_coop_k_i8 and matmul_coop_emu_i8, algo.MatMulI8) A
// and B hold int8 and the accumulators and C int32 (KHR's 16 x 16 x 32 shape: KS=32): a
// uvec4 then carries 16 elements instead of 8 halves (EPV), and the same code does the
// rest; the sums are exact (wrapping past int32, as the CPU's do).
#ifdef AMP_INT8
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#define ET int8_t // A's and B's element
#define ACC_E int // the accumulators' and C's element
#define EPV 16    // elements a uvec4
#define EPW 4     // elements a uint
#else
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#define ET float16_t
#define ACC_E float
#define EPV 8
#define EPW 2
#endif
#if defined(AMP_COOP_KHR)
#extension GL_KHR_cooperative_matrix : require
#define ACC_T coopmat<ACC_E, gl_ScopeSubgroup, MS, NS, gl_MatrixUseAccumulator>
#define A_T coopmat<ET, gl_ScopeSubgroup, MS, KS, gl_MatrixUseA>
#define B_T coopmat<ET, gl_ScopeSubgroup, KS, NS, gl_MatrixUseB>
#define COOP_LOAD(m, buf, off, stride) coopMatLoad(m, buf, off, stride, gl_CooperativeMatrixLayoutRowMajor)
#define COOP_STORE(m, buf, off, stride) coopMatStore(m, buf, off, stride, gl_CooperativeMatrixLayoutRowMajor)
#define COOP_MULADD coopMatMulAdd
#elif !defined(AMP_COOP_EMULATE)
#extension GL_NV_cooperative_matrix : require
#define ACC_T fcoopmatNV<32, gl_ScopeSubgroup, MS, NS>
#define A_T fcoopmatNV<16, gl_ScopeSubgroup, MS, KS>
#define B_T fcoopmatNV<16, gl_ScopeSubgroup, KS, NS>
#define COOP_LOAD(m, buf, off, stride) coopMatLoadNV(m, buf, off, stride, false)
#define COOP_STORE(m, buf, off, stride) coopMatStoreNV(m, buf, off, stride, false)
#define COOP_MULADD coopMatMulAddNV
#endif
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
#include "amp.glsl"
#ifndef MS
#define MS 16
#endif
#ifndef NS
#define NS 16
#endif
#ifndef KS
#define KS 16
#endif
#ifdef AMP_HALF_OUT
#define OUT float16_t
#else
#define OUT ACC_E
#endif
AMP_WORKGROUP
AMP_BUFFER(0, readonly, uvec4, A8); // EPV elements at a time (aligned rows)
AMP_BUFFER(0, readonly, ET, A);
AMP_BUFFER(1, readonly, uvec4, B8);
AMP_BUFFER(1, readonly, ET, B);
AMP_BUFFER(2, writeonly, OUT, C);
AMP_PUSH_BEGIN AmpView a; AmpView b; AmpView c; int M; int N; int K; AMP_PUSH_END // M, N, K >= 1

#ifndef WGM
#define WGM 2 // subgroups along M
#endif
#ifndef WGN
#define WGN 2 // subgroups along N
#endif
#ifndef TM
#define TM 4 // accumulators along M, a subgroup
#endif
#ifndef TN
#define TN 4 // accumulators along N
#endif
#ifndef BK
#define BK 32
#endif
const uint NW = WGM * WGN;  // subgroups of 32
const uint NT = NW * 32;    // invocations: the tile NW x 32
const uint WM = TM * MS;    // a subgroup's rows
const uint WN = TN * NS;    // its columns
const uint BM = WGM * WM;
const uint BN = WGN * WN;
// Shared rows in uvec4s (EPV elements), padded by one uvec4.
const uint ASTR = BK / EPV + 1;
const uint BSTR = BN / EPV + 1;
const uint ASIZE = BM * ASTR; // a buffer's uvec4s
const uint BSIZE = BK * BSTR;
// uvec4 loads per block and per invocation.
const uint AQ = BM * BK / EPV;
const uint BQ = BK * BN / EPV;
const uint ALOADS = AQ / NT;
const uint BLOADS = BQ / NT;

shared uvec4 As[2 * ASIZE];
shared uvec4 Bs[2 * BSIZE];
shared ACC_E Cs[NW * MS * NS];

#ifdef AMP_COOP_EMULATE
const uint EPL = MS * NS / 32; // accumulator elements per invocation
// emuMulAdd adds the product of the MS x KS fragment of As at aoff and the KS x NS fragment
// of Bs at boff (offsets and strides in uvec4s) to c, elements lane + 32q of the product.
void emuMulAdd(inout ACC_E c[EPL], uint aoff, uint boff, uint lane) {
	[[unroll]] for (uint q = 0; q < EPL; q++) {
		uint e = lane + 32 * q, r = e / NS, col = e % NS;
		ACC_E sum = c[q];
		for (uint k = 0; k < KS; k++) {
			uint aw = As[aoff + r * ASTR + k / EPV][(k % EPV) / EPW];
			uint bw = Bs[boff + k * BSTR + col / EPV][(col % EPV) / EPW];
#ifdef AMP_INT8
			sum += bitfieldExtract(int(aw), int(8 * (k % 4)), 8) * bitfieldExtract(int(bw), int(8 * (col % 4)), 8);
#else
			sum += float(unpackFloat2x16(aw)[k % 2]) * float(unpackFloat2x16(bw)[col % 2]);
#endif
		}
		c[q] = sum;
	}
}
#endif

uvec4 ra[ALOADS];
uvec4 rb[BLOADS];
bool vecA, vecB;
uint m0, n0;

// packA packs the EPW elements of A from e on into a uint, those at or past lim (the
// index i of element e, and the edge it must stay below) zero; packB likewise for B.
#ifdef AMP_INT8
uint packA(uint e, uint i, uint lim) {
	uint w = 0;
	[[unroll]] for (uint j = 0; j < 4; j++) {
		if (i + j < lim) w |= (uint(int(A[e + j])) & 0xffu) << (8 * j);
	}
	return w;
}
uint packB(uint e, uint i, uint lim) {
	uint w = 0;
	[[unroll]] for (uint j = 0; j < 4; j++) {
		if (i + j < lim) w |= (uint(int(B[e + j])) & 0xffu) << (8 * j);
	}
	return w;
}
#else
uint packA(uint e, uint i, uint lim) {
	return packFloat2x16(f16vec2(i < lim ? A[e] : float16_t(0), i + 1 < lim ? A[e + 1] : float16_t(0)));
}
uint packB(uint e, uint i, uint lim) {
	return packFloat2x16(f16vec2(i < lim ? B[e] : float16_t(0), i + 1 < lim ? B[e + 1] : float16_t(0)));
}
#endif

// loadA returns A(m, k..k+EPV-1), zero past the edges.
uvec4 loadA(uint m, uint k) {
	uint e = amp.a.base + m * amp.a.s0 + k;
	uvec4 v = uvec4(0);
	if (m < uint(amp.M)) {
		if (vecA && k + EPV <= uint(amp.K)) {
			v = A8[e / EPV];
		} else {
			[[unroll]] for (uint i = 0; i < 4; i++) {
				v[i] = packA(e + EPW * i, k + EPW * i, uint(amp.K));
			}
		}
	}
	return v;
}

// loadB returns B(k, n..n+EPV-1), zero past the edges.
uvec4 loadB(uint k, uint n) {
	uint e = amp.b.base + k * amp.b.s0 + n;
	uvec4 v = uvec4(0);
	if (k < uint(amp.K)) {
		if (vecB && n + EPV <= uint(amp.N)) {
			v = B8[e / EPV];
		} else {
			[[unroll]] for (uint i = 0; i < 4; i++) {
				v[i] = packB(e + EPW * i, n + EPW * i, uint(amp.N));
			}
		}
	}
	return v;
}

// fetch loads step k0's blocks into ra and rb: invocation t loads A(m0 + l / (BK/EPV),
// k0 + (l % (BK/EPV)) * EPV) and B(k0 + l / (BN/EPV), n0 + (l % (BN/EPV)) * EPV) for l = t,
// t + NT.
void fetch(uint k0) {
	uint t = gl_LocalInvocationIndex;
	[[unroll]] for (uint i = 0; i < ALOADS; i++) {
		uint l = t + i * NT;
		ra[i] = loadA(m0 + l / (BK / EPV), k0 + (l % (BK / EPV)) * EPV);
	}
	[[unroll]] for (uint i = 0; i < BLOADS; i++) {
		uint l = t + i * NT;
		rb[i] = loadB(k0 + l / (BN / EPV), n0 + (l % (BN / EPV)) * EPV);
	}
}

// stash stores the registers fetch loaded into shared buffer buf (0 or 1).
void stash(uint buf) {
	uint t = gl_LocalInvocationIndex;
	[[unroll]] for (uint i = 0; i < ALOADS; i++) {
		uint l = t + i * NT;
		As[buf * ASIZE + (l / (BK / EPV)) * ASTR + l % (BK / EPV)] = ra[i];
	}
	[[unroll]] for (uint i = 0; i < BLOADS; i++) {
		uint l = t + i * NT;
		Bs[buf * BSIZE + (l / (BN / EPV)) * BSTR + l % (BN / EPV)] = rb[i];
	}
}

void main() {
	vecA = amp.a.base % EPV == 0 && amp.a.s0 % EPV == 0;
	vecB = amp.b.base % EPV == 0 && amp.b.s0 % EPV == 0;
	m0 = gl_WorkGroupID.y * BM;
	n0 = gl_WorkGroupID.x * BN;
	uint t = gl_LocalInvocationIndex;
#ifdef AMP_COOP_EMULATE
	uint w = t / 32, lane = t % 32;
	ACC_E acc[TM][TN][EPL];
	[[unroll]] for (uint i = 0; i < TM; i++) {
		[[unroll]] for (uint j = 0; j < TN; j++) {
			[[unroll]] for (uint q = 0; q < EPL; q++) acc[i][j][q] = ACC_E(0);
		}
	}
#else
	uint w = gl_SubgroupID, lane = gl_SubgroupInvocationID;
	ACC_T acc[TM][TN];
	[[unroll]] for (uint i = 0; i < TM; i++) {
		[[unroll]] for (uint j = 0; j < TN; j++) {
			acc[i][j] = ACC_T(ACC_E(0));
		}
	}
#endif
	uint wm = w / WGN, wn = w % WGN;

	fetch(0);
	stash(0);
	ampWaitWithTileStaticMemoryFence();
	uint steps = (uint(amp.K) + BK - 1) / BK;
	for (uint s = 0; s < steps; s++) {
		uint ao = (s & 1) * ASIZE, bo = (s & 1) * BSIZE; // this step's buffers
		if (s + 1 < steps) fetch((s + 1) * BK);
		[[unroll]] for (uint kk = 0; kk < BK; kk += KS) {
#ifdef AMP_COOP_EMULATE
			[[unroll]] for (uint i = 0; i < TM; i++) {
				[[unroll]] for (uint j = 0; j < TN; j++) {
					emuMulAdd(acc[i][j], ao + (wm * WM + i * MS) * ASTR + kk / EPV, bo + kk * BSTR + (wn * WN + j * NS) / EPV, lane);
				}
			}
#else
			A_T fa[TM];
			[[unroll]] for (uint i = 0; i < TM; i++) {
				COOP_LOAD(fa[i], As, ao + (wm * WM + i * MS) * ASTR + kk / EPV, ASTR);
			}
			[[unroll]] for (uint j = 0; j < TN; j++) {
				B_T fb;
				COOP_LOAD(fb, Bs, bo + kk * BSTR + (wn * WN + j * NS) / EPV, BSTR);
				[[unroll]] for (uint i = 0; i < TM; i++) {
					acc[i][j] = COOP_MULADD(fa[i], fb, acc[i][j]);
				}
			}
#endif
		}
		// The other buffers were last read in the step before, which the barrier at its end
		// closed; this one's closes the reads of these.
		if (s + 1 < steps) stash((s + 1) & 1);
		ampWaitWithTileStaticMemoryFence();
	}

	// Each subgroup's accumulators go through its own area of Cs to C, inside C only.
	[[unroll]] for (uint i = 0; i < TM; i++) {
		[[unroll]] for (uint j = 0; j < TN; j++) {
#ifdef AMP_COOP_EMULATE
			[[unroll]] for (uint q = 0; q < EPL; q++) Cs[w * MS * NS + lane + 32 * q] = acc[i][j][q];
			ampWaitWithTileStaticMemoryFence();
#else
			COOP_STORE(acc[i][j], Cs, w * MS * NS, NS);
			subgroupMemoryBarrierShared();
			subgroupBarrier();
#endif
			uint mb = m0 + wm * WM + i * MS, nb = n0 + wn * WN + j * NS;
			for (uint e = lane; e < MS * NS; e += 32) {
				uint m = mb + e / NS, n = nb + e % NS;
				if (m < uint(amp.M) && n < uint(amp.N)) {
					C[amp.c.base + m * amp.c.s0 + n] = OUT(Cs[w * MS * NS + e]);
				}
			}
#ifdef AMP_COOP_EMULATE
			barrier();
#else
			subgroupBarrier(); // Cs is read before the next store
#endif
		}
	}
}
