package kernelfuzz

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	nKernels   = flag.Int("kernels", 0, "TestKernels: how many generated kernels to run (0: skip it)")
	batchN     = flag.Int("batch", 100, "TestKernels: kernels per generated package (one go build each)")
	seedBase   = flag.Uint64("seed", 0, "TestKernels: the first kernel's seed (0: from the clock)")
	keep       = flag.Bool("keep", false, "keep the generated packages")
	seedList   = flag.String("seeds", "", "TestKernels: a comma-separated list of seeds to run instead")
	minimizeOn = flag.Bool("minimize", true, "TestKernels: minimize failing kernels into testdata/repro")
	maxRepro   = flag.Int("max-repro", 2, "TestKernels: kernels minimized per kind of failure")
	execFuzz   = flag.Bool("exec", false, "FuzzKernels: translate and run each input's kernel")
	ieee       = flag.Bool("ieee", false, "generate kernels with infinities, NaNs and signed zeros (else Options.Finite: lavapipe)")
	gpuOut     = flag.String("gpu-binary", "", "TestBuildGPU: write test binaries of -kernels kernels here")
	gpuPart    = flag.Int("gpu-part", 3500, "TestBuildGPU: kernels per part (directory) of binaries")
)

// TestGenerateFormats generates kernels of many seeds and checks that each is Go that
// parses and formats, with every statement it may drop dropped too.
func TestGenerateFormats(t *testing.T) {
	for s := range uint64(300) {
		k := generate(s, fmt.Sprintf("K%d", s))
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

// TestSlotKinds: each word a kernel writes to Out is compared as what it holds: a
// float32's bits as a float32 (f), a half's bits (hbits) as a half (h), other words
// exactly (u), so that under Options.Finite a zero of either sign matches for halves
// as for float32s, and no other integer word is compared loosely.
func TestSlotKinds(t *testing.T) {
	set := regexp.MustCompile(`^k\.Out\.Set\(runtime\.Idx\(lin\*\d+\+(\d+)\), (.*)\)$`)
	halves := 0
	for s := range uint64(300) {
		k := generate(s, fmt.Sprintf("K%d", s))
		n := 0
		for _, p := range k.Post {
			m := set.FindStringSubmatch(p)
			if m == nil {
				continue
			}
			slot, err := strconv.Atoi(m[1])
			require.NoError(t, err)
			want := byte('u')
			switch {
			case strings.HasPrefix(m[2], "hbits("):
				want = 'h'
				halves++
			case strings.HasPrefix(m[2], "math.Float32bits("):
				want = 'f'
			}
			require.Less(t, slot, len(k.Slots), "seed %d: %s", s, p)
			assert.Equal(t, string(want), string(k.Slots[slot]), "seed %d: %s", s, p)
			n++
		}
		assert.Len(t, k.Slots, n, "seed %d: a kind per word written", s)
	}
	assert.NotZero(t, halves, "the seeds write halves")
}

// TestKernels generates -kernels kernels in packages of -batch, translates each package
// as ampgen does, and runs each kernel four ways (its Go method called directly, the CPU
// accelerator per thread and with its fast body, and each Vulkan device of
// KERNELFUZZ_TARGETS, vulkan:0 by default), comparing the outputs bit for bit. A kernel
// that differs is minimized and saved under testdata/repro.
func TestKernels(t *testing.T) {
	var seeds []uint64
	for _, s := range strings.Split(*seedList, ",") {
		if s != "" {
			n, err := strconv.ParseUint(s, 10, 64)
			require.NoError(t, err)
			seeds = append(seeds, n)
		}
	}
	if *nKernels == 0 && len(seeds) == 0 {
		t.Skip("-kernels 0: set it to run generated kernels (make fuzz-kernels N=...)")
	}
	seed := *seedBase
	if seed == 0 {
		seed = uint64(time.Now().UnixNano()) & (1<<40 - 1)
	}
	if len(seeds) == 0 {
		for j := range *nKernels {
			seeds = append(seeds, seed+uint64(j))
		}
		t.Logf("seeds %d..%d", seed, seed+uint64(*nKernels)-1)
	}
	counts := map[string]int{}
	var failures []Outcome
	// Packages are generated one ahead of the one that runs: ampgen's steps (Load,
	// glslc) and go test's (the build, the runs) use the two cores in turn.
	gens := make(chan *generated)
	go func() {
		defer close(gens)
		for lo := 0; lo < len(seeds); lo += *batchN {
			var ks []*Kernel
			if lo == 0 && *seedList == "" {
				ks = foundKernels()
			}
			for _, s := range seeds[lo:min(lo+*batchN, len(seeds))] {
				ks = append(ks, generate(s, fmt.Sprintf("K%d", s)))
			}
			g := generateBatch(ks, nil)
			g.done = min(lo+*batchN, len(seeds))
			gens <- g
			if g.err != nil {
				return
			}
		}
	}()
	for g := range gens {
		outs, rej := g.run(t)
		for _, r := range rej {
			counts["rejected"]++
			t.Errorf("%s: ampgen rejected it: %s", r.Kernel, r.Msg)
			failures = append(failures, Outcome{Status: "rejected", Kernel: r.Kernel, Seed: seedOf(r.Kernel), Detail: r.Msg})
		}
		for _, o := range outs {
			counts[o.Mode+" "+o.Status]++
			if o.Status != "ok" && o.Status != "nofast" {
				t.Errorf("%s (seed %d) on %s: %s: %s", o.Kernel, o.Seed, o.Mode, o.Status, o.Detail)
				failures = append(failures, o)
			}
		}
		fmt.Printf("kernelfuzz: %s %d/%d kernels: %s\n", time.Now().Format(time.TimeOnly), g.done,
			len(seeds), summary(counts, " "))
	}
	if *minimizeOn {
		seen := map[failure]int{}
		for _, o := range failures {
			f := failureOf(o)
			if o.Status == "rejected" {
				f = rejectionOf(Rejection{Kernel: o.Kernel, Msg: o.Detail})
			}
			if seen[f] >= *maxRepro {
				continue
			}
			seen[f]++
			drop := minimize(t, o.Seed, f)
			t.Logf("%s minimized (%d statements dropped): %s", o.Kernel, len(drop), saveRepro(t, o.Seed, drop, o))
		}
	}
	fmt.Printf("kernelfuzz: %d kernels (seeds %d..%d)\n%s", len(seeds), seeds[0], seeds[len(seeds)-1], summary(counts, "\n"))
}

// found are kernels that differed or crashed on lavapipe, each since fixed (testdata/repro's README
// says how): TestKernels runs them, under Options.Finite, in its first package. A seed
// stands for the kernel this generator gives it.
var found = []uint64{
	// Go's float32 operations on constants that Go does not fold (vector methods of
	// constant vectors), which glslang folded in double precision: one ulp off.
	2000954, 2000995, 2001043, 2001156, 2001729, 2002062, 2002125, 2002187, 2002189,
	// Signed right shifts by counts that reach the shift through functions: lavapipe
	// shifted by another count where the prelude wrote the count as GLSL's min.
	2000136, 2000420, 2001824,
	// A signed division whose divisor the prelude selected after dividing: lavapipe's
	// compiler divided math.MinInt32 by -1 while folding constants and the process died
	// of SIGFPE (the harness reported nothing after it).
	6111106,
}

// foundKernels generates the kernels of found, named K<seed>f.
func foundKernels() []*Kernel {
	var ks []*Kernel
	for _, s := range found {
		ks = append(ks, GenerateWith(s, fmt.Sprintf("K%df", s), Options{Finite: true}))
	}
	return ks
}

// summary formats counts by key, sorted, each followed by sep.
func summary(counts map[string]int, sep string) string {
	var sb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&sb, "%s: %d%s", k, counts[k], sep)
	}
	return sb.String()
}

