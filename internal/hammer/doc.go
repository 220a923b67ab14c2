// Package hammer is what the atomics' tests share (package arrayview's view atomics and
// package internal/atom's): it calls a function from many goroutines at once and builds
// the sequences their results are compared with. It imports only the standard library,
// and only tests import it.
package hammer
