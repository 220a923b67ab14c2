#version 450
// Seed 003, ReduceRow's first pass: temp[i] = matrix(row, i) + matrix(row, i + numCols/2).
// Go body: cmd/ampdemo ReduceRowPair.Each.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, readonly, float, matrixData);
AMP_BUFFER(1, writeonly, float, tempData);
AMP_PUSH_BEGIN AmpView matrix; AmpView temp; int row; int numCols; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) return;
	float a = matrixData[ampAt2(amp.matrix, ivec2(amp.row, i))];
	float b = matrixData[ampAt2(amp.matrix, ivec2(amp.row, i + amp.numCols / 2))];
	tempData[ampAt1(amp.temp, i)] = a + b;
}
