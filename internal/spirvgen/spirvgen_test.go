package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

const (
	grammarDir = "../spirv/third_party/spirv-headers/"
	output     = "../spirv/spirv_gen.go"
)

// TestFresh fails when internal/spirv's generated declarations are not what
// spirvgen makes of the vendored grammar now: run go generate ./internal/spirv/.
func TestFresh(t *testing.T) {
	want, err := generateFiles(grammarDir+"spirv.core.grammar.json",
		grammarDir+"extinst.glsl.std.450.grammar.json")
	require.NoError(t, err)
	got, err := os.ReadFile(output)
	require.NoError(t, err)
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go generate ./internal/spirv/", output)
	}
}

// TestBadGrammar checks that a grammar the generator cannot declare in Go is
// refused with an error that names the offender.
func TestBadGrammar(t *testing.T) {
	for _, c := range []struct {
		name string
		g    grammar
		want string
	}{
		{"opcode name", grammar{Magic: "0x07230203",
			Instructions: []instruction{{Name: "Op Bad", Opcode: 1}}}, `"Op Bad"`},
		{"duplicate opcode", grammar{Magic: "0x07230203",
			Instructions: []instruction{{Name: "OpA", Opcode: 1}, {Name: "OpB", Opcode: 1}}},
			"opcode 1 is declared twice (OpA, OpB)"},
		{"undeclared kind", grammar{Magic: "0x07230203",
			Instructions: []instruction{{Name: "OpA", Opcode: 1,
				Operands: []operand{{Kind: "IdRef", Name: "x"}}}}}, `undeclared kind "IdRef"`},
		{"enumerant value", grammar{Magic: "0x07230203", Kinds: []operandKind{{Category: "ValueEnum",
			Kind: "Foo", Enumerants: []enumerant{{Name: "A", Value: []byte(`"zz"`)}}}}}, "enumerant A"},
		{"category", grammar{Magic: "0x07230203", Kinds: []operandKind{{Category: "Odd", Kind: "Foo"}}},
			`unknown category "Odd"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := generate(&c.g, &grammar{})
			require.ErrorContains(t, err, c.want)
		})
	}
}
