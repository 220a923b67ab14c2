// Package usermod is a user's module outside goamp: a tiled kernel written once, in Go,
// that goamp's ampgen translates for Vulkan devices (go generate writes amp_gen.go) and
// that runs unchanged on the CPU accelerator.
package usermod

import (
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/runtime"
)

//go:generate go run github.com/goamp/goamp/cmd/ampgen -checked

// Bins is the number of bins of a tile's intensity histogram: intensity v (0..255)
// falls into bin v>>4.
const Bins = 16

// Summary is one tile's statistics.
type Summary struct {
	// Entropy is the Shannon entropy of the tile's histogram, in bits (0 to 4).
	Entropy float32
	// Brightness is the tile's mean intensity in linear light: (mean/255)^2.2.
	Brightness float32
}

// TileStats computes, for each tile of an 8-bit grey image, its histogram's entropy and
// its brightness, and adds the tile's histogram to a whole-image histogram.
type TileStats struct {
	// Pixels is the image, rows x columns, intensities 0..255 (larger ones count as 255).
	Pixels *arrayview.ReadView[uint32]
	// Stats has one element per tile: (rows / tile rows) x (columns / tile columns).
	Stats *arrayview.View[Summary]
	// Histogram has Bins elements; each tile adds its counts to them.
	Histogram *arrayview.View[uint32]
	// Gamma is the exponent that turns the mean intensity into linear light (2.2 for sRGB).
	Gamma float32
}

// Tiled is the kernel: one thread per pixel, one tile per Stats element.
func (k TileStats) Tiled(t runtime.TiledIndex) {
	hist := runtime.TileStatic[uint32](t, Bins)
	sum := runtime.TileStatic[uint32](t, 1)
	n := t.TileExtent.Size()
	l := t.Local[0]*t.TileExtent.Dim(1) + t.Local[1]
	for i := l; i < Bins; i += n {
		hist[i] = 0
	}
	if l == 0 {
		sum[0] = 0
	}
	t.Barrier.Wait()
	v := min(k.Pixels.At(t.Global), 255)
	runtime.AtomicAdd(hist, int(v>>4), 1)
	runtime.AtomicAdd(sum, 0, v)
	t.Barrier.Wait()
	if l == 0 {
		e := float32(0)
		for i := range Bins {
			e += entropyTerm(hist[i], n)
		}
		k.Stats.Set(t.Tile, Summary{Entropy: e, Brightness: brightness(sum[0], n, k.Gamma)})
	}
	if l < Bins && hist[l] > 0 {
		k.Histogram.AtomicAdd(runtime.Idx(l), hist[l])
	}
}

// entropyTerm is bin's share of the entropy of a histogram of n values: -p log2 p, where
// p = count/n (0 for an empty bin).
func entropyTerm(count uint32, n int) float32 {
	if count == 0 {
		return 0
	}
	p := float32(count) / float32(n)
	return -p * fmath.Log2(p)
}

// brightness is the mean of n intensities that sum to sum, in linear light.
func brightness(sum uint32, n int, gamma float32) float32 {
	return fmath.Pow(float32(sum)/float32(n)/255, gamma)
}
