package accelerator

import "os"

// EnvForceStaging, set to "1", makes Vulkan views move data as they do on a discrete GPU
// even where the device's memory is unified (lavapipe, integrated GPUs): buffers in
// device-local memory that the host does not map, filled and read through the view's
// staging buffers by copy commands. It lets a machine without a discrete GPU test that
// path (make test-staging). It is read once, when the program starts.
const EnvForceStaging = "GOAMP_FORCE_STAGING"

// forceStaging is EnvForceStaging's setting.
var forceStaging = os.Getenv(EnvForceStaging) == "1"

// mapsBuffers reports whether the accelerator's buffers are mapped for direct host access:
// on unified memory, unless GOAMP_FORCE_STAGING=1.
func (a *Accelerator) mapsBuffers() bool { return a.SupportsCPUSharedMemory() && !forceStaging }

// HostMapped reports whether the host reads and writes the buffer through a mapping
// (unified memory) rather than by staging copies (a discrete GPU, or
// GOAMP_FORCE_STAGING=1). It is false for a freed buffer; do not call it while another
// goroutine frees the buffer.
func (b *buffer) HostMapped() bool { return b.vb != nil && b.vb.Mapped() != nil }
