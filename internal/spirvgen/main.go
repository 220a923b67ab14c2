// Command spirvgen generates internal/spirv's declarations from the Khronos
// machine-readable SPIR-V grammar: the opcodes, the enumerants of every
// operand kind, the operands of each instruction and of each enumerant that
// takes parameters, and the GLSL.std.450 extended instructions.
//
// Usage (go:generate in internal/spirv):
//
//	spirvgen -o spirv_gen.go spirv.core.grammar.json extinst.glsl.std.450.grammar.json
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "", "output file")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: spirvgen -o out.go core.grammar.json glsl.std.450.grammar.json")
		os.Exit(2)
	}
	src, err := generateFiles(flag.Arg(0), flag.Arg(1))
	if err == nil {
		err = os.WriteFile(*out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "spirvgen:", err)
		os.Exit(1)
	}
}
