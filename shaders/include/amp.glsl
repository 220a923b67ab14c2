// amp.glsl: the GLSL side of goamp's dispatch contract (runtime.ParallelForEach).
//
// A kernel's GLSL body includes this file (glslc enables #include itself; glslangValidator
// needs "#extension GL_GOOGLE_include_directive : require" first) and declares:
//
//   #version 450
//   #include "amp.glsl"
//   AMP_WORKGROUP                                      // local size = spec constants 0, 1, 2
//   AMP_BUFFER(0, readonly, int, sampleData);          // binding n = n-th runtime.Arg field
//   AMP_BUFFER(1, writeonly, int, averageData);
//   AMP_PUSH_BEGIN AmpView sample; AmpView average;    // one AmpView per Arg field, in order,
//       int numCols;                                   // then the int32/uint32/float32 fields
//   AMP_PUSH_END                                       // -> uniform block instance "amp"
//
// Indices follow C++ AMP: component 0 is dimension 0, the slowest varying. For a domain of
// rank r, Vulkan's x axis is dimension r-1, y is r-2 and z is r-3.
//
// Push constants (std430, 4-byte little-endian words):
//   offset 0:         uvec4 domain = (e0, e1, e2, total): the extent in C++ order, missing
//                     dimensions 1, and the number of points
//   offset 16 + 16n:  AmpView of data argument n = (base, s0, s1, e0), counted in elements;
//                     e0 is the argument's dimension 0 (runtime.ArgInfo.Extent)
//   then:             the scalars, 4 bytes each, in field order
//   then, optional:   uint ampExtents[2m]: dimensions 1 and 2 of data arguments 0..m-1 (0
//                     past an argument's rank), for a body that reads its views' extents
//                     (ampgen declares it for k.V.Extent().Dim(c) with c != 0 and Size)
// The block without ampExtents is at most 128 bytes (at most 7 views); with it, at most the
// device's maxPushConstantsSize (128 bytes on lavapipe, 256 on NVIDIA's drivers).
//
// Buffers written by one thread and read by another thread of the same tile through a
// barrier must be declared coherent (AMP_BUFFER(n, coherent, ...)).
#ifndef AMP_GLSL
#define AMP_GLSL

// AmpView addresses a data argument: element (i0, i1, i2) is at base + i0*s0 + i1*s1 + i2
// (rank 2: base + i0*s0 + i1; rank 1: base + i0).
struct AmpView {
	uint base;
	uint s0;
	uint s1;
	uint pad; // e0: the argument's dimension 0
};

#define AMP_PUSH_BEGIN layout(push_constant) uniform AmpPush { uvec4 domain;
#define AMP_PUSH_END } amp;

// The workgroup (tile) size is specialization constants 0, 1, 2. It is declared here, before
// the helpers below use gl_WorkGroupSize: a function compiled before the declaration would
// see the default size (1, 1, 1). AMP_WORKGROUP stays for kernels that spell it out.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
#define AMP_WORKGROUP

// AMP_BUFFER(binding, qualifiers, T, name) declares the storage buffer of a data argument
// as a runtime-sized array T name[]. qualifiers: readonly, writeonly, coherent or nothing.
#define AMP_BUFFER(b, q, T, name) layout(std430, binding = b) q buffer AmpBuffer_##name { T name[]; }

// Addressing: the element index of i in a view.
uint ampAt1(AmpView v, int i) { return v.base + uint(i); }
uint ampAt2(AmpView v, ivec2 i) { return v.base + uint(i.x) * v.s0 + uint(i.y); }
uint ampAt3(AmpView v, ivec3 i) { return v.base + uint(i.x) * v.s0 + uint(i.y) * v.s1 + uint(i.z); }

// Tiled kernels: the thread's global index, local index within its tile, tile index and
// tile origin (C++ AMP's tiled_index global, local, tile, tile_origin).
int ampGlobal1() { return int(gl_GlobalInvocationID.x); }
ivec2 ampGlobal2() { return ivec2(gl_GlobalInvocationID.yx); }
ivec3 ampGlobal3() { return ivec3(gl_GlobalInvocationID.zyx); }
int ampLocal1() { return int(gl_LocalInvocationID.x); }
ivec2 ampLocal2() { return ivec2(gl_LocalInvocationID.yx); }
ivec3 ampLocal3() { return ivec3(gl_LocalInvocationID.zyx); }
int ampTile1() { return int(gl_WorkGroupID.x); }
ivec2 ampTile2() { return ivec2(gl_WorkGroupID.yx); }
ivec3 ampTile3() { return ivec3(gl_WorkGroupID.zyx); }
int ampTileOrigin1() { return int(gl_WorkGroupID.x * gl_WorkGroupSize.x); }
ivec2 ampTileOrigin2() { return ivec2(gl_WorkGroupID.yx * gl_WorkGroupSize.yx); }
ivec3 ampTileOrigin3() { return ivec3(gl_WorkGroupID.zyx * gl_WorkGroupSize.zyx); }
// The tile's extent (C++ AMP's tile_extent) and the thread's row-major rank in its tile.
int ampTileExtent1() { return int(gl_WorkGroupSize.x); }
ivec2 ampTileExtent2() { return ivec2(gl_WorkGroupSize.yx); }
ivec3 ampTileExtent3() { return ivec3(gl_WorkGroupSize.zyx); }
int ampLocalLinear() { return int(gl_LocalInvocationIndex); }

// Non-tiled kernels: the linear index is folded into a 2-D workgroup grid.
uint ampLinearIndex() {
	return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}
bool ampIndex1D(uvec4 d, out int i) {
	uint n = ampLinearIndex();
	i = int(n);
	return n < d.w;
}
bool ampIndex2D(uvec4 d, out ivec2 i) {
	uint n = ampLinearIndex();
	i = ivec2(n / d.y, n % d.y);
	return n < d.w;
}
bool ampIndex3D(uvec4 d, out ivec3 i) {
	uint n = ampLinearIndex();
	uint t = n / d.z;
	i = ivec3(t / d.y, t % d.y, n % d.z);
	return n < d.w;
}
// ampIndex1/2/3(out i) set i to the thread's index of the domain and return false for the
// threads past its end, which must do nothing: "int i; if (!ampIndex1(i)) return;".
#define ampIndex1(i) ampIndex1D(amp.domain, i)
#define ampIndex2(i) ampIndex2D(amp.domain, i)
#define ampIndex3(i) ampIndex3D(amp.domain, i)
// The domain's extent in C++ order and its number of points.
#define ampExtent1() int(amp.domain.x)
#define ampExtent2() ivec2(amp.domain.xy)
#define ampExtent3() ivec3(amp.domain.xyz)
#define ampSize() amp.domain.w

// C++ AMP's tile_barrier: every thread of the tile must reach the same barriers
// (uniform control flow). wait and wait_with_all_memory_fence fence all memory.
void ampBarrierWait() { memoryBarrier(); barrier(); }
void ampWaitWithAllMemoryFence() { memoryBarrier(); barrier(); }
void ampWaitWithGlobalMemoryFence() { memoryBarrierBuffer(); barrier(); }
void ampWaitWithTileStaticMemoryFence() { memoryBarrierShared(); barrier(); }
// The fences without a barrier (all_memory_fence, global_memory_fence,
// tile_static_memory_fence).
void ampAllMemoryFence() { memoryBarrier(); }
void ampGlobalMemoryFence() { memoryBarrierBuffer(); }
void ampTileStaticMemoryFence() { memoryBarrierShared(); }

#endif // AMP_GLSL
