package accelerator

import (
	"fmt"
	"os"
	goruntime "runtime"
	"sync"
	"sync/atomic"

	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/devlink"
	"github.com/goamp/goamp/internal/vk"
)

// CPUPath is the device path of the goroutine accelerator.
const CPUPath = "cpu"

// StrictCPUPath is the device path of the strict goroutine accelerator (StrictCPU).
const StrictCPUPath = "cpu:strict"

// EnvDefault is the environment variable that names the default accelerator's path.
const EnvDefault = "AMP_DEFAULT_ACCELERATOR"

// EnvValidation turns the Khronos validation layer on when it is "1".
const EnvValidation = "GOAMP_VALIDATION"

// EnvLibrary names the Vulkan loader to open instead of the system's (libvulkan.so.1,
// vulkan-1.dll, libvulkan.1.dylib or libMoltenVK.dylib).
const EnvLibrary = "GOAMP_VULKAN_LIBRARY"

// EnvNoPushDescriptor, set to "1", makes Vulkan devices bind kernels' buffers through
// descriptor sets even where they have VK_KHR_push_descriptor, as devices without it do
// (to test that path on any device).
const EnvNoPushDescriptor = "GOAMP_NO_PUSH_DESCRIPTOR"

// Accelerator is one compute device: a Vulkan physical device or the CPU.
type Accelerator struct {
	path string
	desc string
	info *vk.DeviceInfo // nil for the CPU
	reg  *registry

	mu     sync.Mutex
	dev    *vk.Device
	devErr error
	def    *View
	nextQ  int
	pipes  map[device.PipelineKey]*pipeline
	pipeMu sync.Mutex
	pcache pipeCache // guarded by pipeMu after the device opens
	limits Limits    // computed once: a dispatch reads them several times
	strict bool      // the strict goroutine accelerator (StrictCPU)
	// hostBytes counts the bytes of the strict accelerator's buffers.
	hostBytes atomic.Uint64
}

type registry struct {
	inst   *vk.Instance
	err    error // why there is no Vulkan device, if there is none
	all    []*Accelerator
	cpu    *Accelerator
	strict *Accelerator
	defMu  sync.Mutex
	defSet *Accelerator
}

var (
	regOnce sync.Once
	reg     *registry
)

func theRegistry() *registry {
	regOnce.Do(func() {
		reg = discover(vk.Options{Validation: os.Getenv(EnvValidation) == "1", Library: os.Getenv(EnvLibrary),
			InstanceExtensions: devlink.Open(), NoPushDescriptors: os.Getenv(EnvNoPushDescriptor) == "1"})
	})
	return reg
}

func discover(o vk.Options) *registry {
	r := &registry{}
	inst, err := vk.Open(o)
	if err != nil {
		r.err = err
	} else {
		r.inst = inst
		for i := range inst.Devices() {
			d := &inst.Devices()[i]
			l := limitsOf(d.Limits)
			if d.DriverName == "llvmpipe" {
				l.MaxLoopIterations = llvmpipeLoopCap
			}
			r.all = append(r.all, &Accelerator{path: fmt.Sprintf("vulkan:%d", d.Index), desc: d.Name, info: d, reg: r, limits: l})
		}
		if len(r.all) == 0 {
			r.err = fmt.Errorf("%w: the Vulkan loader found no physical device (is a driver such as mesa-vulkan-drivers installed?)", vk.ErrUnavailable)
		}
	}
	lim := Limits{
		MaxWorkgroupInvocations: 1024,
		MaxWorkgroupSize:        [3]uint32{1024, 1024, 64},
		MaxWorkgroupCount:       [3]uint32{1<<31 - 1, 1<<31 - 1, 1<<31 - 1},
		MaxSharedMemory:         64 << 10,
		MaxStorageBufferRange:   1<<32 - 1,
		MaxPushConstantsSize:    1 << 16,
	}
	procs := goruntime.GOMAXPROCS(0)
	r.cpu = &Accelerator{path: CPUPath, desc: fmt.Sprintf("CPU (goroutines, GOMAXPROCS=%d)", procs), reg: r, limits: lim}
	r.strict = &Accelerator{path: StrictCPUPath, desc: fmt.Sprintf("strict CPU (goroutines per thread, device copies, GOMAXPROCS=%d)", procs),
		reg: r, limits: lim, strict: true}
	r.all = append(r.all, r.cpu)
	return r
}

