package algo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/require"
)

// hybridKeys makes n keys of T for the hybrid sort's tests: "bits", every bit random (the
// high bits spread the keys evenly over the buckets; float32 keys include NaNs and
// infinities); "dups", sortKeysFor's small range, whose buckets are too large for a
// workgroup; "mixed", random bits with a tenth of the keys equal, one oversized bucket;
// "normal", normal float64s converted to T (a narrow range of float32 bits, as torch.randn
// draws).
func hybridKeys[T Number](r *rand.Rand, n int, dist string) []T {
	if dist == "dups" {
		return sortKeysFor[T](r, n)
	}
	s := make([]T, n)
	for i := range s {
		if dist == "normal" {
			s[i] = T(r.NormFloat64())
			continue
		}
		s[i] = ewFromBits[T](r.Uint32())
		if dist == "mixed" && r.IntN(10) == 0 {
			s[i] = ewFromBits[T](0x3F800000)
		}
	}
	return s
}

// TestSortHybrid checks Sort, SortPairs and Argsort through the hybrid sort, forced on
// every accelerator (the GPU programs, and the Go bodies on the CPU) with 1 and 2 global
// passes, in both orders, against a stable sort: keys that fit the workgroups, keys whose
// buckets overflow them (the multi-pass sort runs again), and the coarse check's choice.
// The cases with 2 global passes (65,536 buckets, a second or more a sort on lavapipe)
// run in one order, for one key type.
func TestSortHybrid(t *testing.T) {
	for _, av := range ewViews(t) {
		for _, c := range []struct {
			bits int
			mode int
			dist string
			n    int
		}{
			{24, hybridForce, "bits", 200000},
			{24, hybridForce, "dups", 50000},
			{24, hybridForce, "mixed", 100000},
			{24, hybridForce, "bits", 3},
			{16, hybridForce, "bits", 300001},
			{24, hybridAuto, "bits", 200000},
			{24, hybridAuto, "dups", 50000},
		} {
			for _, desc := range []bool{false, true} {
				if desc && c.bits == 16 {
					continue
				}
				if testing.Short() && av.Accelerator().SubgroupSize() < 32 && !av.Accelerator().Traits().HostMemory {
					// Small subgroups run the small set, which an emulated device
					// (SwiftShader: subgroups of 4) takes minutes over at these sizes.
					c.n = min(c.n, 20001)
				}
				name := fmt.Sprintf("%s/bits=%d/mode=%d/%s/n=%d/desc=%v", av.Accelerator().Path(), c.bits, c.mode, c.dist, c.n, desc)
				t.Run(name, func(t *testing.T) {
					defer setHooks(testHooks{hybrid: c.mode, hybridBits: c.bits, interleavePairs: true})()
					r := rand.New(rand.NewPCG(uint64(c.n), uint64(c.bits)))
					opt := SortOptions{Descending: desc}
					testHybrid(t, av, hybridKeys[float32](r, c.n, c.dist), ewRandom[int32](r, c.n, false), opt)
					if c.bits != 16 {
						testHybrid(t, av, hybridKeys[uint32](r, c.n, c.dist), ewRandom[float32](r, c.n, false), opt)
					}
				})
			}
		}
	}
}

// testHybrid sorts keys alone (Sort), with vals (SortPairs) and their permutation
// (Argsort) on av and compares each with a stable sort.
func testHybrid[K, V Number](t *testing.T, av *accelerator.View, keys []K, vals []V, opt SortOptions) {
	n := len(keys)
	perm := stablePerm(keys, sortCode[K](opt))
	wantK, wantV := make([]K, n), make([]V, n)
	for i, p := range perm {
		wantK[i], wantV[i] = keys[p], vals[p]
	}
	kv := arrayview.MustNew(runtime.Ext(n), slices.Clone(keys))
	require.NoError(t, SortWith(av, kv, opt))
	requireBits(t, wantK, viewData(t, kv), "Sort: key")

	kv = arrayview.MustNew(runtime.Ext(n), slices.Clone(keys))
	vv := arrayview.MustNew(runtime.Ext(n), slices.Clone(vals))
	require.NoError(t, SortPairs(av, kv, vv, opt))
	requireBits(t, wantK, viewData(t, kv), "SortPairs: key")
	requireBits(t, wantV, viewData(t, vv), "SortPairs: value")

	kv = arrayview.MustNew(runtime.Ext(n), slices.Clone(keys))
	iv := arrayview.MustNew(runtime.Ext(n), make([]int32, n))
	require.NoError(t, Argsort(av, kv, iv, opt))
	requireBits(t, perm, viewData(t, iv), "Argsort: index")
	requireBits(t, keys, viewData(t, kv), "Argsort: unchanged key")
}

// TestHybridFits checks the coarse check's verdict on every accelerator: uniform keys ("bits") fit
// the workgroups, a narrow range (normal float32s, as torch.randn draws) and one key
// repeated a tenth of the time do not, nor uniform keys in half the capacity (the
// sample's counts must be scaled); 9,000,000 keys take the sampled count (every second
// key), 300,000 count them all.
func TestHybridFits(t *testing.T) {
	for _, av := range ewViews(t) {
		for _, c := range []struct {
			dist string
			n    int
			bits int
			cap  int // the capacity, scaled from 4096 keys a bucket to n's
			want bool
		}{
			{"bits", 9_000_000, 16, 5120, true},
			{"bits", 9_000_000, 16, 2560, false},
			{"normal", 9_000_000, 16, 5120, false},
			{"mixed", 9_000_000, 16, 5120, false},
			{"bits", 300_000, 24, 5120, true},
			{"normal", 300_000, 24, 5120, false},
		} {
			t.Run(fmt.Sprintf("%s/%s/n=%d", av.Accelerator().Path(), c.dist, c.n), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(c.n), 3))
				in := arrayview.MustNew(runtime.Ext(c.n), hybridKeys[float32](r, c.n, c.dist))
				job := radixJob[float32, int32]{in: in, n: c.n, tc: sortCode[float32](SortOptions{}), passes: 4}
				// A 2^16-bucket sort of 9M keys averages 137 a bucket.
				got, err := hybridFits(av, job, c.bits, c.cap*c.n>>(32-c.bits)/4096)
				require.NoError(t, err)
				require.Equal(t, c.want, got)
			})
		}
	}
}

// TestHybridAutoBits checks where the hybrid sort runs by itself: 126M to 302M keys for
// the large programs' 5,120-key buckets (the sizes where it won on the H200).
func TestHybridAutoBits(t *testing.T) {
	capacity := hybridLarge.forBits(16).capacity()
	for _, c := range []struct{ n, want int }{
		{1 << 20, 0}, {1 << 26, 0}, {1920<<16 - 1, 0}, {1920 << 16, 16}, {1 << 27, 16},
		{1 << 28, 16}, {4608<<16 + 65535, 16}, {4609 << 16, 0}, {1 << 29, 0},
	} {
		require.Equal(t, c.want, hybridAutoBits(c.n, capacity), "n=%d", c.n)
	}
}