// runBatch writes, generates and runs one package of kernels.
func runBatch(t *testing.T, ks []*Kernel, drop map[string]map[int]bool) ([]Outcome, []Rejection) {
	return generateBatch(ks, drop).run(t)
}

// generated is a package of kernels written and generated (or the error that stopped
// it), ready to run.
type generated struct {
	b    *Batch
	rej  []Rejection
	took time.Duration
	err  error
	n    int // kernels asked for
	done int // TestKernels: seeds done with this package
}

// generateBatch writes and generates one package of kernels; it calls no testing
// function (TestKernels runs it on a goroutine of its own).
func generateBatch(ks []*Kernel, drop map[string]map[int]bool) *generated {
	g := &generated{n: len(ks)}
	dir, err := os.MkdirTemp("testdata", "gen")
	if err != nil {
		g.err = err
		return g
	}
	g.b = &Batch{Dir: dir, Kernels: ks, Drop: drop}
	start := time.Now()
	if g.err = g.b.Write(); g.err == nil {
		g.rej, g.err = g.b.Generate()
	}
	g.took = time.Since(start)
	return g
}

// run runs the generated package's harness and removes the package (unless -keep).
func (g *generated) run(t *testing.T) ([]Outcome, []Rejection) {
	if g.b != nil && !*keep {
		defer os.RemoveAll(g.b.Dir)
	}
	require.NoError(t, g.err)
	if len(g.b.Kernels) == 0 {
		return nil, g.rej
	}
	start := time.Now()
	outs, log, err := g.b.Run()
	require.NoError(t, err)
	t.Logf("%d kernels: ampgen %v, go test %v", g.n, g.took.Round(time.Second), time.Since(start).Round(time.Second))
	if !slices.ContainsFunc(outs, func(o Outcome) bool { return o.Status != "missing" }) {
		t.Fatalf("the harness of %s printed no outcome:\n%s", filepath.Base(g.b.Dir), log)
	}
	return outs, g.rej
}

