package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/goamp/goamp/accelerator"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomReport is a report of a few kernels with random times, some with a reference.
func randomReport(r *rand.Rand, withPeak bool) Report {
	n := float64(1 << 20)
	rep := Report{Accelerator: "test", Description: "random", Sizes: sizes{N: 1 << 20, Mat: 512, Img: 1024}, Reference: "torch.json"}
	add := func(kernel string, flops, bytes, work float64, unit string, ref bool) {
		res := Result{Kernel: kernel, Flops: flops, Bytes: bytes, Seconds: 1e-4 + r.Float64()*1e-2, Unit: unit, Checked: true}
		res.Rate = work / res.Seconds / 1e9
		if ref {
			res.RefRate = res.Rate * (0.5 + r.Float64())
			res.Ratio = res.Rate / res.RefRate
		}
		rep.Results = append(rep.Results, res)
	}
	add("vadd-f32", n, 12*n, 12*n, "GB/s", true)
	add("fill-f32", n, 4*n, 4*n, "GB/s", true)
	add("reduce-sum-f32", n, 4*n, 4*n, "GB/s", true)
	add("reduce-min-f32", n, 4*n, 4*n, "GB/s", false)
	add("reduce-max-f32", n, 4*n, 4*n, "GB/s", false)
	add("sort-f32", n*20, 8*n, 8*n, "GB/s", true)
	add("matmul-f32", 2*512*512*512, 12*512*512, 2*512*512*512, "GFLOP/s", true)
	if withPeak {
		add(peakKernel, 4096*n, 8*n, 4096*n, "GFLOP/s", false)
	}
	return rep
}

func TestRooflinePoints(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	rep := randomReport(r, true)
	pts := rooflinePoints(rep)
	require.Len(t, pts, len(rep.Results))
	for i, p := range pts {
		res := rep.Results[i]
		assert.InDelta(t, res.Flops/res.Bytes, p.intensity, 1e-12, res.Kernel)
		assert.InDelta(t, 1, p.gflops/(res.Flops/res.Seconds/1e9), 1e-12, res.Kernel)
		if res.RefRate > 0 {
			// The reference did the same work at RefRate: its time is work/RefRate.
			work := res.Rate * res.Seconds * 1e9
			assert.InDelta(t, 1, p.refGflops/(res.Flops/(work/res.RefRate/1e9)/1e9), 1e-9, res.Kernel)
			assert.InDelta(t, res.Ratio, p.gflops/p.refGflops, 1e-9, res.Kernel)
		} else {
			assert.Zero(t, p.refGflops, res.Kernel)
		}
	}
}

func TestRooflineIntensities(t *testing.T) {
	// The documented convention of a few cases, at their sizes.
	sz := sizes{N: 1 << 20, Mat: 512, Img: 1024}
	av := cpuView(t)
	for _, tc := range []struct {
		kernel    string
		intensity float64
	}{
		{"vadd-f32", 1.0 / 12},
		{"saxpy-f32", 2.0 / 12},
		{"fill-f32", 1.0 / 4},
		{"reduce-sum-f32", 1.0 / 4},
		{"scan-inclusive-f32", 1.0 / 8},
		{"conv2d-f32", 36.0 / 8},
		{"sort-f32", 20.0 / 8},
		{"matmul-f32", 2 * 512.0 / 12},
		{"fma-peak-f32", 2 * fmaChains * fmaIters / 8.0},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			cs, err := selectCases([]string{tc.kernel})
			require.NoError(t, err)
			inst, err := cs[0].setup(av, sz)
			require.NoError(t, err)
			defer inst.cleanup()
			assert.InDelta(t, tc.intensity, inst.flops/inst.bytes, 1e-12)
			// The rate of the table is the flops or the bytes, whichever its unit counts.
			if inst.unit == "GFLOP/s" {
				assert.Equal(t, inst.flops, inst.work)
			} else {
				assert.Equal(t, inst.bytes, inst.work)
			}
		})
	}
}

func cpuView(t *testing.T) *accelerator.View {
	t.Helper()
	acc, err := accelerator.Get("cpu")
	require.NoError(t, err)
	av, err := acc.CreateView(accelerator.Automatic)
	require.NoError(t, err)
	t.Cleanup(func() { _ = av.Close() })
	return av
}

