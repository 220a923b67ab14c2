#version 450
// Hand-written: register blocking needs vec4 views of the scalar matrices (aliased bindings), unrolled register arrays and swizzled shared vec4s, which the kernel language cannot express.
// C = A x B, tiled: each workgroup computes a block of (8 * tile rows) x (8 * tile columns)
// elements of C, each thread an 8x8 micro-tile of it in registers (two 4-row by two
// 4-column groups, half a block apart, so that reads from shared memory are vec4 and
// conflict-free). The K dimension is walked in steps of BK: the A block is stored
// transposed and the B block as is in double-buffered shared memory, the next step's
// blocks are loaded from global memory into registers while the current ones are
// multiplied, and one barrier per step separates the two buffers' uses. The transposed A
// block has no padding: its rows are XOR-swizzled by vec4 instead (row k stores vec4 q at
// q ^ swz(k)), which keeps the transposing stores conflict-free and the shared memory at
// 2 BK (BM + BN) floats. Blocks wholly inside the matrices (with K a multiple of BK and
// every row 16-byte aligned) take an unchecked path; edge blocks are bounds-checked
// (zeros are loaded past M, N, K and nothing is stored there), with vec4 global loads and
// stores when every row of a matrix starts on a 16-byte boundary, else scalar ones.
// Go body: algo/matmul.go (matMulTiled.Tiled). The element type is ELEM (ELEM4 its
// 4-vector): float, or int where AMP_INT is defined (the program matmul_tiled_i32, a
// variant in variants.txt); the comments say float and vec4 for either. With AMP_HALF
// (matmul_tiled_h, algo.MatMulF16's fallback) A and B hold float16_t, converted to float
// as they are loaded, and with AMP_HALF_OUT too (matmul_tiled_hh) so does C, rounded as
// it is stored; the arithmetic stays float. With AMP_INT and AMP_INT8 (matmul_tiled_i8,
// algo.MatMulI8's fallback) A and B hold int8_t, widened to int as they are loaded, and C
// is int.
#extension GL_EXT_control_flow_attributes : require
#include "amp.glsl"
#ifdef AMP_INT
#define ELEM int
#define ELEM4 ivec4
#else
#define ELEM float
#define ELEM4 vec4
#endif
#ifdef AMP_HALF
#extension GL_EXT_shader_16bit_storage : require
#define IN float16_t
#define IN4 f16vec4
#elif defined(AMP_INT8)
#extension GL_EXT_shader_8bit_storage : require
#define IN int8_t
#define IN4 i8vec4
#else
#define IN ELEM
#define IN4 ELEM4
#endif
#ifdef AMP_HALF_OUT
#define OUT float16_t
#define OUT4 f16vec4
#else
#define OUT ELEM
#define OUT4 ELEM4
#endif
AMP_WORKGROUP
AMP_BUFFER(0, readonly, IN4, A4);
AMP_BUFFER(0, readonly, IN, A); // the same buffers, one element at a time (unaligned rows)
AMP_BUFFER(1, readonly, IN4, B4);
AMP_BUFFER(1, readonly, IN, B);
AMP_BUFFER(2, writeonly, OUT4, C4);
AMP_BUFFER(2, writeonly, OUT, C);
AMP_PUSH_BEGIN AmpView a; AmpView b; AmpView c; int M; int N; int K; AMP_PUSH_END // M, N, K >= 1

// The tile (workgroup) is WY x WX threads; the block of C is BM x BN; BK is the K step
// (algo.matMulBK).
const uint WX = gl_WorkGroupSize.x;
const uint WY = gl_WorkGroupSize.y;
const uint NT = WX * WY;
const uint BM = 8 * WY;
const uint BN = 8 * WX;
const uint BK = 16;
// Shared rows in vec4s: the transposed A block (BK rows of BM) and the B block (BK rows
// of BN), each double-buffered.
const uint AROW = BM / 4;
const uint BROW = BN / 4;
const uint ASIZE = BK * AROW;
const uint BSIZE = BK * BROW;
// vec4s per block, and vec4 loads per thread and step.
const uint AQ = BM * BK / 4;
const uint BQ = BK * BN / 4;
const uint ALOADS = (AQ + NT - 1) / NT;
const uint BLOADS = (BQ + NT - 1) / NT;
const bool WARPTILE = WX % 8 == 0 && WY % 4 == 0;

