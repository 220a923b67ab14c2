// Command ampbench runs goamp's built-in kernels at chosen sizes on a chosen accelerator,
// checks every result against a plain Go reference, and prints a table of time and
// throughput (GB/s or GFLOP/s), with the ratio to a reference run (PyTorch on the same
// machine, from scripts/torch_bench.py) when one is given. Progress goes to standard
// error; -json writes the results.
//
//	ampbench [-accelerator PATH | -accelerators all|PATH,...] [-kernels a,b,...] [-n N] [-mat N] [-img N] [-reps N] [-ref torch.json] [-json out.json] [-plot chart.png|chart.svg]
//	ampbench -from out.json -plot chart.png|chart.svg
//
// -n is the element count of the vector kernels (reduce, scan, sort, ...), -mat the side of
// the square matrices, -img the side of the square image of the convolution and the
// transpose; scripts/torch_bench.py takes the same flags.
//
// -accelerators runs the kernels that split over several accelerators (algo.MatMulOn,
// ReduceOn, SortOn) over the accelerators named at once, and each on every one of them
// alone, and prints the scaling: the best single accelerator's time over the split's.
//
// -plot draws a log-log roofline chart (PNG or SVG, by the file's extension): the roof is
// the best memory bandwidth of the streaming kernels measured in the run and the compute
// rate of fma-peak-f32, and each kernel is a point at its arithmetic intensity (FLOP/byte)
// and achieved GFLOP/s, with the reference's point beside it when -ref is given. -from
// redraws the chart of a saved -json report without running anything.
//
// Times are wall time per call, including the wait for the result; with -profile, the
// device time from Vulkan timestamp queries is reported beside it.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/goamp/goamp/accelerator"
)

// Result is one kernel's measurement.
type Result struct {
	Kernel    string  `json:"kernel"`
	Size      string  `json:"size"`
	Seconds   float64 `json:"seconds"`
	DeviceSec float64 `json:"device_seconds,omitempty"`
	Rate      float64 `json:"rate"`
	Unit      string  `json:"unit"`
	// Flops and Bytes are the operations and bytes of one call (see cases for the
	// convention): they place the kernel on the roofline.
	Flops   float64 `json:"flops,omitempty"`
	Bytes   float64 `json:"bytes,omitempty"`
	RefRate float64 `json:"reference_rate,omitempty"`
	// RefSeconds is the reference's time per call, for the same work.
	RefSeconds float64 `json:"reference_seconds,omitempty"`
	Ratio      float64 `json:"ratio,omitempty"`
	Checked    bool    `json:"checked"`
	// Unsupported names the feature the accelerator lacks for the kernel (an
	// *accelerator.FeatureError: float16 storage, say), which then did not run.
	Unsupported string `json:"unsupported,omitempty"`
}

// Report is what -json writes.
type Report struct {
	Accelerator string   `json:"accelerator"`
	Description string   `json:"description"`
	Date        string   `json:"date"`
	Sizes       sizes    `json:"sizes"`
	Results     []Result `json:"results"`
	Reference   string   `json:"reference,omitempty"`
}

// refRates maps kernel name to the reference's rate (same unit).
type refRates map[string]float64

// sizes are the problem sizes of a run.
type sizes struct {
	N   int `json:"n"`
	Mat int `json:"mat"`
	Img int `json:"img"`
}

type options struct {
	path    string
	accs    string
	kernels []string
	sizes   sizes
	reps    int
	ref     string
	jsonOut string
	profile bool
	warm    time.Duration
	plot    string // roofline chart file (.png or .svg)
	from    string // redraw -plot from this -json report instead of running
}

func main() {
	var o options
	var kernels string
	flag.StringVar(&o.path, "accelerator", "", "accelerator path (default: the default accelerator)")
	flag.StringVar(&o.accs, "accelerators", "", "run the kernels that split (matmul, reduce, sort) over these accelerators at once: \"all\" or comma-separated paths; reports the scaling against the best single accelerator")
	flag.StringVar(&kernels, "kernels", "", "comma-separated kernels to run (default all): "+strings.Join(caseNames(), ","))
	flag.IntVar(&o.sizes.N, "n", 1<<20, "elements of the vector kernels")
	flag.IntVar(&o.sizes.Mat, "mat", 256, "side of the square matrices of matmul")
	flag.IntVar(&o.sizes.Img, "img", 1024, "side of the square image of conv2d and transpose")
	flag.IntVar(&o.reps, "reps", 5, "timed repetitions after one warm-up")
	flag.StringVar(&o.ref, "ref", "", "reference results (JSON from scripts/torch_bench.py) to print ratios against")
	flag.StringVar(&o.jsonOut, "json", "", "write the results as JSON to this file")
	flag.BoolVar(&o.profile, "profile", false, "also report device time from timestamp queries (Vulkan accelerators)")
	flag.StringVar(&o.plot, "plot", "", "draw a roofline chart of the results to this file (.png or .svg)")
	flag.StringVar(&o.from, "from", "", "with -plot: redraw the chart from this -json report, running nothing")
	flag.DurationVar(&o.warm, "warm", 500*time.Millisecond, "run each kernel this long before timing it, so that a GPU's clocks ramp up from idle")
	flag.Parse()
	if kernels != "" {
		o.kernels = strings.Split(kernels, ",")
	}
	if err := checkFlags(o); err != nil {
		fmt.Fprintln(os.Stderr, "ampbench:", err)
		os.Exit(2)
	}
	runner := run
	if o.from != "" {
		runner = redraw
	} else if o.accs != "" {
		runner = runSplit
	}
	if err := runner(os.Stdout, os.Stderr, o); err != nil {
		fmt.Fprintln(os.Stderr, "ampbench:", err)
		os.Exit(1)
	}
}

