// Package include holds amp.glsl, the include file of hand-written GLSL kernels: the
// GLSL side of goamp's dispatch contract (bindings, push constants, index helpers,
// barriers). Kernels written in Go need none of it: ampgen translates them. For a
// hand-written kernel, `go run github.com/goamp/goamp/cmd/ampgen -amp-glsl DIR` writes
// the file out; compile the kernel with
//
//	glslc -O --target-env=vulkan1.1 -I DIR -o kernel.spv kernel.comp
//
// and give the module to runtime.NewProgram. The package has no dependencies.
package include

import _ "embed"

// AmpGLSL is the text of amp.glsl.
//
//go:embed amp.glsl
var AmpGLSL string
