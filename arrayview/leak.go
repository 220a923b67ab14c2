package arrayview

import (
	"fmt"
	"log/slog"
	"os"
	goruntime "runtime"
	"strings"
	"sync/atomic"
)

// EnvLeakReport is the environment variable that turns the leak report on at start-up
// ("1"); SetLeakReport turns it on and off from the program.
const EnvLeakReport = "GOAMP_LEAK_REPORT"

var leakReport atomic.Bool

func init() { leakReport.Store(os.Getenv(EnvLeakReport) == "1") }

// SetLeakReport turns the leak report on or off for the views made from then on. With it
// on, a view (or array) that the garbage collector reclaims without Close having been
// called is logged through log/slog (level Warn, message "goamp/arrayview: view
// garbage-collected without Close") with the view's element type and extent and where it
// was made. Go has no destructors: a view left unclosed keeps its source's device copies
// (the memory of every accelerator view it was used on) until that accelerator view
// closes. The report only tells; it never closes a view or frees memory itself. It costs a
// stack trace per view made, so it is for finding leaks, not for production.
func SetLeakReport(on bool) { leakReport.Store(on) }

// leakInfo is what the leak report knows of a view: no reference to the view itself, so
// that the view can be collected.
type leakInfo struct {
	closed atomic.Bool
	what   string
	pcs    []uintptr
}

// trackLeak registers v with the leak report when it is on.
func trackLeak[T any](v *View[T]) {
	if !leakReport.Load() {
		return
	}
	li := &leakInfo{what: v.String(), pcs: make([]uintptr, 32)}
	li.pcs = li.pcs[:goruntime.Callers(3, li.pcs)]
	v.leak = li
	goruntime.AddCleanup(v, reportLeak, li)
}

// reportLeak logs li's view when it was not closed.
func reportLeak(li *leakInfo) {
	if li.closed.Load() {
		return
	}
	slog.Warn("goamp/arrayview: view garbage-collected without Close", "view", li.what, "created", createdAt(li.pcs))
}

// createdAt formats the stack where a view was made, from the first frame outside this
// package, as "function (file:line)" entries separated by " <- ".
func createdAt(pcs []uintptr) string {
	frames := goruntime.CallersFrames(pcs)
	var parts []string
	for {
		f, more := frames.Next()
		inPackage := strings.HasPrefix(f.Function, "github.com/goamp/goamp/arrayview.") && !strings.HasSuffix(f.File, "_test.go")
		if !inPackage || len(parts) > 0 {
			parts = append(parts, fmt.Sprintf("%s (%s:%d)", f.Function, f.File, f.Line))
		}
		if !more || len(parts) == 8 {
			break
		}
	}
	return strings.Join(parts, " <- ")
}
