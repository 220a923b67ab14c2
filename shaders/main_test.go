package shaders_test

import (
	"testing"

	"github.com/goamp/goamp/amptest"
)

// TestMain fails the run when the Vulkan validation layer reported anything.
func TestMain(m *testing.M) { amptest.Main(m) }
