//go:build cgo

package vk

/*
#include "shim.h"
#include <stdlib.h>
*/
import "C"

import "unsafe"

// SetPipelineCache gives the device a pipeline cache filled from data (nil: empty), through
// which every later NewPipeline goes. A driver that refuses data (a cache of another
// device or driver) gets an empty cache instead; data should already have been checked
// (internal/pipecache), as drivers need not check more than the header. Call it before the
// device builds its first pipeline.
func (dev *Device) SetPipelineCache(data []byte) error {
	var p unsafe.Pointer
	if len(data) > 0 {
		p = C.CBytes(data)
		defer C.free(p)
	}
	return check("creating a pipeline cache", C.amp_cache_create(dev.d, p, C.size_t(len(data))))
}

// PipelineCacheData returns the contents of the device's pipeline cache (vkGetPipelineCacheData),
// nil when it has none. The caller serializes it with NewPipeline.
func (dev *Device) PipelineCacheData() ([]byte, error) {
	for {
		var n C.size_t
		if err := check("reading the pipeline cache", C.amp_cache_data(dev.d, nil, &n)); err != nil || n == 0 {
			return nil, err
		}
		buf := C.malloc(n)
		got := n
		r := C.amp_cache_data(dev.d, buf, &got)
		data := C.GoBytes(buf, C.int(got))
		C.free(buf)
		if r == C.VK_INCOMPLETE { // the cache grew between the calls
			continue
		}
		if err := check("reading the pipeline cache", r); err != nil {
			return nil, err
		}
		return data, nil
	}
}
