package algo_test

import (
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
)

// TestMain fails the run when the Vulkan validation layer reported anything.
func TestMain(m *testing.M) { amptest.Main(m) }

// benchViews runs f in a sub-benchmark per accelerator on a fresh view of it
// (amptest.EachView).
func benchViews(b *testing.B, f func(b *testing.B, av *accelerator.View)) { amptest.EachView(b, f) }
