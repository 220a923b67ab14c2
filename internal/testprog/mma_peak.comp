#version 450
// Benchmark program (algo's BenchmarkCoopPeak) with GL_NV_cooperative_matrix: mma_peak.glsl.
#extension GL_NV_cooperative_matrix : require
#include "mma_peak.glsl"