func run(w, progress io.Writer, o options) error {
	var acc *accelerator.Accelerator
	var err error
	if o.path == "" {
		acc, err = accelerator.Default()
	} else {
		acc, err = accelerator.Get(o.path)
	}
	if err != nil {
		return err
	}
	av, err := acc.CreateView(accelerator.Automatic)
	if err != nil {
		return err
	}
	defer av.Close()
	// Profiling reads device timestamps, which the CPU accelerator has none of.
	if o.profile && acc.Limits().TimestampValidBits != 0 {
		if err := av.EnableProfiling(256); err != nil {
			return err
		}
	}
	rep := Report{Accelerator: acc.Path(), Description: acc.Description(), Date: time.Now().UTC().Format(time.RFC3339), Sizes: o.sizes}
	todo, err := selectCases(o.kernels)
	if err != nil {
		return err
	}
	var refs refRates
	if o.ref != "" {
		if refs, err = loadRef(o.ref, o.sizes, usedDims(todo)); err != nil {
			return err
		}
		rep.Reference = o.ref
	}
	for i, c := range todo {
		fmt.Fprintf(progress, "[%d/%d] %s on %s ...\n", i+1, len(todo), c.name, acc.Path())
		r, err := measure(av, c, o)
		if fe := (*accelerator.FeatureError)(nil); errors.As(err, &fe) {
			rep.Results = append(rep.Results, Result{Kernel: c.name, Unsupported: fe.Feature})
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		if ref, ok := refs[r.Kernel]; ok && ref > 0 {
			r.RefRate, r.Ratio = ref, r.Rate/ref
			r.RefSeconds = r.Seconds * r.Rate / ref
		}
		rep.Results = append(rep.Results, r)
	}
	printTable(w, rep)
	if o.jsonOut != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if o.plot != "" {
		return plotRoofline(o.plot, rep)
	}
	return nil
}

// checkFlags refuses, before anything runs, the flag combinations that would fail or be
// ignored after a long run: a -plot file that is neither .png nor .svg, -plot with
// -accelerators (whose scaling table has no roofline), -from without -plot.
func checkFlags(o options) error {
	if o.plot != "" {
		if err := checkPlotFile(o.plot); err != nil {
			return err
		}
		if o.accs != "" && o.from == "" {
			return errors.New("-plot draws single-accelerator runs; it does not apply to -accelerators")
		}
	}
	if o.from != "" && o.plot == "" {
		return errors.New("-from needs -plot FILE")
	}
	return nil
}

// redraw is -from: it reads a -json report and draws its chart to o.plot.
func redraw(w, _ io.Writer, o options) error {
	if o.plot == "" {
		return errors.New("-from needs -plot FILE")
	}
	b, err := os.ReadFile(o.from)
	if err != nil {
		return err
	}
	var rep Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("report %s: %w", o.from, err)
	}
	printTable(w, rep)
	return plotRoofline(o.plot, rep)
}

// RefSizeError is -ref's refusal of a reference run at other problem sizes than this run's:
// its rates are not comparable.
type RefSizeError struct {
	Path     string   // the reference file
	Ref, Run sizes    // the reference's sizes and this run's
	Differ   []string // the flags that differ among those this run's kernels use: "n", "mat", "img"
}

func (e *RefSizeError) Error() string {
	return fmt.Sprintf("reference %s was run at n=%d mat=%d img=%d, this run at n=%d mat=%d img=%d (%s differ for the kernels run): run scripts/torch_bench.py with the same sizes",
		e.Path, e.Ref.N, e.Ref.Mat, e.Ref.Img, e.Run.N, e.Run.Mat, e.Run.Img, strings.Join(e.Differ, ", "))
}