// All returns every accelerator a program chooses among: the Vulkan devices in enumeration
// order, then the CPU. The strict CPU (StrictCPU), a way of running the CPU for tests, is
// not among them; Get finds it by its path.
func All() []*Accelerator {
	r := theRegistry()
	return append([]*Accelerator(nil), r.all...)
}

// CPU returns the goroutine accelerator.
func CPU() *Accelerator { return theRegistry().cpu }

// StrictCPU returns the strict goroutine accelerator, path "cpu:strict": the CPU made to
// behave as a discrete GPU, for tests (package amptest runs kernels there first). It runs
// a kernel's Go definition (Each, Tiled) once per thread, never its fast CPU body, over
// device copies of its array views that live in memory of their own: a kernel reads and
// writes the copy, the Go slice changes only when the host asks for the data (Synchronize,
// Data, CopyTo, Close), and a Go slice changed behind a view's back without Refresh is not
// seen by the next kernel, as on a GPU. Data that is discarded (DiscardData, an array
// made without data) and tile_static memory start as poison (NaN in floating point
// values, 0xdeadbeef's bytes in integers), where the plain CPU gives zeros or the host's
// data. A program that passes there does not lean on the CPU's shared memory; it is as
// fast as the CPU's per-thread path (go test -race), many times slower than its fast
// bodies. It is not in All, and Default returns it only when asked for by path
// (AMP_DEFAULT_ACCELERATOR=cpu:strict runs a whole program there).
func StrictCPU() *Accelerator { return theRegistry().strict }

// NoVulkanReason says why no Vulkan accelerator exists, or nil when at least one does.
func NoVulkanReason() error { return theRegistry().err }

// ValidationEnabled reports whether the Khronos validation layer is on.
func ValidationEnabled() bool {
	r := theRegistry()
	return r.inst != nil && r.inst.Validation()
}

// ValidationMessages drains the messages the validation layer has reported so far (each
// was also passed to the validation handler as it was reported: SetValidationHandler).
func ValidationMessages() []string {
	theRegistry()
	return vk.TakeMessages()
}

// Get returns the accelerator with the given device path.
func Get(path string) (*Accelerator, error) {
	r := theRegistry()
	return r.get(path, "")
}

func (r *registry) get(path, source string) (*Accelerator, error) {
	for _, a := range append(r.all, r.strict) {
		if a.path == path {
			return a, nil
		}
	}
	known := make([]string, len(r.all), len(r.all)+1)
	for i, a := range r.all {
		known[i] = a.path
	}
	known = append(known, r.strict.path)
	return nil, &PathError{Path: path, Known: known, Source: source}
}

// Default returns the default accelerator: the one SetDefault chose, else the one named by
// AMP_DEFAULT_ACCELERATOR (an error if it names none), else the non-emulated Vulkan device
// with the most dedicated memory, else the CPU. An emulated Vulkan device (lavapipe: the
// CPU behind Vulkan, many times slower than the CPU accelerator) is never the default; it
// runs when asked for by path.
func Default() (*Accelerator, error) {
	r := theRegistry()
	r.defMu.Lock()
	set := r.defSet
	r.defMu.Unlock()
	if set != nil {
		return set, nil
	}
	if p, ok := os.LookupEnv(EnvDefault); ok && p != "" {
		return r.get(p, EnvDefault)
	}
	return r.heuristic(), nil
}

func (r *registry) heuristic() *Accelerator {
	best := r.cpu
	for _, a := range r.all {
		if a.info == nil || a.info.ComputeFamily < 0 || a.IsEmulated() {
			continue
		}
		if best == r.cpu || a.DedicatedMemory() > best.DedicatedMemory() {
			best = a
		}
	}
	return best
}

// SetDefault makes the accelerator with the given path the default for this process.
// It returns a *PathError when no accelerator has that path.
func SetDefault(path string) error {
	r := theRegistry()
	a, err := r.get(path, "")
	if err != nil {
		return err
	}
	r.defMu.Lock()
	r.defSet = a
	r.defMu.Unlock()
	return nil
}

