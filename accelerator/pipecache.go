package accelerator

import (
	"bytes"
	"log/slog"

	"github.com/goamp/goamp/internal/pipecache"
	"github.com/goamp/goamp/internal/vk"
)

// EnvPipelineCache is the environment variable of the on-disk pipeline cache: unset, the
// cache lives under the user's cache directory (os.UserCacheDir()/goamp/pipelines); "off"
// turns it off; any other value is the directory to use.
const EnvPipelineCache = pipecache.Env

// pipeCache is a Vulkan accelerator's on-disk pipeline cache: read when the device opens,
// written after each pipeline the device builds, so that a later process builds the same
// pipelines from the driver's cache instead of compiling them again.
type pipeCache struct {
	dir  string // "" when the cache is off or could not be set up
	key  pipecache.Key
	last []byte // the contents last read or written: an unchanged cache is not written again
}

// openPipelineCache gives dev the pipeline cache stored for it. A missing, corrupt or
// foreign file is ignored (the device starts with an empty cache); a device that cannot
// have a cache builds its pipelines without one.
func (a *Accelerator) openPipelineCache(dev *vk.Device) {
	dir := pipecache.Dir()
	if dir == "" {
		return
	}
	k := pipecache.Key{VendorID: a.info.VendorID, DeviceID: a.info.DeviceID,
		DriverVersion: a.info.DriverVersion, UUID: a.info.PipelineCacheUUID}
	data := pipecache.Load(dir, k)
	if err := dev.SetPipelineCache(data); err != nil {
		slog.Debug("goamp/accelerator: no pipeline cache", "accelerator", a.path, "err", err)
		return
	}
	a.pcache = pipeCache{dir: dir, key: k, last: data}
}

// savePipelineCache writes dev's pipeline cache to disk; a.pipeMu is held, so that no
// pipeline is built meanwhile. It runs after each new pipeline: pipelines are built once
// per program and tile shape, and a process may end at any time without closing anything.
func (a *Accelerator) savePipelineCache(dev *vk.Device) {
	if a.pcache.dir == "" {
		return
	}
	data, err := dev.PipelineCacheData()
	if err == nil && bytes.Equal(data, a.pcache.last) {
		return // a driver that keeps its own cache (Mesa's) may add nothing to ours
	}
	if err == nil {
		if err = pipecache.Store(a.pcache.dir, a.pcache.key, data); err == nil {
			a.pcache.last = data
		}
	}
	if err != nil {
		slog.Debug("goamp/accelerator: pipeline cache not saved", "accelerator", a.path, "err", err)
	}
}

// Pipelines is the number of compute pipelines the accelerator has built (each program's
// pipeline for each tile shape and rank it ran with); it is 0 for the CPU, which builds
// none. runtime.Prepare builds them ahead of time.
func (a *Accelerator) Pipelines() int {
	a.pipeMu.Lock()
	defer a.pipeMu.Unlock()
	return len(a.pipes)
}
