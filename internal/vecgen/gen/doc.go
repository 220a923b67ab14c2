// Command gen writes vec/vec_gen.go from package vecgen's template; go generate ./vec runs
// it (the generate line is in vec/doc.go).
//
//	go run ./internal/vecgen/gen OUTPUT
package main
