// Package ampimpl is the support of the code that ampgen generates (amp_gen.go files),
// and only of it: programs do not call it.
//
// Generated code is tied to the goamp it was generated for. Every amp_gen.go checks at
// compile time that the goamp it is built with supports its version: it declares a
// constant of the type that exists only at that version (V2_RunGoGenerate at Version
// 2). An amp_gen.go written by an older or a newer ampgen names a type this package
// does not declare, so its package fails to build with
//
//	undefined: ampimpl.V1_RunGoGenerate
//
// and a comment beside the line: run go generate in that package, with the ampgen of
// the goamp in go.mod (go get -tool github.com/goamp/goamp/cmd/ampgen).
package ampimpl

// Version is the version of the generated code this goamp supports, and the one its
// ampgen writes. It changes when generated code and the runtime's support for it
// change together.
const Version = 2

// V2_RunGoGenerate is the type that amp_gen.go files of Version 2 declare a constant of.
// When Version changes, it is renamed after the new version.
type V2_RunGoGenerate uint8