// ResetDefault forgets SetDefault's choice, so that Default applies its rules again.
func ResetDefault() {
	r := theRegistry()
	r.defMu.Lock()
	r.defSet = nil
	r.defMu.Unlock()
}

// Path is the accelerator's device path: "cpu", "cpu:strict" or "vulkan:N".
func (a *Accelerator) Path() string { return a.path }

// Description is the device's name.
func (a *Accelerator) Description() string { return a.desc }

// String is "path (description)".
func (a *Accelerator) String() string { return a.path + " (" + a.desc + ")" }

// IsCPU reports whether this is a goroutine accelerator (path "cpu" or "cpu:strict"). It names the
// accelerator and nothing more: code that chooses a path by it should ask Traits instead,
// for the property the choice depends on (HostMemory, Wide), or Workers, SubgroupOps,
// SupportsCPUSharedMemory or Limits. goamp's own packages choose nothing by it (runtime's
// dispatcher picks its goroutine executor by Traits().HostMemory); tests about the CPU
// accelerator itself use it.
func (a *Accelerator) IsCPU() bool { return a.info == nil }

// IsEmulated reports whether the accelerator is the CPU in disguise: the goroutine
// accelerator, or a Vulkan device of CPU type such as lavapipe.
func (a *Accelerator) IsEmulated() bool { return a.info == nil || a.info.Type == vk.TypeCPU }

// DedicatedMemory is the size in bytes of the device-local memory heaps (0 for the CPU).
func (a *Accelerator) DedicatedMemory() uint64 {
	if a.info == nil {
		return 0
	}
	return a.info.DeviceLocalBytes()
}

// SupportsDoublePrecision reports full float64 support in kernels.
func (a *Accelerator) SupportsDoublePrecision() bool { return a.info == nil || a.info.Float64 }

// SupportsLimitedDoublePrecision reports float64 arithmetic without the full set of
// float64 operations; in Vulkan it is the same feature as full double precision.
func (a *Accelerator) SupportsLimitedDoublePrecision() bool { return a.SupportsDoublePrecision() }

// SupportsInt64 reports whether kernels may compute in 64-bit integers (shaderInt64).
func (a *Accelerator) SupportsInt64() bool { return a.info == nil || a.info.Int64 }

// SupportsInt16 reports whether kernels may compute in 16-bit integers (shaderInt16).
func (a *Accelerator) SupportsInt16() bool { return a.info == nil || a.info.Int16 }

// SupportsCPUSharedMemory reports whether the host maps the device's memory directly
// (unified memory: lavapipe, integrated GPUs, the CPU), so no staging copies are needed.
func (a *Accelerator) SupportsCPUSharedMemory() bool { return a.info == nil || a.info.UnifiedMemory() }

// Version is the Vulkan API version the device supports ("1.3.230"), or the Go version for the CPU.
func (a *Accelerator) Version() string {
	if a.info == nil {
		return goruntime.Version()
	}
	return vk.APIVersionString(a.info.APIVersion)
}

// DriverVersion is the driver's version in its vendor's format ("" for the CPU).
func (a *Accelerator) DriverVersion() string {
	if a.info == nil {
		return ""
	}
	return vk.DriverVersionString(a.info.VendorID, a.info.DriverVersion)
}

// Limits are the compute limits of the device.
func (a *Accelerator) Limits() Limits { return a.limits }

// SubgroupSize is the device's default subgroup (warp, wave) size; 1 for the CPU.
func (a *Accelerator) SubgroupSize() uint32 {
	if a.info == nil {
		return 1
	}
	return a.info.SubgroupSize
}

// SubgroupOps are the subgroup operations the device supports in compute shaders.
func (a *Accelerator) SubgroupOps() SubgroupOps {
	if a.info == nil {
		return 0
	}
	return SubgroupOps(a.info.SubgroupOps)
}

// device opens the logical device on first use.
func (a *Accelerator) device() (*vk.Device, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.dev != nil || a.devErr != nil {
		return a.dev, a.devErr
	}
	a.dev, a.devErr = a.reg.inst.OpenDevice(a.info.Index, 8)
	if a.devErr != nil {
		a.devErr = fmt.Errorf("goamp/accelerator: %s: %w", a.path, a.devErr)
		return nil, a.devErr
	}
	a.openPipelineCache(a.dev)
	return a.dev, nil
}
