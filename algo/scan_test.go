package algo

import (
	"fmt"
	"testing"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refScan is the reference: a left-to-right running sum (float32 data summed in float64).
func refScan[T Number](s []T, exclusive bool) ([]T, []float64) {
	out := make([]T, len(s))
	f64 := make([]float64, len(s))
	var run T
	var runF float64
	for i, x := range s {
		if exclusive {
			out[i], f64[i] = run, runF
		}
		run += x
		runF += float64(x)
		if !exclusive {
			out[i], f64[i] = run, runF
		}
	}
	return out, f64
}

// checkScan compares got, the scan of s, with the reference: exactly for integers, within
// a relative 1e-5 (plus 1e-6) of the float64 sums for float32.
func checkScan[T Number](t *testing.T, s, got []T, exclusive bool) {
	t.Helper()
	want, f64 := refScan(s, exclusive)
	if typeCode[T]() != 2 {
		if !assert.Equal(t, want, got) {
			for i := range want {
				if want[i] != got[i] {
					t.Logf("first difference at %d of %d: got %v, want %v", i, len(want), got[i], want[i])
					break
				}
			}
		}
		return
	}
	for i := range f64 {
		if d := float64(got[i]) - f64[i]; d > 1e-5*f64[i]+1e-6 || -d > 1e-5*f64[i]+1e-6 {
			t.Fatalf("element %d of %d: got %v, want %v", i, len(f64), got[i], f64[i])
		}
	}
}

// scanChecked scans s on c's view with c's hooks (exclusive or inclusive) into a fresh
// slice and checks the result.
func scanChecked[T Number](t *testing.T, c famCase, s []T, exclusive bool) {
	t.Helper()
	n := len(s)
	out := make([]T, n)
	ov := arrayview.MustNew(runtime.Ext(n), out)
	require.NoError(t, scanOp(c.av, arrayview.MustNew(runtime.Ext(n), s), ov, exclusive, c.testHooks))
	require.NoError(t, ov.Synchronize())
	checkScan(t, s, out, exclusive)
}

// scanLengths are the scans' conformance lengths: 1, small, around the vec4 width, a
// row (1024) and a block (4096) of the block pass, primes and 2^k+1.
var scanLengths = []int{1, 2, 3, 5, 17, 1023, 4095, 4096, 4097, 12289, 65537}

func testScan[T Number](t *testing.T) {
	for _, c := range scanCases(t) {
		for _, n := range scanLengths {
			if c.perThread && n > famPerThreadMax {
				continue
			}
			for _, exclusive := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/exclusive=%v/n=%d", c, exclusive, n), func(t *testing.T) {
					s := famData[T](n, uint64(n))
					keep := append([]T(nil), s...)
					out := make([]T, n)
					in, ov := arrayview.MustNew(runtime.Ext(n), s), arrayview.MustNew(runtime.Ext(n), out)
					ov.DiscardData()
					require.NoError(t, scanOp(c.av, in, ov, exclusive, c.testHooks))
					require.NoError(t, ov.Close())
					require.NoError(t, in.Close())
					require.Equal(t, keep, s, "the scan changed its input")
					checkScan(t, s, out, exclusive)
				})
			}
		}
	}
}

// scanCases are famCases with the scans' two algorithms: on a GPU each case also with
// reduce-then-scan (the single pass is the default there), on the CPU the single pass's
// per-thread definition too.
func scanCases(t testing.TB) []famCase {
	var cases []famCase
	for _, c := range famCases(t) {
		cases = append(cases, c)
		switch {
		case c.av.Accelerator().Traits().Wide:
			m := c
			m.scan = scanMultiPass
			cases = append(cases, m)
		case c.perThread:
			m := c
			m.scan = scanSinglePass
			cases = append(cases, m)
		}
	}
	return cases
}

func TestScanInt32(t *testing.T)   { testScan[int32](t) }
func TestScanUint32(t *testing.T)  { testScan[uint32](t) }
func TestScanFloat32(t *testing.T) { testScan[float32](t) }

// TestScanInPlace scans a view into itself, through the exported functions too.
func TestScanInPlace(t *testing.T) {
	for _, c := range scanCases(t) {
		for _, n := range []int{1, 4097, 30001} {
			if c.perThread && n > famPerThreadMax {
				continue
			}
			for _, exclusive := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/exclusive=%v/n=%d", c, exclusive, n), func(t *testing.T) {
					s := famData[int32](n, 11)
					keep := append([]int32(nil), s...)
					v := arrayview.MustNew(runtime.Ext(n), s)
					require.NoError(t, scanOp(c.av, v, v, exclusive, c.testHooks))
					require.NoError(t, v.Close())
					checkScan(t, keep, s, exclusive)
				})
			}
		}
	}
}