func TestMeasuredRoof(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	for _, tc := range []struct {
		name     string
		withPeak bool
	}{{"with fma-peak", true}, {"without fma-peak", false}} {
		t.Run(tc.name, func(t *testing.T) {
			rep := randomReport(r, tc.withPeak)
			rf := measuredRoof(rep)
			var bw, peak, best float64
			for _, res := range rep.Results {
				if streamingKernel(res.Kernel) {
					bw = math.Max(bw, res.Bytes/res.Seconds/1e9)
				}
				if res.Kernel == peakKernel {
					peak = res.Flops / res.Seconds / 1e9
				}
				best = math.Max(best, res.Flops/res.Seconds/1e9)
			}
			assert.InDelta(t, 1, rf.gbps/bw, 1e-12)
			if tc.withPeak {
				assert.InDelta(t, 1, rf.gflops/peak, 1e-12)
				assert.Equal(t, peakKernel, rf.peakFrom)
			} else {
				assert.InDelta(t, 1, rf.gflops/best, 1e-12)
				assert.Contains(t, rf.peakFrom, "no "+peakKernel)
			}
		})
	}
}

func TestPlotFiles(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	for _, tc := range []struct {
		file  string
		check func(t *testing.T, b []byte)
	}{
		{"chart.png", func(t *testing.T, b []byte) {
			img, err := png.Decode(bytes.NewReader(b))
			require.NoError(t, err)
			assert.Equal(t, 960, img.Bounds().Dx())
			assert.Equal(t, 720, img.Bounds().Dy())
		}},
		{"chart.svg", func(t *testing.T, b []byte) {
			d := xml.NewDecoder(bytes.NewReader(b))
			root := ""
			for {
				tok, err := d.Token()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				if se, ok := tok.(xml.StartElement); ok && root == "" {
					root = se.Name.Local
				}
			}
			assert.Equal(t, "svg", root)
			assert.Contains(t, string(b), "vadd-f32")
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), tc.file)
			require.NoError(t, plotRoofline(file, randomReport(r, true)))
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			tc.check(t, b)
		})
	}
}

func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	err := plotRoofline(filepath.Join(dir, "chart.pdf"), randomReport(rand.New(rand.NewPCG(1, 1)), true))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `".pdf"`)
	err = plotRoofline(filepath.Join(dir, "chart.png"), Report{Results: []Result{{Kernel: "vadd-f32", Seconds: 1, Rate: 1}}})
	assert.ErrorIs(t, err, ErrNoPoints)
	err = redraw(io.Discard, io.Discard, options{from: filepath.Join(dir, "x.json")})
	assert.ErrorContains(t, err, "-plot")
}

func TestCheckFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    options
		want string // "" for no error
	}{
		{"plain", options{}, ""},
		{"png", options{plot: "a.png"}, ""},
		{"SVG", options{plot: "a.SVG"}, ""},
		{"pdf", options{plot: "a.pdf"}, `".pdf"`},
		{"none", options{plot: "chart"}, `extension ""`},
		{"split", options{plot: "a.png", accs: "all"}, "-accelerators"},
		{"from", options{plot: "a.png", from: "r.json"}, ""},
		{"from without plot", options{from: "r.json"}, "-plot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkFlags(tc.o)
			if tc.want == "" {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, tc.want)
			}
		})
	}
}

