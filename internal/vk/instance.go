package vk

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

var loadMu sync.Mutex

// The Vulkan loader, once Open has loaded it (under loadMu): its name, its
// vkGetInstanceProcAddr and the commands it exports before any instance exists.
var (
	loadedLib string
	gipa      uintptr
	global    globalFuncs
)

func check(op string, r int32) error {
	if r == vkSuccess {
		return nil
	}
	return &Error{Op: op, Result: r}
}

// procAddr returns vkGetInstanceProcAddr(inst, name); name ends in a NUL byte.
func procAddr(inst vkInstance, name string) uintptr {
	return call(gipa, uintptr(inst), uintptr(unsafe.Pointer(unsafe.StringData(name))), 0, 0, 0, 0, 0, 0, 0, 0)
}

// cString returns s as a NUL-terminated C string in Go memory.
func cString(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
}

// cStrings returns the C array of C strings of ss, or nil when ss is empty.
func cStrings(ss []string) unsafe.Pointer {
	if len(ss) == 0 {
		return nil
	}
	p := make([]*byte, len(ss))
	for i, s := range ss {
		p[i] = cString(s)
	}
	return unsafe.Pointer(&p[0])
}

// goString is the C string in b, up to its first NUL byte.
func goString(b []byte) string {
	if i := slices.Index(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// Instance is a Vulkan instance with its physical devices described.
type Instance struct {
	inst       vkInstance
	fn         instanceFuncs
	validation bool
	messenger  vkDebugUtilsMessengerEXT
	// surface: the instance has VK_KHR_surface (Options.InstanceExtensions), so its devices
	// are opened with VK_KHR_swapchain where they have it.
	surface bool
	// noPush: Options.NoPushDescriptors.
	noPush  bool
	devices []DeviceInfo
	phys    []vkPhysicalDevice
	exts    []map[string]bool // the device extensions of each physical device
}

// load loads the Vulkan loader named by o (or the first of the platform's that loads)
// unless one is loaded already; loadMu is held.
func load(o Options) error {
	libs := defaultLibraries()
	if o.Library != "" {
		libs = []string{o.Library}
	}
	// The loader stays loaded for the process, so a second Open naming another library
	// would silently get the first one.
	if loadedLib != "" {
		if o.Library != "" && loadedLib != o.Library {
			return fmt.Errorf("%w: cannot load %s: %s is loaded already, and a process keeps its first Vulkan loader", ErrUnavailable, o.Library, loadedLib)
		}
		return nil
	}
	var errs []string
	for _, lib := range libs {
		p, err := openLibrary(lib)
		if err != nil {
			errs = append(errs, fmt.Sprintf("cannot load %s: %v", lib, err))
			continue
		}
		gipa, loadedLib = p, lib
		global.load(func(name string) uintptr { return procAddr(0, name) })
		if global.createInstance == 0 {
			return fmt.Errorf("%w: %s has no vkCreateInstance", ErrUnavailable, lib)
		}
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnavailable, strings.Join(errs, "; "))
}

// Open loads the Vulkan loader and creates an instance. Errors match ErrUnavailable.
func Open(o Options) (*Instance, error) {
	loadMu.Lock()
	defer loadMu.Unlock()
	if err := load(o); err != nil {
		return nil, err
	}
	var layers, exts []string
	if o.Validation {
		if !hasLayer("VK_LAYER_KHRONOS_validation") {
			return nil, fmt.Errorf("%w: validation requested but VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)", ErrUnavailable)
		}
		layers = append(layers, "VK_LAYER_KHRONOS_validation")
		exts = append(exts, vkEXTDebugUtilsExtensionName)
	}
	// A window's extensions are enabled where the loader has them (the window says so when
	// it makes its surface); without them goamp computes as before.
	surface := false
	for _, e := range o.InstanceExtensions {
		if hasInstanceExtension(e) {
			exts = append(exts, e)
			surface = surface || e == "VK_KHR_surface"
		}
	}
	ci := &vkInstanceCreateInfo{sType: vkStructureTypeInstanceCreateInfo,
		enabledLayerCount: uint32(len(layers)), ppEnabledLayerNames: cStrings(layers)}
	// Portability drivers (MoltenVK) are listed only to instances that ask for them.
	if hasInstanceExtension(vkKHRPortabilityEnumerationExtensionName) {
		exts = append(exts, vkKHRPortabilityEnumerationExtensionName)
		ci.flags |= vkInstanceCreateEnumeratePortabilityBitKHR
	}
	ci.enabledExtensionCount, ci.ppEnabledExtensionNames = uint32(len(exts)), cStrings(exts)
	ci.pApplicationInfo = unsafe.Pointer(&vkApplicationInfo{sType: vkStructureTypeApplicationInfo,
		pApplicationName: unsafe.Pointer(cString("goamp")), pEngineName: unsafe.Pointer(cString("goamp")),
		apiVersion: 1<<22 | 3<<12})
	if o.Validation {
		ci.pNext = unsafe.Pointer(messengerInfo())
	}
	in := &Instance{validation: o.Validation, surface: surface, noPush: o.NoPushDescriptors}
	if r := global.CreateInstance(ci, nil, &in.inst); r != vkSuccess {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, &Error{Op: "vkCreateInstance", Result: r})
	}
	in.fn.load(func(name string) uintptr { return procAddr(in.inst, name) })
	if in.fn.createDevice == 0 || in.fn.getDeviceProcAddr == 0 {
		in.Close()
		return nil, fmt.Errorf("%w: the instance lacks vkCreateDevice", ErrUnavailable)
	}
	if o.Validation {
		if err := in.startMessenger(); err != nil {
			in.Close()
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
	if err := in.enumerate(); err != nil {
		in.Close()
		return nil, err
	}
	return in, nil
}

// startMessenger creates the debug-utils messenger that collects validation messages.
func (in *Instance) startMessenger() error {
	if in.fn.createDebugUtilsMessengerEXT == 0 {
		return &Error{Op: "debug messenger", Result: vkErrorExtensionNotPresent}
	}
	return check("debug messenger", in.fn.CreateDebugUtilsMessengerEXT(in.inst, messengerInfo(), nil, &in.messenger))
}

// hasInstanceExtension reports whether the loader offers instance extension name.
func hasInstanceExtension(name string) bool {
	var n uint32
	if global.EnumerateInstanceExtensionProperties(nil, &n, nil) != vkSuccess || n == 0 {
		return false
	}
	props := make([]vkExtensionProperties, n)
	global.EnumerateInstanceExtensionProperties(nil, &n, &props[0])
	for _, p := range props[:n] {
		if goString(p.extensionName[:]) == name {
			return true
		}
	}
	return false
}

func hasLayer(name string) bool {
	var n uint32
	if global.EnumerateInstanceLayerProperties(&n, nil) != vkSuccess || n == 0 {
		return false
	}
	props := make([]vkLayerProperties, n)
	global.EnumerateInstanceLayerProperties(&n, &props[0])
	for _, p := range props[:n] {
		if goString(p.layerName[:]) == name {
			return true
		}
	}
	return false
}

func (in *Instance) enumerate() error {
	var n uint32
	if r := in.fn.EnumeratePhysicalDevices(in.inst, &n, nil); r != vkSuccess {
		return fmt.Errorf("%w: %v", ErrUnavailable, &Error{Op: "vkEnumeratePhysicalDevices", Result: r})
	}
	in.phys = make([]vkPhysicalDevice, n)
	if n > 0 {
		in.fn.EnumeratePhysicalDevices(in.inst, &n, &in.phys[0])
		in.phys = in.phys[:n]
	}
	for i, pd := range in.phys {
		in.exts = append(in.exts, in.deviceExtensions(pd))
		in.devices = append(in.devices, in.describe(i))
	}
	return nil
}

// deviceExtensions lists the extensions of physical device pd.
func (in *Instance) deviceExtensions(pd vkPhysicalDevice) map[string]bool {
	var n uint32
	in.fn.EnumerateDeviceExtensionProperties(pd, nil, &n, nil)
	m := map[string]bool{}
	if n == 0 {
		return m
	}
	props := make([]vkExtensionProperties, n)
	in.fn.EnumerateDeviceExtensionProperties(pd, nil, &n, &props[0])
	for _, p := range props[:n] {
		m[goString(p.extensionName[:])] = true
	}
	return m
}

// Devices describes the physical devices, in enumeration order.
func (in *Instance) Devices() []DeviceInfo { return in.devices }

// Validation reports whether the validation layer is on.
func (in *Instance) Validation() bool { return in.validation }

// Close destroys the instance. Devices opened from it must be closed first.
func (in *Instance) Close() {
	if in.inst == 0 {
		return
	}
	if in.messenger != 0 {
		in.fn.DestroyDebugUtilsMessengerEXT(in.inst, in.messenger, nil)
		in.messenger = 0
	}
	in.fn.DestroyInstance(in.inst, nil)
	in.inst = 0
}
