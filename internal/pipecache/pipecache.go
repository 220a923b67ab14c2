package pipecache

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Env is the environment variable that turns the cache off ("off", "0", "false") or names
// its directory.
const Env = "GOAMP_PIPELINE_CACHE"

// Key identifies the device and driver a cache belongs to: the fields of the pipeline
// cache header (VkPipelineCacheHeaderVersionOne) and the driver version, which drivers do
// not always put in the UUID.
type Key struct {
	// VendorID and DeviceID are VkPhysicalDeviceProperties' vendorID and deviceID.
	VendorID, DeviceID uint32
	// DriverVersion is VkPhysicalDeviceProperties' driverVersion.
	DriverVersion uint32
	// UUID is VkPhysicalDeviceProperties' pipelineCacheUUID.
	UUID [16]byte
}

// Dir returns the cache directory, or "" when the cache is off.
func Dir() string {
	switch v := os.Getenv(Env); strings.ToLower(v) {
	case "off", "0", "false", "no":
		return ""
	case "":
	default:
		return v
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "goamp", "pipelines")
}

// Path is the file of key's cache in dir.
func Path(dir string, k Key) string {
	return filepath.Join(dir, fmt.Sprintf("%04x-%04x-%x-%08x.vkcache", k.VendorID, k.DeviceID, k.UUID, k.DriverVersion))
}

// headerSize is the size of VkPipelineCacheHeaderVersionOne: length, version, vendor ID,
// device ID (4 bytes each) and the 16-byte UUID.
const headerSize = 32

// Valid reports whether data is a pipeline cache for key: a version-one header of the
// right length naming key's vendor, device and UUID.
func Valid(data []byte, k Key) bool {
	if len(data) < headerSize {
		return false
	}
	le := binary.LittleEndian // the header's fields are in the host's order: goamp runs on little-endian hosts
	n := le.Uint32(data[0:])
	return n >= headerSize && int(n) <= len(data) &&
		le.Uint32(data[4:]) == 1 && // VK_PIPELINE_CACHE_HEADER_VERSION_ONE
		le.Uint32(data[8:]) == k.VendorID && le.Uint32(data[12:]) == k.DeviceID &&
		[16]byte(data[16:32]) == k.UUID
}

// Load returns the cache stored for key in dir, or nil when there is none, dir is "", or
// the file is not a valid cache for key (corrupt, truncated, another device's).
func Load(dir string, k Key) []byte {
	if dir == "" {
		return nil
	}
	data, err := os.ReadFile(Path(dir, k))
	if err != nil || !Valid(data, k) {
		return nil
	}
	return data
}

// Store writes data as key's cache in dir, atomically: to a temporary file in dir, then
// renamed over the old one. It does nothing when dir is "" or data is not a valid cache
// for key.
func Store(dir string, k Key, data []byte) error {
	if dir == "" || !Valid(data, k) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("goamp/pipecache: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("goamp/pipecache: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), Path(dir, k))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("goamp/pipecache: %w", err)
	}
	return nil
}