shared ELEM4 As[2 * ASIZE];
shared ELEM4 Bs[2 * BSIZE];

// The step's A and B vec4s, loaded into registers a step ahead.
ELEM4 ra[ALOADS];
ELEM4 rb[BLOADS];
bool vecA, vecB, vecC, full;
uint tid, m0, n0, swzMask;

// loadA returns A(m, k..k+3), zero past the edges.
ELEM4 loadA(uint m, uint k) {
	ELEM4 v = ELEM4(0);
	uint e = amp.a.base + m * amp.a.s0 + k;
	if (m < uint(amp.M)) {
		if (vecA) {
			if (k < uint(amp.K)) v = ELEM4(A4[e >> 2]);
		} else {
			[[unroll]] for (uint i = 0; i < 4; i++) {
				if (k + i < uint(amp.K)) v[i] = ELEM(A[e + i]);
			}
		}
	}
	return v;
}

// loadB returns B(k, n..n+3), zero past the edges.
ELEM4 loadB(uint k, uint n) {
	ELEM4 v = ELEM4(0);
	uint e = amp.b.base + k * amp.b.s0 + n;
	if (k < uint(amp.K)) {
		if (vecB) {
			if (n < uint(amp.N)) v = ELEM4(B4[e >> 2]);
		} else {
			[[unroll]] for (uint i = 0; i < 4; i++) {
				if (n + i < uint(amp.N)) v[i] = ELEM(B[e + i]);
			}
		}
	}
	return v;
}

// storeC stores C(m, n..n+3) = v within the edges. (No early returns here or in the
// loads: the unrolled loops that call them must stay unrollable.)
void storeC(uint m, uint n, ELEM4 v) {
	uint e = amp.c.base + m * amp.c.s0 + n;
	if (full || (vecC && m < uint(amp.M) && n < uint(amp.N))) {
		C4[e >> 2] = OUT4(v);
	} else if (!vecC && m < uint(amp.M)) {
		[[unroll]] for (uint i = 0; i < 4; i++) {
			if (n + i < uint(amp.N)) C[e + i] = OUT(v[i]);
		}
	}
}

// fetch loads the blocks of step k0 / BK into ra and rb: thread l loads
// A(m0 + l / (BK/4), k0 + (l % (BK/4)) * 4) and B(k0 + l / BROW, n0 + (l % BROW) * 4),
// then l + NT, ...; unchecked in a block wholly inside the matrices.
void fetch(uint k0) {
	if (full) {
		[[unroll]] for (uint i = 0; i < ALOADS; i++) {
			uint l = tid + i * NT;
			if (ALOADS * NT == AQ || l < AQ) {
				ra[i] = ELEM4(A4[(amp.a.base + (m0 + l / (BK / 4)) * amp.a.s0 + k0 + (l % (BK / 4)) * 4) >> 2]);
			}
		}
		[[unroll]] for (uint i = 0; i < BLOADS; i++) {
			uint l = tid + i * NT;
			if (BLOADS * NT == BQ || l < BQ) {
				rb[i] = ELEM4(B4[(amp.b.base + (k0 + l / BROW) * amp.b.s0 + n0 + (l % BROW) * 4) >> 2]);
			}
		}
	} else {
		[[unroll]] for (uint i = 0; i < ALOADS; i++) {
			uint l = tid + i * NT;
			ra[i] = l < AQ ? loadA(m0 + l / (BK / 4), k0 + (l % (BK / 4)) * 4) : ELEM4(0);
		}
		[[unroll]] for (uint i = 0; i < BLOADS; i++) {
			uint l = tid + i * NT;
			rb[i] = l < BQ ? loadB(k0 + l / BROW, n0 + (l % BROW) * 4) : ELEM4(0);
		}
	}
}

// swz is the swizzle of row k of the transposed A block: the 32 threads of a warp store
// 128 / BK consecutive rows m of A at BK / 4 column groups kq; XORing vec4 columns by
// (kq / 4) * (32 / BK) spreads them over all 32 banks.
uint swz(uint k) { return ((k / 4) * (32 / BK)) & swzMask; }

