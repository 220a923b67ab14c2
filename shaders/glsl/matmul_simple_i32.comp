#version 450
// C = A x B, one thread per element of C: C(i, j) = sum over k of A(i, k) * B(k, j).
// Go body: shaders/matmul.go (matMulSimple.Each); the int32 program
// matmul_simple_i32.comp is this file with the element type replaced (a test checks it).
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, int, A);
AMP_BUFFER(1, readonly, int, B);
AMP_BUFFER(2, writeonly, int, C);
AMP_PUSH_BEGIN AmpView a; AmpView b; AmpView c; int M; int N; int K; AMP_PUSH_END

void main() {
	ivec2 i;
	if (!ampIndex2(i)) return;
	int sum = int(0);
	for (int k = 0; k < amp.K; k++) {
		sum += A[ampAt2(amp.a, ivec2(i.x, k))] * B[ampAt2(amp.b, ivec2(k, i.y))];
	}
	C[ampAt2(amp.c, i)] = sum;
}
