// Package amptest is what remains of goamp's private test harness: its Main is the public
// amptest.Main. Only package shaders still imports it; once shaders' TestMain calls
// github.com/goamp/goamp/amptest.Main, this package goes.
package amptest

import (
	"testing"

	"github.com/goamp/goamp/amptest"
)

// Main is amptest.Main: it runs the tests, then fails the run when the validation layer
// reported messages that no test drained.
func Main(m *testing.M) { amptest.Main(m) }