void main() {
	vecA = amp.a.base % 4 == 0 && amp.a.s0 % 4 == 0 && uint(amp.K) % 4 == 0;
	vecB = amp.b.base % 4 == 0 && amp.b.s0 % 4 == 0 && uint(amp.N) % 4 == 0;
	vecC = amp.c.base % 4 == 0 && amp.c.s0 % 4 == 0 && uint(amp.N) % 4 == 0;
	tid = gl_LocalInvocationIndex;
	m0 = gl_WorkGroupID.y * BM;
	n0 = gl_WorkGroupID.x * BN;
	full = vecA && vecB && vecC && m0 + BM <= uint(amp.M) && n0 + BN <= uint(amp.N) && uint(amp.K) % BK == 0;
	// The swizzle stays within aligned groups of 8 vec4s: rows of fewer are not swizzled.
	swzMask = AROW % 8 == 0 ? 7 : 0;
	// The thread's place (ty, tx) in the micro-tile layout: when the tile allows, each
	// 32-thread warp covers 4 x 8 places, so that it reads only 4 distinct vec4s of A and 8
	// of B per k from shared memory; else the place is the local index.
	uint ty = gl_LocalInvocationID.y;
	uint tx = gl_LocalInvocationID.x;
	if (WARPTILE) {
		uint w = tid / 32;
		uint lane = tid % 32;
		ty = (w / (WX / 8)) * 4 + lane / 8;
		tx = (w % (WX / 8)) * 8 + lane % 8;
	}

	fetch(0);
	// Loops over acc are unrolled here in SPIR-V, so that it is indexed by constants only and
	// lives in registers whatever the driver's unrolling heuristics.
	ELEM4 acc[8][2];
	[[unroll]] for (uint i = 0; i < 8; i++) {
		acc[i][0] = ELEM4(0);
		acc[i][1] = ELEM4(0);
	}

	uint steps = (uint(amp.K) + BK - 1) / BK;
	for (uint s = 0; s < steps; s++) {
		uint cur = s & 1;
		// Store the registers loaded for step s into buffer cur: A transposed.
		[[unroll]] for (uint i = 0; i < ALOADS; i++) {
			uint l = tid + i * NT;
			if (ALOADS * NT == AQ || l < AQ) {
				uint m = l / (BK / 4);
				uint kq = (l % (BK / 4)) * 4;
				[[unroll]] for (uint j = 0; j < 4; j++) {
					As[cur * ASIZE + (kq + j) * AROW + ((m / 4) ^ swz(kq + j))][m % 4] = ra[i][j];
				}
			}
		}
		[[unroll]] for (uint i = 0; i < BLOADS; i++) {
			uint l = tid + i * NT;
			if (BLOADS * NT == BQ || l < BQ) Bs[cur * BSIZE + l] = rb[i];
		}
		ampWaitWithTileStaticMemoryFence();
		// Load step s+1 into registers while step s is multiplied.
		if (s + 1 < steps) fetch((s + 1) * BK);
		// The step's k loop is unrolled by 8, not fully: on an H100 this beat the full
		// unroll (less register pressure, more workgroups per SM with small tiles).
		[[dont_unroll]] for (uint k8 = 0; k8 < BK; k8 += 8) [[unroll]] for (uint k = k8; k < k8 + 8; k++) {
			ELEM4 a0 = As[cur * ASIZE + k * AROW + (ty ^ swz(k))];
			ELEM4 a1 = As[cur * ASIZE + k * AROW + ((BM / 8 + ty) ^ swz(k))];
			ELEM4 b0 = Bs[cur * BSIZE + k * BROW + tx];
			ELEM4 b1 = Bs[cur * BSIZE + k * BROW + BN / 8 + tx];
			[[unroll]] for (uint i = 0; i < 4; i++) {
				acc[i][0] += a0[i] * b0;
				acc[i][1] += a0[i] * b1;
				acc[i + 4][0] += a1[i] * b0;
				acc[i + 4][1] += a1[i] * b1;
			}
		}
	}

	[[unroll]] for (uint i = 0; i < 8; i++) {
		uint m = m0 + (i < 4 ? ty * 4 + i : BM / 2 + ty * 4 + i - 4);
		storeC(m, n0 + tx * 4, acc[i][0]);
		storeC(m, n0 + BN / 2 + tx * 4, acc[i][1]);
	}
}
