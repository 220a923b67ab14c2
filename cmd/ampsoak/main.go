// Command ampsoak runs goamp under sustained load and fails when memory grows: many
// dispatches on long-lived views, many short-lived array views, and many short-lived
// accelerator views, from several goroutines at once, checking every result. At intervals
// it reports the Go heap, the process's resident memory and the accelerator's device
// memory (goamp's count and, where the driver reports it, VK_EXT_memory_budget's usage).
// After a warm-up it takes a baseline; at the end each figure must be within -bound of it
// (leaks grow with the work; caches and pools do not).
//
//	ampsoak -accelerator vulkan:0            # the defaults: 1,000,000 dispatches, 10,000 and 10,000 views
//	ampsoak -accelerator cpu -dispatches 100000
//
// `make soak` runs it on every accelerator present (-accelerator all).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	goruntime "runtime"

	"github.com/goamp/goamp/accelerator"
)

// config is what a soak does.
type config struct {
	path       string
	dispatches int // Adds on each goroutine's long-lived views, in all
	views      int // short-lived array views, in all
	accViews   int // short-lived accelerator views, in all
	goroutines int
	n          int    // elements per view
	bound      uint64 // allowed growth of each figure over the baseline, in bytes
	reports    int    // reports over the run
}

func main() {
	var c config
	flag.StringVar(&c.path, "accelerator", "", `accelerator path, or "all" (default: the default accelerator)`)
	flag.IntVar(&c.dispatches, "dispatches", 1_000_000, "dispatches in all")
	flag.IntVar(&c.views, "views", 10_000, "short-lived array views in all")
	flag.IntVar(&c.accViews, "accviews", 10_000, "short-lived accelerator views in all")
	flag.IntVar(&c.goroutines, "goroutines", 4, "goroutines working at once")
	flag.IntVar(&c.n, "n", 1024, "elements per view")
	bound := flag.Int("bound", 64, "allowed growth of heap, resident and device memory over the baseline, in MiB")
	flag.IntVar(&c.reports, "reports", 10, "memory reports over the run")
	flag.Parse()
	c.bound = uint64(*bound) << 20
	accs, err := pick(c.path)
	if err == nil {
		for _, a := range accs {
			if err = soak(os.Stdout, a, c); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ampsoak:", err)
		os.Exit(1)
	}
}

// figures are the memory figures a report prints and the bound applies to.
type figures struct {
	heap, rss, device, driver uint64
}

func measure(a *accelerator.Accelerator) figures {
	goruntime.GC()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	u := a.MemoryUsage()
	f := figures{heap: ms.HeapAlloc, rss: rss(), device: u.Allocated}
	for _, h := range u.Heaps {
		f.driver += h.Usage
	}
	return f
}

// rss is the process's resident memory from /proc/self/statm (0 where there is none).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(b))
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(fields[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

func mib(b uint64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

// soak runs the three kinds of work in c.reports rounds, reporting after each.
func soak(w io.Writer, a *accelerator.Accelerator, c config) error {
	var err error
	fmt.Fprintf(w, "ampsoak on %s: %d dispatches, %d array views, %d accelerator views, %d goroutines, bound %s MiB\n",
		a, c.dispatches, c.views, c.accViews, c.goroutines, mib(c.bound))
	fmt.Fprintf(w, "%6s %8s %10s %10s %12s %12s\n", "round", "seconds", "heap MiB", "RSS MiB", "device MiB", "driver MiB")
	workers := make([]*worker, c.goroutines)
	for i := range workers {
		if workers[i], err = newWorker(a, c, uint64(i)); err != nil {
			return err
		}
	}
	start := time.Now()
	var base figures
	for round := 1; round <= c.reports; round++ {
		if err := runRound(workers, c); err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
		f := measure(a)
		fmt.Fprintf(w, "%6d %8.1f %10s %10s %12s %12s\n", round, time.Since(start).Seconds(), mib(f.heap), mib(f.rss), mib(f.device), mib(f.driver))
		if round == 1 {
			base = f // after the warm-up round: pools, caches and pipelines exist
			continue
		}
		if err := within(base, f, c.bound); err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
	}
	for _, wk := range workers {
		if err := wk.close(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "ok: memory stayed within the bound")
	return nil
}

// within fails when a figure of f exceeds base's by more than bound.
func within(base, f figures, bound uint64) error {
	for _, x := range []struct {
		name    string
		was, is uint64
	}{{"Go heap", base.heap, f.heap}, {"resident memory", base.rss, f.rss},
		{"device memory (goamp's count)", base.device, f.device}, {"device memory (the driver's)", base.driver, f.driver}} {
		if x.is > x.was+bound {
			return fmt.Errorf("%s grew from %s to %s MiB, more than the bound of %s MiB", x.name, mib(x.was), mib(x.is), mib(bound))
		}
	}
	return nil
}

// pick returns the accelerators of path: "all", one path, or "" for the default.
func pick(path string) ([]*accelerator.Accelerator, error) {
	switch path {
	case "all":
		return accelerator.All(), nil
	case "":
		a, err := accelerator.Default()
		return []*accelerator.Accelerator{a}, err
	}
	a, err := accelerator.Get(path)
	return []*accelerator.Accelerator{a}, err
}

// runRound runs a c.reports-th of each kind of work on every worker at once.
func runRound(workers []*worker, c config) error {
	per := func(total int) int { return max(1, total/c.reports/len(workers)) }
	errs := make([]error, len(workers))
	var wg sync.WaitGroup
	for i, wk := range workers {
		wg.Go(func() { errs[i] = wk.round(per(c.dispatches), per(c.views), per(c.accViews)) })
	}
	wg.Wait()
	return errors.Join(errs...)
}
