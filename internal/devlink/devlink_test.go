package devlink

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtensions checks that Open returns the extensions set before it (a copy), and that
// setting them after Open fails with ErrOpened and changes nothing.
func TestExtensions(t *testing.T) {
	// This package's tests open no Vulkan, so the state is the test's own; reset it for
	// -count=2.
	mu.Lock()
	exts, opened = nil, false
	mu.Unlock()
	set := []string{"VK_KHR_surface", "VK_KHR_xlib_surface"}
	require.NoError(t, SetInstanceExtensions(set))
	set[0] = "changed"
	got := Open()
	assert.Equal(t, []string{"VK_KHR_surface", "VK_KHR_xlib_surface"}, got)
	require.ErrorIs(t, SetInstanceExtensions([]string{"VK_EXT_other"}), ErrOpened)
	assert.Equal(t, got, Open())
}
