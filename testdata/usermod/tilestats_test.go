package usermod

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain fails the run when the Khronos validation layer (GOAMP_VALIDATION=1) reported
// anything that no test did.
func TestMain(m *testing.M) { amptest.Main(m) }

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

// result is what one run of TileStats leaves: the whole-image histogram and each tile's
// entropy and brightness, in that order.
type result struct {
	hist  []uint32
	stats []float32
}

// TestTileStats runs the kernel on every accelerator present (each Vulkan device and the
// CPU, through goamp's conformance helper amptest) with random images, compares each
// accelerator's result with the CPU's, and the CPU's with the Go reference.
func TestTileStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(amptest.Seed(t), 0))
	for _, shape := range [][4]int{{64, 48, 8, 8}, {32, 96, 4, 16}, {30, 20, 5, 5}, {16, 16, 16, 16}} {
		rows, cols, th, tw := shape[0], shape[1], shape[2], shape[3]
		t.Run(fmt.Sprintf("%dx%d/%dx%d", rows, cols, th, tw), func(t *testing.T) {
			pixels := make([]uint32, rows*cols)
			for i := range pixels {
				pixels[i] = uint32(rng.IntN(300)) // some above 255: they count as 255
			}
			hist := make([]uint32, Bins)
			for i := range hist {
				hist[i] = uint32(rng.IntN(1000))
			}
			gamma := 1.5 + rng.Float32()
			near := amptest.Near[float32](1e-4, 1e-4)
			cpu := amptest.Compare(t, func(t testing.TB, av *accelerator.View) result {
				return runTileStats(t, av, pixels, hist, rows, cols, th, tw, gamma)
			}, func(t testing.TB, cpu, got result) {
				assert.Equal(t, cpu.hist, got.hist, "histogram")
				near(t, cpu.stats, got.stats)
			})

			wantHist := append([]uint32(nil), hist...)
			want := reference(pixels, rows, cols, th, tw, gamma, wantHist)
			assert.Equal(t, wantHist, cpu.hist, "histogram")
			for i, w := range want {
				assert.InDelta(t, w.Entropy, cpu.stats[2*i], 1e-4, "tile %d entropy", i)
				assert.InEpsilon(t, w.Brightness, cpu.stats[2*i+1], 1e-4, "tile %d brightness", i)
			}
		})
	}
}

// runTileStats runs TileStats on av over a rows x cols image in th x tw tiles, adding to a
// copy of hist, and returns the result.
func runTileStats(t testing.TB, av *accelerator.View, pixels, hist []uint32, rows, cols, th, tw int, gamma float32) result {
	hist = append([]uint32(nil), hist...)
	stats := make([]Summary, (rows/th)*(cols/tw))
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
		require.NoError(t, v.Close()) // the results reach the Go slices
	}
	r := result{hist: hist}
	for _, s := range stats {
		r.stats = append(r.stats, s.Entropy, s.Brightness)
	}
	return r
}
