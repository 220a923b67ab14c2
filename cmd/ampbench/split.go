package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/algo"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// splitResult is one kernel split over several accelerators (-accelerators): its time on
// each accelerator alone and split over all of them.
type splitResult struct {
	Kernel  string    `json:"kernel"`
	Size    string    `json:"size"`
	Single  []float64 `json:"single_seconds"` // per accelerator, in the order given
	Split   float64   `json:"split_seconds"`
	Scaling float64   `json:"scaling"` // the best single time over the split time
	Unit    string    `json:"unit"`
	Rate    float64   `json:"split_rate"`
}

// splitViews opens a view on each accelerator of list ("all" or comma-separated paths).
func splitViews(list string) ([]*accelerator.View, error) {
	var accs []*accelerator.Accelerator
	if list == "all" {
		accs = accelerator.All()
	} else {
		for _, p := range strings.Split(list, ",") {
			a, err := accelerator.Get(strings.TrimSpace(p))
			if err != nil {
				return nil, err
			}
			accs = append(accs, a)
		}
	}
	var avs []*accelerator.View
	for _, a := range accs {
		av, err := a.CreateView(accelerator.Automatic)
		if err != nil {
			closeViews(avs)
			return nil, err
		}
		avs = append(avs, av)
	}
	return avs, nil
}

func closeViews(avs []*accelerator.View) {
	for _, av := range avs {
		_ = av.Close()
	}
}

// runSplit is ampbench -accelerators: each selected kernel that splits is set up once,
// timed on every accelerator alone (its split over one view) and over all of them, each
// result checked.
func runSplit(w, progress io.Writer, o options) error {
	avs, err := splitViews(o.accs)
	if err != nil {
		return err
	}
	defer closeViews(avs)
	todo, err := selectCases(o.kernels)
	if err != nil {
		return err
	}
	var paths []string
	for _, av := range avs {
		paths = append(paths, av.Accelerator().Path())
	}
	var results []splitResult
	for _, c := range todo {
		r, err := measureSplit(progress, avs, c, o)
		if errors.Is(err, errNoSplit) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		results = append(results, r)
	}
	copyLine, err := measureCopy(avs, o)
	if err != nil {
		return fmt.Errorf("copy between accelerators: %w", err)
	}
	fmt.Fprintf(w, "ampbench over %s, n=%d mat=%d, %s\n", strings.Join(paths, " + "), o.sizes.N, o.sizes.Mat, time.Now().UTC().Format(time.RFC3339))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "kernel\tsize\t%s\tsplit (ms)\trate\tunit\tscaling\t\n", strings.Join(paths, " (ms)\t")+" (ms)")
	for _, r := range results {
		var single []string
		for _, s := range r.Single {
			single = append(single, fmt.Sprintf("%.3f", s*1e3))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%.1f\t%s\t%.2f\t\n", r.Kernel, r.Size, strings.Join(single, "\t"), r.Split*1e3, r.Rate, r.Unit, r.Scaling)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprint(w, copyLine)
	return err
}

// measureCopy times the copy of o.sizes.N float32 elements written on the first
// accelerator view to the second (arrayview's SynchronizeTo: device, host, device), the
// best of o.reps, and returns a line that reports it ("" with fewer than two views).
func measureCopy(avs []*accelerator.View, o options) (string, error) {
	if len(avs) < 2 {
		return "", nil
	}
	data := make([]float32, o.sizes.N)
	v := arrayview.MustNew(runtime.Ext(len(data)), data)
	defer v.Close()
	best := time.Duration(1 << 62)
	for i := range max(1, o.reps) + 1 {
		if err := algo.Fill(avs[0], v, float32(i)); err != nil {
			return "", err
		}
		if err := avs[0].Wait(); err != nil {
			return "", err
		}
		t0 := time.Now()
		if err := v.SynchronizeTo(avs[1]); err != nil {
			return "", err
		}
		if err := avs[1].Wait(); err != nil {
			return "", err
		}
		if i > 0 { // the first allocates the copy on avs[1]
			best = min(best, time.Since(t0))
		}
	}
	got, err := algo.Reduce(avs[1], v, algo.Max)
	if err != nil {
		return "", err
	}
	if want := float32(max(1, o.reps)); got != want {
		return "", fmt.Errorf("after the copy %s holds %v, want %v", avs[1].Accelerator().Path(), got, want)
	}
	bytes := 4 * float64(len(data))
	return fmt.Sprintf("copy %s -> %s of %d bytes through the host: %.3f ms, %.1f GB/s\n",
		avs[0].Accelerator().Path(), avs[1].Accelerator().Path(), int(bytes), best.Seconds()*1e3, bytes/best.Seconds()/1e9), nil
}

var errNoSplit = errors.New("the kernel does not split over accelerators")

// measureSplit times c on each view alone and on all of them (see runSplit).
func measureSplit(progress io.Writer, avs []*accelerator.View, c benchCase, o options) (splitResult, error) {
	inst, err := c.setup(avs[0], o.sizes)
	if err != nil {
		return splitResult{}, err
	}
	defer inst.cleanup()
	if inst.runOn == nil {
		return splitResult{}, errNoSplit
	}
	r := splitResult{Kernel: c.name, Size: inst.size, Unit: inst.unit}
	best := 0.0
	for _, av := range avs {
		fmt.Fprintf(progress, "%s on %s alone ...\n", c.name, av.Accelerator().Path())
		d, err := timeOn(inst, []*accelerator.View{av}, o)
		if err != nil {
			return r, err
		}
		r.Single = append(r.Single, d)
		if best == 0 || d < best {
			best = d
		}
	}
	fmt.Fprintf(progress, "%s over %d accelerators ...\n", c.name, len(avs))
	if r.Split, err = timeOn(inst, avs, o); err != nil {
		return r, err
	}
	r.Scaling, r.Rate = best/r.Split, inst.work/r.Split/1e9
	return r, nil
}

// timeOn runs inst over avs once and checks the result, warms up (long enough for the
// split's throughput measurements to settle), then returns the best of o.reps timed runs,
// each waiting for every view.
func timeOn(inst *instance, avs []*accelerator.View, o options) (float64, error) {
	call := func() error {
		if err := inst.runOn(avs); err != nil {
			return err
		}
		for _, av := range avs {
			if err := av.Wait(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := call(); err != nil {
		return 0, err
	}
	if err := inst.check(); err != nil {
		return 0, fmt.Errorf("result check failed: %w", err)
	}
	for t0, n := time.Now(), 0; time.Since(t0) < o.warm || n < 3; n++ {
		if err := call(); err != nil {
			return 0, err
		}
	}
	best := time.Duration(1 << 62)
	for range max(1, o.reps) {
		t0 := time.Now()
		if err := call(); err != nil {
			return 0, err
		}
		best = min(best, time.Since(t0))
	}
	return best.Seconds(), inst.check()
}
