package arrayview_test

import (
	"context"
	"log/slog"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// leakHandler keeps the leak reports logged through slog.
type leakHandler struct {
	mu      sync.Mutex
	reports []string
}

func (h *leakHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *leakHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *leakHandler) WithGroup(string) slog.Handler            { return h }
func (h *leakHandler) Handle(_ context.Context, r slog.Record) error {
	if !strings.Contains(r.Message, "without Close") {
		return nil
	}
	var b strings.Builder
	r.Attrs(func(a slog.Attr) bool {
		b.WriteString(a.Key + "=" + a.Value.String() + " ")
		return true
	})
	h.mu.Lock()
	h.reports = append(h.reports, b.String())
	h.mu.Unlock()
	return nil
}

func (h *leakHandler) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.reports...)
}

//go:noinline
func leakyView() {
	v := arrayview.MustNew(runtime.Ext(7), make([]float32, 7))
	v.Set(runtime.Idx(3), 1)
}

//go:noinline
func closedView() {
	v := arrayview.MustNew(runtime.Ext(5), make([]int32, 5))
	v.Set(runtime.Idx(3), 1)
	_ = v.Close()
}

// TestLeakReport checks that with the report on, a view collected without Close is logged
// with where it was made, and a closed one is not.
func TestLeakReport(t *testing.T) {
	h := &leakHandler{}
	old := slog.Default()
	slog.SetDefault(slog.New(h))
	defer slog.SetDefault(old)
	arrayview.SetLeakReport(true)
	defer arrayview.SetLeakReport(false)
	leakyView()
	closedView()
	// Cleanups run after a collection, on a goroutine of their own: collect until the
	// report arrives (a bounded wait for an event, not a timing). Views other tests left
	// unclosed may be reported too: only those made here count.
	mine := func() (leaky, closed []string) {
		for _, r := range h.all() {
			if strings.Contains(r, "arrayview_test.leakyView") {
				leaky = append(leaky, r)
			}
			if strings.Contains(r, "arrayview_test.closedView") {
				closed = append(closed, r)
			}
		}
		return leaky, closed
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if leaky, _ := mine(); len(leaky) > 0 {
			break
		}
		goruntime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	goruntime.GC() // one more collection, in which the closed view would be reported
	time.Sleep(50 * time.Millisecond)
	leaky, closed := mine()
	if assert.Len(t, leaky, 1) {
		assert.Contains(t, leaky[0], "View[float32](7)")
		assert.Contains(t, leaky[0], "leak_test.go")
	}
	assert.Empty(t, closed, "a closed view was reported")
}
