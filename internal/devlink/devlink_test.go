package devlink

import (
	"testing"

	"github.com/goamp/goamp/internal/vk"
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

// TestLink checks that Get returns the Link that Set installed, typed, and nothing for
// other types.
func TestLink(t *testing.T) {
	type view struct{ name string }
	type buffer struct{}
	mu.Lock()
	saved := link
	mu.Unlock()
	defer func() { mu.Lock(); link = saved; mu.Unlock() }()
	var seen []string
	Set(Link[*view, *buffer]{
		View: func(v *view) (*vk.Device, *vk.Queue, error) {
			seen = append(seen, v.name)
			return nil, nil, nil
		},
	})
	l, ok := Get[*view, *buffer]()
	require.True(t, ok)
	_, _, err := l.View(&view{name: "v1"})
	require.NoError(t, err)
	assert.Equal(t, []string{"v1"}, seen)
	_, ok = Get[*buffer, *view]()
	assert.False(t, ok, "a Link of other types")
}
