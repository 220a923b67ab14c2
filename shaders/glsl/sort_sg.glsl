// The prelude of the sorts that rank keys by digit with subgroup ballots (sort_rank.glsl):
// sort_radix_scatter_sg.comp and sort_local.glsl include it right after
// #version, before any declaration. It enables the subgroup operations sort_rank.glsl uses
// and [[unroll]], and includes amp.glsl and the key maps (sort_keys.glsl).
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
#include "amp.glsl"
#include "sort_keys.glsl"
