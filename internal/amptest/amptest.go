// Package amptest holds what goamp's test suites share: a TestMain that fails the run
// when the Khronos validation layer reported anything.
package amptest

import (
	"os"
	"testing"

	"github.com/goamp/goamp/accelerator"
)

// Main runs the tests, then fails the run (exit status 1) if the validation layer reported
// any message, printing each. Use it as a package's TestMain: func TestMain(m *testing.M)
// { amptest.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	if msgs := accelerator.ValidationMessages(); len(msgs) > 0 {
		for _, s := range msgs {
			os.Stderr.WriteString("validation: " + s + "\n")
		}
		code = 1
	}
	os.Exit(code)
}
