#version 450
// Benchmark program (algo's BenchmarkCoopPeak) with GL_KHR_cooperative_matrix:
// mma_peak.glsl. Compiled by the Makefile's GLSLC_KHR (a newer glslc than bookworm's).
#extension GL_KHR_cooperative_matrix : require
#define AMP_COOP_KHR
#include "mma_peak.glsl"