// TestFromRoundTrip runs two kernels on the CPU with -json and -plot, then redraws the
// chart from the JSON alone (-from), with the reference's points.
func TestFromRoundTrip(t *testing.T) {
	dir := t.TempDir()
	sz := sizes{N: 1000 + rand.IntN(3000), Mat: 16, Img: 16}
	ref := filepath.Join(dir, "ref.json")
	refJSON, err := json.Marshal(map[string]any{"sizes": sz, "results": []map[string]any{{"kernel": "vadd-f32", "rate": 0.5, "unit": "GB/s"}}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(ref, refJSON, 0o644))
	out, chart := filepath.Join(dir, "run.json"), filepath.Join(dir, "run.png")
	o := options{path: "cpu", kernels: []string{"vadd", "fma-peak"}, sizes: sz, reps: 1, ref: ref, jsonOut: out, plot: chart}
	require.NoError(t, run(io.Discard, io.Discard, o))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	var rep Report
	require.NoError(t, json.Unmarshal(b, &rep))
	require.Len(t, rep.Results, 2)
	vadd := rep.Results[0]
	assert.Equal(t, float64(sz.N), vadd.Flops)
	assert.Equal(t, 12*float64(sz.N), vadd.Bytes)
	assert.InDelta(t, 1, vadd.RefSeconds/(12*float64(sz.N)/0.5e9), 1e-9)

	redrawn := filepath.Join(dir, "redrawn.svg")
	var table bytes.Buffer
	require.NoError(t, redraw(&table, io.Discard, options{from: out, plot: redrawn}))
	assert.Contains(t, table.String(), "fma-peak-f32")
	svg, err := os.ReadFile(redrawn)
	require.NoError(t, err)
	assert.Contains(t, string(svg), "fma-peak-f32")
	assert.Contains(t, string(svg), "reference (PyTorch, ref.json)")
}

func TestRefSizeMismatch(t *testing.T) {
	run0 := sizes{N: 1 << 20, Mat: 512, Img: 1024}
	all := dims{n: true, mat: true, img: true}
	for _, tc := range []struct {
		name   string
		ref    string
		used   dims
		want   sizes
		differ []string // nil: accepted
	}{
		{"n", `{"sizes": {"n": 4096, "mat": 512, "img": 1024}, "results": []}`, all, sizes{N: 4096, Mat: 512, Img: 1024}, []string{"n"}},
		{"mat", `{"sizes": {"n": 1048576, "mat": 256, "img": 1024}, "results": []}`, all, sizes{N: 1 << 20, Mat: 256, Img: 1024}, []string{"mat"}},
		{"img", `{"sizes": {"n": 1048576, "mat": 512, "img": 2048}, "results": []}`, all, sizes{N: 1 << 20, Mat: 512, Img: 2048}, []string{"img"}},
		{"none", `{"results": []}`, all, sizes{}, []string{"n", "mat", "img"}},
		{"img unused", `{"sizes": {"n": 1048576, "mat": 512, "img": 256}, "results": []}`, dims{n: true, mat: true}, sizes{}, nil},
		{"n unused", `{"sizes": {"n": 7, "mat": 512, "img": 1024}, "results": []}`, dims{mat: true}, sizes{}, nil},
		{"mat used", `{"sizes": {"n": 7, "mat": 1, "img": 1024}, "results": []}`, dims{mat: true}, sizes{N: 7, Mat: 1, Img: 1024}, []string{"mat"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ref.json")
			require.NoError(t, os.WriteFile(path, []byte(tc.ref), 0o644))
			_, err := loadRef(path, run0, tc.used)
			if tc.differ == nil {
				require.NoError(t, err)
				return
			}
			var se *RefSizeError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, tc.want, se.Ref)
			assert.Equal(t, run0, se.Run)
			assert.Equal(t, path, se.Path)
			assert.Equal(t, tc.differ, se.Differ)
			assert.Contains(t, err.Error(), "mat=512")
		})
	}
	// The same sizes are accepted.
	path := filepath.Join(t.TempDir(), "ref.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"sizes": {"n": 1048576, "mat": 512, "img": 1024}, "results": [{"kernel": "vadd-f32", "rate": 3}]}`), 0o644))
	refs, err := loadRef(path, run0, all)
	require.NoError(t, err)
	assert.Equal(t, refRates{"vadd-f32": 3}, refs)
}

func TestUsedDims(t *testing.T) {
	for _, tc := range []struct {
		kernels []string
		want    dims
	}{
		{nil, dims{n: true, mat: true, img: true}},
		{[]string{"reduce", "scan", "histogram"}, dims{n: true}},
		{[]string{"matmul"}, dims{mat: true}},
		{[]string{"conv2d", "fma-peak"}, dims{n: true, img: true}},
	} {
		cs, err := selectCases(tc.kernels)
		require.NoError(t, err)
		assert.Equal(t, tc.want, usedDims(cs), "%v", tc.kernels)
	}
}

// TestRunRefusesMismatchedRef: run stops before measuring anything.
func TestRunRefusesMismatchedRef(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ref.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"sizes": {"n": 64, "mat": 16, "img": 16}, "results": []}`), 0o644))
	var progress bytes.Buffer
	err := run(io.Discard, &progress, options{path: "cpu", kernels: []string{"vadd"}, sizes: sizes{N: 65, Mat: 16, Img: 16}, reps: 1, ref: path})
	var se *RefSizeError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, []string{"n"}, se.Differ)
	assert.Empty(t, progress.String())
}
