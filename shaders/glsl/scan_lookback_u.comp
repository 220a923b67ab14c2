#version 450
// The single-pass scan of int32 and uint32, in shared memory: see scan_lookback_body.glsl.
// Go body: shaders scanLBKernel.
#include "scan_lookback_body.glsl"
