package accelerator

import (
	"context"
	"log/slog"
	"strings"
	"sync/atomic"

	"github.com/goamp/goamp/internal/vk"
)

// validationHandler is the function SetValidationHandler set (nil: logValidation).
var validationHandler atomic.Pointer[func(string)]

// SetValidationHandler sets the function that receives each message of the Khronos
// validation layer (GOAMP_VALIDATION=1) as the layer reports it: "error: ..." or
// "warning: ...". nil restores the default, which logs each message through slog.Default
// (at slog.LevelError for errors, slog.LevelWarn otherwise, message "goamp: validation
// layer", attribute "message"). Every message is also queued for ValidationMessages,
// whatever the handler.
//
// h runs on the thread of the Vulkan call the message is about, or on a driver thread,
// possibly inside that call: it must return quickly and must not call goamp.
func SetValidationHandler(h func(msg string)) {
	if h == nil {
		validationHandler.Store(nil)
		return
	}
	validationHandler.Store(&h)
}

// forwardValidation passes a message from internal/vk to the handler set, or logs it.
func forwardValidation(msg string) {
	if h := validationHandler.Load(); h != nil {
		(*h)(msg)
		return
	}
	logValidation(msg)
}

// logValidation is the default validation handler: msg through slog.Default.
func logValidation(msg string) {
	level := slog.LevelWarn
	if strings.HasPrefix(msg, "error: ") {
		level = slog.LevelError
	}
	slog.Default().Log(context.Background(), level, "goamp: validation layer", "message", msg)
}

func init() { vk.SetMessageHandler(forwardValidation) }
