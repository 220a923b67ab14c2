#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Hand-written: the decoupled look-back spin-waits on flags that other workgroups publish and reads the raw bits of any element type, which the kernel language cannot express.
// The single-pass scan of float32, with subgroup operations: see scan_lookback_body.glsl.
// Go body: algo scanLBKernel.
#define SUBGROUPS
#define FLOAT
#include "scan_lookback_body.glsl"