// failure is how a kernel failed: a status on a mode ("diff" on "vulkan:0"), or a
// rejection of a kind ("rejected" on "compile").
type failure struct{ status, mode string }

// failureOf returns an outcome's failure.
func failureOf(o Outcome) failure { return failure{o.Status, o.Mode} }

// rejectionOf returns a rejection's failure: its kind is the message's first word and
// first line of the compiler's own, without paths or numbers.
func rejectionOf(r Rejection) failure {
	kind, rest, _ := strings.Cut(r.Msg, ":")
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "goamp/translate:") || numberedLine.MatchString(l) {
			continue
		}
		kind += ": " + digits.ReplaceAllString(pathPrefix.ReplaceAllString(l, ""), "N")
		break
	}
	return failure{"rejected", kind}
}

var (
	numberedLine = regexp.MustCompile(`^\d+  `)
	pathPrefix   = regexp.MustCompile(`^\S*\.(comp|go):\d+(:\d+)?: `)
	digits       = regexp.MustCompile(`\d+`)
)

// variant is the kernel of seed with the statements of drop left out, under a name of
// its own.
func variant(seed uint64, n int, drop map[int]bool) (*Kernel, map[int]bool) {
	return generate(seed, fmt.Sprintf("K%dv%d", seed, n)), drop
}

// minimize drops statements of the kernel of seed while it still fails as f, a round
// of variants (one package) at a time, and returns the statements dropped.
func minimize(t *testing.T, seed uint64, f failure) map[int]bool {
	cur := map[int]bool{}
	with := func(ids ...int) map[int]bool {
		d := maps.Clone(cur)
		for _, id := range ids {
			d[id] = true
		}
		return d
	}
	for round := 0; round < 8; round++ {
		var cands []int
		for _, id := range generate(seed, "K").Nodes() {
			if !cur[id] {
				cands = append(cands, id)
			}
		}
		if len(cands) == 0 {
			break
		}
		// Variant 0 drops every candidate, 1 and 2 each half, then one each.
		sets := [][]int{cands, cands[:len(cands)/2], cands[len(cands)/2:]}
		for _, id := range cands {
			sets = append(sets, []int{id})
		}
		var ks []*Kernel
		drops := map[string]map[int]bool{}
		for n, s := range sets {
			k, d := variant(seed, n, with(s...))
			ks = append(ks, k)
			drops[k.Name] = d
		}
		outs, rej := runBatch(t, ks, drops)
		failed := map[string]bool{}
		for _, o := range outs {
			if failureOf(o) == f {
				failed[o.Kernel] = true
			}
		}
		for _, r := range rej {
			if rejectionOf(r) == f {
				failed[r.Kernel] = true
			}
		}
		progress := false
		for n := range sets {
			name := fmt.Sprintf("K%dv%d", seed, n)
			if failed[name] {
				if n < 3 { // a whole set: take it and start a new round
					cur = drops[name]
					progress = true
					break
				}
				cur[sets[n][0]] = true // singles: take each (their union is checked next round)
				progress = true
			}
		}
		if !progress {
			break
		}
	}
	return cur
}

// saveRepro writes the minimized kernel of seed under testdata/repro, with how it failed.
func saveRepro(t *testing.T, seed uint64, drop map[int]bool, o Outcome) string {
	k := generate(seed, fmt.Sprintf("K%d", seed))
	src, err := k.Source(Pkg, drop)
	require.NoError(t, err)
	var ids []int
	for id := range drop {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "# kernelfuzz reproducer: seed %d, statements dropped %v\n", seed, ids)
	fmt.Fprintf(&b, "# %s on %s: %s\n", o.Status, o.Mode, o.Detail)
	fmt.Fprintf(&b, "# rerun: go test ./internal/kernelfuzz -run TestKernels -kernels 1 -seed %d\n\n", seed)
	b.Write(src)
	name := filepath.Join("testdata", "repro", fmt.Sprintf("K%d.txt", seed))
	require.NoError(t, os.WriteFile(name, []byte(b.String()), 0o644))
	return name
}