// TestScanSections scans sections at every alignment into sections of another view (the
// GPU body's vector loads and stores need both 16-byte aligned).
func TestScanSections(t *testing.T) {
	const n = 20000
	for _, c := range scanCases(t) {
		for _, offs := range [][2]int{{0, 0}, {1, 0}, {0, 3}, {2, 2}, {4, 8}} {
			m := n - 10
			if c.perThread {
				m = famPerThreadMax - 10
			}
			t.Run(fmt.Sprintf("%s/in=%d/out=%d", c, offs[0], offs[1]), func(t *testing.T) {
				s := famData[float32](n, 12)
				out := make([]float32, n)
				in, err := arrayview.MustNew(runtime.Ext(n), s).Section(runtime.Idx(offs[0]), runtime.Ext(m))
				require.NoError(t, err)
				ov, err := arrayview.MustNew(runtime.Ext(n), out).Section(runtime.Idx(offs[1]), runtime.Ext(m))
				require.NoError(t, err)
				require.NoError(t, scanOp(c.av, in, ov, false, c.testHooks))
				require.NoError(t, ov.Close())
				checkScan(t, s[offs[0]:offs[0]+m], out[offs[1]:offs[1]+m], false)
				assert.Zero(t, out[offs[1]+m], "past the output section")
				if offs[1] > 0 {
					assert.Zero(t, out[offs[1]-1], "before the output section")
				}
			})
		}
	}
}

// TestScanLevels shrinks the blocks so that the block sums are scanned recursively, two
// levels deep, with small workgroups (the single pass: 586 blocks to look back over).
func TestScanLevels(t *testing.T) {
	defer func(tile, rtile, lbtile int) { scanTile, reduceTile, scanLBTile = tile, rtile, lbtile }(scanTile, reduceTile, scanLBTile)
	scanTile, reduceTile, scanLBTile = 32, 32, 32
	const n = 300007 // 586 blocks of 512, then 2 blocks of block sums, then 1
	require.Equal(t, 1+586+2, scanScratch(n))
	s := famData[uint32](n, 13)
	f := famData[float32](n, 14)
	for _, c := range scanCases(t) {
		if c.perThread {
			continue
		}
		t.Run(c.String(), func(t *testing.T) {
			scanChecked(t, c, s, false)
			scanChecked(t, c, f, true)
		})
	}
}

// TestScanFallback runs the single pass with a spin limit of 0, so that every workgroup
// reduces the blocks before it itself (as when their workgroups do not run), and of 1.
func TestScanFallback(t *testing.T) {
	defer func(limit, tile int) { scanSpinLimit, scanLBTile = limit, tile }(scanSpinLimit, scanLBTile)
	scanLBTile = 32
	for _, c := range scanCases(t) {
		restore := setHooks(c.testHooks)
		lookback := scanLookbackOn(c.av, false)
		restore()
		if !lookback {
			continue
		}
		for _, limit := range []int{0, 1} {
			scanSpinLimit = limit
			t.Run(fmt.Sprintf("%s/limit=%d", c, limit), func(t *testing.T) {
				const n = 4000 // 8 blocks of 512
				scanChecked(t, c, famData[int32](n, 15), false)
			})
		}
	}
}

func TestScanErrors(t *testing.T) {
	a := arrayview.MustNew(runtime.Ext(5), make([]int32, 5))
	b := arrayview.MustNew(runtime.Ext(6), make([]int32, 6))
	err := InclusiveScan(nil, a, b)
	require.ErrorIs(t, err, ErrShape)
	assert.Contains(t, err.Error(), "InclusiveScan: in has 5 elements, out has 6")
	err = ExclusiveScan(nil, a, nil)
	require.ErrorIs(t, err, ErrShape)
	assert.Contains(t, err.Error(), "ExclusiveScan: out is nil")
	m := arrayview.MustNew(runtime.Ext(2, 3), make([]int32, 6))
	err = ExclusiveScan(nil, m, b)
	require.ErrorIs(t, err, ErrShape)
	assert.Contains(t, err.Error(), "in has rank 2")
}
