package kernelfuzz

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	nKernels = flag.Int("kernels", 0, "TestKernels: how many generated kernels to run (0: skip it)")
	batchN   = flag.Int("batch", 100, "TestKernels: kernels per generated package (one go build each)")
	seedBase = flag.Uint64("seed", 0, "TestKernels: the first kernel's seed (0: from the clock)")
	keep     = flag.Bool("keep", false, "keep the generated packages")
	gpuOut   = flag.String("gpu-binary", "", "TestBuildGPU: write a test binary of -kernels kernels here")
)

// TestGenerateFormats generates kernels of many seeds and checks that each is Go that
// parses and formats, with every statement it may drop dropped too.
func TestGenerateFormats(t *testing.T) {
	for s := range uint64(300) {
		k := Generate(s, fmt.Sprintf("K%d", s))
		_, err := k.Source(Pkg, nil)
		require.NoError(t, err, "seed %d", s)
		drop := map[int]bool{}
		for _, id := range k.Nodes() {
			drop[id] = true
		}
		_, err = k.Source(Pkg, drop)
		require.NoError(t, err, "seed %d, all dropped", s)
	}
}

// TestKernels generates -kernels kernels in packages of -batch, translates each package
// as ampgen does, and runs each kernel four ways (its Go method called directly, the CPU
// accelerator per thread and with its fast body, and each Vulkan device of
// KERNELFUZZ_TARGETS, vulkan:0 by default), comparing the outputs bit for bit. A kernel
// that differs is minimized and saved under testdata/repro.
func TestKernels(t *testing.T) {
	if *nKernels == 0 {
		t.Skip("-kernels 0: set it to run generated kernels (make fuzz-kernels N=...)")
	}
	seed := *seedBase
	if seed == 0 {
		seed = uint64(time.Now().UnixNano()) & (1<<40 - 1)
	}
	t.Logf("seeds %d..%d", seed, seed+uint64(*nKernels)-1)
	counts := map[string]int{}
	var failures []Outcome
	for lo := 0; lo < *nKernels; lo += *batchN {
		n := min(*batchN, *nKernels-lo)
		var ks []*Kernel
		for j := range n {
			s := seed + uint64(lo+j)
			ks = append(ks, Generate(s, fmt.Sprintf("K%d", s)))
		}
		outs, rej := runBatch(t, ks, nil)
		for _, r := range rej {
			counts["rejected"]++
			t.Errorf("%s: ampgen rejected it: %s", r.Kernel, r.Msg)
			failures = append(failures, Outcome{Status: "rejected", Kernel: r.Kernel, Detail: r.Msg})
		}
		for _, o := range outs {
			counts[o.Mode+" "+o.Status]++
			if o.Status != "ok" && o.Status != "nofast" {
				t.Errorf("%s (seed %d) on %s: %s: %s", o.Kernel, o.Seed, o.Mode, o.Status, o.Detail)
				failures = append(failures, o)
			}
		}
	}
	var keys []string
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, "  %s: %d\n", k, counts[k])
	}
	fmt.Printf("kernelfuzz: %d kernels from seed %d\n%s", *nKernels, seed, sb.String())
}

// runBatch writes, generates and runs one package of kernels.
func runBatch(t *testing.T, ks []*Kernel, drop map[string]map[int]bool) ([]Outcome, []Rejection) {
	dir, err := os.MkdirTemp("testdata", "gen")
	require.NoError(t, err)
	if !*keep {
		defer os.RemoveAll(dir)
	}
	b := &Batch{Dir: dir, Kernels: ks, Drop: drop}
	require.NoError(t, b.Write())
	rej, err := b.Generate()
	require.NoError(t, err)
	if len(b.Kernels) == 0 {
		return nil, rej
	}
	outs, log, err := b.Run()
	require.NoError(t, err)
	if len(outs) == 0 {
		t.Fatalf("the harness of %s printed no outcome:\n%s", filepath.Base(dir), log)
	}
	return outs, rej
}
