#version 450
// Hand-written: the decoupled look-back spin-waits on flags that other workgroups publish and reads the raw bits of any element type, which the kernel language cannot express.
// The single-pass scan of int32 and uint32, in shared memory: see scan_lookback_body.glsl.
// Go body: algo scanLBKernel.
#include "scan_lookback_body.glsl"
