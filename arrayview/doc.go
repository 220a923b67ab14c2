// Package arrayview is goamp's C++ AMP array and array_view: data wrapped for kernels, and
// its coherence between the Go slice on the host and copies on accelerator views.
//
// A View wraps a Go slice with a rank 1-3 extent. Kernels read and write it on any
// accelerator; the runtime copies data only when it must. Each data source (the slice) keeps
// one validity mask per element range and location (the host, and each accelerator view it
// was used on): a location whose bit is set holds the current data. A read at a location
// copies only the ranges it lacks; a write leaves the writer's copy the only valid one (MSI:
// modified, shared, invalid). Sections and projections share their source's state for
// their range. Views created on the same slice share one source, so they stay coherent.
//
// When data reaches the host: Go has no destructors, so nothing happens at the end of a
// scope. Results written on a device reach the Go slice on Synchronize, on Data, on element
// access (At, Set) and on Close. Reading the slice directly before one of those sees stale
// data; writing it directly must be followed by Refresh, which tells the view that the host
// copy is the only valid one.
//
// DiscardData says the current contents do not matter (C++ AMP discard_data): the next
// device access uploads nothing, and a discarded view copies nothing back. The discard is
// transient: the next write makes the range valid again.
//
// Arrays (NewArray) live on one accelerator view; their host copy is their own, brought up
// to date when the host asks (At, CopyTo), never on Close. NewDeviceArray makes one with no
// host copy at all, for intermediate results: nothing is uploaded or copied back, and
// CopyTo and CopyFrom move its data straight between a Go slice and the device.
//
// Memory: each source gets one device copy per accelerator view that uses it: one buffer,
// or, where the source is larger than one device allocation (maxMemoryAllocationSize, 4 GiB
// on an H100), chunks of a power of two bytes, each allocated when a kernel first touches
// it, so an accelerator holds only the chunks of the sections it works on. Devices with
// unified memory (lavapipe, integrated GPUs) map the buffers and copy with memcpy; discrete
// GPUs copy through the view's staging buffers or the slice's own pinned pages. A kernel
// binds a view's own byte window of one buffer, so a source larger than the device's
// maxStorageBufferRange works as long as each view bound to a kernel fits in it and in one
// chunk: a view that does not gets a *TooLargeError or an *AllocationSpanError, and
// View.BindEnd says where to cut sections that bind.
//
// Several accelerators: a source's state is kept per location, so one view may be used by
// kernels on several accelerator views (runtime.ParallelForEachOn gives each its sections):
// a read copies what the location lacks from wherever it is valid, through the host.
// (package algo's elementwise kernels, Reduce, the scans and Sort split longer views into
// such sections themselves; View.Release drops a section without copying it back.)
//
// Element types: int32, uint32, float32, float64, goamp's vec types, half.Float16, int8 and
// uint8, and structs of those (and fixed arrays of them), which Go lays out as GLSL's std430
// does. Anything else is rejected with a *TypeError. float64 needs a device with double
// precision, half.Float16 one with 16-bit storage, int8 and uint8 one with 8-bit storage
// (accelerator.Accelerator.Supports8BitStorage; lavapipe and NVIDIA's drivers have it): a
// device without is reported by an *accelerator.FeatureError when an array is made on it or
// a view is bound to a kernel there.
package arrayview