// dims says which size flags a set of cases uses.
type dims struct{ n, mat, img bool }

// usedDims is the size flags that cs use: -mat for matmul, -img for conv2d and transpose,
// -n for the rest.
func usedDims(cs []benchCase) dims {
	var d dims
	for _, c := range cs {
		switch {
		case strings.HasPrefix(c.name, "matmul-"):
			d.mat = true
		case strings.HasPrefix(c.name, "conv2d-"), strings.HasPrefix(c.name, "transpose-"):
			d.img = true
		default:
			d.n = true
		}
	}
	return d
}

// loadRef reads a reference run (scripts/torch_bench.py's JSON); its sizes must be want in
// the dimensions used, else it returns a *RefSizeError.
func loadRef(path string, want sizes, used dims) (refRates, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r struct {
		Sizes   sizes    `json:"sizes"`
		Results []Result `json:"results"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("reference %s: %w", path, err)
	}
	var differ []string
	for _, d := range []struct {
		name      string
		used      bool
		ref, want int
	}{{"n", used.n, r.Sizes.N, want.N}, {"mat", used.mat, r.Sizes.Mat, want.Mat}, {"img", used.img, r.Sizes.Img, want.Img}} {
		if d.used && d.ref != d.want {
			differ = append(differ, d.name)
		}
	}
	if differ != nil {
		return nil, &RefSizeError{Path: path, Ref: r.Sizes, Run: want, Differ: differ}
	}
	out := refRates{}
	for _, x := range r.Results {
		out[x.Kernel] = x.Rate
	}
	return out, nil
}

// measure runs one case: set up, one warm-up call checked against the reference, then
// o.reps timed calls; the best time counts.
func measure(av *accelerator.View, c benchCase, o options) (Result, error) {
	inst, err := c.setup(av, o.sizes)
	if err != nil {
		return Result{}, err
	}
	defer inst.cleanup()
	if err := inst.run(); err != nil {
		return Result{}, err
	}
	if err := inst.check(); err != nil {
		return Result{}, fmt.Errorf("result check failed: %w", err)
	}
	return timeRuns(av, c, inst, o)
}

// timeRuns warms inst up and times o.reps calls of inst.run on av; the best counts.
func timeRuns(av *accelerator.View, c benchCase, inst *instance, o options) (Result, error) {
	// An idle GPU runs at a fraction of its clock (345 MHz seen on the H100) until it has
	// been busy for a while: warm up before timing.
	for t0 := time.Now(); time.Since(t0) < o.warm; {
		if err := inst.run(); err != nil {
			return Result{}, err
		}
		if err := av.Wait(); err != nil {
			return Result{}, err
		}
	}
	best, bestDev := time.Duration(1<<62), 0.0
	for range max(1, o.reps) {
		t0 := time.Now()
		if err := inst.run(); err != nil {
			return Result{}, err
		}
		if err := av.Wait(); err != nil {
			return Result{}, err
		}
		if d := time.Since(t0); d < best {
			best = d
			if o.profile && av.Accelerator().Limits().TimestampValidBits != 0 {
				ns, err := av.DispatchTimes()
				if err != nil {
					return Result{}, err
				}
				bestDev = 0
				for _, x := range ns {
					bestDev += x / 1e9
				}
			}
		}
	}
	r := Result{Kernel: c.name, Size: inst.size, Seconds: best.Seconds(), DeviceSec: bestDev, Unit: inst.unit, Flops: inst.flops, Bytes: inst.bytes, Checked: true}
	r.Rate = inst.work / best.Seconds() / 1e9
	return r, nil
}

func printTable(w io.Writer, rep Report) {
	fmt.Fprintf(w, "ampbench on %s (%s), n=%d mat=%d img=%d, %s\n", rep.Accelerator, rep.Description, rep.Sizes.N, rep.Sizes.Mat, rep.Sizes.Img, rep.Date)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kernel\tsize\ttime (ms)\tdevice (ms)\trate\tunit\treference\tratio\t")
	for _, r := range rep.Results {
		if r.Unsupported != "" {
			fmt.Fprintf(tw, "%s\tunsupported: %s\t\t\t\t\t\t\t\n", r.Kernel, r.Unsupported)
			continue
		}
		dev, ref, ratio := "-", "-", "-"
		if r.DeviceSec > 0 {
			dev = fmt.Sprintf("%.3f", r.DeviceSec*1e3)
		}
		if r.RefRate > 0 {
			ref = fmt.Sprintf("%.1f", r.RefRate)
			ratio = fmt.Sprintf("%.2f", r.Ratio)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%s\t%.1f\t%s\t%s\t%s\t\n", r.Kernel, r.Size, r.Seconds*1e3, dev, r.Rate, r.Unit, ref, ratio)
	}
	tw.Flush()
}
