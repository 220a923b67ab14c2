package arrayview

import (
	"flag"
	"fmt"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

var benchSyncMiB = flag.Int("arrayview.sync.mib", 256, "BenchmarkSynchronize's size in MiB")

// BenchmarkSynchronize measures Synchronize of 256 MiB (-arrayview.sync.mib) from a plain
// Go slice, host to device (Refresh, then SynchronizeTo) and device to host (a device
// write, then Synchronize), on every Vulkan accelerator present.
func BenchmarkSynchronize(b *testing.B) {
	bytes := int64(*benchSyncMiB) << 20
	for _, a := range accelerator.All() {
		if a.Traits().HostMemory {
			continue
		}
		av, err := a.CreateView(accelerator.Automatic)
		require.NoError(b, err)
		data := make([]float32, bytes/4)
		for i := range data {
			data[i] = float32(i)
		}
		v := MustNew(runtime.Ext(len(data)), data)
		require.NoError(b, v.SynchronizeTo(av))
		// Sections that each fit one binding (BindEnd) stand in for a kernel's output.
		var parts []*View[float32]
		for at := 0; at < len(data); {
			end := v.BindEnd(av, at)
			s, err := v.Section(runtime.Idx(at), runtime.Ext(end-at))
			require.NoError(b, err)
			parts = append(parts, s)
			at = end
		}
		size := ""
		if *benchSyncMiB != 256 {
			size = fmt.Sprintf("/%dMiB", *benchSyncMiB)
		}
		b.Run(a.Path()+size+"/host-to-device", func(b *testing.B) {
			b.SetBytes(bytes)
			for b.Loop() {
				v.Refresh()
				if err := v.SynchronizeTo(av); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
		b.Run(a.Path()+size+"/device-to-host", func(b *testing.B) {
			b.SetBytes(bytes)
			for b.Loop() {
				for _, p := range parts {
					if _, err := p.BindDevice(av, runtime.ReadWrite); err != nil {
						b.Fatal(err)
					}
				}
				if err := v.Synchronize(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
		require.NoError(b, v.Close())
		require.NoError(b, av.Close())
	}
}
