#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// The single-pass scan of int32 and uint32, with subgroup operations: see scan_lookback_body.glsl.
// Go body: shaders scanLBKernel.
#define SUBGROUPS
#include "scan_lookback_body.glsl"
