// Package lint holds the checks of goamp's own source that gofmt, go vet and staticcheck
// do not make, as tests over the module's files that CI runs with the others: no function
// longer than 80 lines outside generated code; no package asking whether an
// accelerator is the CPU outside the executors; each package importing only what
// allowedImports (deps_test.go) allows it, which docs/layers.md draws as layers; the
// exported names of accelerator and runtime, what go doc shows programs, as
// testdata/api lists them; and no comment citing an issue's number or a branch. It has no API and imports nothing of
// goamp's.
package lint
