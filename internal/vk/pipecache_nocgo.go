//go:build !cgo

package vk

// SetPipelineCache always fails without cgo.
func (*Device) SetPipelineCache([]byte) error { return unavailable() }

// PipelineCacheData always fails without cgo.
func (*Device) PipelineCacheData() ([]byte, error) { return nil, unavailable() }
