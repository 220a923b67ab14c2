#version 450
// Seed 003, ReduceRow's later passes: temp[i] = temp[i] + temp[i + stride], i < stride.
// Go body: cmd/ampdemo ReduceRowStride.Each.
#include "amp.glsl"
AMP_WORKGROUP
AMP_BUFFER(0, , float, tempData);
AMP_PUSH_BEGIN AmpView temp; int stride; AMP_PUSH_END

void main() {
	int i;
	if (!ampIndex1(i)) return;
	tempData[ampAt1(amp.temp, i)] = tempData[ampAt1(amp.temp, i)] + tempData[ampAt1(amp.temp, i + amp.stride)];
}
