// Package vecgen writes package vec's vector types (vec/vec_gen.go) from one template: the
// nine types Float2..Float4, Int2..Int4 and Uint2..Uint4 have the same methods but for
// their component type and count, so their code is written once, here. It imports only
// the standard library; nothing but its generator command (vecgen/gen) and its test use it.
package vecgen
