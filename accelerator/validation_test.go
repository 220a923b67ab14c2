package accelerator

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/goamp/goamp/internal/vk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidationHandler: a message the validation
// layer reports (injected through internal/vk's debug-utils callback) reaches the handler
// SetValidationHandler set as it is reported, or slog.Default when none is set, and stays
// queued for ValidationMessages.
func TestValidationHandler(t *testing.T) {
	theRegistry()
	r := rand.New(rand.NewPCG(10, 13))
	tests := []struct {
		name    string
		isError bool
		custom  bool // a handler is set (else the slog default)
		prefix  string
		level   string
	}{
		{"error to the handler", true, true, "error: ", ""},
		{"warning to the handler", false, true, "warning: ", ""},
		{"error to slog", true, false, "error: ", "level=ERROR"},
		{"warning to slog", false, false, "warning: ", "level=WARN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := fmt.Sprintf("VUID-injected-%d: a test message %x", r.IntN(1e6), r.Uint64())
			var mu sync.Mutex
			var got []string
			var logged bytes.Buffer
			if tt.custom {
				SetValidationHandler(func(m string) {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, m)
				})
				defer SetValidationHandler(nil)
			} else {
				old := slog.Default()
				slog.SetDefault(slog.New(slog.NewTextHandler(&syncWriter{w: &logged, mu: &mu}, nil)))
				defer slog.SetDefault(old)
			}
			vk.InjectMessage(msg, tt.isError)
			mu.Lock()
			defer mu.Unlock()
			if tt.custom {
				assert.Equal(t, []string{tt.prefix + msg}, got, "the handler got the message as it was reported")
			} else {
				assert.Contains(t, logged.String(), tt.level)
				assert.Contains(t, logged.String(), "goamp: validation layer")
				assert.Contains(t, logged.String(), msg)
			}
			require.Contains(t, ValidationMessages(), tt.prefix+msg, "the message stays queued")
		})
	}
}

// syncWriter serializes writes to w under mu.
type syncWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

// Write implements io.Writer.
func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
