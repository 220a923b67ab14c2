// Command ampinfo lists the accelerators goamp can use, like `vulkaninfo --summary` or
// `nvidia-smi -L`: one block each, the default marked. -json prints the same as JSON and
// -v adds every limit, memory heap and memory type.
//
// Without Vulkan (no loader, no driver, no device, or a CGO_ENABLED=0 build) it lists the
// CPU accelerator alone, says why, and exits 0.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goamp/goamp/accelerator"
)

// Report is what -json prints.
type Report struct {
	Default        string                   `json:"default"`
	NoVulkanReason string                   `json:"no_vulkan_reason,omitempty"`
	Accelerators   []accelerator.Properties `json:"accelerators"`
}

func main() {
	asJSON := flag.Bool("json", false, "print JSON")
	verbose := flag.Bool("v", false, "show every limit, memory heap and memory type")
	flag.Parse()
	if err := run(os.Stdout, *asJSON, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "ampinfo:", err)
		os.Exit(1)
	}
}

func report() (Report, error) {
	var r Report
	def, err := accelerator.Default()
	if err != nil {
		return r, err
	}
	r.Default = def.Path()
	if why := accelerator.NoVulkanReason(); why != nil {
		r.NoVulkanReason = why.Error()
	}
	for _, a := range accelerator.All() {
		r.Accelerators = append(r.Accelerators, a.Properties())
	}
	return r, nil
}

func run(w io.Writer, asJSON, verbose bool) error {
	r, err := report()
	if err != nil {
		return err
	}
	if asJSON {
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(r)
	}
	if r.NoVulkanReason != "" {
		fmt.Fprintf(w, "No Vulkan accelerator: %s\n\n", r.NoVulkanReason)
	}
	for _, p := range r.Accelerators {
		writeText(w, p, verbose)
	}
	return nil
}

func gib(n uint64) string {
	return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func writeText(w io.Writer, p accelerator.Properties, verbose bool) {
	mark := ""
	if p.Default {
		mark = "  [default]"
	}
	fmt.Fprintf(w, "%s: %s%s\n", p.Path, p.Description, mark)
	row := func(k, f string, a ...any) { fmt.Fprintf(w, "    %-26s "+f+"\n", append([]any{k + ":"}, a...)...) }
	row("type", "%s", p.Type)
	row("version", "%s", p.Version)
	if p.DriverName != "" || p.DriverVersion != "" {
		row("driver", "%s %s %s", p.DriverName, p.DriverVersion, p.DriverInfo)
	}
	if p.VendorID != 0 || p.DeviceID != 0 {
		row("vendor / device id", "0x%04x / 0x%04x", p.VendorID, p.DeviceID)
	}
	row("dedicated memory", "%s", gib(p.DedicatedMemory))
	row("emulated", "%s", yes(p.IsEmulated))
	row("double precision", "%s (limited: %s)", yes(p.SupportsDouble), yes(p.SupportsLimitedDouble))
	row("cpu shared memory", "%s", yes(p.SupportsCPUSharedMemory))
	row("int64", "%s", yes(p.Int64))
	row("16-bit storage / float16", "%s / %s", yes(p.Storage16), yes(p.Float16))
	row("8-bit storage / int8", "%s / %s", yes(p.Storage8), yes(p.Int8))
	row("-0, Inf, NaN kept (bits)", "%s", strings.Trim(fmt.Sprint(p.SignedZeroInfNaN), "[]"))
	for _, c := range []struct {
		name   string
		shapes []string
	}{{"cooperative matrices", p.CooperativeMatrices}, {"cooperative matrices (NV)", p.CooperativeMatricesNV}} {
		for i, s := range c.shapes {
			if i > 0 { // one shape a line, the name on the first
				fmt.Fprintf(w, "    %-26s %s\n", "", s)
				continue
			}
			row(c.name, "%s", s)
		}
	}
	row("subgroup size", "%d", p.SubgroupSize)
	if len(p.SubgroupOps) > 0 {
		row("subgroup operations", "%s", strings.Join(p.SubgroupOps, " "))
	}
	l := p.Limits
	row("max workgroup invocations", "%d", l.MaxWorkgroupInvocations)
	row("max workgroup size", "%d x %d x %d", l.MaxWorkgroupSize[0], l.MaxWorkgroupSize[1], l.MaxWorkgroupSize[2])
	row("max workgroup count", "%d x %d x %d", l.MaxWorkgroupCount[0], l.MaxWorkgroupCount[1], l.MaxWorkgroupCount[2])
	row("shared memory", "%d bytes", l.MaxSharedMemory)
	row("max storage buffer range", "%d bytes", l.MaxStorageBufferRange)
	row("push constants", "%d bytes", l.MaxPushConstantsSize)
	if l.MaxLoopIterations > 0 {
		row("loop iterations", "at most %d per thread, then loops end early", l.MaxLoopIterations)
	}
	if verbose {
		row("storage buffer alignment", "%d bytes", l.MinStorageBufferAlign)
		row("max allocations", "%d", l.MaxMemoryAllocationCount)
		row("timestamp period", "%g ns (%d valid bits)", l.TimestampPeriodNs, l.TimestampValidBits)
		if p.DeviceGroupSize > 0 {
			row("device group", "%d physical device(s)", p.DeviceGroupSize)
		}
		if p.UUID != "" {
			row("uuid", "%s", p.UUID)
		}
		for i, h := range p.MemoryHeaps {
			row(fmt.Sprintf("memory heap %d", i), "%s%s", gib(h.Size), map[bool]string{true: " device-local"}[h.DeviceLocal])
		}
		for i, t := range p.MemoryTypes {
			var fl []string
			for _, f := range []struct {
				on   bool
				name string
			}{{t.DeviceLocal, "device-local"}, {t.HostVisible, "host-visible"}, {t.HostCoherent, "host-coherent"}, {t.HostCached, "host-cached"}} {
				if f.on {
					fl = append(fl, f.name)
				}
			}
			row(fmt.Sprintf("memory type %d", i), "heap %d %s", t.Heap, strings.Join(fl, " "))
		}
	}
	fmt.Fprintln(w)
}