// seedOf returns the seed of the kernel named K<seed> (or K<seed>f, of found).
func seedOf(name string) uint64 {
	s, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(name, "K"), "f"), 10, 64)
	return s
}

// FuzzKernels seeds the generator with each input: the kernel must be Go that formats,
// with its push constants within 128 bytes. With -exec each input is also translated and
// run four ways, as TestKernels runs kernels (a go build per input: go test -run '^$'
// -fuzz FuzzKernels -exec ./internal/kernelfuzz/).
func FuzzKernels(f *testing.F) {
	for _, s := range []uint64{0, 1, 2, 3} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		k := generate(seed, fmt.Sprintf("K%d", seed))
		_, err := k.Source(Pkg, nil)
		require.NoError(t, err)
		require.LessOrEqual(t, k.PushBytes(), 128, "push constants of %s", k.Name)
		if !*execFuzz {
			return
		}
		outs, rej := runBatch(t, []*Kernel{k}, nil)
		require.Empty(t, rej)
		for _, o := range outs {
			if o.Status != "ok" && o.Status != "nofast" {
				t.Errorf("%s on %s: %s: %s", o.Kernel, o.Mode, o.Status, o.Detail)
			}
		}
	})
}

// TestBuildGPU writes -kernels kernels from -seed, in packages of -batch, as test
// binaries for a machine without Go, into the directory -gpu-binary: each binary runs
// its kernels on its oracle and on KERNELFUZZ_TARGETS (see make fuzz-kernels-gpu). The
// binaries of each -gpu-part kernels go in a directory of their own, part-1, part-2, ...:
// what one carry to the machine holds, once compressed.
func TestBuildGPU(t *testing.T) {
	if *gpuOut == "" || *nKernels == 0 {
		t.Skip("set -gpu-binary DIR and -kernels N")
	}
	seed := *seedBase
	built, rejected := 0, 0
	for lo := 0; lo < *nKernels; lo += *batchN {
		var ks []*Kernel
		for j := range min(*batchN, *nKernels-lo) {
			s := seed + uint64(lo+j)
			ks = append(ks, generate(s, fmt.Sprintf("K%d", s)))
		}
		g := generateBatch(ks, nil)
		require.NoError(t, g.err)
		rejected += len(g.rej)
		part := filepath.Join(*gpuOut, fmt.Sprintf("part-%d", 1+lo/max(*gpuPart, *batchN)))
		require.NoError(t, os.MkdirAll(part, 0o755))
		require.NoError(t, g.b.Build(filepath.Join(part, fmt.Sprintf("kernelfuzz-%d.test", seed+uint64(lo)))))
		built += len(g.b.Kernels)
		if !*keep {
			os.RemoveAll(g.b.Dir)
		}
	}
	fmt.Printf("kernelfuzz: %d kernels in %s (%d rejected by ampgen)\n", built, *gpuOut, rejected)
}

// generate is GenerateWith under -ieee.
func generate(seed uint64, name string) *Kernel {
	return GenerateWith(seed, name, Options{Finite: !*ieee})
}

// TestMissingOutcomes checks that a batch's kernels the harness did not report (it
// crashed or was killed after some) are outcomes of their own, "missing" on each mode
// the harness reported for others, the first with the log's end: a crash in a driver
// does not make kernels vanish from the counts.
func TestMissingOutcomes(t *testing.T) {
	b := &Batch{Kernels: []*Kernel{{Name: "K1", Seed: 1}, {Name: "K2", Seed: 2}, {Name: "K3", Seed: 3}}}
	outs := []Outcome{{Status: "ok", Kernel: "K1", Seed: 1, Mode: "cpu"}, {Status: "diff", Kernel: "K1", Seed: 1, Mode: "vulkan:0"},
		{Status: "ok", Kernel: "K2", Seed: 2, Mode: "cpu"}}
	got := b.missing(slices.Clone(outs), "KERNELFUZZ ok K2 2 cpu\nSIGSEGV: segmentation violation")
	require.Len(t, got, 6)
	require.Equal(t, outs, got[:3])
	var missing [][2]string
	for _, o := range got[3:] {
		assert.Equal(t, "missing", o.Status)
		missing = append(missing, [2]string{o.Kernel, o.Mode})
	}
	assert.Equal(t, [][2]string{{"K2", "vulkan:0"}, {"K3", "cpu"}, {"K3", "vulkan:0"}}, missing)
	assert.Contains(t, got[3].Detail, "SIGSEGV")
	assert.Contains(t, got[4].Detail, "as for K2")
	assert.Equal(t, uint64(3), got[4].Seed)
	assert.Len(t, b.missing(nil, ""), 3, "nothing reported: each kernel is missing once")
}
