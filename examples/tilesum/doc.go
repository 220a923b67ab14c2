// Package tilesum is a single-source goamp kernel, as a user writes one: TileSum's Tiled
// method is the kernel, in Go. It runs as it is on the CPU accelerator, and ampgen
// (go generate) translates it to GLSL and SPIR-V for Vulkan devices: amp_gen.go, the
// generated file, gives TileSum its Program method. Nobody writes GLSL.
//
// The kernel uses what C++ AMP's tiled kernels use: tile_static memory
// (runtime.TileStatic), barriers (t.Barrier.Wait and its fenced forms) and an atomic
// (View.AtomicAdd). See docs/kernel-language.md for the language and the Example for a
// run.
package tilesum

//go:generate go run github.com/goamp/goamp/cmd/ampgen
