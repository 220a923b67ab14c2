#version 450
// The single-pass scan of float32, in shared memory: see scan_lookback_body.glsl.
// Go body: shaders scanLBKernel.
#define FLOAT
#include "scan_lookback_body.glsl"
