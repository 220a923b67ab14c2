package usermod

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain fails the run when the Khronos validation layer (GOAMP_VALIDATION=1) reported
// anything.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, msg := range accelerator.ValidationMessages() {
		os.Stderr.WriteString("validation: " + msg + "\n")
		code = 1
	}
	os.Exit(code)
}

// reference is TileStats in plain Go: the tiles' summaries and the histogram added to hist.
func reference(pixels []uint32, rows, cols, th, tw int, gamma float32, hist []uint32) []Summary {
	out := make([]Summary, (rows/th)*(cols/tw))
	for tr := 0; tr < rows/th; tr++ {
		for tc := 0; tc < cols/tw; tc++ {
			var bins [Bins]int
			sum := 0
			for r := tr * th; r < (tr+1)*th; r++ {
				for c := tc * tw; c < (tc+1)*tw; c++ {
					v := int(min(pixels[r*cols+c], 255))
					bins[v/16]++
					sum += v
				}
			}
			n := float64(th * tw)
			e := 0.0
			for b, count := range bins {
				hist[b] += uint32(count)
				if count > 0 {
					p := float64(count) / n
					e -= p * math.Log2(p)
				}
			}
			out[tr*(cols/tw)+tc] = Summary{
				Entropy:    float32(e),
				Brightness: float32(math.Pow(float64(sum)/n/255, float64(gamma))),
			}
		}
	}
	return out
}

// TestTileStats runs the kernel on every accelerator present (each Vulkan device and the
// CPU) with fresh random images and compares it with the Go reference.
func TestTileStats(t *testing.T) {
	vulkan := 0
	for _, a := range accelerator.All() {
		if !a.IsCPU() {
			vulkan++
		}
		for _, shape := range [][4]int{{64, 48, 8, 8}, {32, 96, 4, 16}, {30, 20, 5, 5}, {16, 16, 16, 16}} {
			t.Run(fmt.Sprintf("%s/%dx%d/%dx%d", a.Path(), shape[0], shape[1], shape[2], shape[3]), func(t *testing.T) { checkTileStats(t, a, shape[0], shape[1], shape[2], shape[3]) })
		}
	}
	if vulkan == 0 && os.Getenv("GOAMP_REQUIRE_VULKAN") == "1" {
		t.Fatal("GOAMP_REQUIRE_VULKAN=1 but no Vulkan accelerator is present")
	}
}

// checkTileStats runs TileStats on a rows x cols image in th x tw tiles on a.
func checkTileStats(t *testing.T, a *accelerator.Accelerator, rows, cols, th, tw int) {
	av, err := a.DefaultView()
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	pixels := make([]uint32, rows*cols)
	for i := range pixels {
		pixels[i] = uint32(rng.IntN(300)) // some above 255: they count as 255
	}
	hist := make([]uint32, Bins)
	for i := range hist {
		hist[i] = uint32(rng.IntN(1000))
	}
	gamma := 1.5 + rng.Float32()
	wantHist := append([]uint32(nil), hist...)
	want := reference(pixels, rows, cols, th, tw, gamma, wantHist)

	stats := make([]Summary, len(want))
	pv, err := arrayview.New(runtime.Ext(rows, cols), pixels)
	require.NoError(t, err)
	sv, err := arrayview.New(runtime.Ext(rows/th, cols/tw), stats)
	require.NoError(t, err)
	sv.DiscardData()
	hv, err := arrayview.New(runtime.Ext(Bins), hist)
	require.NoError(t, err)
	k := TileStats{Pixels: pv.ReadOnly(), Stats: sv, Histogram: hv, Gamma: gamma}
	require.NoError(t, runtime.ParallelForEachTiled(av, pv.Extent().Tile(th, tw), k))
	for _, v := range []interface{ Close() error }{pv, sv, hv} {
		require.NoError(t, v.Close())
	}

	assert.Equal(t, wantHist, hist, "histogram")
	for i, w := range want {
		assert.InDelta(t, w.Entropy, stats[i].Entropy, 1e-4, "tile %d entropy", i)
		assert.InEpsilon(t, w.Brightness, stats[i].Brightness, 1e-4, "tile %d brightness", i)
	}
}
